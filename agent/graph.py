"""HuggingGPT as a LangGraph graph: plan -> select -> [approve] -> execute -> respond.

    from langgraph.checkpoint.memory import InMemorySaver
    graph = build_graph(checkpointer=InMemorySaver())          # embedded defaults, offline
    state = graph.invoke({"messages": [("user", "Detect the objects in examples/street.jpg")]},
                         {"configurable": {"thread_id": "t1"}})
    state["messages"][-1].content      # the answer, an AIMessage
    state["plan"], state["selections"], state["results"], state["timings"]

The last user message in `messages` is the request and the messages before it are the
conversation, so a checkpointer keeps conversations by `thread_id`. Each node runs one
stage through the same `HuggingGPT` methods the Runnable runs (`plan_stage`, ...), so
the two fronts share one implementation. With `approve_plan=True` the graph pauses after
model selection (`interrupt()`) until `Command(resume=...)` approves, declines or edits
the plan. Stage events go to `stream_mode="custom"` as `{"kind", "data"}` dicts, the same
events `HuggingGPT.stream` yields.
"""

from __future__ import annotations

import asyncio
import copy
import threading
import time
from typing import Annotated, Any, Awaitable, Callable, Literal, Sequence

from langchain_core.messages import AIMessage, AnyMessage, BaseMessage
from langchain_core.runnables import RunnableConfig, RunnableLambda
from langchain_core.tools import BaseTool
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.checkpoint.serde.base import maybe_add_typed_methods
from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer
from langgraph.config import get_stream_writer
from langgraph.graph import END, START, StateGraph
from langgraph.graph.message import add_messages
from langgraph.graph.state import CompiledStateGraph
from langgraph.types import Command, interrupt
from pydantic import ValidationError
from typing_extensions import TypedDict

from langchain_hugginggpt.agent.hugginggpt import HuggingGPT, HuggingGPTInput, _run_sync, recent_history
from langchain_hugginggpt.core.schema import (Candidate, HuggingGPTResult, Plan, Selection, StageEvent, Task, TaskResult,
                                              content_text, request_problem)
from langchain_hugginggpt.planning.validation import PlanError, validate_plan
from langchain_hugginggpt.core.workspace import Workspace

NAME = "hugginggpt"  # the answer's `name`, telling it apart from other AI messages in a shared `messages`
ROLES = {"human": "user", "ai": "assistant", "system": "system"}
RESUME_HELP = "resume with {'approve': True}, {'approve': False}, or {'plan': [task, ...]} (an edited plan)"


def state_allowlist() -> list[tuple[str, str]]:
    """`(module, class)` of the state's pydantic types, as LangGraph's msgpack allowlists take them."""
    return [(cls.__module__, cls.__name__) for cls in (Task, Selection, Candidate, TaskResult)]


def checkpoint_serde() -> JsonPlusSerializer:
    """LangGraph's serializer with the state's types allowed (messages are allowed already): give it to a
    checkpointer (`SqliteSaver(conn, serde=checkpoint_serde())`) and the state loads back without LangGraph's
    "unregistered type" warning, and still loads once LangGraph blocks unregistered types."""
    return JsonPlusSerializer(allowed_msgpack_modules=state_allowlist())


class HuggingGPTState(TypedDict, total=False):
    """The graph's state. `plan` .. `error` describe the latest request; `messages` is the conversation."""

    messages: Annotated[list[AnyMessage], add_messages]
    planner: str
    plan: list[Task]
    selections: dict[int, Selection]
    results: dict[int, TaskResult]
    timings: dict[str, float]
    error: str | None


def turn_input(messages: Sequence[BaseMessage], workspace: Workspace | None = None) -> HuggingGPTInput:
    """The request (the last user message) and the chat log before it, as the Runnable takes them. Files sent
    inline in a message (base64 data: URLs) are kept in `workspace` and named by their paths (left out without
    one)."""
    for index in range(len(messages) - 1, -1, -1):
        if messages[index].type == "human":
            break
    else:
        raise ValueError("HuggingGPT's graph needs a user message in `messages`: the last one is the request")
    save = workspace.save_inline if workspace is not None else None
    request = content_text(messages[index].content, save).strip()  # a photo sent as a content block is named too
    problem = request_problem(request)
    if problem:
        raise ValueError(f"{problem} (the last user message)")
    return HuggingGPTInput(request=request, chat_history=recent_history(chat_log(messages[:index], workspace)))


def chat_log(messages: Sequence[BaseMessage], workspace: Workspace | None = None) -> list[dict[str, str]]:
    """Messages as the planner's chat log, `{"role", "content"}` dicts (tool calls and results left out)."""
    save = workspace.save_inline if workspace is not None else None
    return [{"role": ROLES[m.type], "content": text} for m in messages
            if m.type in ROLES and (text := content_text(m.content, save))]


def answer_message(messages: Sequence[BaseMessage]) -> AIMessage | None:
    """The graph's answer to the latest request, if it has answered it yet."""
    for message in reversed(messages):
        if message.type == "human":
            return None
        if isinstance(message, AIMessage) and message.name == NAME:
            return message
    return None


def result_from_state(state: dict[str, Any], request: str | None = None) -> HuggingGPTResult:
    """The latest request's outcome as the Runnable returns it (answer empty while unanswered); `request`: the
    latest request's text where the caller has read it already."""
    messages = state.get("messages") or []
    answer = answer_message(messages)
    return HuggingGPTResult(
        request=turn_input(messages).request if request is None else request, planner=state.get("planner") or "", plan=state.get("plan") or [],
        selections=state.get("selections") or {}, results=state.get("results") or {},
        answer=answer.text if answer else "", timings=dict(state.get("timings") or {}), error=state.get("error"))


def approval_request(state: dict[str, Any], workspace: Workspace | None = None) -> dict[str, Any]:
    """What a person sees before approving: the plan, and each task's chosen model and why."""
    selections = state.get("selections") or {}
    return {
        "request": turn_input(state["messages"], workspace).request,
        "plan": [task.model_dump() for task in state.get("plan") or []],
        "models": {str(task_id): {"model_id": s.model_id, "reason": s.reason} for task_id, s in selections.items()},
        "resume": RESUME_HELP,
    }


def read_decision(value: Any) -> tuple[Literal["approve", "decline", "edit"], list[Task]]:
    """A resume value as a decision; an edited plan is validated (PlanError names what is wrong)."""
    if isinstance(value, dict) and "plan" in value:
        edited = value["plan"]
        if not isinstance(edited, list) or not edited:
            raise PlanError([(None, f"an edited plan is a non-empty list of tasks, got {edited!r}; {RESUME_HELP}")])
        try:
            Plan.model_validate({"tasks": edited})
        except ValidationError as exc:  # an item that is not {"task", "id", "dep", "args"}
            first = exc.errors()[0]
            index, *field = first["loc"][1:]
            where = ".".join(str(part) for part in field) or "the item"
            problem = f"item {index} of the edited plan does not parse: {where}: {first['msg']}"
            raise PlanError([(None, problem)]) from exc
        return "edit", validate_plan(edited).plan.tasks
    if isinstance(value, dict) and isinstance(value.get("approve"), bool):
        return ("approve" if value["approve"] else "decline"), []
    raise PlanError([(None, f"cannot read the resume value {value!r}: {RESUME_HELP}")])


Step = Callable[[dict[str, Any], RunnableConfig, Callable[[StageEvent], Any]], Awaitable[Command]]


class _Stages:
    """The graph's nodes: each runs one stage of `agent` on the state and says where to go next."""

    def __init__(self, agent: HuggingGPT, approve_plan: bool) -> None:
        self.agent, self.approve_plan = agent, approve_plan

    async def plan(self, state: dict[str, Any], config: RunnableConfig, emit: Any) -> Command:
        turn = turn_input(state["messages"], self.agent.workspace)
        result = HuggingGPTResult(request=turn.request)
        # A new request: the previous request's plan, models and results are replaced.
        fresh = {"selections": {}, "results": {}, "error": None}
        if not await self._stage(self.agent.plan_stage(turn, result, config, emit), result, emit):
            return await self._finish(turn, result, emit, {**fresh, "planner": result.planner, "plan": result.plan})
        return Command(goto="select" if result.plan else "respond",
                       update={**fresh, "planner": result.planner, "plan": result.plan, "timings": result.timings})

    async def select(self, state: dict[str, Any], config: RunnableConfig, emit: Any) -> Command:
        turn, result = self._turn(state)
        if not await self._stage(self.agent.select_stage(turn, result, config, emit), result, emit):
            return await self._finish(turn, result, emit, {})
        return Command(goto="approve" if self.approve_plan else "execute",
                       update={"selections": result.selections, "timings": result.timings})

    async def decide(self, state: dict[str, Any], config: RunnableConfig, emit: Any,
                     decision: tuple[str, list[Task]]) -> Command:
        """After approval: run the plan, end with a 'declined' answer, or run the edited plan."""
        kind, edited = decision
        if kind == "approve":
            return Command(goto="execute")
        turn, result = self._turn(state)
        if kind == "decline":
            tasks = ", ".join(f"{t.id}: {t.task}" for t in result.plan)
            result.answer = f"I did not run the plan ({tasks}): it was declined at approval."
            emit(StageEvent(kind="answer", data={"answer": result.answer}))
            return await self._finish(turn, result, emit, {})
        result.plan, result.planner = edited, f"{result.planner}, edited at approval"
        emit(StageEvent(kind="plan", data={"planner": result.planner, "plan": [t.model_dump() for t in edited],
                                           "repairs": []}))
        # The models chosen for the old plan may not fit the edited one: choose again.
        if not await self._stage(self.agent.select_stage(turn, result, config, emit), result, emit):
            return await self._finish(turn, result, emit, {"plan": result.plan, "planner": result.planner})
        return Command(goto="execute", update={"plan": result.plan, "planner": result.planner,
                                               "selections": result.selections, "timings": result.timings})

    async def execute(self, state: dict[str, Any], config: RunnableConfig, emit: Any) -> Command:
        turn, result = self._turn(state)
        if not await self._stage(self.agent.execute_stage(result, config, emit), result, emit):
            return await self._finish(turn, result, emit, {"results": result.results})
        return Command(goto="respond", update={"results": result.results, "timings": result.timings})

    async def respond(self, state: dict[str, Any], config: RunnableConfig, emit: Any) -> Command:
        turn, result = self._turn(state)
        await self._stage(self.agent.respond_stage(turn, result, config, emit), result, emit)
        return await self._finish(turn, result, emit, {})

    def _turn(self, state: dict[str, Any]) -> tuple[HuggingGPTInput, HuggingGPTResult]:
        turn = turn_input(state["messages"], self.agent.workspace)  # read once: it may name files sent inline
        return turn, result_from_state(state, turn.request)

    async def _stage(self, stage: Awaitable[None], result: HuggingGPTResult, emit: Any) -> bool:
        try:
            await stage
            return True
        except Exception as exc:  # as in the Runnable: keep what earlier stages computed, say what failed
            self.agent.record_failure(result, exc, emit)
            return False

    async def _finish(self, turn: HuggingGPTInput, result: HuggingGPTResult, emit: Any,
                      update: dict[str, Any]) -> Command:
        """The last step of a request: the answer as an AIMessage, the run logged, the result emitted."""
        # Time spent in the stages (a person's time to approve is not the agent's).
        result.timings["total"] = round(sum(v for k, v in result.timings.items() if k != "total"), 4)
        await self.agent.finish_turn(turn, result, emit)
        # The turn's record travels with its answer, so a thread shows each turn's plan and files.
        answer = AIMessage(content=result.answer, name=NAME, response_metadata={
            "planner": result.planner, "plan": [t.model_dump() for t in result.plan], "files": result.files,
            "error": result.error, "created": time.time()})
        return Command(goto=END, update={**update, "timings": result.timings, "error": result.error,
                                         "messages": [answer]})


def _emitter() -> Callable[[StageEvent], None]:
    """Stage events into the `custom` stream, as JSON-ready dicts (a no-op when nobody streams it)."""
    write = get_stream_writer()
    return lambda event: write(event.model_dump(mode="json"))


class _StageLoop:
    """The event loop that runs the async stages for the sync `invoke`/`stream`: one loop in a daemon
    thread for the process, as a loop per node (`asyncio.run`) would cost a new loop and new worker
    threads at every step."""

    def __init__(self) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def run(self, coroutine: Awaitable[Command]) -> Command:
        with self._lock:
            if self._loop is None or not self._thread.is_alive():
                self._loop = asyncio.new_event_loop()
                self._thread = threading.Thread(target=self._loop.run_forever, name="hugginggpt-stages", daemon=True)
                self._thread.start()
        if threading.current_thread() is self._thread:  # a sync graph called from a stage: no deadlock
            return _run_sync(coroutine)
        future = asyncio.run_coroutine_threadsafe(coroutine, self._loop)
        try:
            return future.result()
        except BaseException:
            future.cancel()  # the caller gave up (KeyboardInterrupt): stop the stage too
            raise


_STAGE_LOOP = _StageLoop()


def _node(step: Step, name: str) -> RunnableLambda:
    """A node that runs `step` on the caller's event loop (ainvoke/astream) or the stage loop (invoke/stream).

    `get_stream_writer` (and `interrupt`) read the node's context, so they are called here, in the
    node's own thread, and the async step gets the writer and the config passed in."""

    async def arun(state: dict[str, Any], config: RunnableConfig) -> Command:
        return await step(state, config, _emitter())

    def run(state: dict[str, Any], config: RunnableConfig) -> Command:
        return _STAGE_LOOP.run(step(state, config, _emitter()))

    return RunnableLambda(run, afunc=arun, name=name)


def ask_for_approval(state: dict[str, Any], workspace: Workspace | None = None
                     ) -> tuple[Literal["approve", "decline", "edit"], list[Task]]:
    """`interrupt()` with the plan and its models until the resume value is a valid decision.

    A bad value (an invalid edited plan, say) pauses again, with `error` naming the problem, so the
    graph stays resumable; the values given before stay part of the node's replay, as LangGraph
    replays a node's interrupts in order on each resume."""
    request = approval_request(state, workspace)
    while True:
        value = interrupt(request)
        try:
            return read_decision(value)
        except PlanError as exc:
            request = {**request, "error": f"{type(exc).__name__}: {exc}"}


def _approval_node(stages: _Stages) -> RunnableLambda:
    async def arun(state: dict[str, Any], config: RunnableConfig) -> Command:
        return await stages.decide(state, config, _emitter(), ask_for_approval(state, stages.agent.workspace))

    def run(state: dict[str, Any], config: RunnableConfig) -> Command:
        return _STAGE_LOOP.run(stages.decide(state, config, _emitter(), ask_for_approval(state, stages.agent.workspace)))

    return RunnableLambda(run, afunc=arun, name="approve")


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


def build_graph(agent: HuggingGPT | None = None, *, checkpointer: Any = None,
                approve_plan: bool = False) -> CompiledStateGraph:
    """The agent as a compiled LangGraph graph over `HuggingGPTState` (default agent: the embedded
    defaults, `HuggingGPT.from_preset()`). `checkpointer` keeps conversations by `thread_id`;
    `approve_plan` pauses after model selection for a person to approve, decline or edit the plan."""
    agent = agent if agent is not None else HuggingGPT.from_preset()
    if isinstance(checkpointer, BaseCheckpointSaver):
        checkpointer = _allowing_state_types(checkpointer)
    stages = _Stages(agent, approve_plan)
    builder = StateGraph(HuggingGPTState)
    builder.add_node("plan", _node(stages.plan, "plan"), destinations=("select", "respond", END))
    builder.add_node("select", _node(stages.select, "select"),
                     destinations=("approve" if approve_plan else "execute", END))
    if approve_plan:
        builder.add_node("approve", _approval_node(stages), destinations=("execute", END))
    builder.add_node("execute", _node(stages.execute, "execute"), destinations=("respond", END))
    builder.add_node("respond", _node(stages.respond, "respond"), destinations=(END,))
    builder.add_edge(START, "plan")
    return builder.compile(checkpointer=checkpointer, name=NAME)


def task_tools(agent: HuggingGPT | None = None, *, runnable_only: bool = True) -> list[BaseTool]:
    """The experts as LangChain tools for a tool-calling agent, e.g. `create_agent(llm, task_tools(agent))`:
    one per task type (by default only those with a model or a stand-in that runs here), reading
    inputs from and writing outputs to the agent's workspace."""
    from langchain_hugginggpt.tools import TASKS, ExpertTool, task_status

    workspace = agent.workspace if agent is not None else None
    names = [name for name in TASKS if not runnable_only or (s := task_status(name))["models"] or s["stand_ins"]]
    return [ExpertTool.for_task(name, workspace=workspace) for name in names]
