"""The HuggingGPT agent: planning, model selection, execution and response as LangChain Runnables.

    from langchain_hugginggpt.agent import HuggingGPT
    agent = HuggingGPT.from_preset("local")
    result = agent.invoke("Detect the objects in examples/street.jpg and read the result aloud")
"""

import os

from langchain_hugginggpt.agent.lazy import lazy_exports

# llama.cpp (the local LLM) runs its threads with OpenMP, which by default spin while they wait at each step's
# barrier. Beside other busy threads (an expert's onnxruntime or torch pool, other processes) they fight for the
# cores: a chat reply right after an object detection once took 188 s instead of 2, and replies beside two busy
# processes took 3x as long (bench/bench_chat_under_load.py). Sleeping waits cost nothing measurable on free
# cores. OpenMP reads this once, when llama.cpp or torch loads it (both later than this import); a value the
# user set stays.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

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
