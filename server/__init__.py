"""`hugginggpt serve`: LangServe routes, the original HuggingGPT API, uploads, conversations
and a chat page, in one FastAPI app (needs the `serve` extra).

    from langchain_hugginggpt.server import create_app
    app = create_app()
"""

from typing import Any

__all__ = ["create_app"]


def __getattr__(name: str) -> Any:  # lazy: `hugginggpt run` imports server.cli without FastAPI
    if name == "create_app":
        from langchain_hugginggpt.server.app import create_app

        return create_app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
