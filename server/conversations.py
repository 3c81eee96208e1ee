"""Conversations kept on the server, so a client sends only its new message.

A conversation is a LangGraph thread of the agent's graph (agent/graph.py), kept by the
SQLite checkpointer in the data folder that `hugginggpt chat` uses too. The thread's
messages are the chat log the planner reads as context; each answer (an AIMessage)
carries the plan, planner, error and files of its turn in `response_metadata`, and a
request sent with uploads names them in `additional_kwargs["attached"]`, so "it" in a
later turn can refer to them. This module only shows threads in the routes' shapes.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
import uuid
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, Literal

from langchain_core.messages import BaseMessage, HumanMessage
from pydantic import BaseModel, Field

from langchain_hugginggpt.agent.checkpoints import checkpoint_time, sqlite_checkpointer
from langchain_hugginggpt.agent.graph import NAME, ROLES, build_graph, result_from_state
from langchain_hugginggpt.agent.hugginggpt import HuggingGPT
from langchain_hugginggpt.core.errors import HuggingGPTError
from langchain_hugginggpt.core.schema import HuggingGPTResult
from langchain_hugginggpt.server.files import media_entry
from langchain_hugginggpt.core.workspace import Workspace, media_type, relative_path

class StoredMessage(BaseModel):
    role: Literal["user", "assistant", "system"]
    content: str
    created: float
    details: dict[str, Any] = Field(default_factory=dict, description="e.g. the plan and files of an answer.")


class Resource(BaseModel):
    path: str = Field(description="Workspace-relative path, usable in a request.")
    kind: str = Field(description="image, audio, video or text.")
    origin: Literal["upload", "output"]
    created: float


class Conversation(BaseModel):
    id: str
    created: float
    updated: float
    messages: list[StoredMessage] = Field(default_factory=list)
    resources: list[Resource] = Field(default_factory=list)

    def chat_history(self) -> list[dict[str, str]]:
        """The turns as the agent takes them: `{"role", "content"}` dicts."""
        return [{"role": m.role, "content": m.content} for m in self.messages]


class ConversationNotFound(HuggingGPTError, KeyError):
    pass


class ConversationDeleted(ConversationNotFound):
    """The conversation was deleted while this turn of it ran: the turn stopped and left nothing behind."""

    def __str__(self) -> str:
        return f"conversation {self.args[0]!r} was deleted while this turn ran"


class ConversationThreads:
    """The agent's graph with the SQLite checkpointer, and the threads it keeps, as conversations."""

    def __init__(self, agent: Any, path: str | Path, workspace: Workspace) -> None:
        self.workspace, self.path = workspace, Path(path)  # the checkpoint file (kept out of responses)
        self.checkpointer = sqlite_checkpointer(path)
        # The graph runs the stages of a HuggingGPT; another kind of agent serves the stateless routes only.
        self.graph = build_graph(agent, checkpointer=self.checkpointer) if isinstance(agent, HuggingGPT) else None
        # Each conversation's lock with the number of callers holding or awaiting it: dropped at zero, so the
        # table holds only conversations in use (it would otherwise keep one lock per id ever served).
        self._turns: dict[str, tuple[asyncio.Lock, list[int]]] = {}
        self._running: dict[str, asyncio.Task] = {}  # the turn each conversation is running
        self._deleting: set[str] = set()

    def close(self) -> None:
        self.checkpointer.close()

    @staticmethod
    def _config(conversation_id: str) -> dict[str, Any]:
        return {"configurable": {"thread_id": conversation_id}}

    def _graph(self) -> Any:
        if self.graph is None:
            raise RuntimeError("conversations need a HuggingGPT agent: this server's agent is not one")
        return self.graph

    async def create(self) -> Conversation:
        conversation_id, now = uuid.uuid4().hex, time.time()
        # An idle thread with no messages, as if a last request had been answered.
        await self._graph().aupdate_state({**self._config(conversation_id), "metadata": {"created": now}},
                                          {"messages": []}, as_node="respond")
        return Conversation(id=conversation_id, created=now, updated=now)

    async def messages(self, conversation_id: str) -> list[BaseMessage]:
        snapshot = await self._graph().aget_state(self._config(conversation_id))
        if snapshot.created_at is None:
            raise ConversationNotFound(conversation_id)
        return list(snapshot.values.get("messages") or [])

    async def get(self, conversation_id: str) -> Conversation:
        config = self._config(conversation_id)
        snapshot = await self._graph().aget_state(config)
        if snapshot.created_at is None:
            raise ConversationNotFound(conversation_id)
        updated = checkpoint_time(snapshot.created_at)
        created = await self.checkpointer.athread_created(config) or updated
        messages, resources = self._shown(snapshot.values.get("messages") or [], updated)
        return Conversation(id=conversation_id, created=created, updated=updated, messages=messages,
                            resources=resources)

    async def delete(self, conversation_id: str) -> None:
        """Delete the thread, and give its pages back to the file system (`ThreadedSqliteSaver.reclaim`); a turn
        it is running stops first (else its last checkpoint would bring the conversation back when it ends)."""
        await self.messages(conversation_id)  # ConversationNotFound for an unknown id
        self._deleting.add(conversation_id)  # turns queued behind this delete stop too
        if (running := self._running.get(conversation_id)) is not None:
            running.cancel()
        try:
            async with self._lock(conversation_id):
                await self.checkpointer.adelete_thread(conversation_id)
        finally:
            self._deleting.discard(conversation_id)

    async def run(self, conversation_id: str, messages: list[BaseMessage]) -> HuggingGPTResult:
        """One turn: the new messages (the last is the request) added to the thread, the answer to it."""
        async with self._turn(conversation_id) as config:
            state = await self._graph().ainvoke({"messages": messages}, config)
        return result_from_state(state)

    async def stream(self, conversation_id: str, messages: list[BaseMessage]) -> AsyncIterator[dict[str, Any]]:
        """One turn, as the stage events of the graph's `custom` stream (`{"kind", "data"}`)."""
        async with self._turn(conversation_id) as config:
            async for event in self._graph().astream({"messages": messages}, config, stream_mode="custom"):
                yield event

    @contextlib.asynccontextmanager
    async def _turn(self, conversation_id: str) -> AsyncIterator[dict[str, Any]]:
        """The conversation's turn, one at a time, cancelled by a delete (ConversationDeleted); it gives the
        config to run the graph with, and prunes the thread once the turn is done."""
        async with self._lock(conversation_id):
            # A turn that waited for the lock may find its thread deleted (or being deleted) meanwhile: running
            # it would write the thread back.
            if conversation_id in self._deleting:
                raise ConversationDeleted(conversation_id)
            config = self._config(conversation_id)
            created = await self.checkpointer.athread_created(config)
            if created is None:
                raise ConversationNotFound(conversation_id)  # deleted
            # Each checkpoint of the turn carries the conversation's `created` (LangGraph copies a run's config
            # metadata into them): pruning removes the first checkpoint, which had it.
            config["metadata"] = {"created": created}
            self._running[conversation_id] = asyncio.current_task()
            try:
                yield config
            except asyncio.CancelledError:
                if conversation_id in self._deleting:
                    raise ConversationDeleted(conversation_id) from None
                raise
            finally:
                self._running.pop(conversation_id, None)
            # Only the latest checkpoint is needed to go on (LangGraph's `prune`): the thread's storage grows
            # with its length, not with its length squared. A turn that failed is pruned by the next one.
            await self.checkpointer.aprune([conversation_id])

    @contextlib.asynccontextmanager
    async def _lock(self, conversation_id: str) -> AsyncIterator[None]:
        """Turns of one conversation run one after the other: each reads the thread the one before wrote."""
        lock, users = self._turns.setdefault(conversation_id, (asyncio.Lock(), [0]))
        users[0] += 1
        try:
            async with lock:
                yield
        finally:
            users[0] -= 1
            if not users[0]:
                del self._turns[conversation_id]

    def _shown(self, messages: list[BaseMessage], updated: float) -> tuple[list[StoredMessage], list[Resource]]:
        """The thread's turns and files in the routes' shapes; a request is dated by the answer to it."""
        shown: list[StoredMessage] = []
        resources: list[Resource] = []
        pending: list[tuple[StoredMessage, list[str]]] = []  # requests not answered yet, with their uploads
        for message in messages:
            if message.type not in ROLES:
                continue  # tool calls and results are not turns of the conversation
            if message.type == "ai" and message.name == NAME:
                meta = message.response_metadata
                created = meta.get("created", updated)
                for request, attached in pending:
                    request.created = created
                    resources += [_resource(path, "upload", created) for path in attached]
                pending = []
                files = meta.get("files") or []
                media = [m for f in files if (m := media_entry(self.workspace, f))]
                details = {"planner": meta.get("planner"), "plan": meta.get("plan", []), "files": media,
                           "error": meta.get("error")}
                shown.append(StoredMessage(role="assistant", content=message.text, created=created, details=details))
                resources += [_resource(rel, "output", created) for f in files
                              if (rel := relative_path(self.workspace, f))]
                continue
            stored = StoredMessage(role=ROLES[message.type], content=message.text, created=updated)
            shown.append(stored)
            if message.type == "human":
                pending.append((stored, list(message.additional_kwargs.get("attached") or [])))
        resources += [_resource(path, "upload", updated) for _, attached in pending for path in attached]
        return shown, resources


def request_message(text: str, attached: list[str] | None = None) -> HumanMessage:
    """A request for the thread; `attached` names the uploads sent with it (workspace paths)."""
    return HumanMessage(text, additional_kwargs={"attached": list(attached)} if attached else {})


def _resource(path: str, origin: Literal["upload", "output"], created: float) -> Resource:
    return Resource(path=path, kind=media_type(path), origin=origin, created=created)
