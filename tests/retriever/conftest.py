"""Shared fixtures: a data folder with HuggingGPT's real p0 catalog imported and its FAISS
index built once per session with the real all-MiniLM-L6-v2 (the slow part, ~20-60 s)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")

from langchain_hugginggpt.retriever.catalog import P0_MODELS as P0  # noqa: E402 (shipped with the package)


def _set_home(path: Path) -> str | None:
    previous = os.environ.get("HUGGINGGPT_HOME")
    os.environ["HUGGINGGPT_HOME"] = str(path)
    return previous


def _restore_home(previous: str | None) -> None:
    if previous is None:
        os.environ.pop("HUGGINGGPT_HOME", None)
    else:
        os.environ["HUGGINGGPT_HOME"] = previous


@pytest.fixture(scope="session")
def embeddings():
    """langchain-huggingface's HuggingFaceEmbeddings (the onnxruntime default is checked against it)."""
    from langchain_hugginggpt.retriever import default_embeddings

    return default_embeddings("torch")


@pytest.fixture(scope="session")
def p0_home(tmp_path_factory, embeddings):
    """A HUGGINGGPT_HOME holding the imported p0 catalog and its built index (read-only for tests)."""
    from langchain_hugginggpt.retriever import CandidateRetriever, ModelCatalog

    assert P0.is_file(), f"the p0 catalog is missing at {P0}"
    home = tmp_path_factory.mktemp("hugginggpt-home")
    previous = _set_home(home)
    try:
        catalog = ModelCatalog()
        catalog.import_file(P0)
        CandidateRetriever(catalog=catalog, embeddings=embeddings).index()
    finally:
        _restore_home(previous)
    return home


@pytest.fixture
def home(p0_home, tmp_path):
    """A private copy of the p0 home (catalog + index), set as HUGGINGGPT_HOME for one test."""
    copy = tmp_path / "home"
    shutil.copytree(p0_home, copy)
    previous = _set_home(copy)
    yield copy
    _restore_home(previous)


@pytest.fixture(scope="session")
def p0_retriever(p0_home, embeddings):
    from langchain_hugginggpt.retriever import CandidateRetriever, ModelCatalog

    return CandidateRetriever(catalog=ModelCatalog(p0_home / "catalog"), index_dir=p0_home / "index",
                              embeddings=embeddings)
