"""TaskDetector: which tasks a request asks for, from every kind of evidence, with learned weights.

Evidence for each (request, task):
- the TF-IDF scorer and the MiniLM scorer (taskset.py): their probability for the whole request and the
  highest over its clauses, as log-odds;
- the rules (retrieval.py): which rule found the task (a cue, a bridge to text, the phrasebook, an
  implied result, a file no other step reads), the cue's weight, how often that cue's words meant that
  task in the corpus (its precision, learned), a cue the rules dropped, how many tasks the rules found;
- the request: how many clauses it has, whether it names a file the task can read;
- the task itself (a bias per task).

A logistic regression over these (the stacker) gives P(task is planned). It learns from out-of-fold
evidence: the scorers that describe a row were trained without that row's writers (cross-fitting), so the
stacker learns how far to trust each scorer on wording it has not seen, which is the case it meets in
use. The whole model is a set of arrays in one .npz file (no pickle), written by `hugginggpt train planner`.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Sequence

import numpy as np

from langchain_hugginggpt.planning.cues import Mention, find_mentions
from langchain_hugginggpt.planning.retrieval import RULE_SOURCES
from langchain_hugginggpt.planning.taskset import EmbeddingTaskSet, TfidfTaskSet
from langchain_hugginggpt.planning.text import ParsedRequest
from langchain_hugginggpt.core.tasks import TASKS

if TYPE_CHECKING:
    from langchain_hugginggpt.planning.retrieval import RetrievalPlanner

log = logging.getLogger(__name__)

MODELS = Path(__file__).parent / "models"
DETECTOR_MODEL = MODELS / "task_detector.npz"
FORMAT = 1
# Chosen by cross-validation across the corpus's writing rounds and the example bank (bench/planning_cv.py),
# never on hf_dev or the fresh set: the planner adds a task no rule found from THRESHOLD and drops a task the
# rules found under VETO.
DEFAULT_THRESHOLD = 0.7
DEFAULT_VETO = 0.1
# Under this probability for every task a request asks for no task ("Hello!" scores under 0.001, corpus
# requests, which all ask for one, nearly never do).
ASKS_NOTHING = 0.05
# The rules whose tasks the learned planner reads: the cues and the results a request refers to. Left out
# one at a time (bench/planning_cv.py --ablate), the bridges to text, the phrasebook and the unread-file rule
# each changed cross-round F1 by under 0.1: rules that do not measurably help on data they were not written
# from are retired.
LEARNED_RULE_SOURCES = ("cue", "implied")
FEATURES = ("tfidf_request", "tfidf_best_clause", "minilm_request", "minilm_best_clause", *RULE_SOURCES,
            "loose_cue", "cue_weight", "cue_precision", "rule_tasks", "log_spans", "reads_a_named_file",
            "needs_a_missing_file")


def cue_key(task: str, cue: str) -> str:
    return f"{task}|{' '.join(cue.lower().split())}"


def cue_precision(counts: dict[str, list[int]]) -> dict[str, float]:
    """Each cue's precision from (times it meant its task, times it fired), smoothed toward 1/2 so a cue
    seen once says little; `<task>|*` is the task's cues together (for a cue the corpus never fired)."""
    return {key: (hits + 1) / (total + 2) for key, (hits, total) in counts.items()}


def count_cues(found: Sequence[Mention], gold: set[str], counts: dict[str, list[int]]) -> None:
    """Add one row's cue mentions to the (hits, fired) counts, per cue and per task."""
    for m in found:
        if m.implied or m.source != "cue":
            continue
        for key in (cue_key(m.task, m.cue), f"{m.task}|*"):
            entry = counts.setdefault(key, [0, 0])
            entry[0] += m.task in gold
            entry[1] += 1


def _log_odds(p: np.ndarray) -> np.ndarray:
    p = np.clip(p, 1e-4, 1 - 1e-4)
    return np.log(p / (1 - p))


@dataclass
class Evidence:
    """What the detector saw in one request: its features (tasks x `FEATURES` + a task one-hot), the
    rules' mentions, every cue before the rules chose among them (`loose`), and each clause's scores
    (the last two place a task no rule found)."""

    features: np.ndarray
    found: list[Mention]
    loose: list[Mention]
    clause_scores: np.ndarray


def gather(parsed: ParsedRequest, rules: "RetrievalPlanner", tasks: Sequence[str], tfidf: np.ndarray,
           minilm: np.ndarray, precision: dict[str, float], found: list[Mention] | None = None) -> Evidence:
    """The evidence for every task in `tasks`; `tfidf`/`minilm`: span probabilities (rows: request, then
    clauses; columns: `tasks`); `precision`: each cue's precision (`cue_precision`)."""
    index = {t: i for i, t in enumerate(tasks)}
    found = rules._found(parsed) if found is None else found
    rule_tasks = min(len({m.task for m in found}), 4)
    flags = np.zeros((len(tasks), len(RULE_SOURCES) + 3), dtype=np.float32)
    for m in found:
        if m.task in index:
            i = index[m.task]
            flags[i, RULE_SOURCES.index(m.source)] = 1.0
            flags[i, -2] = max(flags[i, -2], m.weight)
            if m.source == "cue" and not m.implied:
                default = precision.get(f"{m.task}|*", 0.5)
                flags[i, -1] = max(flags[i, -1], precision.get(cue_key(m.task, m.cue), default))
    loose = find_mentions(parsed)
    for m in loose:
        if m.task in index:
            flags[index[m.task], len(RULE_SOURCES)] = 1.0
    kinds = {f.kind for f in parsed.files}
    files = np.zeros((len(tasks), 2), dtype=np.float32)
    for i, task in enumerate(tasks):
        spec = TASKS.get(task)
        needs = {spec.inputs[s] for s in spec.required} - {"text"} if spec else set()
        files[i] = (bool(needs & kinds), bool(needs) and not needs & kinds)
    n = len(tasks)
    features = np.hstack([
        _log_odds(tfidf[0])[:, None], _log_odds(tfidf.max(axis=0))[:, None],
        _log_odds(minilm[0])[:, None], _log_odds(minilm.max(axis=0))[:, None],
        flags, np.full((n, 1), rule_tasks, np.float32), np.full((n, 1), np.log(len(tfidf)), np.float32),
        files, np.eye(n, dtype=np.float32)]).astype(np.float32)
    return Evidence(features, found, loose, (tfidf[1:] + minilm[1:]) / 2)


class TaskDetector:
    """P(task | request) from the two learned scorers and the rules (module docstring)."""

    def __init__(self, tasks: Sequence[str], tfidf: TfidfTaskSet, minilm: EmbeddingTaskSet,
                 weights: np.ndarray, bias: float, threshold: float = DEFAULT_THRESHOLD,
                 precision: dict[str, float] | None = None, veto: float = DEFAULT_VETO,
                 rule_sources: Sequence[str] = RULE_SOURCES) -> None:
        if list(tfidf.tasks) != list(tasks) or list(minilm.tasks) != list(tasks):
            raise ValueError("the scorers were trained on other task lists than the detector's")
        self.tasks, self.tfidf, self.minilm = list(tasks), tfidf, minilm
        self.weights, self.bias, self.threshold = np.asarray(weights, np.float32), float(bias), threshold
        self.precision = dict(precision or {})
        self.veto = veto
        self.rule_sources = tuple(rule_sources)  # the rules it was trained beside: a planner must use the same

    def evidence(self, parsed: ParsedRequest, rules: "RetrievalPlanner") -> Evidence:
        return gather(parsed, rules, self.tasks, self.tfidf.span_probabilities(parsed),
                      self.minilm.span_probabilities(parsed), self.precision)

    def probabilities(self, evidence: Evidence) -> dict[str, float]:
        scores = 1.0 / (1.0 + np.exp(-(evidence.features @ self.weights + self.bias)))
        return dict(zip(self.tasks, scores.tolist()))

    def choose(self, scores: dict[str, float], allowed: Sequence[str] | None = None,
               threshold: float | None = None) -> list[str]:
        """The tasks at or above the threshold, best first; else the best one, unless even that one is
        under `ASKS_NOTHING` (a greeting, a thank-you, a question for the assistant: no task at all)."""
        threshold = self.threshold if threshold is None else threshold
        ranked = sorted((t for t in scores if allowed is None or t in allowed), key=lambda t: -scores[t])
        return [t for t in ranked if scores[t] >= threshold] or [t for t in ranked[:1] if scores[t] >= ASKS_NOTHING]

    # ------------------------------------------------------------------ storage

    def save(self, path: str | Path = DETECTOR_MODEL) -> Path:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        meta = {"format": FORMAT, "tasks": self.tasks, "features": list(FEATURES), "threshold": self.threshold,
                "veto": self.veto, "rule_sources": list(self.rule_sources)}
        with open(path, "wb") as f:  # a file object: np.savez would add ".npz" to a path without it
            np.savez_compressed(f, meta=np.array(json.dumps(meta)), stack_weights=self.weights,
                                stack_bias=np.array([self.bias], np.float32),
                                cue_keys=np.array(sorted(self.precision), dtype=str),
                                cue_precision=np.array([self.precision[k] for k in sorted(self.precision)], np.float32),
                                **self.tfidf.arrays("tfidf_"), **self.minilm.arrays("minilm_"))
        return path

    @classmethod
    def load(cls, path: str | Path = DETECTOR_MODEL, embed: Callable | None = None) -> "TaskDetector":
        """A saved detector: arrays only (`allow_pickle=False`), so loading runs no code from the file."""
        path = Path(path)
        if not path.is_file():
            raise FileNotFoundError(f"no trained task detector at {path}: run `hugginggpt train planner`")
        with np.load(path, allow_pickle=False) as arrays:
            meta = json.loads(str(arrays["meta"]))
            if meta.get("format") != FORMAT or meta.get("features") != list(FEATURES):
                raise ValueError(f"{path} is a task detector of another format (its features: "
                                 f"{meta.get('features')}): retrain it with `hugginggpt train planner`")
            tasks = meta["tasks"]
            return cls(tasks, TfidfTaskSet.from_arrays(arrays, "tfidf_", tasks),
                       EmbeddingTaskSet.from_arrays(arrays, "minilm_", tasks, embed),
                       arrays["stack_weights"], float(arrays["stack_bias"][0]), meta["threshold"],
                       dict(zip(arrays["cue_keys"].tolist(), arrays["cue_precision"].tolist())), meta["veto"],
                       meta.get("rule_sources", RULE_SOURCES))
