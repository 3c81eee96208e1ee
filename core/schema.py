"""The data that flows through the pipeline: request -> plan -> selections -> results -> answer.

Every stage reads the output of the one before and writes its own, so each of
these models is also what gets logged, streamed and returned.
"""

from __future__ import annotations

import re
from typing import Any, Callable, Literal

from pydantic import BaseModel, Field, field_validator, model_serializer, model_validator

ResourceType = Literal["text", "image", "audio", "video"]
RESOURCE_TYPES: tuple[str, ...] = ("text", "image", "audio", "video")

# `<resource>-3` is the paper's spelling, `<GENERATED>-3` the original code's.
# The longest request planned. Planning reads every clause of a request, and a server takes bodies of up to
# 2 MB: past this a request is refused by name rather than planned for minutes. Long texts belong in files.
MAX_REQUEST_CHARS = 20_000


def content_text(content: Any, save_inline: Callable[[str], str] | None = None) -> str:
    """A chat message's content as text: a string as it is; LangChain's content blocks (a list, or one block) as
    their texts and the URLs of their images, audio and files, one per line, so a file named in an earlier turn
    stays a file the planner can read; anything else as its string. A file sent inline (a base64 data: URL) is
    named by the path `save_inline` keeps it at, and left out without it."""
    if isinstance(content, str):
        return content
    if content is None:
        return ""
    if isinstance(content, dict):
        content = [content]
    if not isinstance(content, (list, tuple)):
        return str(content)
    parts = []
    for block in content:
        if isinstance(block, str):
            parts.append(block)
        elif isinstance(block, dict):
            text = block.get("text")
            # OpenAI's {"image_url": {"url": ...}} or a plain URL; LangChain's v1 {"type": "image", "url": ...}
            # or {"type": "image", "base64": ..., "mime_type": ...}
            url = next((v.get("url") if isinstance(v, dict) else v for k in ("image_url", "audio_url", "url")
                        if (v := block.get(k))), None)
            if url is None and isinstance(block.get("base64") or block.get("data"), str):
                url = f"data:{block.get('mime_type', '')};base64,{block.get('base64') or block.get('data')}"
            if isinstance(text, str):
                parts.append(text)
            elif isinstance(url, str) and not url.startswith("data:"):
                parts.append(url)
            elif isinstance(url, str) and save_inline is not None:
                parts.append(save_inline(url))
    return "\n".join(p for p in parts if p)


def request_problem(request: str, name: str = "the request") -> str | None:
    """Why a request cannot be planned (empty, too long), or None; `name` is what the message calls it. Every
    front checks requests with it."""
    if not request.strip():
        return f"{name} is empty"
    if len(request) > MAX_REQUEST_CHARS:
        return (f"{name} is {len(request):,} characters long; at most {MAX_REQUEST_CHARS:,} are planned "
                f"(put a long text in a file and name the file)")
    return None


REFERENCE_RE = re.compile(r"<(?:resource|GENERATED|generated)>-(\d+)")


def references_in(value: Any) -> list[int]:
    """Task ids referenced by an argument value, in order of appearance."""
    if not isinstance(value, str):
        return []
    return [int(m) for m in REFERENCE_RE.findall(value)]


class Task(BaseModel):
    """One node of a plan: `{"task", "id", "dep", "args"}` as in the paper."""

    task: str = Field(description="Task type, e.g. 'object-detection'.")
    id: int = Field(ge=0, description="Unique id of the task within the plan.")
    dep: list[int] = Field(
        default_factory=lambda: [-1],
        description="Ids of tasks whose outputs this task uses; [-1] when none.",
    )
    args: dict[str, Any] = Field(
        default_factory=dict,
        description="Inputs by slot name (text, image, audio, video, ...): a literal, "
        "a path or URL, or `<resource>-N` for the output of task N.",
    )

    @field_validator("dep", mode="before")
    @classmethod
    def _dep_as_list(cls, value: Any) -> Any:
        if value is None:
            return [-1]
        if isinstance(value, (int, str)):
            value = [value]
        if isinstance(value, list) and any(isinstance(v, bool) for v in value):
            raise ValueError("task ids are integers, not true/false")
        return value

    @field_validator("id", mode="before")
    @classmethod
    def _id_not_bool(cls, value: Any) -> Any:
        if isinstance(value, bool):  # pydantic would read true as 1
            raise ValueError("a task id is an integer, not true/false")
        return value

    @property
    def dependencies(self) -> list[int]:
        """`dep` without the paper's `-1` placeholder."""
        return [d for d in self.dep if d != -1]

    def referenced_ids(self) -> list[int]:
        ids: list[int] = []
        for value in self.args.values():
            for ref in references_in(value):
                if ref not in ids:
                    ids.append(ref)
        return ids


class Plan(BaseModel):
    """A list of tasks forming a DAG. Empty means chit-chat."""

    tasks: list[Task] = Field(default_factory=list)

    def __iter__(self):  # type: ignore[override]
        return iter(self.tasks)

    def __len__(self) -> int:
        return len(self.tasks)

    def by_id(self) -> dict[int, Task]:
        return {t.id: t for t in self.tasks}

    def to_list(self) -> list[dict[str, Any]]:
        return [t.model_dump() for t in self.tasks]


class Candidate(BaseModel):
    """A model that could run a task, as shown to the selection chain."""

    id: str
    task: str
    description: str = ""
    downloads: int = 0
    likes: int = 0
    backend: str = "local"
    available: bool = True
    score: float | None = None
    stand_in: bool = False
    details: dict[str, Any] = Field(default_factory=dict, description="How the score was made (e.g. similarity, popularity).")


class Selection(BaseModel):
    """Which model runs a task, and why."""

    task_id: int
    model_id: str | None
    reason: str
    candidates: list[Candidate] = Field(default_factory=list)


TaskStatus = Literal["ok", "error", "skipped"]


class ExpertOutput(BaseModel):
    """A task's result: the transformers-pipeline-shaped `result`, plus the
    resources a later task can reference as `<resource>-N`."""

    model: str
    result: Any = None
    text: str | None = Field(None, description="Text this task produced (a caption, a transcript, a label summary).")
    image: str | None = Field(None, description="Path of the image this task wrote.")
    audio: str | None = Field(None, description="Path of the audio file this task wrote.")
    video: str | None = Field(None, description="Path of the video this task wrote.")
    files: list[str] = Field(default_factory=list)
    stand_in: bool = Field(False, description="True when a heuristic stood in for a missing model.")
    note: str | None = None
    served_by: dict[str, Any] | None = Field(
        None, description="Where a remote expert ran: its Ray Serve deployment and replica; None when local.")

    def model_post_init(self, __context: Any) -> None:
        for path in (self.image, self.audio, self.video):
            if path and path not in self.files:
                self.files.append(path)


class TaskResult(BaseModel):
    """What running one task produced, or why it did not."""

    task_id: int
    task: str
    status: TaskStatus
    model_id: str | None = None
    args: dict[str, Any] = Field(default_factory=dict, description="Arguments after references were resolved.")
    output: ExpertOutput | None = None
    files: list[str] = Field(default_factory=list)
    error: str | None = None
    served_by: dict[str, Any] | None = Field(
        None, description="Where it ran, for a remote expert: {'deployment', 'replica', ...}; None when local.")
    started_at: float | None = None
    ended_at: float | None = None

    @property
    def ok(self) -> bool:
        return self.status == "ok"


StageKind = Literal["plan", "selection", "task", "answer_chunk", "answer", "result", "error"]


class StageEvent(BaseModel):
    """One item of `HuggingGPT.stream` (and of the graph's `stream_mode="custom"`): a stage or a task finished.

    The payload is typed, one field per kind: `plan` (with `planner`, `repairs`), `selections`, `task`, `text`
    (an answer chunk), `answer`, `result` (the whole HuggingGPTResult), `error`. On the wire (JSON, server-sent
    events, LangServe, LangGraph Server) an event is `{"kind", "data"}` with `data` the JSON of its payload, and
    it reads back from that shape."""

    kind: StageKind
    planner: str | None = None
    plan: list[Task] | None = None
    repairs: list[str] = Field(default_factory=list)
    selections: dict[int, Selection] | None = None
    task: TaskResult | None = None
    text: str | None = None
    answer: str | None = None
    result: "HuggingGPTResult | None" = None
    error: str | None = None

    @model_validator(mode="before")
    @classmethod
    def _from_wire(cls, value: Any) -> Any:
        """`{"kind", "data"}`, as `data` serializes it, to the typed fields."""
        if not isinstance(value, dict) or "data" not in value:
            return value
        kind, data = value.get("kind"), value["data"] or {}
        if kind == "selection":
            return {"kind": kind, "selections": data}
        if kind == "task":
            return {"kind": kind, "task": data}
        if kind == "result":
            return {"kind": kind, "result": data}
        return {"kind": kind, **data}

    @property
    def data(self) -> dict[str, Any]:
        """The payload as JSON-ready data, the wire's `data`."""
        if self.kind == "plan":
            return {"planner": self.planner, "plan": [t.model_dump(mode="json") for t in self.plan or []],
                    "repairs": list(self.repairs)}
        if self.kind == "selection":
            return {str(k): s.model_dump(mode="json") for k, s in (self.selections or {}).items()}
        if self.kind == "task":
            return self.task.model_dump(mode="json") if self.task is not None else {}
        if self.kind == "result":
            return self.result.model_dump(mode="json") if self.result is not None else {}
        if self.kind == "answer_chunk":
            return {"text": self.text}
        return {self.kind: getattr(self, self.kind)}  # answer, error

    @model_serializer(mode="plain")
    def _to_wire(self) -> dict[str, Any]:
        return {"kind": self.kind, "data": self.data}


class HuggingGPTResult(BaseModel):
    """Everything one request produced, stage by stage."""

    request: str
    planner: str = Field("", description="Which path produced the plan (e.g. 'llm', 'retrieval').")
    plan: list[Task] = Field(default_factory=list)
    selections: dict[int, Selection] = Field(default_factory=dict)
    results: dict[int, TaskResult] = Field(default_factory=dict)
    answer: str = ""
    timings: dict[str, float] = Field(default_factory=dict)
    error: str | None = None

    @property
    def files(self) -> list[str]:
        return [f for r in self.results.values() for f in r.files]


StageEvent.model_rebuild()
