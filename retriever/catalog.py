"""The model catalog: every model that could run a task, from four merged sources.

1. built-in: every engine registered in the tools registry (derived, never listed by hand);
2. import: a JSONL file in HuggingGPT's model-list format (e.g. its `p0_models.jsonl`);
3. hub: a refresh from the Hugging Face Hub (`huggingface_hub`), when online;
4. user: models added by hand (a Hub id or a local path, with a description).

Sources 2-4 persist as JSONL files under `data_dir()/catalog/`. When two sources describe
the same (task, id), the later one in that list wins and the earlier fills its gaps.
Whether a record can run here is computed against the tools registry at load time.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable, Iterator
from pathlib import Path

from pydantic import BaseModel, Field

from langchain_hugginggpt.retriever.cards import DEFAULT_MAX_CHARS
from langchain_hugginggpt.core.paths import data_dir
from langchain_hugginggpt.retriever.records import (
    HUB_ID,
    SOURCE_PRECEDENCE,
    CatalogError,
    ModelRecord,
    Source,
    record_from_p0,
)
from langchain_hugginggpt.core.tasks import TASKS

logger = logging.getLogger(__name__)

# HuggingGPT's own model list (microsoft/JARVIS, hugginggpt/server/data/p0_models.jsonl; MIT, data/LICENSE):
# 673 Hub models over 24 tasks, shipped so `hugginggpt models import` works with no file at hand.
P0_MODELS = Path(__file__).parent / "data" / "p0_models.jsonl"

Key = tuple[str, str]
STORED_SOURCES: tuple[Source, ...] = ("import", "hub", "user")
CHECK_FAILED = "availability check failed"


class ImportReport(BaseModel):
    """What an import or refresh changed."""

    added: int = 0
    updated: int = 0
    skipped: list[str] = Field(default_factory=list, description="Rows left out, with why.")


def builtin_records() -> list[ModelRecord]:
    """One record per engine registered in the tools registry, for every task."""
    from langchain_hugginggpt.tools.registry import engines_for

    return [
        ModelRecord(id=cls.model_id, task=task, description=cls.description, license=cls.license, source="builtin")
        for task in TASKS
        for cls in engines_for(task)
    ]


def resolve_runtime(record: ModelRecord) -> ModelRecord:
    """The record with backend, availability and stand-in flag taken from the tools registry:
    a registered engine, else `engine_for_hub_model` (transformers/diffusers locally, or the
    inference API when a token is configured)."""
    from langchain_hugginggpt.tools.registry import engine_class

    try:
        cls = engine_class(record.task, record.id)
        if cls is None and record.task in TASKS:
            from langchain_hugginggpt.tools.engines.hf_transformers import engine_for_hub_model

            cls = engine_for_hub_model(record.task, record.id)
        reason = None if cls is None else cls().unavailable_reason()
    except Exception as exc:  # one engine's broken check must not take the catalog down
        logger.debug("availability check for %s (%s) failed: %s", record.id, record.task, exc)
        return record.model_copy(update={"backend": "none", "available": False, "stand_in": False,
                                         "unavailable_reason": f"{CHECK_FAILED}: {type(exc).__name__}: {exc}"})
    if cls is None:
        return record.model_copy(update={"backend": "none", "available": False, "stand_in": False,
                                         "unavailable_reason": f"no engine can run {record.id} for {record.task}"})
    return record.model_copy(update={"backend": cls.backend, "available": reason is None,
                                     "stand_in": bool(cls.stand_in), "unavailable_reason": reason})


class ModelCatalog:
    """The merged catalog. `ModelCatalog()` reads the user's data folder;
    `ModelCatalog(directory=None, persist=False)` starts empty in memory."""

    def __init__(self, directory: str | Path | None = None, *, persist: bool = True, include_builtin: bool = True,
                 max_description_chars: int = DEFAULT_MAX_CHARS) -> None:
        self.persist = persist
        self.directory = Path(directory) if directory else (data_dir() / "catalog" if persist else None)
        self.include_builtin = include_builtin
        self.max_description_chars = max_description_chars
        self._sources: dict[Source, dict[Key, ModelRecord]] = {s: {} for s in SOURCE_PRECEDENCE}
        self._merged: dict[Key, ModelRecord] | None = None
        self.version = 0  # bumped on every change, so an index built from an older state is rebuilt
        self.reload()

    @classmethod
    def from_records(cls, records: Iterable[ModelRecord], include_builtin: bool = False) -> ModelCatalog:
        """An in-memory catalog (nothing read or written on disk)."""
        catalog = cls(persist=False, include_builtin=include_builtin)
        for record in records:
            catalog._sources[record.source][record.key] = record
        catalog.version += 1
        return catalog

    # -- reading -------------------------------------------------------------------------

    def reload(self) -> None:
        """Read the stored sources again and recompute availability."""
        if self.include_builtin:
            self._sources["builtin"] = {r.key: r for r in builtin_records()}
        if self.persist:
            for source in STORED_SOURCES:
                self._sources[source] = {r.key: r for r in self._read(source)}
        self._merged = None
        self.version += 1

    def _path(self, source: Source) -> Path:
        assert self.directory is not None
        return self.directory / f"{source}.jsonl"

    def _read(self, source: Source) -> list[ModelRecord]:
        path = self._path(source)
        if not path.exists():
            return []
        records = []
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if line.strip():
                try:
                    records.append(ModelRecord.model_validate_json(line))
                except ValueError as exc:
                    raise CatalogError(f"catalog file {path} line {n} is not a valid record: {exc}") from exc
        return records

    def _write(self, source: Source) -> None:
        self._merged = None
        self.version += 1
        if not self.persist:
            return
        path = self._path(source)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        with tmp.open("w", encoding="utf-8") as f:
            for record in self._sources[source].values():
                f.write(json.dumps(record.stored(), ensure_ascii=False) + "\n")
        tmp.replace(path)  # readers never see a half-written file

    def _merge(self) -> dict[Key, ModelRecord]:
        if self._merged is None:
            merged: dict[Key, ModelRecord] = {}
            for source in SOURCE_PRECEDENCE:
                for key, record in self._sources[source].items():
                    merged[key] = record.merged_over(merged[key]) if key in merged else record
            order = {name: i for i, name in enumerate(TASKS)}
            ranked = sorted(merged.values(), key=lambda r: (order.get(r.task, len(order)), r.task, -r.downloads, r.id))
            self._merged = {r.key: resolve_runtime(r) for r in ranked}
            failed = [r for r in self._merged.values() if (r.unavailable_reason or "").startswith(CHECK_FAILED)]
            if failed:
                logger.warning("availability checks failed for %d catalog models, e.g. %s: %s",
                               len(failed), failed[0].id, failed[0].unavailable_reason)
        return self._merged

    def records(self, task: str | None = None) -> list[ModelRecord]:
        """Merged records, by task (in the task table's order), most downloaded first."""
        return [r for r in self._merge().values() if task is None or r.task == task]

    def get(self, task: str, model_id: str) -> ModelRecord | None:
        return self._merge().get((task, model_id))

    def tasks(self) -> list[str]:
        return list(dict.fromkeys(r.task for r in self._merge().values()))

    def __iter__(self) -> Iterator[ModelRecord]:
        return iter(self.records())

    def __len__(self) -> int:
        return len(self._merge())

    # -- changing ------------------------------------------------------------------------

    def import_file(self, path: str | Path) -> ImportReport:
        """Import a JSONL file in HuggingGPT's model-list format (`id, task, pipeline_tag,
        downloads, likes, meta, description`). Rows for tasks we do not know are skipped."""
        path = Path(path)
        if not path.is_file():
            raise CatalogError(f"cannot import {path}: " + ("it is a folder" if path.is_dir() else "no such file"))
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError as exc:
            raise CatalogError(f"cannot import {path}: not UTF-8 text (byte {exc.object[exc.start]:#04x} at "
                               f"offset {exc.start}); a model list is JSON lines") from None
        rows = []
        for n, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError as exc:
                raise CatalogError(f"cannot import {path}: line {n} is not JSON ({exc.msg})") from exc
            if not isinstance(row, dict):
                raise CatalogError(f"cannot import {path}: line {n} is not a JSON object")
            rows.append((n, row))
        return self._store("import", rows, origin=str(path))

    def _store(self, source: Source, rows: list[tuple[int, dict]], origin: str) -> ImportReport:
        report = ImportReport()
        target = self._sources[source]
        for n, row in rows:
            try:
                record = record_from_p0(row, max_chars=self.max_description_chars, source=source)
            except (CatalogError, ValueError, TypeError) as exc:
                report.skipped.append(f"{origin} line {n}: {exc}")
                continue
            if record.task not in TASKS:
                report.skipped.append(f"{record.id}: unknown task {record.task!r}")
                continue
            if record.key in target:
                report.updated += 1
            else:
                report.added += 1
            target[record.key] = record
        self._write(source)
        return report

    def add(self, model_id: str, task: str, description: str, *, downloads: int = 0, likes: int = 0,
            license: str | None = None, tags: list[str] | None = None, languages: list[str] | None = None,
            size: int | None = None) -> ModelRecord:
        """Add (or replace) a user model: a Hub id or a local path, with what it does."""
        if not model_id.strip():  # Path("") is the current folder, which exists
            raise CatalogError("cannot add a model with an empty id: give a local path or a Hub id (owner/name)")
        if downloads < 0 or likes < 0:
            raise CatalogError(f"cannot add {model_id!r}: downloads and likes are counts (0 or more)")
        if task not in TASKS:
            raise CatalogError(f"cannot add {model_id!r}: unknown task {task!r}; known tasks: {', '.join(TASKS)}")
        if not description or not description.strip():
            raise CatalogError(f"cannot add {model_id!r}: a description is required (it is what retrieval matches)")
        path = Path(model_id).expanduser()
        if path.exists():
            model_id = str(path.resolve())
        elif not HUB_ID.match(model_id):
            raise CatalogError(f"cannot add {model_id!r}: it is neither an existing local path nor a Hub id (owner/name)")
        record = ModelRecord(id=model_id, task=task, description=description.strip(), downloads=downloads,
                             likes=likes, license=license, tags=tags or [], languages=languages or [], size=size,
                             source="user")
        self._sources["user"][record.key] = record
        self._write("user")
        return self.get(task, model_id) or record

    def remove(self, model_id: str, task: str | None = None) -> int:
        """Remove a user-added model (from every task, unless one is given); returns how many went."""
        keys = [k for k in self._sources["user"] if k[1] == model_id and (task is None or k[0] == task)]
        for key in keys:
            del self._sources["user"][key]
        if keys:
            self._write("user")
        return len(keys)

    def refresh(self, tasks: Iterable[str] | None = None, limit: int = 30, endpoint: str | None = None,
                token: str | bool | None = None) -> ImportReport:
        """Fetch the most downloaded models per task from the Hub, with their cards."""
        from langchain_hugginggpt.retriever.hub import HUB_TASKS, fetch_task

        wanted = list(tasks) if tasks else list(HUB_TASKS)
        report = ImportReport()
        for task in wanted:
            records = fetch_task(task, limit=limit, endpoint=endpoint, token=token,
                                 max_chars=self.max_description_chars)
            hub = self._sources["hub"]
            for key in [k for k in hub if k[0] == task]:  # a refresh replaces the task's list
                del hub[key]
            for record in records:
                report.added += 1
                hub[record.key] = record
        self._write("hub")
        return report
