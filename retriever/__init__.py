"""Model catalog and FAISS retrieval of candidate models."""
