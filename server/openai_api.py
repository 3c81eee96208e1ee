"""OpenAI's chat-completions API on `hugginggpt serve`: `POST /v1/chat/completions`, `GET /v1/models`.

Any chat UI or SDK that speaks OpenAI's API (the official `openai` client, Open WebUI, LibreChat) can
talk to HuggingGPT: `model` is "hugginggpt", the last user message is the request and the messages
before it are the chat log (as the original HuggingGPT routes read them, routes.py). A message's
content may be OpenAI's content parts: a text part, and an `image_url` part with an http(s) URL (fetched
under the workspace's URL rules when a task reads it) or a `data:` URL (kept in the workspace's
`uploads/` under the rules for files sent inline, `Workspace.save_inline`).

The answer is the agent's answer followed by its files as Markdown, `![name](/files/outputs/...)` for
pictures and `[name](/files/outputs/...)` for the rest; sent back in a later chat log those URLs name
the workspace files again. `stream: true` sends server-sent chunks: one per stage and task as it
finishes, as `reasoning_content` (chat UIs show it as the model's progress, and the `content` joined
is exactly the answer), then the answer as `content`, then `data: [DONE]`.

Errors on /v1/ come in OpenAI's shape, `{"error": {"message", "type", "param", "code"}}`, whoever
refused the request (the guard's auth, a validation error, a route that is not there):
`OpenAIErrors` rewrites the server's own error bodies there.
"""

from __future__ import annotations

import asyncio
import json
import time
import uuid
from collections.abc import AsyncIterator, Callable
from pathlib import PurePosixPath
from typing import Any, Literal

from fastapi import APIRouter, HTTPException, Request
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from sse_starlette import EventSourceResponse

from langchain_hugginggpt.agent.hugginggpt import HuggingGPTInput
from langchain_hugginggpt.agent.progress import progress_line
from langchain_hugginggpt.core.schema import HuggingGPTResult, StageEvent, content_text
from langchain_hugginggpt.server.files import media_entry
from langchain_hugginggpt.server.guard import app_path
from langchain_hugginggpt.server.routes import Message, MessagesRequest, _turn
from langchain_hugginggpt.core.workspace import WorkspaceError

MODEL = "hugginggpt"
PREFIX = "/v1/"
router = APIRouter(prefix="/v1", tags=["openai"])
_STARTED = int(time.time())


class ChatMessage(BaseModel):
    """One message as OpenAI sends it; `tool` messages and tool calls are not part of HuggingGPT's chat log."""

    role: Literal["system", "developer", "user", "assistant", "tool", "function"]
    content: str | list[dict[str, Any]] | None = None
    model_config = ConfigDict(extra="ignore")


class ChatCompletionRequest(BaseModel):
    """The fields HuggingGPT reads; the sampling options (temperature, max_tokens, ...) are accepted and ignored:
    the controller's preset sets them."""

    model: str
    messages: list[ChatMessage] = Field(min_length=1)
    stream: bool = False
    model_config = ConfigDict(extra="ignore")


def _model_entry() -> dict[str, Any]:
    return {"id": MODEL, "object": "model", "created": _STARTED, "owned_by": "langchain-hugginggpt"}


@router.get("/models")
async def list_models() -> dict[str, Any]:
    return {"object": "list", "data": [_model_entry()]}


@router.get("/models/{model}")
async def get_model(model: str) -> dict[str, Any]:
    if model != MODEL:
        raise HTTPException(404, f"the model {model!r} does not exist; this server offers {MODEL!r}")
    return _model_entry()


@router.post("/chat/completions", response_model=None)
async def chat_completions(request: Request) -> Any:
    body = await _read(request)
    state = request.app.state.hugginggpt
    try:  # a data: URL is decoded and kept on disk: off the event loop
        messages = await asyncio.to_thread(_as_messages, body.messages, state.workspace.save_inline)
    except WorkspaceError as exc:
        raise HTTPException(400, f"invalid request: messages: {exc}") from None
    if not messages:
        raise HTTPException(400, "invalid request: messages: no user, assistant or system message")
    turn = await _turn(request, MessagesRequest(messages=messages))
    try:  # checked before a stream starts: a chat log over the agent's bounds is the client's error, said as such
        agent_input = HuggingGPTInput.model_validate(turn.input)
    except ValidationError as exc:
        raise HTTPException(400, f"invalid request: messages: {exc.errors()[0]['msg'].removeprefix('Value error, ')}"
                            ) from None
    completion_id, created = f"chatcmpl-{uuid.uuid4().hex[:24]}", int(time.time())
    if body.stream:
        chunks = _chunks(state.agent.astream(agent_input), request, completion_id, created)
        return EventSourceResponse(chunks, ping=state.sse_ping_seconds)
    result = await state.agent.ainvoke(agent_input)
    return {"id": completion_id, "object": "chat.completion", "created": created, "model": MODEL,
            "choices": [{"index": 0, "finish_reason": "stop",
                         "message": {"role": "assistant", "content": _answer(request, result)}}],
            "usage": {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0}}


async def _read(request: Request) -> ChatCompletionRequest:
    """The body, validated here rather than by FastAPI, so that an unknown model is told apart (404)."""
    try:
        body = ChatCompletionRequest.model_validate(await request.json())
    except ValueError as exc:  # not JSON, or a ValidationError
        if isinstance(exc, ValidationError):
            first = exc.errors()[0]
            where = ".".join(str(part) for part in first["loc"])
            raise HTTPException(400, f"invalid request: {where}: {first['msg']}") from None
        raise HTTPException(400, "invalid request: the body is not valid JSON") from None
    if body.model != MODEL:
        raise HTTPException(404, f"the model {body.model!r} does not exist; this server offers {MODEL!r}")
    return body


def _as_messages(messages: list[ChatMessage], save_inline: Callable[[str], str]) -> list[Message]:
    """OpenAI's messages as the original routes' `Message`s: content parts as their text and URLs, inline files
    kept in the workspace and named by their paths."""
    roles = {"developer": "system"}
    return [Message(role=roles.get(m.role, m.role), content=content_text(m.content, save_inline))
            for m in messages if m.role in ("system", "developer", "user", "assistant")]


def _answer(request: Request, result: HuggingGPTResult) -> str:
    return result.answer + _files_markdown(request, result.files)


def _files_markdown(request: Request, files: list[str]) -> str:
    """The files as Markdown a chat UI shows: pictures inline, other files as links."""
    lines = []
    for path in files:
        entry = media_entry(request.app.state.hugginggpt.workspace, path)
        if entry is not None:
            name = PurePosixPath(entry["path"]).name
            lines.append(f"{'!' if entry['kind'] == 'image' else ''}[{name}]({entry['url']})")
    return "\n\n" + "\n\n".join(lines) if lines else ""


async def _chunks(events: AsyncIterator[StageEvent], request: Request, completion_id: str,
                  created: int) -> AsyncIterator[dict[str, str]]:
    def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, str]:
        return {"data": json.dumps({"id": completion_id, "object": "chat.completion.chunk", "created": created,
                                    "model": MODEL, "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]},
                                   ensure_ascii=False)}

    yield chunk({"role": "assistant", "content": ""})
    answered = False
    try:
        async for event in events:
            if (line := progress_line(event)) is not None:
                yield chunk({"reasoning_content": line})
            elif event.kind == "answer_chunk" and event.text:
                answered = True
                yield chunk({"content": event.text})
            elif event.kind == "answer" and not answered:  # a chat reply, or a failure's message: no chunks came
                answered = True
                yield chunk({"content": event.answer})
            elif event.kind == "result" and event.result is not None:
                result = event.result
                if files := _files_markdown(request, result.files):
                    yield chunk({"content": files})
    finally:
        await events.aclose()  # a client that left stops the run at its next step
    yield chunk({}, "stop")
    yield {"data": "[DONE]"}


_ERROR_TYPES = {400: "invalid_request_error", 401: "authentication_error", 403: "permission_error",
                404: "not_found_error", 413: "invalid_request_error", 415: "invalid_request_error",
                422: "invalid_request_error", 429: "rate_limit_error"}


class OpenAIErrors:
    """On /v1/ paths, the server's error bodies (`{"error": message, "status": code}`) in OpenAI's shape."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict, receive: Callable, send: Callable) -> None:
        if scope["type"] != "http" or not app_path(scope).startswith(PREFIX):
            return await self.app(scope, receive, send)
        start: dict | None = None
        body: list[bytes] = []

        async def reshaping_send(message: dict) -> None:
            nonlocal start
            if message["type"] == "http.response.start" and message["status"] >= 400:
                start = message  # held until the body is known
                return
            if start is None or message["type"] != "http.response.body":
                return await send(message)
            body.append(message.get("body", b""))
            if message.get("more_body", False):
                return
            reshaped = _openai_error(b"".join(body), start["status"])
            headers = [(k, v) for k, v in start["headers"] if k.lower() != b"content-length"]
            await send({**start, "headers": [*headers, (b"content-length", str(len(reshaped)).encode())]})
            await send({"type": "http.response.body", "body": reshaped})

        await self.app(scope, receive, reshaping_send)


def _openai_error(body: bytes, status: int) -> bytes:
    try:
        sent = json.loads(body)
    except ValueError:
        sent = {"error": body.decode("utf-8", "replace")}
    message = sent.get("error") if isinstance(sent, dict) else None
    if not isinstance(message, str):  # already OpenAI's shape, or something else: left as it is
        return body
    code = "model_not_found" if status == 404 and "model" in message else None
    kind = _ERROR_TYPES.get(status, "server_error" if status >= 500 else "invalid_request_error")
    return json.dumps({"error": {"message": message, "type": kind, "param": None, "code": code}},
                      ensure_ascii=False).encode()
