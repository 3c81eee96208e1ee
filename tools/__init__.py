"""Expert tools: every Hugging Face task type as a LangChain tool.

    from langchain_hugginggpt.tools import ExpertTool
    tool = ExpertTool.for_task("token-classification")
    tool.invoke({"text": "Ada Lovelace lived in London."})      # the short text an LLM reads
    tool.run_expert({"text": "Ada Lovelace lived in London."})  # the typed ExpertOutput
"""

from langchain_hugginggpt.core.lazy import lazy_exports

# Exports resolve lazily: a user of the task table (re-exported from core) does not import
# LangChain's tool classes (base.py, expert_tool.py), whose import costs about a second.
_EXPORTS = {
    "Engine": "base", "ExpertError": "base", "ExpertOutput": "base", "ExpertTool": "expert_tool",
    "all_tools": "expert_tool", "available_engines": "registry", "engines_for": "registry", "register": "registry",
    "resolve_engine": "registry", "task_status": "registry",
    "TASKS": "langchain_hugginggpt.core.tasks", "TaskSpec": "langchain_hugginggpt.core.tasks",
    "get_task": "langchain_hugginggpt.core.tasks",
}
__all__ = sorted(_EXPORTS)


__getattr__ = lazy_exports(__name__, _EXPORTS)
