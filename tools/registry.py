"""Engine registry: which models can run each task, and which of them can run here.

Engine modules register their classes with `@register`; they are imported
lazily and must not import heavy libraries at module level, so listing what
exists stays cheap.
"""

from __future__ import annotations

import importlib
import os
import threading
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from langchain_hugginggpt.tools.base import Engine, ExpertError
from langchain_hugginggpt.core.tasks import get_task

if TYPE_CHECKING:
    from langchain_hugginggpt.tools.mcp.experts import McpExpertsConfig

# Modules under tools/engines that hold built-in engines, in preference order.
BUILTIN_ENGINE_MODULES: tuple[str, ...] = (
    "language",
    "vision",
    "audio",
    "video",
    "control",
    "hf_transformers",
    "hf_diffusers",
    "hf_inference",
    "caption",  # a stand-in: after every real image-to-text engine
)

_ENGINES: dict[str, dict[str, type[Engine]]] = defaultdict(dict)
# Makers of engines for models that are not registered (any Hub model of a task with a runner), asked in order.
EngineFactory = Callable[[str, str], "type[Engine] | None"]
_FACTORIES: list[EngineFactory] = []
_loaded = False
_load_lock = threading.RLock()  # re-entrant: an engine module may ask the registry while loading


def register(cls: type[Engine], *, replace: bool = True) -> type[Engine]:
    """Class decorator: make an engine a candidate for its task.

    With replace=False an engine already registered under the same model id keeps
    its place (e.g. packaged weights registered before the Hub default of that id).
    """
    get_task(cls.task)  # fail early on a typo in a task name
    if replace or cls.model_id not in _ENGINES[cls.task]:
        _ENGINES[cls.task][cls.model_id] = cls
    return cls


def register_factory(factory: EngineFactory) -> EngineFactory:
    """Add a maker of engine classes for models not registered by id: `factory(task, model_id)` returns the
    class, or None when it cannot run that model (hf_transformers adds one for any Hub model)."""
    if factory not in _FACTORIES:
        _FACTORIES.append(factory)
    return factory


def unregister(task: str, model_id: str) -> None:
    """Remove an engine (e.g. one an app or a test registered)."""
    _ENGINES.get(task, {}).pop(model_id, None)


def _load_builtins() -> None:
    global _loaded
    if _loaded:
        return
    with _load_lock:  # selection asks from several threads at once; all must see every engine
        if _loaded:
            return
        for name in BUILTIN_ENGINE_MODULES:
            try:
                importlib.import_module(f"langchain_hugginggpt.tools.engines.{name}")
            except ModuleNotFoundError as exc:
                if exc.name != f"langchain_hugginggpt.tools.engines.{name}":
                    raise
        _load_configured()
        _loaded = True


def _load_configured() -> None:
    """Models a configuration file names: the tools of MCP servers, where $HUGGINGGPT_MCP_EXPERTS names the
    file (tools/mcp/experts.py; the `mcp` SDK is imported only then)."""
    if os.environ.get("HUGGINGGPT_MCP_EXPERTS"):
        from langchain_hugginggpt.tools.mcp.experts import configured_engines

        for cls in configured_engines():
            register(cls)


def register_mcp_experts(source: str | Path | McpExpertsConfig) -> list[type[Engine]]:
    """Register every model of an MCP experts config (its YAML file, or the config); the engine classes."""
    from langchain_hugginggpt.tools.mcp.experts import mcp_engines

    return [register(cls) for cls in mcp_engines(source)]


def engines_for(task: str) -> list[type[Engine]]:
    """Every registered engine class for a task, in preference order."""
    _load_builtins()
    get_task(task)
    return list(_ENGINES.get(task, {}).values())


def engine_class(task: str, model_id: str) -> type[Engine] | None:
    _load_builtins()
    return _ENGINES.get(task, {}).get(model_id)


def available_engines(task: str) -> list[type[Engine]]:
    return [cls for cls in engines_for(task) if cls().unavailable_reason() is None]


def resolve_engine(task: str, model_id: str | None = None) -> Engine:
    """The engine to run: the one named, or the first that can run here.

    When nothing can run, the error says which models were tried and why.
    """
    candidates = sorted(engines_for(task), key=lambda cls: cls.stand_in)  # a stand-in only when no model can run
    if model_id is not None:
        cls = engine_class(task, model_id) or next(
            (made for factory in _FACTORIES if (made := factory(task, model_id)) is not None), None)
        if cls is None:
            known = ", ".join(c.model_id for c in candidates) or "none"
            raise ExpertError(f"unknown model {model_id!r} for task {task!r}; models registered for it: {known}")
        candidates = [cls]
    tried: list[str] = []
    for cls in candidates:
        engine = cls()
        reason = engine.unavailable_reason()
        if reason is None:
            return engine
        tried.append(f"{cls.model_id} ({reason})")
    if not tried:
        raise ExpertError(f"no model is registered for task {task!r}")
    raise ExpertError(f"no model for {task!r} can run here; tried: " + "; ".join(tried))


def task_status(task: str) -> dict:
    """What `hugginggpt tasks --json` reports for one task."""
    spec = get_task(task)
    models, unavailable, stand_ins = [], {}, []
    for cls in engines_for(task):
        reason = cls().unavailable_reason()
        if reason is None:
            (stand_ins if cls.stand_in else models).append(cls.model_id)
        else:
            unavailable[cls.model_id] = reason
    return {
        "task": task,
        "family": spec.family,
        "inputs": dict(spec.inputs),
        "output": spec.output,
        "available": bool(models),
        "models": models,
        "stand_ins": stand_ins,
        "unavailable": unavailable,
    }

