"""HuggingGPT as a LangGraph graph: plan -> select -> [approve] -> execute -> respond.

    from langgraph.checkpoint.memory import InMemorySaver
    graph = build_graph(checkpointer=InMemorySaver())          # embedded defaults, offline
    state = graph.invoke({"messages": [("user", "Detect the objects in examples/street.jpg")]},
                         {"configurable": {"thread_id": "t1"}})
    state["messages"][-1].content      # the answer, an AIMessage
    state["plan"], state["selections"], state["results"], state["timings"]

The last user message in `messages` is the request and the messages before it are the
conversation, so a checkpointer keeps conversations by `thread_id`. The nodes are the
stages of agent/stages.py; the `HuggingGPT` Runnable runs this same graph. With
`approve_plan=True` the graph pauses after model selection (`interrupt()`) until
`Command(resume=...)` approves, declines or edits the plan. `stream_mode="custom"` yields
the stage events (`StageEvent`s), the same `HuggingGPT.stream` yields; on the wire
(LangGraph Server) each is `{"kind", "data"}`.
"""

from __future__ import annotations

from typing import Any

from langchain_core.tools import BaseTool
from langgraph.graph.state import CompiledStateGraph

from langchain_hugginggpt.agent.hugginggpt import HuggingGPT
from langchain_hugginggpt.agent.stages import (  # noqa: F401 (the graph's helpers, importable from here)
    NAME, RESUME_HELP, ROLES, HuggingGPTState, Stages, after_approval, after_plan, answer_message, approval_request,
    ask_for_approval, chat_log, read_decision, result_from_state, turn_input)
from langchain_hugginggpt.agent.workflow import (  # noqa: F401 (importable from here)
    checkpoint_serde, compile_stages, state_allowlist)


def build_graph(agent: HuggingGPT | None = None, *, checkpointer: Any = None,
                approve_plan: bool = False) -> CompiledStateGraph:
    """The agent as a compiled LangGraph graph over `HuggingGPTState` (default agent: the embedded
    defaults, `HuggingGPT.from_preset()`). `checkpointer` keeps conversations by `thread_id` (None: the
    parent graph's, inside one; False: none); `approve_plan` pauses after model selection for a person to
    approve, decline or edit the plan."""
    return compile_stages(agent if agent is not None else HuggingGPT.from_preset(), checkpointer=checkpointer,
                          approve_plan=approve_plan)


def task_tools(agent: HuggingGPT | None = None, *, runnable_only: bool = True) -> list[BaseTool]:
    """The experts as LangChain tools for a tool-calling agent, e.g. `create_agent(llm, task_tools(agent))`:
    one per task type (by default only those with a model or a stand-in that runs here), reading
    inputs from and writing outputs to the agent's workspace."""
    from langchain_hugginggpt.tools import TASKS, ExpertTool, task_status

    workspace = agent.workspace if agent is not None else None
    names = [name for name in TASKS if not runnable_only or (s := task_status(name))["models"] or s["stand_ins"]]
    return [ExpertTool.for_task(name, workspace=workspace) for name in names]
