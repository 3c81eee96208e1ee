"""Which tasks a text asks for, learned from the back-instruct corpus: two scorers of P(task | text).

- `TfidfTaskSet`: TF-IDF over words 1-2 and characters 2-5 (quotes and files masked to their kind, so
  "translate 'a photo of a dog'" reads as a translation of some text), one logistic regression per task.
- `EmbeddingTaskSet`: the packaged all-MiniLM-L6-v2 sentence embedding (its int8 quantization, for speed:
  `retriever.minilm_onnx`), one logistic regression per task; it carries over to paraphrases the corpus never
  used ("how far the shelf is from the camera").

Both score a whole request and each of its clauses (`span_probabilities`): a long, chatty request
dilutes a task's words in one vector, while the clause that asks for it still scores high.

Each is stored as plain arrays (vocabulary, idf, weights) rather than a pickle: a model file is only data,
loads and plans without scikit-learn (which only trains), and loading it runs no code. `TaskDetector`
(detector.py) combines the two with the rules' evidence.
"""

from __future__ import annotations

import functools
import logging
import re
from typing import Any, Callable, Sequence

import numpy as np

from langchain_hugginggpt.planning.text import ParsedRequest

log = logging.getLogger(__name__)

_QUOTE = re.compile(r"@Q\d+\s*")
_FILE = re.compile(r"@(IMG|AUD|VID|TXT)\s*")
_WORDS = dict(ngram_range=(1, 2), sublinear_tf=True, token_pattern=r"[@\w][\w'-]*", dtype=np.float32)
_CHARS = dict(analyzer="char_wb", ngram_range=(2, 5), sublinear_tf=True, dtype=np.float32)


def model_text(parsed: ParsedRequest | str) -> str:
    """What the scorers read: the masked request (or masked span), each quote as `@Q` and each
    file as its kind."""
    masked = parsed if isinstance(parsed, str) else parsed.masked
    return _FILE.sub(lambda m: f" @{m.group(1)} ", _QUOTE.sub(" @Q ", masked)).strip()


def span_texts(parsed: ParsedRequest) -> list[str]:
    """The whole request, then each clause, as the scorers read them."""
    return [model_text(parsed)] + [model_text(c.text) for c in parsed.clauses]


def require_sklearn() -> None:
    try:
        import sklearn  # noqa: F401
    except ImportError as exc:
        raise ImportError("the learned planner needs scikit-learn: pip install 'langchain-hugginggpt[planner]'") from exc


def _one_vs_rest(features: Any, labels: Sequence[Sequence[str]], c: float,
                 sample_weight: Sequence[float] | None = None) -> tuple[list[str], np.ndarray, np.ndarray]:
    """One logistic regression per task, as a weight matrix (features x tasks) and a bias per task;
    `sample_weight`: how much each row counts (default: all alike)."""
    from sklearn.linear_model import LogisticRegression
    from sklearn.preprocessing import MultiLabelBinarizer

    if features.shape[0] == 0 or features.shape[0] != len(labels):
        raise ValueError(f"need as many label sets as texts (got {features.shape[0]} texts, {len(labels)} label sets)")
    binarizer = MultiLabelBinarizer()
    targets = binarizer.fit_transform(labels)
    weights = np.zeros((features.shape[1], targets.shape[1]), dtype=np.float32)
    bias = np.zeros(targets.shape[1], dtype=np.float32)
    for j in range(targets.shape[1]):
        column = targets[:, j]
        if column.min() == column.max():  # a task on every row or none: a constant, no weights
            bias[j] = 20.0 if column[0] else -20.0
            continue
        fitted = LogisticRegression(C=c, max_iter=2000).fit(features, column, sample_weight=sample_weight)
        weights[:, j], bias[j] = fitted.coef_[0], fitted.intercept_[0]
    return [str(t) for t in binarizer.classes_], weights, bias


@functools.lru_cache(maxsize=1)
def _encoder() -> Callable[[list[str]], np.ndarray]:
    try:
        from langchain_hugginggpt.retriever.minilm_onnx import MiniLMOnnx

        return MiniLMOnnx(int8=True).encode
    except Exception as exc:  # no onnxruntime, or its export failed: the float model, as the retriever does
        from langchain_hugginggpt.retriever.embeddings import default_embeddings

        log.warning("the int8 MiniLM is unavailable (%s): planning with the float model, whose vectors the detector "
                    "was not trained on (within a cosine of about 0.99 of them)", exc)
        embeddings = default_embeddings()
        return lambda texts: np.asarray(embeddings.embed_documents(texts), dtype=np.float32)


def minilm_vectors(texts: Sequence[str]) -> np.ndarray:
    """The packaged all-MiniLM-L6-v2 embedding of each text with int8 weights (unit vectors, float32):
    the vectors the detector trains and plans on, in about 0.5-0.7x the float model's time (docs/benchmarks.md)."""
    return _encoder()(list(texts))


def _sigmoid(z: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-z))


class TaskScorer:
    """P(task | text) for every task in `tasks`, for a whole request and for its clauses."""

    tasks: list[str]

    def probabilities(self, texts: Sequence[str]) -> np.ndarray:
        """One row per text, one column per task."""
        raise NotImplementedError

    def span_probabilities(self, parsed: ParsedRequest) -> np.ndarray:
        """Rows: the whole request, then each clause (`span_texts`)."""
        return self.probabilities(span_texts(parsed))


class FittedTfidf:
    """A fitted scikit-learn `TfidfVectorizer`'s transform (the options above, its vocabulary and idf) in
    plain Python and numpy: importing scikit-learn takes about a second, most of the time a planner takes to
    load, and planning needs only this much of it. Training still fits with scikit-learn;
    tests/planning/test_learned_planner.py checks this against scikit-learn's own transform."""

    _SPACES = re.compile(r"\s\s+")

    def __init__(self, options: dict[str, Any], vocabulary: dict[str, int], idf: np.ndarray) -> None:
        # what `row` implements: lower-cased words or padded characters, sublinear tf, l2 norm
        if not options.get("sublinear_tf") or options.get("norm", "l2") != "l2" or not options.get("lowercase", True):
            raise ValueError(f"FittedTfidf applies sublinear, l2-normed, lower-cased TF-IDF only, not {options}")
        self.vocabulary, self.idf = vocabulary, np.asarray(idf, dtype=np.float64)
        self.low, self.high = options["ngram_range"]
        self.chars = options.get("analyzer") == "char_wb"
        self.token = re.compile(options.get("token_pattern", r"(?u)\b\w\w+\b"))

    def terms(self, text: str) -> list[str]:
        """The n-grams scikit-learn's analyzer makes of `text` (lower-cased)."""
        text = text.lower()
        if self.chars:  # padded character n-grams inside each word; a word shorter than n counts once
            out = []
            for word in self._SPACES.sub(" ", text).split():
                word = f" {word} "
                for n in range(self.low, self.high + 1):
                    out += [word[i:i + n] for i in range(max(len(word) - n, 0) + 1)]
                    if len(word) <= n:
                        break
            return out
        tokens = self.token.findall(text)
        return [" ".join(tokens[i:i + n]) for n in range(self.low, self.high + 1) for i in range(len(tokens) - n + 1)]

    def row(self, text: str) -> tuple[np.ndarray, np.ndarray]:
        """(feature indices, values) of one text: sublinear tf times idf, unit length."""
        counts: dict[int, int] = {}
        for term in self.terms(text):
            if (k := self.vocabulary.get(term)) is not None:
                counts[k] = counts.get(k, 0) + 1
        index = np.fromiter(counts, dtype=np.int64, count=len(counts))
        values = (1.0 + np.log(np.fromiter(counts.values(), dtype=np.float64, count=len(counts)))) * self.idf[index]
        norm = np.sqrt(values @ values)
        return index, (values / norm if norm else values)


class TfidfTaskSet(TaskScorer):
    """TF-IDF (words and characters) + one logistic regression per task."""

    def __init__(self, tasks: Sequence[str], vocabularies: Sequence[dict[str, int]], idfs: Sequence[np.ndarray],
                 weights: np.ndarray, bias: np.ndarray) -> None:
        self.tasks, self.weights, self.bias = list(tasks), weights.astype(np.float32), bias.astype(np.float32)
        self.vectorizers = [FittedTfidf(o, v, i) for o, v, i in zip((_WORDS, _CHARS), vocabularies, idfs)]

    @classmethod
    def fit(cls, texts: Sequence[str], labels: Sequence[Sequence[str]], c: float = 10.0,
            sample_weight: Sequence[float] | None = None) -> "TfidfTaskSet":
        """Train on model texts (see `model_text`) and the task names of each request's plan."""
        require_sklearn()
        from scipy.sparse import hstack
        from sklearn.feature_extraction.text import TfidfVectorizer

        if not texts or len(texts) != len(labels):
            raise ValueError(f"need as many label sets as texts (got {len(texts)} texts, {len(labels)} label sets)")
        vectorizers = [TfidfVectorizer(**_WORDS), TfidfVectorizer(**_CHARS, min_df=2)]
        features = hstack([v.fit_transform(list(texts)) for v in vectorizers]).tocsr()
        tasks, weights, bias = _one_vs_rest(features, labels, c, sample_weight)
        return cls(tasks, [v.vocabulary_ for v in vectorizers], [v.idf_ for v in vectorizers], weights, bias)

    def probabilities(self, texts: Sequence[str]) -> np.ndarray:
        z = np.tile(self.bias.astype(np.float64), (len(texts), 1))
        offset = 0
        for vectorizer in self.vectorizers:
            for r, text in enumerate(texts):
                index, values = vectorizer.row(text)
                z[r] += values @ self.weights[offset + index]
            offset += len(vectorizer.vocabulary)
        return _sigmoid(z).astype(np.float32)

    def arrays(self, prefix: str) -> dict[str, np.ndarray]:
        """The model as named arrays (see `from_arrays`)."""
        out = {f"{prefix}weights": self.weights, f"{prefix}bias": self.bias}
        for name, vectorizer in zip(("words", "chars"), self.vectorizers):
            vocabulary = sorted(vectorizer.vocabulary, key=vectorizer.vocabulary.get)
            out[f"{prefix}{name}_vocabulary"] = np.array(vocabulary, dtype=str)
            out[f"{prefix}{name}_idf"] = np.asarray(vectorizer.idf, dtype=np.float32)
        return out

    @classmethod
    def from_arrays(cls, arrays: Any, prefix: str, tasks: Sequence[str]) -> "TfidfTaskSet":
        vocabularies = [{term: i for i, term in enumerate(arrays[f"{prefix}{name}_vocabulary"].tolist())}
                        for name in ("words", "chars")]
        idfs = [arrays[f"{prefix}{name}_idf"] for name in ("words", "chars")]
        return cls(tasks, vocabularies, idfs, arrays[f"{prefix}weights"], arrays[f"{prefix}bias"])


class EmbeddingTaskSet(TaskScorer):
    """all-MiniLM-L6-v2 sentence embeddings (`minilm_vectors`) + one logistic regression per task.
    `embed`: texts -> unit vectors (default: `minilm_vectors`)."""

    def __init__(self, tasks: Sequence[str], weights: np.ndarray, bias: np.ndarray, embed=None) -> None:
        self.tasks, self.weights, self.bias = list(tasks), weights.astype(np.float32), bias.astype(np.float32)
        self._embed = embed or minilm_vectors

    @classmethod
    def fit(cls, vectors: np.ndarray, labels: Sequence[Sequence[str]], c: float = 10.0, embed=None,
            sample_weight: Sequence[float] | None = None) -> "EmbeddingTaskSet":
        """Train on the embeddings of model texts (one row per text) and each request's task names."""
        require_sklearn()
        tasks, weights, bias = _one_vs_rest(np.asarray(vectors, dtype=np.float32), labels, c, sample_weight)
        return cls(tasks, weights, bias, embed)

    def probabilities(self, texts: Sequence[str]) -> np.ndarray:
        return self.from_vectors(self._embed(texts))

    def from_vectors(self, vectors: np.ndarray) -> np.ndarray:
        return _sigmoid(np.asarray(vectors, dtype=np.float32) @ self.weights + self.bias)

    def arrays(self, prefix: str) -> dict[str, np.ndarray]:
        return {f"{prefix}weights": self.weights, f"{prefix}bias": self.bias}

    @classmethod
    def from_arrays(cls, arrays: Any, prefix: str, tasks: Sequence[str], embed=None) -> "EmbeddingTaskSet":
        return cls(tasks, arrays[f"{prefix}weights"], arrays[f"{prefix}bias"], embed)
