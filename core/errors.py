"""The package's one error root. Every error this package raises on purpose is a `HuggingGPTError`, so an
application catches ours with one `except` and lets its own bugs through; each subclass names the problem
(a bad plan, a refused download, an expert that failed) and keeps a standard base where callers expect one
(a bad plan is also a ValueError, a deadline also a TimeoutError)."""

from __future__ import annotations


class HuggingGPTError(Exception):
    """Base of every error langchain-hugginggpt raises on purpose."""
