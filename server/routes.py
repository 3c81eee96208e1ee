"""The original HuggingGPT API (`/hugginggpt`, `/tasks`, `/results`) and server-side conversations.

The original routes take `{"messages": [{"role", "content"}, ...]}`: the last
message is the request, the others the chat log. With a `conversation_id` the
request runs through the agent's LangGraph graph on that conversation's thread
(conversations.py), so the checkpointer gives it the earlier turns and records
the new one, and a client sends only its new message. `POST
/conversations/{id}/messages` streams the stages as server-sent events; the chat
page uses it.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator, Callable, Sequence
from typing import Any, Literal

from fastapi import APIRouter, HTTPException, Request, Response
from fastapi.responses import StreamingResponse
from langchain_core.messages import convert_to_messages
from pydantic import BaseModel, ConfigDict, Field, field_validator
from sse_starlette import EventSourceResponse

from langchain_hugginggpt.agent.graph import chat_log
from langchain_hugginggpt.core.schema import StageEvent, content_text, request_problem
from langchain_hugginggpt.server.conversations import Conversation, ConversationNotFound, request_message
from langchain_hugginggpt.server.files import media_entry
from langchain_hugginggpt.core.workspace import URL_SCHEME, WorkspaceError, relative_path

logger = logging.getLogger(__name__)
router = APIRouter()


class Message(BaseModel):
    role: Literal["user", "assistant", "system"] = "user"
    content: str

    @field_validator("content", mode="before")
    @classmethod
    def _blocks_as_text(cls, value: Any) -> Any:
        """OpenAI-style content blocks ([{"type": "text", ...}, {"type": "image_url", ...}]) as their text and URLs."""
        return content_text(value) if isinstance(value, (list, dict)) else value


class MessagesRequest(BaseModel):
    """The original HuggingGPT body; `api_key`/`api_type`/`model` from old clients are ignored."""

    messages: list[Message] = Field(min_length=1, description="The chat log; the last message is the request.")
    # "" is no id: silently running without the conversation would lose the turn from it
    conversation_id: str | None = Field(None, min_length=1,
                                        description="Prepend this stored conversation and record the turn.")
    model_config = ConfigDict(extra="ignore")


class ChatMessage(BaseModel):
    content: str = Field(description="The new request.")
    files: list[str] = Field(default_factory=list, description="Workspace paths of files attached (from POST /files).")


class Turn:
    """One request ready for the agent: the text, the chat log, and the conversation it belongs to."""

    def __init__(self, request: str, history: list[dict[str, Any]], conversation_id: str | None = None,
                 earlier: Sequence[Message] = (), attached: Sequence[str] = ()) -> None:
        self.request, self.history, self.conversation_id = request, history, conversation_id
        self.earlier, self.attached = list(earlier), list(attached)

    @property
    def input(self) -> dict[str, Any]:
        return {"request": self.request, "chat_history": self.history}

    def messages(self) -> list[Any]:
        """What the turn adds to its conversation's thread: the messages sent, the request last."""
        earlier = convert_to_messages([m.model_dump() for m in self.earlier])
        return [*earlier, request_message(self.request, self.attached)]


def _state(request: Request) -> Any:
    return request.app.state.hugginggpt


async def _history(request: Request, conversation_id: str) -> list[dict[str, str]]:
    try:
        messages = await _state(request).store.messages(conversation_id)
    except ConversationNotFound:
        raise HTTPException(404, f"no conversation {conversation_id!r}; create one with POST /conversations") from None
    return chat_log(messages)


async def _turn(request: Request, body: MessagesRequest) -> Turn:
    *earlier, last = body.messages
    if last.role != "user":
        raise HTTPException(400, f"the last message is the request and must come from the user, not {last.role!r}")
    problem = request_problem(last.content)
    if problem:
        raise HTTPException(400, f"{problem} (the last message)")
    # A client sends back the answers it got: their /files/... URLs name workspace files.
    local = _state(request).public.to_workspace
    earlier = [m.model_copy(update={"content": local(m.content)}) for m in earlier]
    stored = await _history(request, body.conversation_id) if body.conversation_id else []
    history = stored + [m.model_dump() for m in earlier]
    return Turn(local(last.content.strip()), history, body.conversation_id, earlier)


def _media(request: Request, files: list[str]) -> list[dict[str, Any]]:
    workspace = _state(request).workspace
    return [m for f in files if (m := media_entry(workspace, f))]


async def _plan(request: Request, turn: Turn) -> Any:
    try:
        return await _state(request).agent.aplan(turn.request, turn.history)
    except Exception as exc:  # the planner's own failure, said plainly (no stack trace)
        raise HTTPException(500, f"planning failed: {type(exc).__name__}: {exc}") from exc


@router.post("/hugginggpt", tags=["hugginggpt"])
async def hugginggpt(request: Request, body: MessagesRequest) -> dict[str, Any]:
    """All four stages; `{"message": answer}` as the original, plus the files produced."""
    turn = await _turn(request, body)
    if turn.conversation_id:  # the checkpointer keeps the turn
        try:
            result = await _state(request).store.run(turn.conversation_id, turn.messages())
        except ConversationNotFound as exc:  # deleted while the turn ran
            raise HTTPException(404, str(exc)) from None
    else:
        result = await _state(request).agent.ainvoke(turn.input)
    reply: dict[str, Any] = {"message": result.answer, "files": _media(request, result.files)}
    if result.error:
        reply["error"] = result.error
    if turn.conversation_id:
        reply["conversation_id"] = turn.conversation_id
    return reply


@router.post("/tasks", tags=["hugginggpt"])
async def tasks(request: Request, body: MessagesRequest) -> list[dict[str, Any]]:
    """Stage 1 only: the validated plan, `[{"task", "id", "dep", "args"}, ...]`."""
    planned = await _plan(request, await _turn(request, body))
    return planned.plan.to_list()


@router.post("/results", tags=["hugginggpt"])
async def results(request: Request, body: MessagesRequest) -> dict[str, Any]:
    """Stages 1-3: per task id, the task with resolved args, the model chosen and why, and its result."""
    from langchain_hugginggpt.agent.executor import TaskExecutor
    from langchain_hugginggpt.agent.selection import ModelSelector

    agent, turn = _state(request).agent, await _turn(request, body)
    plan = (await _plan(request, turn)).plan
    # the agent's candidates (with --experts: the Ray Serve deployments, which run the tasks too)
    selector = ModelSelector(agent.llm, agent.active_candidate_source(), k=agent.k, use_llm=agent.selection == "llm")
    selections = await selector.aselect(turn.request, plan)
    done = await TaskExecutor(agent.workspace, agent.max_concurrency, agent.task_timeout,
                              engines=agent.experts).arun(plan, selections)
    reply = {}
    for task in plan.tasks:
        result, selection = done.get(task.id), selections.get(task.id)
        reply[str(task.id)] = {
            "task": {**task.model_dump(), "args": result.args if result and result.args else task.args},
            "choose model result": {"id": selection.model_id, "reason": selection.reason} if selection else "",
            "inference result": (result.output.model_dump() if result.ok and result.output else {"error": result.error}) if result else {},
            "status": result.status if result else "skipped",
            "files": _media(request, result.files) if result else [],
        }
    return reply


# -- conversations ------------------------------------------------------------

@router.post("/conversations", status_code=201, tags=["conversations"])
async def create_conversation(request: Request) -> dict[str, Any]:
    conversation = await _state(request).store.create()
    return {"id": conversation.id, "created": conversation.created}


@router.get("/conversations/{conversation_id}", tags=["conversations"])
async def get_conversation(request: Request, conversation_id: str) -> Conversation:
    try:
        return await _state(request).store.get(conversation_id)
    except ConversationNotFound:
        raise HTTPException(404, f"no conversation {conversation_id!r}; create one with POST /conversations") from None


@router.delete("/conversations/{conversation_id}", status_code=204, tags=["conversations"])
async def delete_conversation(request: Request, conversation_id: str) -> Response:
    try:
        await _state(request).store.delete(conversation_id)
    except ConversationNotFound:
        raise HTTPException(404, f"no conversation {conversation_id!r}") from None
    return Response(status_code=204)


@router.post("/conversations/{conversation_id}/messages", tags=["conversations"],
             response_class=StreamingResponse,
             responses={200: {"content": {"text/event-stream": {}},
                              "description": "One event per stage: plan, selection, task, answer_chunk, answer, "
                                             "result (the full HuggingGPTResult), error."}})
async def send_message(request: Request, conversation_id: str, body: ChatMessage) -> EventSourceResponse:
    """Add a message to a conversation and stream the stages as server-sent events."""
    await _history(request, conversation_id)  # 404 for an unknown conversation
    problem = request_problem(body.content, "the message")
    if problem:
        raise HTTPException(400, problem)
    workspace = _state(request).workspace
    attached = []
    for name in body.files:
        name = _state(request).public.to_workspace(name)  # the `url` POST /files gave names the same file
        if URL_SCHEME.match(name):  # the workspace's own test, any case: "HTTP://..." is a URL too
            raise HTTPException(400, f"attach files by their workspace path (from POST /files), not {name!r}")
        try:
            attached.append(relative_path(workspace, workspace.resolve_input(name)))
        except WorkspaceError as exc:
            raise HTTPException(400, str(exc)) from None
    text = _state(request).public.to_workspace(body.content.strip())
    text += f" (attached: {', '.join(attached)})" if attached else ""
    turn = Turn(text, [], conversation_id, attached=attached)
    # sse-starlette: keep-alive comments while a task runs, and it sees a client that left.
    return EventSourceResponse(_events(request, turn), ping=_state(request).sse_ping_seconds)


async def _events(request: Request, turn: Turn) -> AsyncIterator[dict[str, str]]:
    """The turn runs on its own, so a client that leaves stops the stream, not the turn:
    the checkpointer still records it in the conversation."""
    queue: asyncio.Queue[dict[str, str] | None] = asyncio.Queue()
    run = asyncio.create_task(_run_turn(request, turn, queue.put_nowait))
    _RUNNING.add(run)
    run.add_done_callback(_RUNNING.discard)
    yield _sse("conversation", {"id": turn.conversation_id, "request": turn.request})
    while (event := await queue.get()) is not None:
        yield event


_RUNNING: set[asyncio.Task] = set()  # turns still running (a task only weakly referenced may vanish)


async def _run_turn(request: Request, turn: Turn, emit: Callable[[dict[str, str] | None], None]) -> None:
    try:
        async for data in _state(request).store.stream(turn.conversation_id, turn.messages()):
            event = StageEvent.model_validate(data)
            emit(_sse(event.kind, _with_media(request, event)))
    except ConversationNotFound as exc:  # deleted while it ran: nothing failed
        emit(_sse("error", {"error": str(exc)}))
    except Exception as exc:
        logger.exception("conversation turn failed")
        emit(_sse("error", {"error": f"{type(exc).__name__}: {exc}"}))
    finally:
        emit(None)


def _with_media(request: Request, event: StageEvent) -> dict[str, Any]:
    """Stage data plus the URLs of the files a task or the whole run produced."""
    if event.kind == "task" and event.task is not None:
        return {**event.data, "media": _media(request, event.task.files)}
    if event.kind == "result" and event.result is not None:
        return {**event.data, "media": _media(request, event.result.files)}
    return event.data


def _sse(kind: str, data: dict[str, Any]) -> dict[str, str]:
    return {"event": kind, "data": json.dumps(data, ensure_ascii=False, default=str)}
