"""Which tasks a request asks for: a multi-label classifier learned from the back-instruct corpus.

TF-IDF over the request's words and character n-grams (quotes and file names masked to their
kind, so "translate 'a photo of a dog'" reads as a translation of some text) feeds one logistic
regression per task (scikit-learn, one-vs-rest). A task is chosen when its probability passes the
threshold; a request always gets its most likely task. The model is a scikit-learn pipeline
saved with joblib (agent/planners/models/taskset.joblib, written by `hugginggpt train planner`).
"""

from __future__ import annotations

import logging
import re
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from langchain_hugginggpt.agent.planners.text import ParsedRequest, parse

log = logging.getLogger(__name__)

MODELS = Path(__file__).parent / "models"
TASKSET_MODEL = MODELS / "taskset.joblib"
_QUOTE = re.compile(r"@Q\d+\s*")
_FILE = re.compile(r"@(IMG|AUD|VID|TXT)\s*")


def model_text(parsed: ParsedRequest | str) -> str:
    """What the classifier reads: the masked request (or masked span), each quote as `@Q` and each
    file as its kind."""
    masked = parsed if isinstance(parsed, str) else parsed.masked
    return _FILE.sub(lambda m: f" @{m.group(1)} ", _QUOTE.sub(" @Q ", masked)).strip()


def _retrained_for(version: str, shipped: str) -> Path:
    """The task-set model retrained for this scikit-learn release, in the cache folder (built once)."""
    from langchain_hugginggpt.agent.planners.train import train_planner
    from langchain_hugginggpt.tools.paths import cache_dir

    cached = cache_dir() / "planner" / f"taskset-sklearn-{version}.joblib"
    if not cached.is_file():
        log.warning("the shipped planner model was saved by scikit-learn %s, this is %s: retraining it once from "
                    "the shipped corpus into %s", shipped, version, cached)
        train_planner(out=cached)
    return cached


def _require_sklearn() -> None:
    try:
        import sklearn  # noqa: F401
    except ImportError as exc:
        raise ImportError("the learned planner needs scikit-learn: pip install 'langchain-hugginggpt[planner]'") from exc


class TaskSetClassifier:
    """P(task | request) for every task the corpus has, and the set of tasks to plan."""

    def __init__(self, pipeline: Any, tasks: Sequence[str], threshold: float = 0.3) -> None:
        self.pipeline, self.tasks, self.threshold = pipeline, list(tasks), threshold
        # The 23 regressions as one matrix: one product per request instead of 23 estimator calls.
        head = pipeline[-1]
        if all(hasattr(e, "coef_") for e in head.estimators_):
            self._weights = np.vstack([e.coef_ for e in head.estimators_]).T.astype(np.float32)
            self._bias = np.concatenate([e.intercept_ for e in head.estimators_]).astype(np.float32)
        else:  # a task with one label value in training has a constant predictor, no weights
            self._weights = None

    @classmethod
    def fit(cls, texts: Sequence[str], labels: Sequence[Sequence[str]], c: float = 10.0,
            threshold: float = 0.3) -> "TaskSetClassifier":
        """Train on model texts (see `model_text`) and the task names of each request's plan."""
        _require_sklearn()
        from sklearn.feature_extraction.text import TfidfVectorizer
        from sklearn.linear_model import LogisticRegression
        from sklearn.multiclass import OneVsRestClassifier
        from sklearn.pipeline import make_pipeline, make_union
        from sklearn.preprocessing import MultiLabelBinarizer

        if not texts or len(texts) != len(labels):
            raise ValueError(f"need as many label sets as texts (got {len(texts)} texts, {len(labels)} label sets)")
        binarizer = MultiLabelBinarizer()
        targets = binarizer.fit_transform(labels)
        features = make_union(
            TfidfVectorizer(ngram_range=(1, 2), sublinear_tf=True, token_pattern=r"[@\w][\w'-]*", dtype=np.float32),
            TfidfVectorizer(analyzer="char_wb", ngram_range=(2, 5), sublinear_tf=True, min_df=2, dtype=np.float32))
        pipeline = make_pipeline(features, OneVsRestClassifier(LogisticRegression(C=c, max_iter=2000)))
        pipeline.fit(list(texts), targets)
        return cls(pipeline, binarizer.classes_, threshold)

    @classmethod
    def load(cls, path: str | Path = TASKSET_MODEL) -> "TaskSetClassifier":
        """The saved model. A pickle is only safe to read with the scikit-learn release that wrote it, so
        the shipped model, saved by another release, is retrained once from the shipped corpus into the
        cache folder instead (seconds) and read from there."""
        _require_sklearn()
        import joblib
        import sklearn

        path = Path(path)
        if not path.is_file():
            raise FileNotFoundError(f"no trained task-set model at {path}: run `hugginggpt train planner`")
        saved = joblib.load(path)
        if saved.get("sklearn") not in (None, sklearn.__version__) and path == TASKSET_MODEL:
            return cls.load(_retrained_for(sklearn.__version__, saved["sklearn"]))
        return cls(saved["pipeline"], saved["tasks"], saved["threshold"])

    def save(self, path: str | Path = TASKSET_MODEL) -> Path:
        import joblib

        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        import sklearn

        joblib.dump({"pipeline": self.pipeline, "tasks": self.tasks, "threshold": self.threshold,
                     "sklearn": sklearn.__version__}, path, compress=3)
        return path

    def probabilities(self, texts: Sequence[str]) -> np.ndarray:
        """One row per text, one column per task (`self.tasks`)."""
        if self._weights is None:
            return self.pipeline.predict_proba(list(texts))
        features = self.pipeline[0].transform(list(texts))
        return 1.0 / (1.0 + np.exp(-(features @ self._weights + self._bias)))

    def scores(self, request: str | ParsedRequest) -> dict[str, float]:
        parsed = parse(request) if isinstance(request, str) else request
        return dict(zip(self.tasks, self.probabilities([model_text(parsed)])[0].tolist()))

    def choose(self, scores: dict[str, float], allowed: Sequence[str] | None = None,
               threshold: float | None = None) -> list[str]:
        """The tasks at or above the threshold, best first; at least the best one."""
        threshold = self.threshold if threshold is None else threshold
        ranked = sorted((t for t in scores if allowed is None or t in allowed), key=lambda t: -scores[t])
        return [t for t in ranked if scores[t] >= threshold] or ranked[:1]
