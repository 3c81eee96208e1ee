"""Model catalog and FAISS retrieval of candidate models.

    from langchain_hugginggpt.retriever import ModelCatalog, CandidateRetriever
    catalog = ModelCatalog()                      # built-in engines + imported/refreshed/user models
    catalog.import_file(P0_MODELS)                # HuggingGPT's model list (shipped)
    retriever = CandidateRetriever(catalog=catalog)
    retriever.candidates("text-classification", "sentiment of Spanish financial news", k=5)
"""

from langchain_hugginggpt.retriever.catalog import P0_MODELS, ImportReport, ModelCatalog, builtin_records
from langchain_hugginggpt.retriever.embeddings import default_embeddings
from langchain_hugginggpt.retriever.paths import data_dir
from langchain_hugginggpt.retriever.records import CatalogError, ModelRecord
from langchain_hugginggpt.retriever.retriever import (
    CandidateRetriever,
    CatalogCandidates,
    ScoreWeights,
    task_context,
)

__all__ = [
    "CandidateRetriever",
    "CatalogCandidates",
    "CatalogError",
    "ImportReport",
    "ModelCatalog",
    "ModelRecord",
    "P0_MODELS",
    "ScoreWeights",
    "builtin_records",
    "data_dir",
    "default_embeddings",
    "task_context",
]
