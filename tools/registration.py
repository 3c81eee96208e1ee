"""Where engines register (`@register`), apart from where they are looked up (registry.py): the engine
modules import this, and the registry imports them, so neither imports the other."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable

from langchain_hugginggpt.core.tasks import get_task
from langchain_hugginggpt.tools.base import Engine

# task -> model id -> engine class, in registration (preference) order
_ENGINES: dict[str, dict[str, type[Engine]]] = defaultdict(dict)
# Makers of engines for models that are not registered (any Hub model of a task with a runner), asked in order.
EngineFactory = Callable[[str, str], "type[Engine] | None"]
_FACTORIES: list[EngineFactory] = []


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
