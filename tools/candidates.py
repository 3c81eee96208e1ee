"""Where model selection gets its candidates: a `CandidateSource` proposes, for a task, the models that can
run it. `RegistryCandidates` asks the tools registry; the FAISS catalog (retriever) and the deployed experts
(experts) are the other sources, and rank engines the same way (`rank_engines`)."""

from __future__ import annotations

from typing import Protocol

from langchain_hugginggpt.core.schema import Candidate, Task
from langchain_hugginggpt.tools.base import fit_rank, offer_stand_in
from langchain_hugginggpt.tools.registry import engines_for


class CandidateSource(Protocol):
    def candidates(self, task: Task, request: str, k: int) -> list[Candidate]: ...


class RegistryCandidates:
    """Candidates from the tools registry: the engines that can run here, those that fit the request first.

    An engine may say which requests of its task it is for (`Engine.request_cues`: OCR for
    "read the text", captioning for "describe"); it ranks above engines that say nothing when
    the request and the task's arguments match, below them when they do not. A stand-in
    heuristic is offered only when no real model that fits the request can run, and never
    above one that does.
    """

    def candidates(self, task: Task, request: str, k: int) -> list[Candidate]:
        engines = [cls for cls in engines_for(task.task) if cls().unavailable_reason() is None]
        return rank_engines(engines, task, request, k)

    def unavailable_reason(self, task: Task) -> str:
        reasons = [f"{cls.model_id} ({cls().unavailable_reason()})" for cls in engines_for(task.task)]
        if not reasons:
            return f"no model is registered for {task.task}"
        return f"no model for {task.task} can run here; tried: " + "; ".join(reasons)


def rank_engines(engines: list, task: Task, request: str, k: int) -> list[Candidate]:
    """Candidates for the engines that can run a task (classes, or anything with their attributes),
    ranked as `RegistryCandidates` says: those that fit the request first, a stand-in only when
    no real engine that fits can run."""
    context = " ".join([request, *(str(v) for v in task.args.values())])
    found: list[tuple[Candidate, bool | None]] = []
    for engine in engines:
        fits = engine.fits(context)
        candidate = Candidate(id=engine.model_id, task=task.task, description=engine.description,
                              backend=engine.backend, available=True, stand_in=engine.stand_in,
                              details={} if fits is None else {"fits_request": fits})
        found.append((candidate, fits))
    a_real_engine_fits = any(fits is not False for c, fits in found if not c.stand_in)
    offered = [(c, fits) for c, fits in found if not c.stand_in or offer_stand_in(fits, a_real_engine_fits)]
    offered.sort(key=lambda pair: (fit_rank(pair[1]), pair[0].stand_in))
    return [c for c, _ in offered][:k]
