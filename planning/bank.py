"""The example bank: requests with their plans, written for this project (prompts/examples/).

It is searched two ways: a TF-IDF index over word stems (fast, no model; the
default), or dense vectors from any LangChain `Embeddings` (all-MiniLM-L6-v2 via
langchain-huggingface) in a FAISS inner-product index.
"""

from __future__ import annotations

import json
import logging
import math
import re
from collections import Counter
from importlib import resources
from pathlib import Path
from typing import Any, Iterable

import numpy as np

from langchain_hugginggpt.planning.text import parse
from langchain_hugginggpt.core.schema import Plan

log = logging.getLogger(__name__)

_STOP = set("""a an the and or but if then than to of in on at for from by with into onto about as is are was were be been
being it its this that these those i me my we our you your he she they them their there here can could would will
should please also just so do does did have has had get got some any all each what which who how when where why
like want need help would me let make sure""".split())
_WORD = re.compile(r"@?[a-z][a-z0-9'-]*")


def stem(word: str) -> str:
    for suffix in ("ations", "ation", "ings", "ing", "ies", "ied", "ers", "er", "ed", "es", "s", "ly"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)] + ("y" if suffix in ("ies", "ied") else "")
    return word


def terms(text: str) -> list[str]:
    """Stems of the content words, plus adjacent pairs; quotes and files already masked."""
    words = [stem(w) for w in _WORD.findall(parse(text).masked.lower()) if w not in _STOP]
    return words + [f"{a}_{b}" for a, b in zip(words, words[1:])]


class TfidfIndex:
    def __init__(self, documents: Iterable[str]) -> None:
        docs = [Counter(terms(d)) for d in documents]
        df = Counter(t for doc in docs for t in doc)
        self.idf = {t: math.log((1 + len(docs)) / (1 + n)) + 1 for t, n in df.items()}
        self.size = len(docs)
        # term -> (document, weight): a query visits only the documents that share a term with it (the
        # planner's confidence looks up every request, and a scan of every document was ~7 ms of each plan)
        self.postings: dict[str, list[tuple[int, float]]] = {}
        for i, doc in enumerate(docs):
            for t, w in self._vector(doc).items():
                self.postings.setdefault(t, []).append((i, w))

    def _vector(self, counts: Counter) -> dict[str, float]:
        vec = {t: (1 + math.log(c)) * self.idf.get(t, 0.0) for t, c in counts.items()}
        norm = math.sqrt(sum(v * v for v in vec.values())) or 1.0
        return {t: v / norm for t, v in vec.items()}

    def search(self, query: str, k: int) -> list[tuple[int, float]]:
        scores = np.zeros(self.size)
        for t, w in self._vector(Counter(terms(query))).items():
            for i, v in self.postings.get(t, ()):
                scores[i] += w * v
        best = np.argsort(-scores, kind="stable")[:k]  # ties in document order
        return [(int(i), float(scores[i])) for i in best]


class DenseIndex:
    """Embeddings in a FAISS inner-product index (cosine: vectors are normalised)."""

    def __init__(self, documents: list[str], embeddings: Any) -> None:
        import faiss

        self.embeddings = embeddings
        vectors = self._normalise(embeddings.embed_documents(documents))
        self.index = faiss.IndexFlatIP(vectors.shape[1])
        self.index.add(vectors)

    @staticmethod
    def _normalise(vectors: Any) -> np.ndarray:
        array = np.asarray(vectors, dtype="float32")
        return array / np.maximum(np.linalg.norm(array, axis=-1, keepdims=True), 1e-12)

    def search(self, query: str, k: int) -> list[tuple[int, float]]:
        scores, ids = self.index.search(self._normalise([self.embeddings.embed_query(query)]), k)
        return [(int(i), float(s)) for i, s in zip(ids[0], scores[0]) if i >= 0]


def default_bank_files() -> list[Path]:
    folder = resources.files("langchain_hugginggpt.prompts").joinpath("examples")
    return sorted(Path(str(folder)).glob("*.jsonl"))


def load_examples(paths: Iterable[str | Path] | None = None) -> list[tuple[str, Plan]]:
    """(request, plan) pairs from JSONL files of {"request", "plan"} objects."""
    examples = []
    for path in paths if paths is not None else default_bank_files():
        for number, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
                examples.append((row["request"], Plan(tasks=row["plan"])))
            except (json.JSONDecodeError, KeyError, ValueError) as exc:
                raise ValueError(f"{path}:{number}: bad example: {exc}") from exc
    return examples


class ExampleBank:
    def __init__(self, examples: list[tuple[str, Plan]] | None = None, embeddings: Any = None) -> None:
        self.examples = examples if examples is not None else load_examples()
        requests = [r for r, _ in self.examples]
        self.index = DenseIndex(requests, embeddings) if embeddings is not None else TfidfIndex(requests)

    def __len__(self) -> int:
        return len(self.examples)

    def search(self, request: str, k: int = 4) -> list[tuple[str, Plan, float]]:
        if not self.examples:
            return []
        return [(*self.examples[i], score) for i, score in self.index.search(request, min(k, len(self.examples)))]

    def task_votes(self, request: str, k: int = 5) -> dict[str, float]:
        """How strongly the k nearest examples suggest each task (similarity-weighted)."""
        votes: dict[str, float] = {}
        for _, plan, score in self.search(request, k):
            for name in {t.task for t in plan.tasks}:
                votes[name] = votes.get(name, 0.0) + max(score, 0.0)
        return votes
