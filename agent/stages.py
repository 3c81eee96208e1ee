"""HuggingGPT's stages as LangGraph nodes: plan -> select -> [approve] -> execute -> respond.

Each node reads the typed state (`HuggingGPTState`) and returns its update; the edges
(`after_plan`, ...) route on that state alone. A stage that fails writes `error` and the
turn goes on to `respond`, which answers with what failed while the state keeps what the
stages before computed. `respond` always ends a turn: it writes the answer as an AIMessage,
logs the run and streams the whole `HuggingGPTResult`. Stage events go to LangGraph's
`custom` stream (`get_stream_writer`). `build_graph` (agent/graph.py) wires these nodes,
and the `HuggingGPT` Runnable runs that graph: one implementation of each stage.
"""

from __future__ import annotations

import asyncio
import logging
import time
from contextlib import contextmanager
from typing import TYPE_CHECKING, Annotated, Any, Callable, Iterator, Literal, Sequence

from langchain_core.messages import AIMessage, AnyMessage, BaseMessage, ChatMessage, HumanMessage, SystemMessage
from langchain_core.runnables import RunnableConfig
from langgraph.config import get_stream_writer
from langgraph.graph.message import add_messages
from langgraph.types import interrupt
from pydantic import ValidationError
from typing_extensions import TypedDict

from langchain_hugginggpt.agent.executor import TaskExecutor
from langchain_hugginggpt.agent.turn import HuggingGPTInput, recent_history
from langchain_hugginggpt.agent.llm_planner import LLMPlanner, chat_log_text
from langchain_hugginggpt.agent.response import Responder
from langchain_hugginggpt.agent.selection import ModelSelector
from langchain_hugginggpt.core.schema import (HuggingGPTResult, Plan, Selection, StageEvent, Task, TaskResult,
                                              content_text, request_problem)
from langchain_hugginggpt.core.workspace import Workspace
from langchain_hugginggpt.planning.validation import PlanError, validate_plan
from langchain_hugginggpt.prompts import render

if TYPE_CHECKING:
    from langchain_hugginggpt.agent.hugginggpt import HuggingGPT

logger = logging.getLogger(__name__)

NAME = "hugginggpt"  # the answer's `name`, telling it apart from other AI messages in a shared `messages`
ROLES = {"human": "user", "ai": "assistant", "system": "system"}
RESUME_HELP = "resume with {'approve': True}, {'approve': False}, or {'plan': [task, ...]} (an edited plan)"

# Who judged the request: an empty plan from the LLM is its judgement that the request is chat; an empty plan
# from an offline planner only says that it found no task, and the chat reply has to say so.
PlannedBy = Literal["llm", "offline"]
Approval = Literal["approve", "decline", "edit"]


class HuggingGPTState(TypedDict, total=False):
    """The graph's state. `planner` .. `approval` describe the latest request; `messages` is the conversation."""

    messages: Annotated[list[AnyMessage], add_messages]
    planner: str
    planned_by: PlannedBy
    plan: list[Task]
    selections: dict[int, Selection]
    results: dict[int, TaskResult]
    timings: dict[str, float]
    error: str | None
    approval: Approval | None


# -- the conversation in `messages` -----------------------------------------------------------------------------

def turn_input(messages: Sequence[BaseMessage], workspace: Workspace | None = None) -> HuggingGPTInput:
    """The request (the last user message) and the chat log before it. Files sent inline in a message (base64
    data: URLs) are kept in `workspace` and named by their paths (left out without one)."""
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
    """Messages as the planner's chat log, `{"role", "content"}` dicts (tool calls and results left out; a
    ChatMessage, a turn of another role given to the Runnable, keeps its role)."""
    save = workspace.save_inline if workspace is not None else None
    return [{"role": m.role if isinstance(m, ChatMessage) else ROLES[m.type], "content": text} for m in messages
            if (m.type in ROLES or isinstance(m, ChatMessage)) and (text := content_text(m.content, save))]


def as_messages(turn: HuggingGPTInput) -> list[BaseMessage]:
    """A request and its chat log (`{"role", "content"}` dicts) as the graph's `messages`."""
    kinds = {"user": HumanMessage, "human": HumanMessage, "assistant": AIMessage, "ai": AIMessage,
             "system": SystemMessage}
    history = [kinds[role](text) if (role := m.get("role", "user")) in kinds else ChatMessage(text, role=str(role))
               for m in turn.chat_history for text in [str(m.get("content", ""))]]
    return [*history, HumanMessage(turn.request)]


def answer_message(messages: Sequence[BaseMessage]) -> AIMessage | None:
    """The graph's answer to the latest request, if it has answered it yet."""
    for message in reversed(messages):
        if message.type == "human":
            return None
        if isinstance(message, AIMessage) and message.name == NAME:
            return message
    return None


def result_from_state(state: dict[str, Any], request: str | None = None) -> HuggingGPTResult:
    """The latest request's outcome (answer empty while unanswered); `request`: the latest request's text where
    the caller has read it already."""
    messages = state.get("messages") or []
    answer = answer_message(messages)
    return HuggingGPTResult(
        request=turn_input(messages).request if request is None else request, planner=state.get("planner") or "",
        plan=state.get("plan") or [], selections=state.get("selections") or {}, results=state.get("results") or {},
        answer=answer.text if answer else "", timings=dict(state.get("timings") or {}), error=state.get("error"))


# -- plan approval ----------------------------------------------------------------------------------------------

def approval_request(state: dict[str, Any], workspace: Workspace | None = None) -> dict[str, Any]:
    """What a person sees before approving: the plan, and each task's chosen model and why."""
    selections = state.get("selections") or {}
    return {
        "request": turn_input(state["messages"], workspace).request,
        "plan": [task.model_dump() for task in state.get("plan") or []],
        "models": {str(task_id): {"model_id": s.model_id, "reason": s.reason} for task_id, s in selections.items()},
        "resume": RESUME_HELP,
    }


def read_decision(value: Any) -> tuple[Approval, list[Task]]:
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


def ask_for_approval(state: dict[str, Any], workspace: Workspace | None = None) -> tuple[Approval, list[Task]]:
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


# -- routing: from the state alone ------------------------------------------------------------------------------

def after_plan(state: HuggingGPTState) -> Literal["select", "respond"]:
    """An empty plan is chit-chat; a failed stage is answered with what failed."""
    return "select" if state.get("plan") and not state.get("error") else "respond"


def after_approval(state: HuggingGPTState) -> Literal["select", "execute", "respond"]:
    """An edited plan needs its own models; a declined one is answered without running."""
    return {"approve": "execute", "edit": "select"}.get(state.get("approval") or "", "respond")


# -- the nodes --------------------------------------------------------------------------------------------------

@contextmanager
def timed(timings: dict[str, float], stage: str) -> Iterator[None]:
    """Seconds the block took, into `timings[stage]`, also when it fails."""
    started = time.perf_counter()
    try:
        yield
    finally:
        timings[stage] = round(time.perf_counter() - started, 4)


def failure(exc: Exception, emit: Callable[[StageEvent], Any]) -> dict[str, Any]:
    """A stage failed: the update that says what failed (`respond` answers with it)."""
    error = f"{type(exc).__name__}: {exc}"
    emit(StageEvent(kind="error", error=error))
    return {"error": error}


class Stages:
    """The nodes of one agent's graph: each is `(state, config) -> update`, running one stage of `agent`."""

    def __init__(self, agent: HuggingGPT, approve_plan: bool = False) -> None:
        self.agent, self.approve_plan = agent, approve_plan

    def after_selection(self, state: HuggingGPTState) -> Literal["approve", "execute", "respond"]:
        if state.get("error"):
            return "respond"
        # An edited plan was approved as the person wrote it: its new models run without asking again.
        return "approve" if self.approve_plan and state.get("approval") is None else "execute"

    async def plan(self, state: HuggingGPTState, config: RunnableConfig) -> dict[str, Any]:
        """Stage 1: the plan and which planner made it; a new request replaces the previous one's outcome."""
        emit = get_stream_writer()
        turn = turn_input(state["messages"], self.agent.workspace)
        fresh: dict[str, Any] = {"planner": "", "planned_by": "offline", "plan": [], "selections": {}, "results": {},
                                 "error": None, "approval": None, "timings": {}}
        try:
            with timed(fresh["timings"], "planning"):
                planned = await self.agent.aplan(turn.request, turn.chat_history, config)
        except Exception as exc:
            return {**fresh, **failure(exc, emit)}
        tasks = list(planned.plan.tasks)
        emit(StageEvent(kind="plan", planner=planned.planner, plan=tasks, repairs=planned.details.get("repairs", [])))
        # Read here, once, from the planner that made the plan (an offline fallback is named after its own planner);
        # `respond` decides from the typed field.
        planned_by: PlannedBy = "llm" if planned.planner == LLMPlanner.name else "offline"
        return {**fresh, "planner": planned.planner, "plan": tasks, "planned_by": planned_by}

    async def select(self, state: HuggingGPTState, config: RunnableConfig) -> dict[str, Any]:
        """Stage 2: a model and the reason for it, per task."""
        emit = get_stream_writer()
        agent, timings = self.agent, dict(state.get("timings") or {})
        request = turn_input(state["messages"], agent.workspace).request
        selector = ModelSelector(agent.llm, agent.active_candidate_source(), k=agent.k, use_llm=agent.selection == "llm")
        try:
            with timed(timings, "selection"):
                selections = await selector.aselect(request, Plan(tasks=state["plan"]), config)
        except Exception as exc:
            return {"timings": timings, **failure(exc, emit)}
        emit(StageEvent(kind="selection", selections=selections))
        return {"selections": selections, "timings": timings}

    async def approve(self, state: HuggingGPTState, config: RunnableConfig) -> dict[str, Any]:
        """Between selection and execution: a person approves, declines or edits the plan (`interrupt`)."""
        decision, edited = ask_for_approval(state, self.agent.workspace)
        if decision != "edit":
            return {"approval": decision}
        planner = f"{state.get('planner', '')}, edited at approval"
        get_stream_writer()(StageEvent(kind="plan", planner=planner, plan=edited))
        return {"approval": decision, "plan": edited, "planner": planner, "selections": {}}

    async def execute(self, state: HuggingGPTState, config: RunnableConfig) -> dict[str, Any]:
        """Stage 3: the plan run as a DAG; each task's result streams as it finishes."""
        emit = get_stream_writer()
        agent, timings = self.agent, dict(state.get("timings") or {})
        results: dict[int, TaskResult] = {}

        def on_result(result: TaskResult) -> None:
            results[result.task_id] = result  # kept even if the stage fails later
            emit(StageEvent(kind="task", task=result))

        executor = TaskExecutor(agent.workspace, agent.max_concurrency, agent.task_timeout, engines=agent.experts)
        try:
            with timed(timings, "execution"):
                done = await executor.arun(Plan(tasks=state["plan"]), state.get("selections") or {}, on_result, config)
        except Exception as exc:
            return {"results": results, "timings": timings, **failure(exc, emit)}
        return {"results": done, "timings": timings}

    async def respond(self, state: HuggingGPTState, config: RunnableConfig) -> dict[str, Any]:
        """Stage 4, and the end of every turn: the answer (from the results, a chat reply for an empty plan, or
        what failed), the run logged, the whole result streamed, the answer added to `messages`."""
        emit = get_stream_writer()
        turn = turn_input(state["messages"], self.agent.workspace)
        result = result_from_state(state, turn.request)
        if result.error is None and state.get("approval") == "decline":
            tasks = ", ".join(f"{t.id}: {t.task}" for t in result.plan)
            result.answer = f"I did not run the plan ({tasks}): it was declined at approval."
            emit(StageEvent(kind="answer", answer=result.answer))
        elif result.error is None:
            try:
                with timed(result.timings, "response"):
                    result.answer = await (self._answer(result, config, emit) if result.plan else
                                           self._chat_reply(turn, state.get("planned_by", "offline"), config))
                emit(StageEvent(kind="answer", answer=result.answer))
            except Exception as exc:  # the results stay; the answer says what failed
                result.error = failure(exc, emit)["error"]
        if result.error is not None and not result.answer:
            result.answer = f"I could not complete this request: {result.error}"
        # Time spent in the stages (a person's time to approve is not the agent's).
        result.timings["total"] = round(sum(v for k, v in result.timings.items() if k != "total"), 4)
        await self._log(turn, result)
        emit(StageEvent(kind="result", result=result))
        # The turn's record travels with its answer, so a thread shows each turn's plan and files.
        answer = AIMessage(content=result.answer, name=NAME, response_metadata={
            "planner": result.planner, "plan": [t.model_dump() for t in result.plan], "files": result.files,
            "error": result.error, "created": time.time()})
        return {"messages": [answer], "timings": result.timings, "error": result.error}

    async def _answer(self, result: HuggingGPTResult, config: RunnableConfig, emit: Callable[[StageEvent], Any]) -> str:
        chunks = []
        async for chunk in Responder(self.agent.llm, self.agent.responder).astream(result, config):
            chunks.append(chunk)
            emit(StageEvent(kind="answer_chunk", text=chunk))
        return "".join(chunks).strip()

    async def _chat_reply(self, turn: HuggingGPTInput, planned_by: PlannedBy, config: RunnableConfig) -> str:
        """The reply to a request with no task for an expert model."""
        llm = self.agent.llm
        if llm is None:
            return "This request needs no expert model, and no controller LLM is configured to chat."
        messages = [SystemMessage(render("chat.md"))]
        if turn.chat_history and self.agent.chit_chat_history:
            messages.append(SystemMessage("Conversation so far: " + chat_log_text(turn.chat_history)))
        messages.append(HumanMessage(turn.request))
        reply = (await llm.ainvoke(messages, config)).text.strip()
        if planned_by == "offline":
            # No LLM judged this to be chat: say so, or a chat reply may pass for a done task.
            return f"I found no task for an expert model in this request, so this is a plain chat reply.\n\n{reply}"
        return reply

    async def _log(self, turn: HuggingGPTInput, result: HuggingGPTResult) -> None:
        """The run appended to the run log (file I/O, off the event loop)."""
        if not self.agent.log_runs:
            return
        from langchain_hugginggpt.agent.run_log import append_run

        try:
            await asyncio.to_thread(append_run, result, llm=self.agent.llm, chat_history=turn.chat_history,
                                    workspace=self.agent.workspace.root)
        except OSError as exc:  # a full disk, a read-only log folder: the answer still goes out
            logger.warning("could not log the run of %r: %s", result.request[:80], exc)
