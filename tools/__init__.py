"""Expert tools: every Hugging Face task type as a LangChain tool.

    from langchain_hugginggpt.tools import ExpertTool
    tool = ExpertTool.for_task("token-classification")
    tool.invoke({"text": "Ada Lovelace lived in London."})
"""

from langchain_hugginggpt.tools.base import Engine, ExpertError, ExpertOutput, ExpertTool
from langchain_hugginggpt.tools.registry import (
    all_tools,
    available_engines,
    engines_for,
    register,
    resolve_engine,
    task_status,
)
from langchain_hugginggpt.tools.tasks import TASKS, TaskSpec, get_task

__all__ = [
    "TASKS",
    "Engine",
    "ExpertError",
    "ExpertOutput",
    "ExpertTool",
    "TaskSpec",
    "all_tools",
    "available_engines",
    "engines_for",
    "get_task",
    "register",
    "resolve_engine",
    "task_status",
]
