"""The HuggingGPT agent: planning, model selection, execution and response as LangChain Runnables.

    from langchain_hugginggpt.agent import HuggingGPT
    agent = HuggingGPT.from_preset("local")
    result = agent.invoke("Detect the objects in examples/street.jpg and read the result aloud")
"""

import os

from langchain_hugginggpt.core.lazy import lazy_exports

# llama.cpp (the local LLM) runs its threads with OpenMP, which by default spin while they wait at each step's
# barrier. Beside other busy threads (an expert's onnxruntime or torch pool, other processes) they stall: chat
# replies of 133 s beside two busy processes and 188 s right after an object detection, where sleeping threads
# took at most 4 s (bench/bench_chat_under_load.py). Sleeping costs about a second per reply on free cores; a
# value the user set stays (a dedicated machine may keep spinning). OpenMP reads it once, when llama.cpp or torch
# loads it, both later than this import.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

# Exports resolve lazily: `import langchain_hugginggpt.agent` stays cheap (no LangChain chains, no LangGraph)
# until a name is used. The data types and the workspace live in the core layer and are re-exported here.
_EXPORTS = {
    "TaskExecutor": "executor", "resolve_args": "executor",
    "HuggingGPT": "hugginggpt", "HuggingGPTInput": "turn",
    "HuggingGPTState": "graph", "build_graph": "graph", "task_tools": "graph",
    "load_llm": "llms",
    "LLMPlanner": "llm_planner", "PlannerOutput": "langchain_hugginggpt.planning",
    "Candidate": "langchain_hugginggpt.core.schema", "HuggingGPTResult": "langchain_hugginggpt.core.schema", "Plan": "langchain_hugginggpt.core.schema", "Selection": "langchain_hugginggpt.core.schema",
    "StageEvent": "langchain_hugginggpt.core.schema", "Task": "langchain_hugginggpt.core.schema", "TaskResult": "langchain_hugginggpt.core.schema",
    "ModelSelector": "selection", "RegistryCandidates": "langchain_hugginggpt.tools.candidates",
    "PlanError": "langchain_hugginggpt.planning.validation", "validate_plan": "langchain_hugginggpt.planning.validation",
    "Workspace": "langchain_hugginggpt.core.workspace",
}
__all__ = sorted(_EXPORTS)


__getattr__ = lazy_exports(__name__, _EXPORTS)
