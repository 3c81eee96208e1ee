"""What every planner shares: the `Planner` protocol and the `PlannerOutput` it returns (re-exported by the
package, whose `default_planner` imports the planners)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from langchain_hugginggpt.core.schema import Plan


@dataclass
class PlannerOutput:
    """A plan and how it was made: which planner, how confident, and planner-specific details."""

    plan: Plan
    planner: str
    confidence: float = 1.0
    details: dict[str, Any] = field(default_factory=dict)


@runtime_checkable
class Planner(Protocol):
    name: str

    def plan(self, request: str, chat_history: list[dict] | None = None) -> PlannerOutput: ...
