"""A FAISS index over the catalog's record texts, persisted with a content fingerprint.

Records are stored grouped by task, so a search within one task is an exact inner-product
scan of one contiguous id range (`IDSelectorRange`); vectors are L2-normalised, so the inner
product is the cosine similarity. Catalogs of 50,000 records or more scan float16 codes first
and re-score the best candidates exactly (`IndexRefineFlat`), twice as fast at the same result. On disk: `catalog.faiss` plus `catalog.json` (fingerprint,
record keys, text hashes). A catalog change rebuilds the index but re-embeds only the texts
that changed.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from langchain_core.embeddings import Embeddings

from langchain_hugginggpt.retriever.embeddings import embeddings_name
from langchain_hugginggpt.retriever.records import ModelRecord

logger = logging.getLogger(__name__)

Key = tuple[str, str]
INDEX_FILE, META_FILE = "catalog.faiss", "catalog.json"
# One query is a single matrix-vector scan; extra OpenMP threads only add overhead (measured).
SEARCH_THREADS = 1
# From this many records, the first pass scans float16 copies of the vectors (half the memory
# traffic of float32: 3.5 ms instead of 7.5 ms for 100,000 here) and the best REFINE_FACTOR x n
# are re-scored exactly, so scores stay exact (recall@10 1.0 measured; see docs/benchmarks.md).
COMPACT_MIN_RECORDS = 50_000
REFINE_FACTOR = 4

def _faiss():
    try:
        import faiss
    except ImportError as exc:
        raise ImportError("the catalog index needs faiss: pip install 'langchain-hugginggpt[retrieval]'") from exc
    return faiss


def text_hash(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:16]


def fingerprint(keys: Sequence[Key], hashes: Sequence[str], embedding: str) -> str:
    h = hashlib.sha256(embedding.encode("utf-8"))
    for (task, model_id), th in zip(keys, hashes):
        h.update(f"\n{task}\t{model_id}\t{th}".encode())
    return h.hexdigest()


class CatalogIndex:
    """Record vectors in a flat inner-product FAISS index, with the task ranges to search in."""

    def __init__(self, index, keys: list[Key], hashes: list[str], embedding: str) -> None:
        self.index = index
        self.keys = keys
        self.hashes = hashes
        self.embedding = embedding
        self.fingerprint = fingerprint(keys, hashes, embedding)
        self.position = {key: i for i, key in enumerate(keys)}
        self.ranges: dict[str, tuple[int, int]] = {}
        for i, (task, _) in enumerate(keys):
            start, _end = self.ranges.get(task, (i, i))
            if _end != i:
                raise ValueError(f"records of task {task!r} are not contiguous in the index")
            self.ranges[task] = (start, i + 1)

    def __len__(self) -> int:
        return len(self.keys)

    @property
    def kind(self) -> str:
        return "refine" if self.index is not None and "Refine" in type(self.index).__name__ else "flat"

    # -- building ----------------------------------------------------------------------

    @classmethod
    def from_vectors(cls, keys: list[Key], vectors: np.ndarray, embedding: str, hashes: list[str] | None = None,
                     kind: str | None = None) -> CatalogIndex:
        """`kind`: "flat" (exact scan) or "refine" (float16 scan, exact re-scoring); by default
        "refine" from COMPACT_MIN_RECORDS records."""
        faiss = _faiss()
        vectors = np.ascontiguousarray(vectors, dtype="float32")
        faiss.normalize_L2(vectors)
        kind = kind or ("refine" if len(vectors) >= COMPACT_MIN_RECORDS else "flat")
        if kind == "refine":
            index = faiss.IndexRefineFlat(faiss.IndexScalarQuantizer(vectors.shape[1], faiss.ScalarQuantizer.QT_fp16,
                                                                    faiss.METRIC_INNER_PRODUCT))
            index.train(vectors)
        elif kind == "flat":
            index = faiss.IndexFlatIP(vectors.shape[1])
        else:
            raise ValueError(f"unknown index kind {kind!r}: use 'flat' or 'refine'")
        index.add(vectors)
        return cls(index, list(keys), hashes or [""] * len(keys), embedding)

    @classmethod
    def build(cls, records: Sequence[ModelRecord], embeddings: Embeddings,
              previous: CatalogIndex | None = None) -> CatalogIndex:
        """Embed the records' texts (reusing `previous` vectors whose text did not change)."""
        records = _grouped(records)
        name = embeddings_name(embeddings)
        texts = [r.embedding_text() for r in records]
        hashes = [text_hash(t) for t in texts]
        keys = [r.key for r in records]
        reusable: dict[str, int] = {}
        if previous is not None and previous.embedding == name:
            reusable = {h: i for i, h in enumerate(previous.hashes) if h}
        todo = [i for i, h in enumerate(hashes) if h not in reusable]
        logger.info("embedding %d of %d catalog texts with %s", len(todo), len(texts), name)
        fresh = np.asarray(embeddings.embed_documents([texts[i] for i in todo]), dtype="float32") if todo else None
        dim = fresh.shape[1] if fresh is not None else (previous.index.d if previous is not None else 0)
        if not records:
            return cls(None, [], [], name)
        vectors = np.empty((len(records), dim), dtype="float32")
        if fresh is not None:
            vectors[todo] = fresh
        kept = [i for i, h in enumerate(hashes) if h in reusable]
        if kept:
            vectors[kept] = previous.index.reconstruct_batch(np.asarray([reusable[hashes[i]] for i in kept]))
        return cls.from_vectors(keys, vectors, name, hashes)

    @classmethod
    def load_or_build(cls, records: Sequence[ModelRecord], embeddings: Embeddings, directory: str | Path | None
                      ) -> CatalogIndex:
        """The persisted index when it matches the catalog and embedding model, else a rebuilt (and saved) one."""
        records = _grouped(records)
        name = embeddings_name(embeddings)
        wanted = fingerprint([r.key for r in records], [text_hash(r.embedding_text()) for r in records], name)
        previous = cls.load(directory) if directory else None
        if previous is not None and previous.fingerprint == wanted:
            return previous
        index = cls.build(records, embeddings, previous)
        if directory:
            index.save(directory)
        return index

    # -- persistence -------------------------------------------------------------------

    def save(self, directory: str | Path) -> None:
        directory = Path(directory)
        directory.mkdir(parents=True, exist_ok=True)
        meta = {"fingerprint": self.fingerprint, "embedding": self.embedding,
                "keys": [list(k) for k in self.keys], "hashes": self.hashes}
        if self.index is not None:
            _faiss().write_index(self.index, str(directory / (INDEX_FILE + ".tmp")))
            (directory / (INDEX_FILE + ".tmp")).replace(directory / INDEX_FILE)
        (directory / (META_FILE + ".tmp")).write_text(json.dumps(meta), encoding="utf-8")
        (directory / (META_FILE + ".tmp")).replace(directory / META_FILE)

    @classmethod
    def load(cls, directory: str | Path) -> CatalogIndex | None:
        """The saved index, or None when there is none or it is unreadable (it is then rebuilt)."""
        directory = Path(directory)
        try:
            meta = json.loads((directory / META_FILE).read_text(encoding="utf-8"))
            keys = [tuple(k) for k in meta["keys"]]
            index = _faiss().read_index(str(directory / INDEX_FILE)) if keys else None
            if index is not None and index.ntotal != len(keys):
                raise ValueError(f"{index.ntotal} vectors for {len(keys)} records")
            loaded = cls(index, keys, list(meta["hashes"]), meta["embedding"])
        except FileNotFoundError:
            return None
        except Exception as exc:  # a corrupt cache is rebuilt, not fatal
            logger.warning("ignoring the unreadable catalog index in %s: %s", directory, exc)
            return None
        if loaded.fingerprint != meta.get("fingerprint"):
            logger.warning("ignoring the catalog index in %s: its fingerprint does not match its contents", directory)
            return None
        return loaded

    # -- searching ---------------------------------------------------------------------

    def search(self, query: np.ndarray, n: int, task: str | None = None,
               positions: Sequence[int] | None = None) -> list[tuple[int, float]]:
        """The `n` most similar records as (position, cosine similarity), best first; within `task`
        and/or among `positions` when given."""
        if self.index is None or n <= 0:
            return []
        faiss = _faiss()
        query = np.ascontiguousarray(np.asarray(query, dtype="float32").reshape(1, -1))
        faiss.normalize_L2(query)
        selector = None
        if positions is not None:
            if len(positions) == 0:
                return []
            selector = faiss.IDSelectorBatch(np.asarray(positions, dtype="int64"))
            n = min(n, len(positions))
        elif task is not None:
            if task not in self.ranges:
                return []
            start, end = self.ranges[task]
            selector = faiss.IDSelectorRange(start, end)
            n = min(n, end - start)
        faiss.omp_set_num_threads(SEARCH_THREADS)
        params = faiss.SearchParameters(sel=selector) if selector is not None else None
        if self.kind == "refine":
            params = faiss.IndexRefineSearchParameters(k_factor=REFINE_FACTOR, base_index_params=params)
        scores, ids = self.index.search(query, min(n, len(self.keys)), params=params)
        return [(int(i), float(s)) for i, s in zip(ids[0], scores[0]) if i >= 0]


def _grouped(records: Sequence[ModelRecord]) -> list[ModelRecord]:
    """Records with each task's records together, keeping their order otherwise."""
    order: dict[str, int] = {}
    for r in records:
        order.setdefault(r.task, len(order))
    return sorted(records, key=lambda r: order[r.task])
