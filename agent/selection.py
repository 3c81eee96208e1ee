"""Stage 2: model selection.

For each task, a candidate source proposes the models that can run it (the
tools registry by default, the FAISS catalog when configured). One candidate
is taken as is; among several, the LLM chooses and says why (`{"id", "reason"}`),
as in the paper's in-context task-model assignment.
"""

from __future__ import annotations

import asyncio
import json
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import HumanMessage, SystemMessage
from langchain_core.runnables import RunnableConfig

from langchain_hugginggpt.agent.llms import ainvoke_text, json_llm, parse_json
from langchain_hugginggpt.core.schema import Candidate, Plan, Selection, Task
from langchain_hugginggpt.prompts import render
from langchain_hugginggpt.tools.candidates import CandidateSource, RegistryCandidates


def _stand_in_note(candidate: Candidate) -> str:
    if not candidate.stand_in:
        return ""
    return "; a labelled stand-in, not a model: no real model that fits this request can run here"


def candidates_text(candidates: list[Candidate], max_description: int = 100) -> str:
    lines = []
    for c in candidates:
        lines.append(json.dumps({"id": c.id, "description": c.description[:max_description],
                                 "downloads": c.downloads, "likes": c.likes, "backend": c.backend},
                                ensure_ascii=False))
    return "\n".join(lines)


class ModelSelector:
    """Chooses a model per task; tasks are handled concurrently."""

    def __init__(self, llm: BaseChatModel | None, source: CandidateSource | None = None, k: int = 5,
                 use_llm: bool = True, max_description: int = 100) -> None:
        self.llm = llm
        self.source = source or RegistryCandidates()
        self.k = k
        self.use_llm = use_llm and llm is not None
        self.max_description = max_description

    async def aselect(self, request: str, plan: Plan, config: RunnableConfig | None = None) -> dict[int, Selection]:
        selections = await asyncio.gather(*(self.aselect_one(request, task, config) for task in plan.tasks))
        return {s.task_id: s for s in selections}

    async def aselect_one(self, request: str, task: Task, config: RunnableConfig | None = None) -> Selection:
        candidates = await asyncio.to_thread(self.source.candidates, task, request, self.k)
        if not candidates:
            explain = getattr(self.source, "unavailable_reason", None)
            reason = explain(task) if explain else f"no model for {task.task} can run here"
            return Selection(task_id=task.id, model_id=None, reason=reason, candidates=[])
        if len(candidates) == 1:
            only = candidates[0]
            return Selection(task_id=task.id, model_id=only.id, reason="only one model available" + _stand_in_note(only),
                             candidates=candidates)
        if not self.use_llm:
            top = candidates[0]
            return Selection(task_id=task.id, model_id=top.id, candidates=candidates,
                             reason="top-ranked candidate (LLM selection off)" + _stand_in_note(top))
        return await self._ask_llm(request, task, candidates, config)

    async def _ask_llm(self, request: str, task: Task, candidates: list[Candidate],
                       config: RunnableConfig | None) -> Selection:
        ids = [c.id for c in candidates]
        schema = {"type": "object", "properties": {"id": {"type": "string", "enum": ids},
                                                   "reason": {"type": "string", "maxLength": 240}},
                  "required": ["id", "reason"], "additionalProperties": False}
        messages = [SystemMessage(render("selection.md")),
                    HumanMessage(render("selection_user.md", request=request,
                                        task=json.dumps(task.model_dump(), ensure_ascii=False),
                                        candidates=candidates_text(candidates, self.max_description)))]
        try:
            reply = parse_json(await ainvoke_text(json_llm(self.llm, schema, "selection"), messages, config))
            chosen, reason = str(reply.get("id", "")), str(reply.get("reason", "")).strip()
        except Exception as exc:  # a bad selection reply must not lose the task
            return Selection(task_id=task.id, model_id=ids[0], candidates=candidates,
                             reason=f"top-ranked candidate (the LLM's choice could not be read: {exc})")
        if chosen not in ids:
            return Selection(task_id=task.id, model_id=ids[0], candidates=candidates,
                             reason=f"top-ranked candidate (the LLM chose {chosen!r}, which is not a candidate)")
        return Selection(task_id=task.id, model_id=chosen, reason=reason or "chosen by the LLM", candidates=candidates)
