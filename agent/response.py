"""Stage 4: response generation.

The LLM answers the request first, then describes the process in the first
person. Whatever it writes, every file produced is named with its full path
(a small model may forget one), and nothing is claimed that no task returned.
"""

from __future__ import annotations

import json
from typing import Any, AsyncIterator

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage
from langchain_core.runnables import RunnableConfig

from langchain_hugginggpt.core.schema import ExpertOutput, HuggingGPTResult, TaskResult
from langchain_hugginggpt.prompts import render

MAX_RESULT_CHARS = 1500


def _compact(result: TaskResult) -> dict[str, Any]:
    """What the LLM sees of a task's result: the useful part, bounded in size."""
    if not result.ok:
        return {"task": result.task, "status": result.status, "error": result.error}
    output = result.output or ExpertOutput(model=result.model_id or "")
    shown: dict[str, Any] = {k: getattr(output, k) for k in ("text", "image", "audio", "video") if getattr(output, k)}
    raw = json.dumps(output.result, ensure_ascii=False, default=str)
    shown["result"] = raw if len(raw) <= MAX_RESULT_CHARS else raw[:MAX_RESULT_CHARS] + "..."
    if output.stand_in:
        shown["stand_in"] = output.note or "a heuristic stood in for a missing model"
    return {"task": result.task, "model": result.model_id, **shown}


def response_messages(result: HuggingGPTResult) -> list[BaseMessage]:
    plan = json.dumps([t.model_dump() for t in result.plan], ensure_ascii=False)
    selections = json.dumps({str(k): {"model": s.model_id, "reason": s.reason} for k, s in result.selections.items()},
                            ensure_ascii=False)
    results = json.dumps({str(k): _compact(r) for k, r in sorted(result.results.items())}, ensure_ascii=False)
    return [SystemMessage(render("response.md")),
            HumanMessage(render("response_user.md", request=result.request, plan=plan,
                                selections=selections, results=results))]


def process_summary(result: HuggingGPTResult) -> str:
    """A factual first-person account of what ran, built from the results alone."""
    if not result.results:
        return "I could not plan any task for this request."
    lines = []
    for task_id, r in sorted(result.results.items()):
        selection = result.selections.get(task_id)
        why = f" ({selection.reason})" if selection and selection.reason else ""
        if r.ok:
            text = ((r.output.text if r.output else None) or "").strip()
            stand_in = " [stand-in heuristic, not a model]" if r.output and r.output.stand_in else ""
            lines.append(f"- Task {task_id}, {r.task}: I used {r.model_id}{why}{stand_in}."
                         + (f" Result: {text[:300]}" if text else ""))
        else:
            lines.append(f"- Task {task_id}, {r.task}: {r.status}: {r.error}")
    if result.files:
        lines.append("Files produced: " + ", ".join(result.files))
    return "\n".join(lines)


def direct_answer(result: HuggingGPTResult) -> str:
    """The first part of the template answer: what each task found, plainly, in plan order."""
    if not result.results or not any(r.ok for r in result.results.values()):
        return "I could not do this: no task produced a result."
    lines: list[str] = []
    for _, r in sorted(result.results.items()):
        text = (r.output.text or "").strip() if r.ok and r.output else ""
        if text and text not in lines:
            lines.append(text)
    return "\n".join(lines) if lines else "Done: the results are below."


def template_answer(result: HuggingGPTResult) -> str:
    return f"{direct_answer(result)}\n\nHow I did it:\n{process_summary(result)}"


def complete_answer(answer: str, result: HuggingGPTResult) -> str:
    """Append the full path of any produced file the answer does not name."""
    missing = [f for f in result.files if f not in answer]
    if missing:
        answer = answer.rstrip() + "\n\nFiles produced: " + ", ".join(missing)
    return answer


class Responder:
    """Writes the final answer with the LLM, or from a template when there is none."""

    def __init__(self, llm: BaseChatModel | None, mode: str = "llm") -> None:
        self.llm = llm
        self.mode = mode if llm is not None else "template"

    async def arespond(self, result: HuggingGPTResult, config: RunnableConfig | None = None) -> str:
        if self.mode == "template" or not result.results:
            return template_answer(result)
        message = await self.llm.ainvoke(response_messages(result), config)
        return complete_answer(message.text.strip() or template_answer(result), result)

    async def astream(self, result: HuggingGPTResult, config: RunnableConfig | None = None) -> AsyncIterator[str]:
        """The answer token by token (the file-path completion comes as a last chunk)."""
        if self.mode == "template" or not result.results:
            yield template_answer(result)
            return
        parts: list[str] = []
        async for chunk in self.llm.astream(response_messages(result), config):
            if chunk.text:
                parts.append(chunk.text)
                yield chunk.text
        answer = "".join(parts)
        tail = complete_answer(answer, result)[len(answer):]
        if tail:
            yield tail
