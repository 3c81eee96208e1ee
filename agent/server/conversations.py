"""Conversations kept on the server, so a client sends only its new message.

One SQLite file holds each conversation's chat log (the turns the planner reads
as context) and its resources: files uploaded with a message and files the
tasks produced, so "it" in a later turn can refer to them.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
import uuid
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field

DB_NAME = "conversations.sqlite3"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS conversations (
    id TEXT PRIMARY KEY,
    created REAL NOT NULL,
    updated REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS messages (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    conversation_id TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
    role TEXT NOT NULL,
    content TEXT NOT NULL,
    created REAL NOT NULL,
    details TEXT
);
CREATE TABLE IF NOT EXISTS resources (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    conversation_id TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
    path TEXT NOT NULL,
    kind TEXT NOT NULL,
    origin TEXT NOT NULL,
    created REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS messages_by_conversation ON messages(conversation_id, seq);
CREATE INDEX IF NOT EXISTS resources_by_conversation ON resources(conversation_id, seq);
"""


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


class ConversationNotFound(KeyError):
    pass


class ConversationStore:
    """Thread-safe SQLite store; one short transaction per call."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.executescript(_SCHEMA)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def create(self) -> Conversation:
        now = time.time()
        conversation_id = uuid.uuid4().hex
        with self._lock:
            self._db.execute("INSERT INTO conversations VALUES (?, ?, ?)", (conversation_id, now, now))
        return Conversation(id=conversation_id, created=now, updated=now)

    def get(self, conversation_id: str) -> Conversation:
        with self._lock:
            row = self._db.execute("SELECT id, created, updated FROM conversations WHERE id = ?",
                                   (conversation_id,)).fetchone()
            if row is None:
                raise ConversationNotFound(conversation_id)
            messages = self._db.execute(
                "SELECT role, content, created, details FROM messages WHERE conversation_id = ? ORDER BY seq",
                (conversation_id,)).fetchall()
            resources = self._db.execute(
                "SELECT path, kind, origin, created FROM resources WHERE conversation_id = ? ORDER BY seq",
                (conversation_id,)).fetchall()
        return Conversation(
            id=row[0], created=row[1], updated=row[2],
            messages=[StoredMessage(role=r, content=c, created=t, details=json.loads(d or "{}"))
                      for r, c, t, d in messages],
            resources=[Resource(path=p, kind=k, origin=o, created=t) for p, k, o, t in resources])

    def exists(self, conversation_id: str) -> bool:
        with self._lock:
            return self._db.execute("SELECT 1 FROM conversations WHERE id = ?", (conversation_id,)).fetchone() is not None

    def delete(self, conversation_id: str) -> None:
        with self._lock:
            deleted = self._db.execute("DELETE FROM conversations WHERE id = ?", (conversation_id,)).rowcount
        if not deleted:
            raise ConversationNotFound(conversation_id)

    def add_turn(self, conversation_id: str, request: str, answer: str, details: dict[str, Any] | None = None,
                 resources: Iterable[tuple[str, str, str]] = ()) -> None:
        """Append a user request and the answer to it, with the resources the turn brought in
        (`(path, kind, origin)` tuples), in one transaction."""
        now = time.time()
        with self._lock:
            try:
                self._db.execute("BEGIN")
                updated = self._db.execute("UPDATE conversations SET updated = ? WHERE id = ?",
                                           (now, conversation_id)).rowcount
                if not updated:
                    raise ConversationNotFound(conversation_id)
                self._db.executemany(
                    "INSERT INTO messages (conversation_id, role, content, created, details) VALUES (?, ?, ?, ?, ?)",
                    [(conversation_id, "user", request, now, None),
                     (conversation_id, "assistant", answer, now, json.dumps(details or {}, ensure_ascii=False))])
                self._db.executemany(
                    "INSERT INTO resources (conversation_id, path, kind, origin, created) VALUES (?, ?, ?, ?, ?)",
                    [(conversation_id, path, kind, origin, now) for path, kind, origin in resources])
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
