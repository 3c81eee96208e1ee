"""Stage 1: the LLM planning chain.

The prompt follows the paper's design: a specification of the JSON format, the
available task list, demonstrations as earlier chat turns, and the chat log of
the conversation so far. The parts that never change come first, so a local
model's KV cache reuses them. Output is constrained to a JSON schema where the
backend supports it, then parsed and validated into a `Plan`.
"""

from __future__ import annotations

import json
from typing import Any, Callable, Sequence

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage
from langchain_core.runnables import RunnableConfig

from langchain_hugginggpt.agent.llms import LLMJSONError, finish_reason, json_llm, read_json
from langchain_hugginggpt.planning import PlannerOutput
from langchain_hugginggpt.core.schema import Plan
from langchain_hugginggpt.planning.validation import (PlanError, PlanTruncated, ValidatedPlan, plan_from_items,
                                                   validate_plan)
from langchain_hugginggpt.prompts import planning_demos, render
from langchain_hugginggpt.core.tasks import TASKS, TaskSpec

ChatLog = Sequence[dict[str, str] | BaseMessage]


def task_list_text(specs: Sequence[TaskSpec]) -> str:
    return "\n".join(f"  {s.name}: {', '.join(f'{k} ({v})' for k, v in s.inputs.items())} -> {s.output}" for s in specs)


def plan_json_schema(task_names: Sequence[str], max_tasks: int = 8) -> dict[str, Any]:
    """JSON schema of a plan, bounded so a small model cannot run on forever."""
    slot_names = sorted({slot for name in task_names for slot in TASKS[name].inputs})
    return {
        "type": "array",
        "maxItems": max_tasks,
        "items": {
            "type": "object",
            "properties": {
                "task": {"type": "string", "enum": list(task_names)},
                "id": {"type": "integer"},
                "dep": {"type": "array", "items": {"type": "integer"}, "maxItems": 4},
                "args": {"type": "object",
                         "properties": {s: {"type": "string", "maxLength": 200} for s in slot_names},
                         "additionalProperties": False},
            },
            "required": ["task", "id", "dep", "args"],
            "additionalProperties": False,
        },
    }


def chat_log_text(chat_history: ChatLog | None, max_chars: int = 3000) -> str:
    """Earlier turns as JSON; the oldest turns are dropped two at a time to fit."""
    turns = []
    for message in chat_history or []:
        if isinstance(message, BaseMessage):
            role = {"human": "user", "ai": "assistant"}.get(message.type, message.type)
            turns.append({"role": role, "content": message.text})
        else:
            turns.append({"role": message.get("role", "user"), "content": str(message.get("content", ""))})
    text = json.dumps(turns, ensure_ascii=False)
    while len(text) > max_chars and len(turns) > 1:
        turns = turns[2:]
        text = json.dumps(turns, ensure_ascii=False)
    return text


def plan_from_reply(value: Any) -> Plan:
    """A Plan from what the LLM wrote: a list of tasks, or an object holding one."""
    return plan_from_items(_task_list(value)[0])


def parse_plan(reply: str, stop_reason: str | None = None,
               tasks: dict[str, TaskSpec] | None = None) -> ValidatedPlan:
    """The validated plan in an LLM reply, or a PlanError that says why there is none.

    A reply cut off before its end raises PlanTruncated, which holds the tasks that
    were complete; `stop_reason` is the model's finish reason, when it gives one.
    """
    try:
        parsed = read_json(reply)
    except LLMJSONError as exc:
        raise PlanError([(None, str(exc))]) from exc
    if parsed.truncated:
        at_limit = " (the LLM stopped at its token limit)" if stop_reason == "length" else ""
        try:
            items, depth = _task_list(parsed.value)
        except PlanError:
            raise PlanTruncated([], at_limit) from None
        raise PlanTruncated(_complete_items(items, depth, parsed.unclosed), at_limit)
    validated = validate_plan(plan_from_reply(parsed.value), tasks)
    if parsed.repaired:
        validated.repairs.insert(0, "mended the reply's JSON (json-repair)")
    return validated


_PLAN_KEYS = ("tasks", "plan", "items")


def _task_list(value: Any) -> tuple[list, int | None]:
    """The task objects in a reply, and how many containers enclose their list (None: the reply is one task)."""
    if isinstance(value, list):
        return value, 0
    if isinstance(value, dict):
        for key in _PLAN_KEYS:
            if key in value:
                if not isinstance(value[key], list):
                    raise PlanError([(None, f"expected a list of tasks under {key!r}, got {type(value[key]).__name__}")])
                return value[key], 1
        if "task" in value:
            return [value], None
        keys = ", ".join(map(repr, list(value)[:5])) or "none"
        raise PlanError([(None, f"the reply is a JSON object with no task list (keys: {keys}); a plan is a list "
                                f"of tasks, and the empty list [] says that no task is needed")])
    raise PlanError([(None, f"expected a list of tasks, got {type(value).__name__}")])


def _complete_items(items: list, depth: int | None, unclosed: tuple[tuple[str, int], ...]) -> list:
    """The items of a cut-off task list whose closing bracket is in the reply."""
    if depth is None:  # the reply is a single task, and it never closed
        return []
    if len(unclosed) <= depth:  # the list itself closed; only an enclosing object did not
        return items
    bracket, closed = unclosed[depth]
    return items[:closed] if bracket == "[" else []


class LLMPlanner:
    """Plans with a chat model. Retrieval can narrow the task list and choose the demos."""

    name = "llm"

    def __init__(
        self,
        llm: BaseChatModel,
        *,
        demos: Sequence[dict] | None = None,
        select_examples: Callable[[str, int], Sequence[tuple[str, Any]]] | None = None,
        likely_tasks: Callable[[str, int], Sequence[str]] | None = None,
        n_demos: int = 4,
        n_tasks: int = 12,
    ) -> None:
        self.llm = llm
        self.demos = list(demos) if demos is not None else list(planning_demos())
        self.select_examples = select_examples
        self.likely_tasks = likely_tasks
        self.n_demos = n_demos
        self.n_tasks = n_tasks

    def task_names(self, request: str) -> list[str]:
        if self.likely_tasks is None:
            return list(TASKS)
        names = [n for n in self.likely_tasks(request, self.n_tasks) if n in TASKS]
        return names or list(TASKS)

    def messages(self, request: str, chat_history: ChatLog | None = None) -> tuple[list[BaseMessage], list[str]]:
        names = self.task_names(request)
        system = render("planning.md", task_list=task_list_text([TASKS[n] for n in names]))
        demos = self.demos
        if self.select_examples is not None:
            demos = [{"request": r, "plan": p.to_list() if isinstance(p, Plan) else p}
                     for r, p in self.select_examples(request, self.n_demos)] or demos
        messages: list[BaseMessage] = [SystemMessage(system)]
        for demo in demos:
            messages.append(HumanMessage(demo["request"]))
            messages.append(AIMessage(json.dumps(demo["plan"], ensure_ascii=False)))
        messages.append(HumanMessage(
            f"The chat log {chat_log_text(chat_history)} may mention resources I refer to. "
            f"Now I input: {request}\nReply with the task list as JSON."))
        return messages, names

    async def aplan(self, request: str, chat_history: ChatLog | None = None,
                    config: RunnableConfig | None = None) -> PlannerOutput:
        messages, names = self.messages(request, chat_history)
        message = await json_llm(self.llm, plan_json_schema(names), "plan").ainvoke(messages, config)
        reply = message.text if hasattr(message, "text") else str(message)
        validated = parse_plan(reply, finish_reason(message))
        return PlannerOutput(plan=validated.plan, planner=self.name,
                              details={"raw": reply, "repairs": validated.repairs, "task_list": names})
