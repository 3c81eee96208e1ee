"""all-MiniLM-L6-v2 through onnxruntime as a LangChain `Embeddings`: the same weights and the same vectors
as the default `HuggingFaceEmbeddings`, about 2.5x faster per query on a CPU.

The encoder itself (export, session, batching) is `minilm_onnx.MiniLMOnnx`, which the planner uses without
LangChain. Because the vectors match the torch model's (cosine 1.0 to 6 decimals, checked by the tests),
both share one FAISS index: they report the same model name.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from langchain_core.embeddings import Embeddings

from langchain_hugginggpt.retriever.minilm_onnx import (DEFAULT_EMBEDDING_NAME, EMBEDDING_SIZE, ONNX_FILE, MiniLMOnnx,
                                                        export_onnx, length_batches)

__all__ = ["EMBEDDING_SIZE", "ONNX_FILE", "MiniLMOnnxEmbeddings", "export_onnx", "length_batches"]


class MiniLMOnnxEmbeddings(Embeddings):
    """all-MiniLM-L6-v2 embeddings computed with onnxruntime (see the module docstring)."""

    model_name = DEFAULT_EMBEDDING_NAME  # same vectors as the torch model, so the same index

    def __init__(self, onnx_path: str | Path | None = None, threads: int | None = None, batch_size: int = 32) -> None:
        self.encoder = MiniLMOnnx(onnx_path, threads, batch_size)

    def _embed(self, texts: list[str]) -> np.ndarray:
        return self.encoder.encode(texts)

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return self._embed(list(texts)).tolist()

    def embed_query(self, text: str) -> list[float]:
        return self._embed([text])[0].tolist()
