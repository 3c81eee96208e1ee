"""Model catalog and FAISS retrieval of candidate models.

    from langchain_hugginggpt.retriever import ModelCatalog, CandidateRetriever
    catalog = ModelCatalog()                      # built-in engines + imported/refreshed/user models
    catalog.import_file(P0_MODELS)                # HuggingGPT's model list (shipped)
    retriever = CandidateRetriever(catalog=catalog)
    retriever.candidates("text-classification", "sentiment of Spanish financial news", k=5)
"""

from langchain_hugginggpt.core.lazy import lazy_exports

# Exports resolve lazily, as in the agent package: the planner embeds with the packaged MiniLM
# (embeddings.py) and needs none of the catalog's or FAISS retrieval's imports.
_EXPORTS = {
    "P0_MODELS": "catalog", "ImportReport": "catalog", "ModelCatalog": "catalog", "builtin_records": "catalog",
    "default_embeddings": "embeddings", "CatalogError": "records", "ModelRecord": "records",
    "CandidateRetriever": "retriever", "CatalogCandidates": "retriever", "ScoreWeights": "retriever",
    "task_context": "retriever",
}
__all__ = sorted(_EXPORTS)


__getattr__ = lazy_exports(__name__, _EXPORTS)
