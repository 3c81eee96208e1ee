"""The onnxruntime backend computes the same vectors as HuggingFaceEmbeddings, so both share an index."""

from __future__ import annotations

import numpy as np
import pytest

from langchain_hugginggpt.retriever import CandidateRetriever, ModelCatalog
from langchain_hugginggpt.retriever.embeddings import default_embeddings, embeddings_name
from langchain_hugginggpt.retriever.onnx_embeddings import ONNX_FILE, MiniLMOnnxEmbeddings, length_batches
from tests.retriever.test_retrieval import SPANISH_FINANCE

TEXTS = ["Transcribe this Chinese audio recording.", "A cat.",
         "FinBERT is a pre-trained NLP model to analyze sentiment of financial text. " * 3, "détecter les objets"]


@pytest.fixture(scope="module")
def onnx(tmp_path_factory):
    return MiniLMOnnxEmbeddings(tmp_path_factory.mktemp("models") / ONNX_FILE)


def test_same_vectors_as_the_torch_model(onnx, embeddings):
    # A batch of texts of different lengths checks padding and pooling as well as the weights.
    ours = np.asarray(onnx.embed_documents(TEXTS))
    theirs = np.asarray(embeddings.embed_documents(TEXTS))
    assert ours.shape == theirs.shape == (4, 384)
    np.testing.assert_allclose(np.linalg.norm(ours, axis=1), 1.0, atol=1e-5)
    np.testing.assert_allclose(ours, theirs, atol=1e-4)
    np.testing.assert_allclose(onnx.embed_query(TEXTS[0]), embeddings.embed_query(TEXTS[0]), atol=1e-4)
    assert embeddings_name(onnx) == embeddings_name(embeddings)


def test_texts_are_batched_by_length_so_short_ones_are_not_padded_to_a_long_one():
    # a request and its clauses: the clauses run together, the request alone; the order is given back
    assert length_batches([40, 8, 9, 10], 32) == [[1, 2, 3], [0]]
    assert length_batches([5, 5, 5], 2) == [[0, 1], [2]]
    assert length_batches([], 32) == []


def test_batching_by_length_keeps_every_vector_in_its_place(onnx):
    texts = [TEXTS[2], TEXTS[1], TEXTS[0], TEXTS[1] + " " + TEXTS[3]]
    together = np.asarray(onnx.embed_documents(texts))
    alone = np.asarray([onnx.embed_query(t) for t in texts])
    np.testing.assert_allclose(together, alone, atol=1e-5)
    assert onnx.embed_documents([]) == []


def test_it_reads_the_index_built_with_the_torch_model(onnx, home):
    class Counting(MiniLMOnnxEmbeddings):
        def __init__(self, inner):
            self.__dict__.update(inner.__dict__)
            self.documents = 0

        def embed_documents(self, texts):
            self.documents += len(texts)
            return super().embed_documents(texts)

    counting = Counting(onnx)
    retriever = CandidateRetriever(catalog=ModelCatalog(), embeddings=counting)
    found = retriever.candidates("text-classification", SPANISH_FINANCE, k=5, available_only=False)
    assert counting.documents == 0  # loaded, not rebuilt
    reference = CandidateRetriever(catalog=ModelCatalog(), embeddings=default_embeddings("torch"))
    expected = reference.candidates("text-classification", SPANISH_FINANCE, k=5, available_only=False)
    assert [c.id for c in found] == [c.id for c in expected]


def test_the_default_is_onnxruntime_where_it_is_installed_and_torch_on_request(monkeypatch):
    from langchain_huggingface import HuggingFaceEmbeddings

    monkeypatch.delenv("HUGGINGGPT_EMBEDDINGS", raising=False)
    assert isinstance(default_embeddings(), MiniLMOnnxEmbeddings)  # the retrieval extra installs onnxruntime
    monkeypatch.setenv("HUGGINGGPT_EMBEDDINGS", "torch")
    assert isinstance(default_embeddings(), HuggingFaceEmbeddings)
    monkeypatch.setenv("HUGGINGGPT_EMBEDDINGS", "tensorflow")
    with pytest.raises(ValueError, match="unknown embeddings backend 'tensorflow'.*'auto', 'torch' or 'onnx'"):
        default_embeddings()


def test_the_int8_encoder_is_made_once_and_stays_close_to_the_float_vectors(onnx, tmp_path):
    from langchain_hugginggpt.retriever.minilm_onnx import INT8_FILE, MiniLMOnnx

    path = tmp_path / INT8_FILE
    made = MiniLMOnnx(path, int8=True)  # from the float export beside it, which it makes first
    assert path.is_file() and (tmp_path / ONNX_FILE).is_file()
    assert path.stat().st_size < (tmp_path / ONNX_FILE).stat().st_size / 3  # int8 weights, not float32
    stamp = path.stat().st_mtime_ns
    again = MiniLMOnnx(path, int8=True)
    assert path.stat().st_mtime_ns == stamp  # loaded, not quantized again
    ours, theirs = made.encode(TEXTS), np.asarray(onnx.embed_documents(TEXTS))
    np.testing.assert_allclose(again.encode(TEXTS), ours, atol=1e-6)
    np.testing.assert_allclose(np.linalg.norm(ours, axis=1), 1.0, atol=1e-5)
    cosines = (ours * theirs).sum(axis=1)
    assert cosines.min() > 0.95 and not np.allclose(ours, theirs, atol=1e-4)  # close, yet quantized
    # what the vectors are for: the nearest text is the same as with the float model
    queries = ["transcribe this recording", "a kitten", "sentiment of financial text", "trouver des objets"]
    assert ((made.encode(queries) @ ours.T).argmax(1) == (np.asarray(onnx.embed_documents(queries)) @ theirs.T).argmax(1)).all()


def test_the_planner_embeds_with_the_int8_encoder():
    from langchain_hugginggpt.planning.taskset import minilm_vectors
    from langchain_hugginggpt.retriever.minilm_onnx import MiniLMOnnx

    np.testing.assert_allclose(minilm_vectors(TEXTS), MiniLMOnnx(int8=True).encode(TEXTS), atol=1e-6)
