"""What every expert shares: an Engine runs one model for one task and returns an ExpertOutput, or raises
ExpertError. The LangChain tool that runs them is tools/expert_tool.py, above the engine registry.
"""

from __future__ import annotations

import importlib.util
import re
from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any, ClassVar

from langchain_core.tools import ToolException

from langchain_hugginggpt.core.errors import HuggingGPTError
from langchain_hugginggpt.core.schema import ExpertOutput  # noqa: F401 (what engines return; importable from here)
from langchain_hugginggpt.core.tasks import TASKS
from langchain_hugginggpt.core.workspace import Workspace


def module_installed(name: str) -> bool:
    """Whether a module can be imported, without importing it. A module another thread is
    importing right now sits in sys.modules with no spec yet (cv2 does this), where
    find_spec raises ValueError: it is installed."""
    try:
        return importlib.util.find_spec(name) is not None
    except ValueError:
        return True


class ExpertError(HuggingGPTError, ToolException):
    """A task could not run; the message names the task, the model and the cause."""


class Engine(ABC):
    """Runs one model (or one classic algorithm) for one task.

    Subclasses set the class attributes and implement `run`. `requires` lists
    importable modules; `extra` is the pip extra that installs them.
    """

    task: ClassVar[str]
    model_id: ClassVar[str]
    backend: ClassVar[str] = "local"  # local | transformers | diffusers | inference-api | stand-in
    description: ClassVar[str] = ""
    requires: ClassVar[tuple[str, ...]] = ()
    extra: ClassVar[str | None] = None
    stand_in: ClassVar[bool] = False
    license: ClassVar[str | None] = None
    # A regular expression for the requests this engine is for, where one task covers different
    # jobs (image-to-text: reading printed text, describing a photo). None: any request of its task.
    request_cues: ClassVar[str | None] = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Check an engine when its class is defined, not when a request first reaches it: the task it
        names must be in core/tasks.TASKS, and an engine with a task and a model must implement `run`.
        Bases that leave the task or the model to their subclasses are checked through those."""
        super().__init_subclass__(**kwargs)
        task = cls.__dict__.get("task")
        if task is not None and task not in TASKS:
            raise TypeError(f"engine {cls.__module__}.{cls.__qualname__} names an unknown task {task!r}; "
                            f"known tasks: {', '.join(sorted(TASKS))}")
        model_id = cls.__dict__.get("model_id")
        if model_id is not None and (not isinstance(model_id, str) or not model_id):
            raise TypeError(f"engine {cls.__module__}.{cls.__qualname__}: model_id must be a non-empty string, "
                            f"not {model_id!r}")
        runnable = hasattr(cls, "task") and hasattr(cls, "model_id")
        if runnable and getattr(cls.run, "__isabstractmethod__", False):
            raise TypeError(f"engine {cls.__module__}.{cls.__qualname__} for {cls.task!r} ({cls.model_id}) "
                            "does not implement run()")

    @classmethod
    def fits(cls, context: str) -> bool | None:
        """Whether a request (with the task's arguments) asks for what this engine does;
        None when the engine declares no `request_cues` (it serves any request of its task)."""
        return cues_fit(cls.request_cues, context)

    def unavailable_reason(self) -> str | None:
        """None when this engine can run here now, else why not (cheap: no model load)."""
        missing = [m for m in self.requires if not module_installed(m)]
        if missing:
            hint = f"pip install 'langchain-hugginggpt[{self.extra}]'" if self.extra else f"pip install {' '.join(missing)}"
            return f"missing Python module(s) {', '.join(missing)}: {hint}"
        return self.check_resources()

    def check_resources(self) -> str | None:
        """Hook for engines that need a binary or weight files; None when present."""
        return None

    @property
    def available(self) -> bool:
        return self.unavailable_reason() is None

    @abstractmethod
    def run(self, inputs: dict[str, Any], workspace: Workspace) -> ExpertOutput:
        """Run on resolved inputs (local file paths for media slots)."""


def cues_fit(cues: str | None, context: str) -> bool | None:
    """`Engine.fits` for a `request_cues` pattern: None when there is none."""
    if cues is None:
        return None
    return re.search(cues, context, re.IGNORECASE) is not None


def fit_rank(fits: bool | None) -> int:
    """Sort key for `Engine.fits`: engines the request matches, then those that serve any
    request of their task, then those made for other requests."""
    return 0 if fits else 1 if fits is None else 2


def offer_stand_in(fits: bool | None, a_real_engine_fits: bool) -> bool:
    """A stand-in heuristic is a candidate only when no real engine that fits the request can
    run, and only when it does not itself serve other requests than this one."""
    return fits is not False and not a_real_engine_fits


def missing_files(locate: Callable[[], object]) -> str | None:
    """For `check_resources`: None when `locate()` finds its files, else its FileNotFoundError's message."""
    try:
        locate()
    except FileNotFoundError as exc:
        return str(exc)
    return None
