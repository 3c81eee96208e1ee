"""Model selection over the deployed experts: only deployments that exist and are healthy."""

from __future__ import annotations

from typing import TYPE_CHECKING

from langchain_hugginggpt.core.schema import Candidate, Task
from langchain_hugginggpt.tools.candidates import rank_engines

if TYPE_CHECKING:
    from langchain_hugginggpt.experts.client import RemoteExperts


class DeployedCandidates:
    """A `CandidateSource`: the healthy deployments of a task, ranked like local engines."""

    def __init__(self, experts: "RemoteExperts") -> None:
        self.experts = experts

    def candidates(self, task: Task, request: str, k: int) -> list[Candidate]:
        from langchain_hugginggpt.experts.client import RemoteEngine

        engines = [RemoteEngine(self.experts, info) for info in self.experts.deployments_for(task.task)
                   if info.healthy]
        return rank_engines(engines, task, request, k)

    def unavailable_reason(self, task: Task) -> str:
        deployed = [info for info in self.experts.catalog() if info.task == task.task]
        where = self.experts.transport.where
        if not deployed:
            return f"no expert deployment at {where} serves {task.task}"
        states = "; ".join(f"{i.name} is {i.status}" + (f" ({i.message})" if i.message else "") for i in deployed)
        return f"no healthy expert deployment at {where} serves {task.task}: {states}"
