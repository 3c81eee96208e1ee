"""One turn's input: the request and the conversation before it, bounded as a client may send them."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field, field_validator

from langchain_hugginggpt.core.schema import MAX_REQUEST_CHARS, content_text, request_problem

MAX_HISTORY_MESSAGES = 200
MAX_HISTORY_CHARS = 10 * MAX_REQUEST_CHARS


def recent_history(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The latest messages of a chat log that fit HuggingGPTInput's bounds (a long kept conversation's
    oldest turns are left out: the planner reads the recent ones)."""
    kept: list[dict[str, Any]] = []
    size = 0
    for message in reversed(messages[-MAX_HISTORY_MESSAGES:]):
        size += len(str(message.get("content", "")))
        if size > MAX_HISTORY_CHARS:
            break
        kept.append(message)
    return kept[::-1]


class HuggingGPTInput(BaseModel):
    """A request, and optionally the conversation so far ({"role", "content"} messages)."""

    request: str
    chat_history: list[dict[str, Any]] = Field(default_factory=list)

    @field_validator("chat_history", mode="before")
    @classmethod
    def _pairs_as_messages(cls, value: Any) -> Any:
        """("user", "hi") pairs, as LangChain's message shorthand writes them, are messages too; content given as
        LangChain's content blocks is read as its text (`content_text`)."""
        if isinstance(value, (list, tuple)):
            value = [{"role": m[0], "content": m[1]} if isinstance(m, (tuple, list)) and len(m) == 2 else m for m in value]
            return [{**m, "content": content_text(m["content"])} if isinstance(m, dict) and "content" in m else m
                    for m in value]
        return value

    @field_validator("request")
    @classmethod
    def _plannable(cls, value: str) -> str:
        problem = request_problem(value)
        if problem:
            raise ValueError(problem)
        return value

    @field_validator("chat_history")
    @classmethod
    def _bounded(cls, value: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """A client sends the history: without a bound, one 'it' can hand a step megabytes of earlier text."""
        size = sum(len(str(m.get("content", ""))) for m in value)
        if len(value) > MAX_HISTORY_MESSAGES or size > MAX_HISTORY_CHARS:
            raise ValueError(f"the chat history is {len(value):,} messages and {size:,} characters long; at most "
                             f"{MAX_HISTORY_MESSAGES:,} messages and {MAX_HISTORY_CHARS:,} characters are read "
                             f"(send the recent turns)")
        return value
