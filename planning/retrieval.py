"""RetrievalPlanner: plans without an LLM, from task cues, the example bank and task types.

1. Find the tasks: cues for each task (cues.py) in the request with quotes and files masked,
   overlapping cues resolved by weight; a task is named once.
2. Fill each task's slots (wiring.py): a file named near the task, an earlier task's output
   when the wording chains, a file or quote named elsewhere, the task's own words.
3. Order the tasks so every task comes after the tasks it uses, and validate.

The example bank serves `select_examples` (few-shot demonstrations for the LLM chain),
`likely_tasks` (a narrowed task list) and the confidence (agreement with the nearest example).
"""

from __future__ import annotations

import functools
import re
from typing import Callable

from langchain_hugginggpt.planning.base import PlannerOutput
from langchain_hugginggpt.planning.bank import ExampleBank
from langchain_hugginggpt.planning.cues import Mention, find_mentions
from langchain_hugginggpt.planning.families import FAMILIES
from langchain_hugginggpt.planning.phrasebook import PhraseClassifier
from langchain_hugginggpt.planning.request import question_in
from langchain_hugginggpt.planning.steps import Step, drop_unfilled, means_first, ordered_plan, per_listed_input
from langchain_hugginggpt.planning.text import (
    OUTPUT_REF,
    RESULT_REF,
    ParsedRequest,
    earlier_answer,
    history_files,
    parse,
)
from langchain_hugginggpt.planning.wiring import (
    complete_comparisons, fill_from_later, fill_step, name_languages, produces_text, restatements, spare_quotes)
from langchain_hugginggpt.core.schema import Plan
from langchain_hugginggpt.planning.validation import validate_plan
from langchain_hugginggpt.core.tasks import TASKS, TaskSpec

# Where a task is not in the allowed list, the nearest one that is.
FALLBACK = {name: spec.planning.fallback for name, spec in TASKS.items() if spec.planning.fallback}
_TEXT_OF_FILE = re.compile(r"\b(?:this|that|the|its|their) (?:text|writing|words|wording)\b", re.I)
_TO_TEXT = {kind: FAMILIES["to_text"][kind] for kind in ("image", "audio")}  # what reads a file as text
# The rules that find tasks, in the order they are tried (`found_by_source`).
RULE_SOURCES = ("cue", "bridge", "phrase", "implied", "unused_file")

# Questions about the assistant itself: chit-chat, not a question for a model.
_SMALL_TALK = re.compile(r"\b(?:how|who|what|where)\s+(?:are|were)\s+you\b|\bhow(?:'s|\s+is)\s+it\s+going\b|"
                         r"\bwhat\s+(?:can|do)\s+you\s+do\b", re.I)


class RetrievalPlanner:
    """The offline planner. `tasks` restricts the plan to a subset (e.g. a benchmark's tool list);
    `rule_sources` names the rules that may find tasks (all of RULE_SOURCES by default)."""

    name = "retrieval"

    def __init__(self, bank: ExampleBank | None = None, tasks: list[str] | None = None,
                 min_weight: float = 0.5, phrase_threshold: float | None = 0.3,
                 chain_by_default: bool = True, rule_sources: tuple[str, ...] = RULE_SOURCES) -> None:
        unknown = set(rule_sources) - set(RULE_SOURCES)
        if unknown:
            raise ValueError(f"unknown rule source(s) {sorted(unknown)}: choose from {', '.join(RULE_SOURCES)}")
        self.rule_sources = tuple(rule_sources)
        self.bank = bank if bank is not None else ExampleBank()
        self.tasks: dict[str, TaskSpec] = {n: TASKS[n] for n in (tasks or TASKS) if n in TASKS}
        self.min_weight = min_weight
        self.phrase_threshold = phrase_threshold  # None: cues only, no phrasebook
        self.chain_by_default = chain_by_default
        self._phrasebook: PhraseClassifier | None = None

    def for_deployment(self, can_run: Callable[[str], bool]) -> "RetrievalPlanner":
        """The planner for a deployment that runs only the tasks `can_run` accepts: this one. The rules
        plan what the request names; a task that cannot run fails with an error that says why."""
        return self

    # ------------------------------------------------------------ the LLM chain's helpers

    def select_examples(self, request: str, k: int = 4) -> list[tuple[str, Plan]]:
        return [(r, p) for r, p, _ in self.bank.search(request, k)]

    def likely_tasks(self, request: str, n: int = 12) -> list[str]:
        scores = self.task_scores(request)
        ranked = sorted(scores, key=lambda t: -scores[t])
        return (ranked + [t for t in self.tasks if t not in scores])[:n]

    def task_scores(self, request: str) -> dict[str, float]:
        """How likely each task is: its cue's weight (plus 1) and the nearest examples' votes."""
        scores: dict[str, float] = {}
        for mention in self._mentions(parse(request)):
            scores[mention.task] = max(scores.get(mention.task, 0.0), 1.0 + mention.weight)
        for task, vote in self.bank.task_votes(request, k=8).items():
            if task in self.tasks:
                scores[task] = scores.get(task, 0.0) + vote
        return scores

    # ------------------------------------------------------------ planning

    def plan(self, request: str, chat_history: list[dict] | None = None) -> PlannerOutput:
        parsed = parse(request, history_files(chat_history))
        return self._plan_steps(request, parsed, self._steps(parsed), chat_history)

    def _plan_steps(self, request: str, parsed: ParsedRequest, steps: list[Step],
                    chat_history: list[dict] | None = None) -> PlannerOutput:
        """Steps (tasks at their places in the request) to a validated plan: order, slots, links."""
        steps = means_first(steps, parsed)
        for i, step in enumerate(steps):
            fill_step(i, steps, parsed, self.chain_by_default)
        fill_from_later(steps)
        complete_comparisons(steps, parsed)
        self._relink(steps, parsed)
        name_languages(steps, parsed)
        # Last resort for text: what an earlier turn answered, when the request points back at it
        # ("now read that aloud"), else what the request itself gives (`_words_for`).
        earlier = earlier_answer(chat_history) if RESULT_REF.search(request) or OUTPUT_REF.search(request) else None
        for step in steps:
            if "text" in TASKS[step.task].required and not step.args.get("text"):
                step.args["text"] = earlier or _words_for(parsed, step)
        planned, steps = steps, drop_unfilled(steps, functools.partial(_fallback_input, parsed, steps, earlier))
        question = next((s for s in planned if s.task == FAMILIES["question"]["text"]), None)
        asked = question_in(parsed) if not steps else None
        if (not steps and (question or asked and not planned) and "conversational" in self.tasks and not parsed.files
                and not _SMALL_TALK.search(request)):
            # A question with no text or file to answer it from ("could you tell me more about the Louvre?"), or one
            # no task was found for ("I have a question about smart homes: which lights are best?"), goes to the
            # conversational model, which answers from what it knows, rather than to no plan at all; a question
            # about the assistant itself ("how are you?") is chit-chat, which the chat model answers without a plan.
            mention = question.mention if question else Mention("conversational", 0, 0, 0.5, "a question")
            lo, hi = (question.lo, question.hi) if question else (0, len(request))
            steps = [Step("conversational", mention, lo, hi, {"text": asked or request})]
        plan = ordered_plan(per_listed_input(steps, parsed))
        plan = validate_plan(plan, self.tasks).plan if plan.tasks else plan
        confidence, nearest = self._confidence(request, steps)
        return PlannerOutput(plan=plan, planner=self.name, confidence=confidence,
                             details={"cues": [(s.task, s.mention.cue) for s in steps], "nearest_example": nearest})

    def _relink(self, steps: list[Step], parsed: ParsedRequest) -> None:
        """A second look at the links the rules made (the learned planner's link model); none here."""

    def _allowed(self, task: str) -> str | None:
        if task in self.tasks:
            return task
        fallback = FALLBACK.get(task)
        return fallback if fallback in self.tasks else None

    def _mentions(self, parsed: ParsedRequest) -> list[Mention]:
        mentions = []
        for m in find_mentions(parsed):
            task = self._allowed(m.task)
            if task:
                m.task = task
                mentions.append(m)
        # A cue inside a heavier (or equal, longer) cue for another task is part of that cue.
        kept: list[Mention] = []
        # An implied task ("the translated text") never hides another cue.
        for m in sorted(mentions, key=lambda m: (m.implied, -m.weight, -(m.end - m.start), m.start)):
            if all(not (k.start <= m.start and m.end <= k.end) or m.task == k.task for k in kept):
                kept.append(m)
        return sorted((m for m in kept if m.weight >= self.min_weight), key=lambda m: m.start)

    def _unused_files(self, parsed: ParsedRequest, mentions: list[Mention]) -> list[Mention]:
        """A file the request names must be the input of some task: when no cue named a task
        that takes its type, the example bank's nearest requests suggest one."""
        consumed = {TASKS[m.task].inputs[s] for m in mentions for s in TASKS[m.task].required}
        added: list[Mention] = []
        votes = None
        for file in parsed.files:
            if file.kind in consumed or file.kind == "text":
                continue
            takers = [t for t in self.tasks if file.kind in (TASKS[t].inputs[s] for s in TASKS[t].required)]
            if not takers:
                continue
            votes = votes if votes is not None else self.bank.task_votes(parsed.text, k=8)
            prior = self._prior()
            best = max(takers, key=lambda t: (votes.get(t, 0.0) + 0.01 * prior.get(t, 0), -takers.index(t)))
            added.append(Mention(best, file.start, file.start + len(file.value), 0.4, f"unused {file.kind} file"))
            consumed.add(file.kind)
        return added

    def _prior(self) -> dict[str, int]:
        if not hasattr(self, "_task_counts"):
            self._task_counts: dict[str, int] = {}
            for _, plan in self.bank.examples:
                for t in plan.tasks:
                    self._task_counts[t.task] = self._task_counts.get(t.task, 0) + 1
        return self._task_counts

    def _bridges(self, parsed: ParsedRequest, found: list[Mention]) -> list[Mention]:
        """'Read out the flyer.png', 'summarize meeting.wav': a text task given an image or a
        recording needs the task that turns it into text first (image-to-text, speech recognition)."""
        added: list[Mention] = []
        ordered = sorted(found, key=lambda m: m.start)
        consumed = {TASKS[m.task].inputs[s] for m in found for s in TASKS[m.task].required}
        for i, m in enumerate(ordered):
            spec = TASKS[m.task]
            if any(spec.inputs[slot] != "text" for slot in spec.required):
                continue
            if any(produces_text(p.task) for p in ordered[:i] + added):
                continue
            hi = parsed.clauses[parsed.clause_at(m.start)].end  # its own clause, up to the next task
            hi = min(hi, ordered[i + 1].start) if i + 1 < len(ordered) else hi
            own = [f for f in parsed.in_span(parsed.files, m.start, hi) if f.kind in _TO_TEXT]
            if not own and not parsed.quotes and _TEXT_OF_FILE.search(parsed.masked, m.start, hi):
                # 'a.jpg has some text on it; make a video from this text': the text is the file's
                own = [f for f in parsed.files if f.kind in _TO_TEXT and f.kind not in consumed]
            if own and not parsed.in_span(parsed.quotes, m.start, hi):
                converter = self._allowed(_TO_TEXT[own[0].kind])
                if converter and converter not in {x.task for x in found + added}:
                    added.append(Mention(converter, m.start, m.start, m.weight, f"{own[0].kind} to text for {m.task}"))
        return added

    def _phrase_mentions(self, parsed: ParsedRequest, found: list[Mention]) -> list[Mention]:
        """A clause no cue claimed, matched against the phrasebook: a close match names its task."""
        if self.phrase_threshold is None:
            return []
        if self._phrasebook is None:
            self._phrasebook = PhraseClassifier(list(self.tasks))
        added: list[Mention] = []
        named = {m.task for m in found}
        for clause in parsed.clauses:
            if any(clause.start <= m.start < clause.end for m in found) or parsed.in_quote(clause.start):
                continue
            ranked = self._phrasebook.classify(clause.text)
            if ranked and ranked[0][1] >= self.phrase_threshold and ranked[0][0] not in named:
                named.add(ranked[0][0])
                added.append(Mention(ranked[0][0], clause.start, clause.end, 0.45, "phrase"))
        return added

    def _steps(self, parsed: ParsedRequest) -> list[Step]:
        return self._steps_from(parsed, self._found(parsed))

    def _found(self, parsed: ParsedRequest) -> list[Mention]:
        """The tasks the rules find: cues, bridges to text, the phrasebook, implied tasks, unused files."""
        return [m for mentions in self.found_by_source(parsed).values() for m in mentions]

    def found_by_source(self, parsed: ParsedRequest) -> dict[str, list[Mention]]:
        """The rules' task mentions by the rule that found them ("cue", "bridge", "phrase", "implied",
        "unused_file"), in the order they are tried; each mention's `source` says which."""
        on = set(self.rule_sources)
        found = self._mentions(parsed)
        implied = [m for m in found if m.implied]
        sources = {"cue": [m for m in found if not m.implied] if "cue" in on else []}
        sources["bridge"] = self._bridges(parsed, sources["cue"]) if "bridge" in on else []
        sources["phrase"] = self._phrase_mentions(parsed, sources["cue"] + sources["bridge"]) if "phrase" in on else []
        # "Describe the segmented image": a result referred to but asked for nowhere else.
        named = {m.task for ms in sources.values() for m in ms}
        sources["implied"] = [m for m in implied if m.task not in named] if "implied" in on else []
        # A named file is some task's input: in a request with no cue, or one with several steps
        # (where the step that reads the file is often the one described least directly).
        base = [m for ms in sources.values() for m in ms]
        sources["unused_file"] = self._unused_files(parsed, base) if len(base) != 1 and "unused_file" in on else []
        for source, mentions in sources.items():
            for m in mentions:
                m.source = source
        return sources

    def _steps_from(self, parsed: ParsedRequest, found: list[Mention]) -> list[Step]:
        """Steps from the task mentions: one per task (a goal restated later runs at the later place),
        an implied task just before the step that refers to it, each with its span of the request."""
        first: dict[str, Mention] = {}
        ordered = sorted(found, key=lambda m: (m.start, m.end))
        for m in ordered:
            first.setdefault(m.task, m)
        first.update(restatements(first, ordered, parsed))
        for task, m in list(first.items()):
            # An implied task runs just before the step whose words refer to its output.
            clause = parsed.clauses[parsed.clause_at(m.start)]
            owner = [n.start for n in first.values() if clause.start <= n.start < m.start and not n.implied]
            if m.implied and owner:
                first[task] = Mention(task, max(owner), max(owner), m.weight, m.cue, True)
        mentions = sorted(first.values(), key=lambda m: (m.start, not m.implied))
        steps = []
        for i, m in enumerate(mentions):
            clause = parsed.clauses[parsed.clause_at(m.start)]
            lo = m.start if any(p.start >= clause.start for p in mentions[:i]) else clause.start
            hi = min([clause.end] + [n.start for n in mentions[i + 1:]])
            steps.append(Step(task=m.task, mention=m, lo=lo, hi=max(hi, m.end)))
        return steps

    def _confidence(self, request: str, steps: list[Step]) -> tuple[float, str | None]:
        nearest = self.bank.search(request, 1)
        if not steps:
            return 0.3, nearest[0][0] if nearest else None
        cue = min(s.mention.weight for s in steps)
        agreement = 0.0
        if nearest:
            mine, theirs = {s.task for s in steps}, {t.task for t in nearest[0][1].tasks}
            agreement = len(mine & theirs) / len(mine | theirs) if theirs else 0.0
        return round(0.6 * cue + 0.4 * agreement, 3), nearest[0][0] if nearest else None


def _words_for(parsed: ParsedRequest, step: Step | None = None) -> str:
    """The text a step with no words of its own reads from the request: a conversational step the question the
    request asks ("I need help with my homework. When did the battle take place?"); else the quote named last
    before the step (without a step, the first one: several steps may read one pasted text); else the request."""
    if step is not None and step.task == "conversational" and (question := question_in(parsed)):
        return question
    before = [q for q in parsed.quotes if step is not None and q.start < step.mention.start]
    quote = before[-1] if before else (parsed.quotes[0] if parsed.quotes else None)
    return quote.value if quote is not None else parsed.text


def _fallback_input(parsed: ParsedRequest, steps: list[Step], earlier: str | None, kind: str) -> str | None:
    """What a step takes in place of a dropped step's output: a quote no step uses, else the planner's last
    resort for any text (an earlier turn's answer the request points back at, else `_words_for`), for a text;
    the request's (or an earlier turn's) file, for a file."""
    if kind == "text":
        return next(iter(spare_quotes(parsed, steps)), None) or earlier or _words_for(parsed)
    return next((f.value for f in parsed.files + parsed.history if f.kind == kind), None)
