"""The retrieval planner's working list of steps, and how it becomes a Plan.

Steps refer to each other by their index in the list. A step missing a required input is
dropped, and a step that used it falls back to the request's own inputs or is dropped too;
the rest are numbered so that every task comes after the tasks it uses, and their
`<resource>-N` references are renumbered to match.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable

from langchain_hugginggpt.planning.cues import Mention, names_result
from langchain_hugginggpt.planning.text import ParsedRequest
from langchain_hugginggpt.core.schema import Plan, Task
from langchain_hugginggpt.core.tasks import TASKS

_REF = re.compile(r"<resource>-(\d+)")


@dataclass
class Step:
    task: str
    mention: Mention
    lo: int  # the request span that belongs to this task
    hi: int
    args: dict[str, str] = field(default_factory=dict)
    deps: set[int] = field(default_factory=set)  # indices into the step list


# "Enhance it by estimating its depth": a task named right after "by" + a gerund is the means, run first.
_BY_MEANS = re.compile(r"^[^\w.!?;]*(?:[\w'-]+[^\w.!?;]+){0,3}?by\s+(?:first\s+)?\w+ing\b(?:\W+[\w'-]+){0,3}\W*$", re.I)


def means_first(steps: list[Step], parsed: ParsedRequest) -> list[Step]:
    """Put a step named as the means of the step just before it in its clause ("X it by Y-ing")
    ahead of that step."""
    steps = list(steps)
    i = 1
    while i < len(steps):
        before, step = steps[i - 1], steps[i]
        same_clause = parsed.clause_at(before.mention.start) == parsed.clause_at(step.mention.start)
        # "check the generated picture by asking ...": the means works on that result, it does not make it
        if same_clause and not names_result(parsed, before.mention) and (_BY_MEANS.match(parsed.masked[before.mention.end:step.mention.end])
                            or _medium_of(before, step, parsed.masked)):
            steps[i - 1], steps[i] = step, before
            # the means' output is what the step works on, even where the request names a file for it
            spec = TASKS[before.task]
            slot = next((s for s in spec.required if spec.inputs[s] == TASKS[step.task].output), None)
            if slot is not None:
                before.args[slot] = f"<resource>-{i - 1}"
                before.deps.add(i - 1)
            i += 1  # the moved step is no candidate for another move
        i += 1
    return steps


def _medium_of(before: Step, step: Step, masked: str) -> bool:
    """'A video summary' names a text (the head noun) and the medium it is given in (the modifier,
    a task that makes media from text): the text is made first."""
    maker, head = TASKS[before.task], TASKS[step.task]
    return (not masked[before.mention.end:step.mention.start].strip() and head.output == "text"
            and maker.output != "text" and all(kind == "text" for kind in maker.inputs.values()))


def ancestors(steps: list[Step], j: int) -> set[int]:
    """Every step that step j uses, directly or through others."""
    seen, todo = set(), list(steps[j].deps)
    while todo:
        k = todo.pop()
        if k not in seen:
            seen.add(k)
            todo += list(steps[k].deps)
    return seen


def input_of(step: Step, kind: str) -> str | None:
    """What step gives its (first) input slot of this resource type."""
    spec = TASKS[step.task]
    return next((v for slot, v in step.args.items() if spec.inputs.get(slot) == kind and v), None)


def _renumbered(args: dict[str, str], new_index: dict[int, int]) -> dict[str, str]:
    return {slot: _REF.sub(lambda m: f"<resource>-{new_index[int(m.group(1))]}", v) for slot, v in args.items()}


def drop_unfilled(steps: list[Step], fallback: Callable[[str], str | None] = lambda kind: None) -> list[Step]:
    """Tasks missing a required input cannot run: drop them. A task that used a dropped one takes what
    `fallback` gives for that kind of input (the request's words for a text, a file the request names),
    else is dropped too: a plan keeps every task that can still run."""
    steps = [Step(s.task, s.mention, s.lo, s.hi, dict(s.args), set(s.deps)) for s in steps]
    dropped: set[int] = set()
    while missing := {i for i, s in enumerate(steps)
                      if i not in dropped and any(not s.args.get(slot) for slot in TASKS[s.task].required)}:
        dropped |= missing
        for i, s in enumerate(steps):
            if i in dropped or not s.deps & dropped:
                continue
            spec = TASKS[s.task]
            for slot, value in list(s.args.items()):
                if {int(n) for n in _REF.findall(value)} & dropped:
                    s.args[slot] = fallback(spec.inputs[slot]) or ""
                    if not s.args[slot] and slot not in spec.required:
                        del s.args[slot]
            s.deps -= dropped
    keep = [i for i in range(len(steps)) if i not in dropped]
    new_index = {old: new for new, old in enumerate(keep)}
    return [Step(s.task, s.mention, s.lo, s.hi, _renumbered(s.args, new_index), {new_index[d] for d in s.deps})
            for s in (steps[i] for i in keep)]


# What joins the items of a list: "a.wav and b.wav", "street.jpg and in street2.jpg", "cat.jpg, dog.jpg and bird.jpg"
_LIST_GAP = re.compile(r"\s*(?:,\s*(?:and\s+)?|(?:and|&)\s+)(?:(?:in|of|for|from|on|to)\s+)?(?:the\s+)?", re.I)


def per_listed_input(steps: list[Step], parsed: ParsedRequest) -> list[Step]:
    """A step whose own file or quote is the first of a list of inputs of its kind ("transcribe a.wav and b.wav")
    runs once per item no other step reads, each copy with the steps that use its output: before, the plan
    silently did the first item only."""
    used = {v for s in steps for v in s.args.values()}
    out = list(steps)
    for i, step in enumerate(steps):
        spec = TASKS[step.task]
        for slot in spec.required:
            kind = spec.inputs[slot]
            items = sorted((r for r in (parsed.quotes if kind == "text" else parsed.files) if kind == "text" or r.kind == kind),
                           key=lambda r: r.start)
            own = next((r for r in items if r.value == step.args.get(slot)), None)
            if own is None:
                continue
            listed, end = [], own.stop
            for item in (r for r in items if r.start >= end):
                if item.value in used or not _LIST_GAP.fullmatch(parsed.text[end:item.start]):
                    break
                listed.append(item.value)
                end = item.stop
            users = sorted(j for j in range(len(steps)) if i in ancestors(steps, j))
            for value in listed:
                index = {old: len(out) + k for k, old in enumerate([i, *users])}
                for old in (i, *users):
                    copy = steps[old]
                    args = _renumbered(copy.args, {n: index.get(n, n) for n in range(len(steps))})
                    if old == i:
                        args[slot] = value
                    out.append(Step(copy.task, copy.mention, copy.lo, copy.hi, args, {index.get(d, d) for d in copy.deps}))
            used.update(listed)
            break
    return out


def ordered_plan(steps: list[Step]) -> Plan:
    """Ids in an order where every task follows the tasks it uses (stable otherwise)."""
    order, placed = [], set()
    while len(order) < len(steps):
        ready = [i for i in range(len(steps)) if i not in placed and steps[i].deps <= placed]
        if not ready:  # a cycle cannot come from the planner's rules; keep what is placeable
            break
        order.append(ready[0])
        placed.add(ready[0])
    new_id = {old: new for new, old in enumerate(order)}
    return Plan(tasks=[Task(task=steps[old].task, id=new_id[old], dep=sorted(new_id[d] for d in steps[old].deps) or [-1],
                            args=_renumbered(steps[old].args, new_id)) for old in order])
