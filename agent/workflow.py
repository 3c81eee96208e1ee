"""The stages (stages.py) compiled into a LangGraph graph, for `build_graph` (graph.py) and the `HuggingGPT`
Runnable alike; the async stages run on the caller's loop (ainvoke/astream) or on one stage loop (invoke/stream)."""

from __future__ import annotations

import asyncio
import contextvars
import copy
import threading
from typing import TYPE_CHECKING, Any, Awaitable, Callable

from langchain_core.runnables import RunnableConfig, RunnableLambda
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.checkpoint.serde.base import maybe_add_typed_methods
from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph

from langchain_hugginggpt.agent.stages import NAME, HuggingGPTState, Stages, after_approval, after_plan
from langchain_hugginggpt.agent.sync import run_sync
from langchain_hugginggpt.core.schema import Candidate, ExpertOutput, Selection, Task, TaskResult

if TYPE_CHECKING:
    from langchain_hugginggpt.agent.hugginggpt import HuggingGPT


def state_allowlist() -> list[tuple[str, str]]:
    """`(module, class)` of the state's pydantic types, as LangGraph's msgpack allowlists take them."""
    return [(cls.__module__, cls.__name__) for cls in (Task, Selection, Candidate, TaskResult, ExpertOutput)]


def checkpoint_serde() -> JsonPlusSerializer:
    """LangGraph's serializer with the state's types allowed (messages are allowed already): give it to a
    checkpointer (`SqliteSaver(conn, serde=checkpoint_serde())`) and the state loads back without LangGraph's
    "unregistered type" warning, and still loads once LangGraph blocks unregistered types."""
    return JsonPlusSerializer(allowed_msgpack_modules=state_allowlist())


Node = Callable[[dict[str, Any], RunnableConfig], Awaitable[dict[str, Any]]]


class _StageLoop:
    """The event loop that runs the async stages for the sync `invoke`/`stream`: one loop in a daemon
    thread for the process, as a loop per node (`asyncio.run`) would cost a new loop and new worker
    threads at every step."""

    def __init__(self) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def run(self, coroutine: Awaitable[dict[str, Any]]) -> dict[str, Any]:
        with self._lock:
            if self._loop is None or not self._thread.is_alive():
                self._loop = asyncio.new_event_loop()
                self._thread = threading.Thread(target=self._loop.run_forever, name="hugginggpt-stages", daemon=True)
                self._thread.start()
        # The node's context goes with it: `get_stream_writer` and `interrupt` read the node's config from it.
        context = contextvars.copy_context()
        if threading.current_thread() is self._thread:  # a sync graph called from a stage: no deadlock
            return run_sync(_in_context(coroutine, context))
        future = asyncio.run_coroutine_threadsafe(_in_context(coroutine, context), self._loop)
        try:
            return future.result()
        except BaseException:
            future.cancel()  # the caller gave up (KeyboardInterrupt): stop the stage too
            raise


async def _in_context(coroutine: Awaitable[dict[str, Any]], context: contextvars.Context) -> dict[str, Any]:
    """Await `coroutine` as a task made in `context` (a task runs in a copy of the context it is made in)."""
    return await context.run(asyncio.ensure_future, coroutine)


_STAGE_LOOP = _StageLoop()


def _node(stage: Node, name: str) -> RunnableLambda:
    """A stage as a node that runs on the caller's event loop (ainvoke/astream) or the stage loop (invoke/stream)."""

    def run(state: dict[str, Any], config: RunnableConfig) -> dict[str, Any]:
        return _STAGE_LOOP.run(stage(state, config))

    return RunnableLambda(run, afunc=stage, name=name)


def _allowing_state_types(saver: BaseCheckpointSaver) -> BaseCheckpointSaver:
    """The saver, loading our state's types without LangGraph's "unregistered type" warnings. A saver with an
    explicit msgpack allowlist (or LANGGRAPH_STRICT_MSGPACK) gets our types added. LangGraph's permissive default
    (any type, a warning for each unregistered one) takes no additions, so that saver gets LangGraph's safe list
    plus our types: all this graph's state holds."""
    serde = saver.serde
    if type(serde) is JsonPlusSerializer and getattr(serde, "_allowed_msgpack_modules", None) is True:
        saver = copy.copy(saver)
        saver.serde = maybe_add_typed_methods(JsonPlusSerializer(pickle_fallback=serde.pickle_fallback,
                                                                 allowed_msgpack_modules=state_allowlist()))
        return saver
    return saver.with_allowlist(state_allowlist())


def compile_stages(agent: HuggingGPT, *, checkpointer: Any = None, approve_plan: bool = False) -> CompiledStateGraph:
    """The agent's stages compiled into one graph over `HuggingGPTState` (see `build_graph`)."""
    if isinstance(checkpointer, BaseCheckpointSaver):
        checkpointer = _allowing_state_types(checkpointer)
    stages = Stages(agent, approve_plan)
    builder = StateGraph(HuggingGPTState)
    builder.add_node("plan", _node(stages.plan, "plan"))
    builder.add_node("select", _node(stages.select, "select"))
    builder.add_node("execute", _node(stages.execute, "execute"))
    builder.add_node("respond", _node(stages.respond, "respond"))
    builder.add_edge(START, "plan")
    builder.add_conditional_edges("plan", after_plan)
    builder.add_conditional_edges("select", stages.after_selection,
                                  ["approve", "execute", "respond"] if approve_plan else ["execute", "respond"])
    if approve_plan:
        builder.add_node("approve", _node(stages.approve, "approve"))
        builder.add_conditional_edges("approve", after_approval)
    builder.add_edge("execute", "respond")
    builder.add_edge("respond", END)
    return builder.compile(checkpointer=checkpointer, name=NAME)
