"""Plan validation and repair, before anything runs.

Repairs only what is unambiguous (a task name's spelling, `dep` derived from
`<resource>-N` references, a file put in the wrong slot, a required slot that
a single dependency can fill); everything else is an error that names the task
and the problem.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from graphlib import CycleError, TopologicalSorter
from typing import Any

from pydantic import ValidationError

from langchain_hugginggpt.core.schema import Plan, Task, references_in
from langchain_hugginggpt.core.errors import HuggingGPTError
from langchain_hugginggpt.core.media import looks_like_file, media_type
from langchain_hugginggpt.core.tasks import TASKS, TaskSpec

# Spellings seen from LLMs and in the paper's own demonstrations (each task's `aliases`).
TASK_ALIASES = {alias: name for name, spec in TASKS.items() for alias in spec.aliases}


# The paper's plans have 1-6 tasks; a reply with far more is a model running on.
MAX_PLAN_TASKS = 64


class PlanError(HuggingGPTError, ValueError):
    """The plan cannot run as written; `problems` lists (task id or None, message)."""

    def __init__(self, problems: list[tuple[int | None, str]]):
        self.problems = problems
        lines = [f"task {tid}: {msg}" if tid is not None else msg for tid, msg in problems]
        super().__init__("invalid plan: " + "; ".join(lines))


class PlanTruncated(PlanError):
    """The LLM's reply was cut off (e.g. at its token limit) before the plan ended.

    `tasks` holds the tasks that were complete in the reply, as written: a plan that
    lost its end may lack tasks the request needs, so it is not run as it is.
    """

    def __init__(self, tasks: list[Any], reason: str = ""):
        self.tasks = tasks
        kept = ", ".join(_describe_item(item) for item in tasks[:8])
        kept += f" and {len(tasks) - 8} more" if len(tasks) > 8 else ""
        where = (f"after {len(tasks)} complete task(s); tasks kept: {kept}" if tasks
                 else "before its first task was complete")
        super().__init__([(None, f"the plan was cut off{reason} {where}; a cut-off plan may lack tasks the request "
                                 f"needs, so it is not run")])


@dataclass
class ValidatedPlan:
    plan: Plan
    repairs: list[str] = field(default_factory=list)


def normalize_task_name(name: str) -> str:
    key = re.sub(r"[\s_]+", "-", name.strip().lower())
    return TASK_ALIASES.get(key, key)


def plan_from_items(items: list) -> Plan:
    """A Plan from the task objects an LLM wrote; PlanError names each item that is not a task."""
    _check_size(len(items))
    built: list[Task] = []
    problems: list[tuple[int | None, str]] = []
    for index, item in enumerate(items):
        if isinstance(item, Task):
            built.append(item)
        elif not isinstance(item, dict):
            problems.append((None, f"plan item {index} is not a task object but the "
                                   f"{type(item).__name__} {str(item)[:60]!r}"))
        else:
            try:
                built.append(Task.model_validate(item))
            except ValidationError as exc:
                fields = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'value'}: {e['msg']}" for e in exc.errors())
                problems.append((None, f"plan item {index} ({_describe_item(item)}) is not a valid task: {fields}"))
    if problems:
        raise PlanError(problems)
    return Plan(tasks=built)


def validate_plan(plan: Plan | list, tasks: dict[str, TaskSpec] | None = None) -> ValidatedPlan:
    """Check a plan against the task table; return the repaired plan or raise PlanError."""
    tasks = tasks if tasks is not None else TASKS
    plan = plan.model_copy(deep=True) if isinstance(plan, Plan) else plan_from_items(list(plan))
    _check_size(len(plan.tasks))
    problems: list[tuple[int | None, str]] = []
    repairs: list[str] = []

    seen: set[int] = set()
    for task in plan.tasks:
        if task.id in seen:
            problems.append((task.id, "duplicate task id"))
        seen.add(task.id)
        name = normalize_task_name(task.task)
        if name not in tasks:
            problems.append((task.id, f"unknown task {task.task!r}"))
        elif name != task.task:
            repairs.append(f"task {task.id}: renamed {task.task!r} to {name!r}")
            task.task = name
    if problems:
        raise PlanError(problems)

    by_id = plan.by_id()
    position = {t.id: i for i, t in enumerate(plan.tasks)}
    for task in plan.tasks:
        # dep = declared deps that exist, plus every referenced task (the unambiguous repair)
        refs = task.referenced_ids()
        for ref in refs:
            if ref == task.id:
                problems.append((task.id, f"refers to its own output <resource>-{ref}"))
            elif ref not in by_id:
                problems.append((task.id, f"refers to <resource>-{ref}, but there is no task {ref}"))
        for dep in task.dependencies:
            if dep not in by_id:
                problems.append((task.id, f"depends on task {dep}, which does not exist"))
        deps = [d for d in task.dependencies if d in by_id and d != task.id]
        missing = [r for r in refs if r in by_id and r != task.id and r not in deps]
        if missing:
            repairs.append(f"task {task.id}: added dep {missing} from its references")
            deps += missing
        if task.id in task.dependencies:
            problems.append((task.id, "depends on itself"))
        task.dep = sorted(deps) or [-1]
    if problems:
        raise PlanError(problems)

    cycle = _find_cycle(plan)
    if cycle:
        raise PlanError([(cycle[0], "dependency cycle " + " -> ".join(map(str, cycle)))])
    for task in plan.tasks:
        later = [d for d in task.dependencies if position[d] > position[task.id]]
        if later:
            problems.append((task.id, f"depends on task(s) {later}, which come after it in the plan"))
    if problems:
        raise PlanError(problems)

    for task in plan.tasks:
        _check_slots(task, tasks[task.task], by_id, tasks, problems, repairs)
    if problems:
        raise PlanError(problems)
    return ValidatedPlan(plan=plan, repairs=repairs)


def _find_cycle(plan: Plan) -> list[int] | None:
    try:
        TopologicalSorter({t.id: t.dependencies for t in plan.tasks}).prepare()
    except CycleError as exc:
        return list(exc.args[1])
    return None


def _check_size(n_tasks: int) -> None:
    if n_tasks > MAX_PLAN_TASKS:
        raise PlanError([(None, f"the plan has {n_tasks} tasks; at most {MAX_PLAN_TASKS} are accepted")])


def _describe_item(item: Any) -> str:
    if isinstance(item, Task):
        return f"{item.id} {item.task}"
    if isinstance(item, dict):
        return " ".join(str(item[key])[:40] for key in ("id", "task") if key in item) or "no id or task"
    return type(item).__name__


def _check_slots(task: Task, spec: TaskSpec, by_id: dict[int, Task], tasks: dict[str, TaskSpec],
                 problems: list, repairs: list) -> None:
    args = dict(task.args)
    wrong_types = [(slot, value) for slot, value in args.items()
                   if value is not None and not isinstance(value, str)]  # None is a missing argument
    for slot, value in wrong_types:
        problems.append((task.id, f"argument {slot!r} must be a string (text, a path or URL, or <resource>-N), "
                         f"got {type(value).__name__} {str(value)[:40]}"))
    if wrong_types:
        return
    for slot in list(args):
        value = args[slot]
        if slot in spec.inputs:
            continue
        # A file in the wrong slot (e.g. an image under "text") moves when its place is clear.
        kind = media_type(value) if isinstance(value, str) and looks_like_file(value) else None
        target = _free_slot(spec, args, kind or slot)
        if target:
            repairs.append(f"task {task.id}: moved {slot!r} argument to slot {target!r}")
            args[target] = args.pop(slot)
        else:
            takes = ", ".join(f"{s} ({k})" for s, k in spec.inputs.items())
            problems.append((task.id, f"{spec.name} does not take a {slot!r} argument; it takes {takes}"))
    for slot, value in list(args.items()):
        kind = spec.inputs.get(slot)
        if kind is None or not isinstance(value, str):
            continue
        refs = references_in(value)
        if kind != "text":
            if len(refs) > 1:
                problems.append((task.id, f"slot {slot!r} takes one {kind} but refers to several outputs: {value}"))
            elif refs:
                source = by_id[refs[0]]
                produced = tasks[source.task].output
                if produced != kind:
                    problems.append((task.id, f"slot {slot!r} needs an {kind}, but <resource>-{source.id} "
                                     f"is the {produced} output of {source.task}"))
            elif looks_like_file(value) and media_type(value) not in (kind, "text"):
                problems.append((task.id, f"slot {slot!r} needs an {kind}, got {value!r}"))
    for slot in spec.required:
        if args.get(slot) not in (None, ""):
            continue
        kind = spec.inputs[slot]
        fillers = [d for d in task.dependencies if tasks[by_id[d].task].output == kind]
        if len(fillers) == 1:
            args[slot] = f"<resource>-{fillers[0]}"
            repairs.append(f"task {task.id}: filled missing {slot!r} with <resource>-{fillers[0]}")
        else:
            problems.append((task.id, f"{spec.name} needs a {slot!r} ({kind}) argument"))
    task.args = args


def _free_slot(spec: TaskSpec, args: dict, kind: str) -> str | None:
    slots = [s for s, k in spec.inputs.items() if k == kind and s not in args]
    return slots[0] if len(slots) == 1 else None
