"""A phrasebook: many ways a user asks for each task, generated from our own templates.

Cues (lexicon.py) are precise but miss indirect wording ("I want to understand how far
things are in the photo"). The phrasebook covers that: for each task a few verbs or goals
and the things they act on, expanded into short clauses, indexed with TF-IDF. A clause of a
request that no cue claimed is matched against it (`PhraseClassifier.classify`); a close
enough match names the task. Every phrase was written from the task definitions in
core/tasks.py (each task's phrases are in core/task_cues.py), not taken from any benchmark.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from functools import lru_cache

from langchain_hugginggpt.core.tasks import TASKS
from langchain_hugginggpt.planning.bank import terms

# task -> list of (templates, objects): each template's "{}" takes each object (each task's
# `planning.phrases`, core/task_cues.py).
PHRASES: dict[str, list[tuple[list[str], list[str]]]] = {
    name: spec.planning.phrases for name, spec in TASKS.items() if spec.planning.phrases}


@lru_cache(maxsize=1)
def phrases() -> list[tuple[str, str]]:
    """Every (clause, task) pair the templates expand to."""
    return [(template.format(obj), task) for task, groups in PHRASES.items() for templates, objects in groups
            for template, obj in itertools.product(templates, objects)]


class PhraseClassifier:
    """Nearest phrases by TF-IDF cosine over word stems and stem pairs; tasks voted by the top k."""

    def __init__(self, tasks: list[str] | None = None, k: int = 5) -> None:
        pairs = [(p, t) for p, t in phrases() if tasks is None or t in tasks]
        self.tasks = [t for _, t in pairs]
        docs = [Counter(terms(p)) for p, _ in pairs]
        df = Counter(term for doc in docs for term in doc)
        self.idf = {term: math.log((1 + len(docs)) / (1 + n)) + 1 for term, n in df.items()}
        self.vectors = [self._vector(doc) for doc in docs]
        self.postings: dict[str, list[int]] = {}
        for i, vec in enumerate(self.vectors):
            for term in vec:
                self.postings.setdefault(term, []).append(i)
        self.k = k

    def _vector(self, counts: Counter) -> dict[str, float]:
        vec = {t: (1 + math.log(c)) * self.idf[t] for t, c in counts.items() if t in self.idf}
        norm = math.sqrt(sum(v * v for v in vec.values())) or 1.0
        return {t: v / norm for t, v in vec.items()}

    def classify(self, clause: str) -> list[tuple[str, float]]:
        """Tasks with their mean similarity over the k nearest phrases, best first."""
        query = self._vector(Counter(terms(clause)))
        scores: dict[int, float] = {}
        for term, weight in query.items():
            for i in self.postings.get(term, ()):
                scores[i] = scores.get(i, 0.0) + weight * self.vectors[i][term]
        top = sorted(scores.items(), key=lambda s: -s[1])[: self.k]
        votes: dict[str, float] = {}
        for i, s in top:
            votes[self.tasks[i]] = votes.get(self.tasks[i], 0.0) + s / self.k
        return sorted(votes.items(), key=lambda v: -v[1])
