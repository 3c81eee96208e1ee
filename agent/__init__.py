"""The HuggingGPT agent: planning, model selection, execution and response as LangChain Runnables.

    from langchain_hugginggpt.agent import HuggingGPT
    agent = HuggingGPT.from_preset("local")
    result = agent.invoke("Detect the objects in examples/street.jpg and read the result aloud")
"""

from langchain_hugginggpt.agent.lazy import lazy_exports

# Exports resolve lazily: the tools layer imports agent.schema/agent.workspace, and
# the agent imports the tools layer, so eager imports here would be circular.
_EXPORTS = {
    "TaskExecutor": "executor", "resolve_args": "executor",
    "HuggingGPT": "hugginggpt", "HuggingGPTInput": "hugginggpt",
    "HuggingGPTState": "graph", "build_graph": "graph", "task_tools": "graph",
    "load_llm": "llms",
    "LLMPlanner": "planning", "PlannerOutput": "planners",
    "Candidate": "schema", "HuggingGPTResult": "schema", "Plan": "schema", "Selection": "schema",
    "StageEvent": "schema", "Task": "schema", "TaskResult": "schema",
    "ModelSelector": "selection", "RegistryCandidates": "selection",
    "PlanError": "validation", "validate_plan": "validation",
    "Workspace": "workspace",
}
__all__ = sorted(_EXPORTS)


__getattr__ = lazy_exports(__name__, _EXPORTS)
