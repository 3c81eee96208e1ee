"""Top-K candidate models for a task: similarity to the request, plus popularity.

For a task of a plan, the candidates are the catalog records of that task that can run
here (or remotely, when asked), ranked by

    score = w_sim * cosine(description, context) + w_pop * popularity

where the context is the user request plus the task's arguments, and popularity is
log(downloads) and log(likes), each normalised by the task's maximum, averaged (0..1);
models without counts (built-in, user-added) get the task's median popularity.
The paper ranked by downloads alone; a request for Spanish financial news should surface
a finance or Spanish model even when a generic English one is more popular.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import numpy as np
from langchain_core.callbacks import CallbackManagerForRetrieverRun
from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings
from langchain_core.retrievers import BaseRetriever
from pydantic import BaseModel, ConfigDict, Field, PrivateAttr

from langchain_hugginggpt.core.schema import REFERENCE_RE, Candidate, Task
from langchain_hugginggpt.retriever.catalog import ModelCatalog
from langchain_hugginggpt.retriever.index import CatalogIndex
from langchain_hugginggpt.core.paths import data_dir
from langchain_hugginggpt.retriever.records import ModelRecord
from langchain_hugginggpt.tools.base import fit_rank, offer_stand_in
from langchain_hugginggpt.tools.registry import engine_class

REMOTE_BACKEND = "inference-api"


class ScoreWeights(BaseModel):
    """How much similarity and popularity count in a candidate's score."""

    similarity: float = 0.8
    popularity: float = 0.2


def task_context(request: str, task: Task) -> str:
    """What a task's candidates are matched against: the user request and the task's literal arguments."""
    args = [f"{slot}: {value}" for slot, value in task.args.items()
            if isinstance(value, str) and value.strip() and not REFERENCE_RE.fullmatch(value.strip())]
    return "\n".join([request.strip(), *args]).strip()


def truncate(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: max(limit - 1, 0)].rstrip() + "…"


def popularity(records: list[ModelRecord]) -> np.ndarray:
    """log(1+downloads) and log(1+likes), each over the maximum among `records`, averaged (0..1).

    A model added by the user or built in, with no counts at all, is unknown rather than
    unpopular: it gets the median of the others, so it is ranked by similarity on even terms.
    """
    downloads = np.log1p(np.asarray([max(r.downloads, 0) for r in records], dtype="float64"))
    likes = np.log1p(np.asarray([max(r.likes, 0) for r in records], dtype="float64"))
    parts = [v / v.max() for v in (downloads, likes) if len(v) and v.max() > 0]
    if not parts:
        return np.zeros(len(records))
    scores = sum(parts) / 2
    unknown = np.asarray([r.source in ("user", "builtin") and r.downloads <= 0 and r.likes <= 0 for r in records])
    if unknown.any() and not unknown.all():
        scores[unknown] = float(np.median(scores[~unknown]))
    return scores


class _State:
    """An index with the per-position arrays a query needs (so a query never loops over records in Python)."""

    def __init__(self, version: int, index: CatalogIndex, records: list[ModelRecord]) -> None:
        self.version, self.index = version, index
        self.by_key = {r.key: r for r in records}
        ordered = [self.by_key[key] for key in index.keys]
        self.available = np.asarray([r.available for r in ordered], dtype=bool)
        self.stand_in = np.asarray([r.stand_in for r in ordered], dtype=bool)
        self.remote = np.asarray([r.backend == REMOTE_BACKEND for r in ordered], dtype=bool)
        # Built-in engines that say which requests of their task they serve (`Engine.request_cues`).
        self.cued = {pos: cls for pos, r in enumerate(ordered) if r.source == "builtin"
                     and (cls := engine_class(r.task, r.id)) is not None and cls.request_cues}
        self.popularity = np.zeros(len(ordered))
        for start, end in index.ranges.values():
            self.popularity[start:end] = popularity(ordered[start:end])


class CandidateRetriever(BaseRetriever):
    """Retrieves candidate models from a `ModelCatalog` through a FAISS index.

    `candidates(task, context)` is what model selection uses. As a LangChain retriever,
    `invoke("query")` returns one Document per candidate (of `task`, or of every task when
    `task` is None), with the candidate's fields in `metadata`.
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    catalog: ModelCatalog = Field(default_factory=ModelCatalog)
    embeddings: Embeddings | None = Field(None, description="Any LangChain Embeddings; default all-MiniLM-L6-v2.")
    index_dir: Path | None = Field(None, description="Where the index persists; default data_dir()/index "
                                   "for a persisted catalog, nowhere for an in-memory one.")
    weights: ScoreWeights = Field(default_factory=ScoreWeights)
    k: int = 5
    max_description: int = Field(100, description="Candidate descriptions are cut to this many characters.")
    task: str | None = None
    available_only: bool = True
    include_remote: bool = Field(False, description="Also offer models that would run on the inference API.")
    rerank_pool: int = Field(100, description="How many of the most similar records are re-ranked with popularity.")

    _lock: threading.Lock = PrivateAttr(default_factory=threading.Lock)
    _state: _State | None = PrivateAttr(None)

    def get_embeddings(self) -> Embeddings:
        if self.embeddings is None:
            from langchain_hugginggpt.retriever.embeddings import default_embeddings

            self.embeddings = default_embeddings()
        return self.embeddings

    def index(self) -> CatalogIndex:
        return self._current().index

    def _current(self) -> _State:
        """The index for the catalog as it is now (built or loaded once per catalog change)."""
        with self._lock:
            if self._state is None or self._state.version != self.catalog.version:
                version = self.catalog.version
                records = self.catalog.records()
                directory = self.index_dir or (data_dir() / "index" if self.catalog.persist else None)
                self._state = _State(version, CatalogIndex.load_or_build(records, self.get_embeddings(), directory),
                                     records)
            return self._state

    def candidates(self, task: str | None, context: str, k: int | None = None, *, available_only: bool | None = None,
                   include_remote: bool | None = None) -> list[Candidate]:
        """The top `k` candidates for `task` (every task when None), best first.

        Stand-ins (heuristics labelled as such) are offered only when no real model that can run here and
        fits the request qualifies; engines that say which requests they serve rank by whether this one
        matches (as `RegistryCandidates` does).
        """
        k = self.k if k is None else k
        available_only = self.available_only if available_only is None else available_only
        include_remote = self.include_remote if include_remote is None else include_remote
        state = self._current()
        index, by_key, pop = state.index, state.by_key, state.popularity
        if task is None:
            lo, hi = 0, len(index)
        elif task in index.ranges:
            lo, hi = index.ranges[task]
        else:
            return []
        available, stand_in = state.available[lo:hi], state.stand_in[lo:hi]
        eligible = available & (include_remote | ~state.remote[lo:hi]) if available_only else np.ones(hi - lo, bool)
        fits = {pos: cls.fits(context) for pos, cls in state.cued.items() if lo <= pos < hi}
        unfit = np.zeros(hi - lo, bool)
        unfit[[pos - lo for pos, ok in fits.items() if not ok]] = True
        real_fit = eligible & available & ~stand_in & ~unfit
        for i in np.flatnonzero(stand_in):  # a stand-in competes with the real engines of its own task only
            own_lo, own_hi = next(r for r in index.ranges.values() if r[0] <= lo + i < r[1])
            eligible[i] &= offer_stand_in(fits.get(lo + i), bool(real_fit[own_lo - lo:own_hi - lo].any()))
        if not eligible.any() or k <= 0:
            return []
        query = np.asarray(self.get_embeddings().embed_query(context or task or ""), dtype="float32")
        restrict = None if eligible.all() else np.flatnonzero(eligible) + lo
        hits = index.search(query, max(self.rerank_pool, k), task=task, positions=restrict)
        scored = []
        for position, similarity in hits:
            record = by_key[index.keys[position]]
            score = self.weights.similarity * similarity + self.weights.popularity * float(pop[position])
            scored.append((score, similarity, float(pop[position]), record, position))
        scored.sort(key=lambda s: (fit_rank(fits.get(s[4])), s[3].stand_in, -s[0], -s[3].downloads, s[3].id))
        return [self._candidate(record, score, similarity, pop_)
                for score, similarity, pop_, record, _ in scored[:k]]

    def _candidate(self, record: ModelRecord, score: float, similarity: float, pop: float) -> Candidate:
        details: dict[str, Any] = {"similarity": round(similarity, 4), "popularity": round(pop, 4),
                                   "source": record.source}
        if record.unavailable_reason:
            details["unavailable_reason"] = record.unavailable_reason
        return Candidate(id=record.id, task=record.task, description=truncate(record.description, self.max_description),
                         downloads=record.downloads, likes=record.likes, backend=record.backend,
                         available=record.available, score=round(score, 4), stand_in=record.stand_in, details=details)

    def _get_relevant_documents(self, query: str, *, run_manager: CallbackManagerForRetrieverRun) -> list[Document]:
        return [Document(page_content=c.description, metadata=c.model_dump(exclude={"description"}))
                for c in self.candidates(self.task, query)]


class CatalogCandidates:
    """The agent's candidate source backed by the catalog (`HuggingGPT(candidate_source=CatalogCandidates())`)."""

    def __init__(self, retriever: CandidateRetriever | None = None, **options: Any) -> None:
        self.retriever = retriever or CandidateRetriever(**options)

    def candidates(self, task: Task, request: str, k: int) -> list[Candidate]:
        return self.retriever.candidates(task.task, task_context(request, task), k=k)

    def unavailable_reason(self, task: Task) -> str:
        records = self.retriever.catalog.records(task.task)
        if not records:
            return f"the model catalog has no model for {task.task}"
        shown = "; ".join(f"{r.id} ({r.unavailable_reason})" for r in records[:5])
        more = f" and {len(records) - 5} more" if len(records) > 5 else ""
        return f"no catalogued model for {task.task} can run here; e.g. {shown}{more}"
