"""A catalog record, and how one is read from each source format."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field

from langchain_hugginggpt.core.errors import HuggingGPTError
from langchain_hugginggpt.core.languages import LANGUAGE_NAMES
from langchain_hugginggpt.retriever.cards import short_description

Source = Literal["builtin", "import", "hub", "user"]
# Later sources win when two describe the same (task, id).
SOURCE_PRECEDENCE: tuple[Source, ...] = ("builtin", "import", "hub", "user")
HUB_ID = re.compile(r"^[A-Za-z0-9][\w.-]*(/[\w.-]+)?$")
_CARD_LANGUAGES = re.compile(r"^\W*(?:source|target) languages?\W*:\s*([\w ,+-]+)$", re.IGNORECASE | re.MULTILINE)


class CatalogError(HuggingGPTError, ValueError):
    """A catalog source could not be read, reached or changed; the message says which and why."""


class ModelRecord(BaseModel):
    """One model that could run one task."""

    id: str = Field(description="Hub repo id, built-in engine id, or a local path.")
    task: str
    description: str = Field("", description="Short description (the first sentences of the model card).")
    downloads: int = 0
    likes: int = 0
    license: str | None = None
    tags: list[str] = Field(default_factory=list)
    languages: list[str] = Field(default_factory=list)
    size: int | None = Field(None, description="Number of parameters, when known.")
    source: Source = "import"
    # Filled in against the tools registry when the catalog loads (not persisted).
    backend: str = Field("none", description="Which engine family runs it: local, transformers, ..., inference-api, none.")
    available: bool = Field(False, description="True when an engine can run it here now.")
    unavailable_reason: str | None = None
    stand_in: bool = False

    @property
    def key(self) -> tuple[str, str]:
        return (self.task, self.id)

    @property
    def is_hub_id(self) -> bool:
        return self.source != "builtin" and bool(HUB_ID.match(self.id))  # local paths are stored absolute

    def stored(self) -> dict[str, Any]:
        """What goes to disk: everything but the fields computed against the registry."""
        return self.model_dump(exclude={"backend", "available", "unavailable_reason", "stand_in"}, exclude_defaults=True)

    def embedding_text(self) -> str:
        """The text whose embedding represents this record in the index."""
        name = re.sub(r"[-_/]+", " ", self.id if self.is_hub_id or self.source == "builtin" else Path(self.id).name)
        # Not the task: every record of a task would share those words, which flattens the
        # differences that ranking within a task depends on (measured: 0.69 -> 0.51 cosine).
        parts = [f"{name}. {self.description}".strip()]
        if self.tags:
            parts.append("Tags: " + ", ".join(self.tags[:12]) + ".")
        if len(self.languages) > 12:
            parts.append(f"Multilingual ({len(self.languages)} languages).")
        elif self.languages:
            parts.append("Languages: " + ", ".join(LANGUAGE_NAMES.get(x, x) for x in self.languages) + ".")
        return " ".join(parts)

    def merged_over(self, lower: ModelRecord) -> ModelRecord:
        """This record, with empty fields filled from a lower-precedence record of the same model."""
        filled = {name: getattr(lower, name) for name in ("description", "downloads", "likes", "license", "tags",
                                                          "languages", "size") if not getattr(self, name)}
        return self.model_copy(update=filled)


def _as_list(value: Any) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    if isinstance(value, (list, tuple)):
        return [str(v) for v in value if v is not None]
    return []


def _license(value: Any) -> str | None:
    values = _as_list(value)
    return ", ".join(values) if values else None


def fallback_description(task: str, tags: list[str], languages: list[str]) -> str:
    """When a card says nothing usable: what the metadata does say."""
    words = [t for t in tags if t != task and not t.startswith(("license:", "region:", "dataset:", "arxiv:"))][:6]
    text = f"A {task} model"
    if languages:
        text += f" for {', '.join(languages[:6])}"
    return text + (f" ({', '.join(words)})." if words else ".")


def record_from_p0(row: dict[str, Any], *, max_chars: int, source: Source = "import") -> ModelRecord:
    """A row of HuggingGPT's model list (`id, task, pipeline_tag, downloads, likes, meta, description`)."""
    meta = row.get("meta") or {}
    if not isinstance(meta, dict):
        meta = {}
    task = row.get("task") or row.get("pipeline_tag")
    if not row.get("id") or not task:
        raise CatalogError("a row needs 'id' and 'task' (or 'pipeline_tag')")
    tags = _as_list(meta.get("tags"))
    languages = _as_list(meta.get("language"))
    if not languages and isinstance(row.get("description"), str):  # e.g. OPUS-MT cards list them in the body
        found = (code.strip() for line in _CARD_LANGUAGES.findall(row["description"]) for code in line.split(","))
        languages = list(dict.fromkeys(c for c in found if c))
    description = short_description(row.get("description"), max_chars, name=row["id"])
    return ModelRecord(
        id=str(row["id"]),
        task=str(task),
        description=description or fallback_description(task, tags, languages),
        downloads=int(row.get("downloads") or 0),
        likes=int(row.get("likes") or 0),
        license=_license(meta.get("license")),
        tags=tags,
        languages=languages,
        source=source,
    )
