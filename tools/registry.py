"""Engine registry: which models can run each task, and which of them can run here.

Engine modules register their classes with `@register` (registration.py); the registry imports them on first
use, and they must not import heavy libraries at module level, so listing what exists stays cheap.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import TYPE_CHECKING

from langchain_hugginggpt.core.tasks import get_task
from langchain_hugginggpt.tools.base import Engine, ExpertError
from langchain_hugginggpt.tools.registration import (  # noqa: F401 (re-exported: tools.register)
    _ENGINES, _FACTORIES, EngineFactory, register, register_factory, unregister)

if TYPE_CHECKING:
    from langchain_hugginggpt.tools.mcp.experts import McpExpertsConfig

_loaded = False
_load_lock = threading.RLock()  # re-entrant: loading one engine module may ask for another's engines


def _load_builtins() -> None:
    global _loaded
    if _loaded:
        return
    with _load_lock:  # selection asks from several threads at once; all must see every engine
        if _loaded:
            return
        # Importing an engine module registers its engines; the order is the preference order, and the caption
        # stand-in comes after every real image-to-text engine.
        from langchain_hugginggpt.tools.engines import (  # noqa: F401
            language, vision, audio, video, control, hf_transformers, hf_diffusers, hf_inference, caption)

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

