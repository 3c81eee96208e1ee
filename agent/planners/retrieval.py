"""RetrievalPlanner: plans without an LLM, from task cues, the example bank and task types.

1. Find the tasks: cues for each task (cues.py) in the request with quotes and files masked,
   overlapping cues resolved by weight; a task is named once.
2. Fill each task's slots, in the order the request names them: a file of the slot's type
   named near the task, else the output of an earlier task that produces that type when
   the wording chains ("then", "it", "the result") or nothing else can fill it, else a file
   or quote named elsewhere, else text taken from the task's own words.
3. Order the tasks so every task comes after the tasks it uses, and validate.

The example bank serves `select_examples` (few-shot demonstrations for the LLM chain),
`likely_tasks` (a narrowed task list) and the confidence (agreement with the nearest example).
"""

from __future__ import annotations

import re

from langchain_hugginggpt.agent.planners import PlannerOutput
from langchain_hugginggpt.agent.planners.bank import ExampleBank
from langchain_hugginggpt.agent.planners.cues import Mention, find_mentions
from langchain_hugginggpt.agent.planners.phrasebook import PhraseClassifier
from langchain_hugginggpt.agent.planners.steps import Step, ancestors, drop_unfilled, input_of, ordered_plan
from langchain_hugginggpt.agent.planners.text import (
    OUTPUT_REF, PARALLEL, RESULT_REF, SEQUENTIAL, ParsedRequest, Resource, edit_instruction, history_files, parse,
    question_in)
from langchain_hugginggpt.agent.schema import Plan
from langchain_hugginggpt.agent.validation import validate_plan
from langchain_hugginggpt.tools.tasks import TASKS, TaskSpec

# Tasks whose output annotates their input (boxes, masks, depth): words for the picture after
# them ("describe the picture") still mean their input; only explicit words ("the result",
# "the mask") chain to the annotation. With chaining by default off, "it" means the input too.
ANNOTATORS = {"object-detection", "image-segmentation", "depth-estimation"}
ANNOTATORS |= {name for name in TASKS if name.endswith("-control")}
# Tasks that read what a picture shows (captions, labels, answers, other annotations). Tasks that
# make a new image from one (editing, ControlNet generation from a map) may start from an annotation.
READERS = {name for name, spec in TASKS.items() if "image" in spec.inputs.values()
           and (spec.output == "text" or name in ANNOTATORS)}
# Words for the picture a request started from, as opposed to something a step made.
INPUT_REF = re.compile(r"\b(?:the|this|that|same|original|my) (?:picture|image|photo(?:graph)?|pic|scene|snapshot)\b", re.I)
# Where a task is not in the allowed list, the nearest one that is.
FALLBACK = {"text2text-generation": "text-generation", "image-editing": "image-to-image",
            "image-to-image": "image-editing", "zero-shot-classification": "text-classification"}
_CONTENT = re.compile(r"\b(?:of|about|showing|depicting|featuring|illustrating|representing|saying|that says|"
                      r"describing|on the (?:topic|theme) of|:)\s+(.{3,})", re.I)
_TO_TEXT = {"image": "image-to-text", "audio": "automatic-speech-recognition"}
# Tasks that make something new from a description ("an image of ..."); others work on a given text.
_GENERATIVE = {"text-to-image", "text-to-video", "text-generation", "text-to-speech", "conversational"}
# Words that name the output of a particular earlier task ("the transcript" -> speech recognition).
_NAMES_OUTPUT_OF = {task: tuple(re.compile(rf"\b{p}\b", re.I) for p in patterns) for task, patterns in {
    "automatic-speech-recognition": (r"transcri\w*",),
    "image-to-text": (r"caption\w*", r"description"),
    "translation": (r"translat\w*",),
    "summarization": (r"summar\w*",),
    "text-to-image": (r"generated", r"created"),
    "image-editing": (r"edited", r"modified"),
    "image-to-image": (r"transformed", r"enhanced", r"improved", r"styli[sz]ed"),
    "audio-to-audio": (r"enhanced", r"clean(?:ed)?", r"improved"),
    "image-segmentation": (r"segment\w*", r"masks?"),
    "depth-estimation": (r"depth",),
    "object-detection": (r"detect\w*", r"objects"),
    "text-generation": (r"generated text", r"story", r"written"),
    "text-to-speech": (r"speech", r"spoken"),
    "visual-question-answering": (r"answer",),
    "document-question-answering": (r"answer",),
    "question-answering": (r"answer",),
    "conversational": (r"repl(?:y|ies)", r"response"),
}.items()}
_LEAD_REF = re.compile(r"^(?:it|this|that|them|these|those|the (?:result|output|text|caption|description|transcript|"
                       r"summary|translation|answer|story|generated|same|above)|@)", re.I)


def produces_text(task: str) -> bool:
    return TASKS[task].output == "text" or task == "object-detection"  # detection also reports its labels


class RetrievalPlanner:
    """The offline planner. `tasks` restricts the plan to a subset (e.g. a benchmark's tool list)."""

    name = "retrieval"

    def __init__(self, bank: ExampleBank | None = None, tasks: list[str] | None = None,
                 min_weight: float = 0.5, phrase_threshold: float | None = 0.3,
                 chain_by_default: bool = True) -> None:
        self.bank = bank if bank is not None else ExampleBank()
        self.tasks: dict[str, TaskSpec] = {n: TASKS[n] for n in (tasks or TASKS) if n in TASKS}
        self.min_weight = min_weight
        self.phrase_threshold = phrase_threshold  # None: cues only, no phrasebook
        self.chain_by_default = chain_by_default
        self._phrasebook: PhraseClassifier | None = None

    # ------------------------------------------------------------ the LLM chain's helpers

    def select_examples(self, request: str, k: int = 4) -> list[tuple[str, Plan]]:
        return [(r, p) for r, p, _ in self.bank.search(request, k)]

    def likely_tasks(self, request: str, n: int = 12) -> list[str]:
        scores: dict[str, float] = {}
        for mention in self._mentions(parse(request)):
            scores[mention.task] = max(scores.get(mention.task, 0.0), 1.0 + mention.weight)
        for task, vote in self.bank.task_votes(request, k=8).items():
            if task in self.tasks:
                scores[task] = scores.get(task, 0.0) + vote
        ranked = sorted(scores, key=lambda t: -scores[t])
        return (ranked + [t for t in self.tasks if t not in scores])[:n]

    # ------------------------------------------------------------ planning

    def plan(self, request: str, chat_history: list[dict] | None = None) -> PlannerOutput:
        parsed = parse(request, history_files(chat_history))
        steps = self._steps(parsed)
        for i, step in enumerate(steps):
            self._fill(i, steps, parsed)
        self._fill_from_later(steps)
        for step in steps:  # last resort for text: the request itself
            if "text" in TASKS[step.task].required and not step.args.get("text"):
                step.args["text"] = request
        steps = drop_unfilled(steps)
        plan = ordered_plan(steps)
        plan = validate_plan(plan, self.tasks).plan if plan.tasks else plan
        confidence, nearest = self._confidence(request, steps)
        return PlannerOutput(plan=plan, planner=self.name, confidence=confidence,
                             details={"cues": [(s.task, s.mention.cue) for s in steps], "nearest_example": nearest})

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
        for i, m in enumerate(ordered):
            spec = TASKS[m.task]
            if any(spec.inputs[slot] != "text" for slot in spec.required):
                continue
            if any(produces_text(p.task) for p in ordered[:i] + added):
                continue
            hi = ordered[i + 1].start if i + 1 < len(ordered) else parsed.clauses[parsed.clause_at(m.start)].end
            own = [f for f in parsed.in_span(parsed.files, m.start, hi) if f.kind in _TO_TEXT]
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
            if any(clause.start <= m.start < clause.end for m in found):
                continue
            ranked = self._phrasebook.classify(clause.text)
            if ranked and ranked[0][1] >= self.phrase_threshold and ranked[0][0] not in named:
                named.add(ranked[0][0])
                added.append(Mention(ranked[0][0], clause.start, clause.end, 0.45, "phrase"))
        return added

    def _steps(self, parsed: ParsedRequest) -> list[Step]:
        first: dict[str, Mention] = {}
        found = self._mentions(parsed)
        implied = [m for m in found if m.implied]
        found = [m for m in found if not m.implied]
        found += self._bridges(parsed, found)
        found += self._phrase_mentions(parsed, found)
        # "Describe the segmented image": a result referred to but asked for nowhere else.
        found += [m for m in implied if m.task not in {f.task for f in found}]
        # A named file is some task's input: in a request with no cue, or one with several steps
        # (where the step that reads the file is often the one described least directly).
        extra = self._unused_files(parsed, found) if len(found) != 1 else []  # a request naming a file asks for something
        for m in sorted(found + extra, key=lambda m: (m.start, m.end)):
            first.setdefault(m.task, m)
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

    def _fill(self, i: int, steps: list[Step], parsed: ParsedRequest) -> None:
        step, spec = steps[i], TASKS[steps[i].task]
        scope = parsed.masked[step.lo:step.hi]
        gap = parsed.masked[steps[i - 1].mention.end if i else step.lo:step.mention.start]
        own_files = parsed.in_span(parsed.files, step.lo, step.hi)
        own_quotes = parsed.in_span(parsed.quotes, step.lo, step.hi)
        # "After cleaning the audio, transcribe it": the step before was introduced as coming first.
        before_prev = parsed.masked[steps[i - 1].lo:steps[i - 1].mention.start] if i else ""
        # A later step of a multi-step request works on what the step before produced unless the
        # wording says otherwise ("also", "separately"): requests that list steps mostly chain them.
        chained = i > 0 and (self.chain_by_default or bool(
            SEQUENTIAL.search(gap) or re.search(r"\b(?:after|once|first)\W*$", before_prev, re.I)))
        explicit = bool(OUTPUT_REF.search(scope))
        parallel = bool(PARALLEL.search(gap)) and not explicit
        sibling = steps[i - 1] if i and parallel else None  # "... and also X": same inputs as the task before

        def earlier(kind: str) -> int | None:
            producers = [j for j in range(i - 1, -1, -1)
                         if TASKS[steps[j].task].output == kind or (kind == "text" and produces_text(steps[j].task))]
            named = [j for j in producers if any(p.search(scope) for p in _NAMES_OUTPUT_OF.get(steps[j].task, ()))]
            return (named or producers or [None])[0]

        def link(slot: str, j: int) -> None:
            step.args[slot] = f"<resource>-{j}"
            step.deps.add(j)

        for slot, kind in spec.inputs.items():
            if slot in step.args or (slot not in spec.required and kind != "text"):
                continue
            if kind != "text":
                same = [v for s, v in sibling.args.items()
                        if TASKS[sibling.task].inputs.get(s) == kind] if sibling else []
                if same and not [f for f in own_files if f.kind == kind]:
                    step.args[slot] = same[0]
                    step.deps |= {d for d in sibling.deps if f"<resource>-{d}" == same[0]}
                    continue
                j = earlier(kind)
                mine = [f for f in own_files if f.kind == kind]
                anywhere = [f for f in parsed.files if f.kind == kind]
                if (j is not None and not mine and not explicit and steps[j].task in ANNOTATORS
                        and step.task in READERS and INPUT_REF.search(scope)):
                    # "Detect the objects in a.jpg and describe the picture": the picture is what the
                    # annotator annotated, not its drawing (which chaining by default would give).
                    source = input_of(steps[j], kind)
                    if source is not None:
                        step.args[slot] = source
                        step.deps |= {d for d in steps[j].deps if f"<resource>-{d}" == source}
                        continue
                # after an annotator (boxes, masks) only explicit words chain; "it" means the original
                refers = j is not None and (explicit or (steps[j].task not in ANNOTATORS and bool(RESULT_REF.search(scope))))
                if mine and not (j is not None and explicit):
                    step.args[slot] = mine[0].value
                elif j is not None and (refers or (chained and not parallel) or not anywhere):
                    link(slot, j)
                elif anywhere:
                    before = [f for f in anywhere if f.start < step.mention.start]
                    step.args[slot] = (before[-1] if before else anywhere[0]).value
                elif j is not None:
                    link(slot, j)
                else:
                    old = [f for f in parsed.history if f.kind == kind]
                    if old:
                        step.args[slot] = old[-1].value
        self._fill_text(i, steps, parsed, scope, own_quotes, chained, explicit, parallel, sibling)

    def _fill_text(self, i: int, steps: list[Step], parsed: ParsedRequest, scope: str, own_quotes: list[Resource],
                   chained: bool, explicit: bool, parallel: bool, sibling: Step | None) -> None:
        step, spec = steps[i], TASKS[steps[i].task]
        if not any(k == "text" and s not in step.args for s, k in spec.inputs.items()):
            return
        original = parsed.text[step.lo:step.hi]
        producers = [j for j in range(i - 1, -1, -1) if produces_text(steps[j].task)]
        named = [j for j in producers if any(p.search(scope) for p in _NAMES_OUTPUT_OF.get(steps[j].task, ()))]
        prev = (named or producers or [None])[0]
        if sibling is not None and not own_quotes:
            refs = [d for d in sibling.deps if produces_text(steps[d].task)]
            prev = refs[0] if refs else prev
        used = {v for s in steps for v in s.args.values()}
        spare_quotes = [q.value for q in parsed.quotes if q.value not in used]
        refers = prev is not None and (explicit or bool(RESULT_REF.search(scope)) or (chained and not parallel)
                                       or bool(named))
        question = question_in(parsed, step.lo, step.hi) or question_in(parsed)

        def link(j: int) -> str:
            step.deps.add(j)
            return f"<resource>-{j}"

        name = spec.name
        if name in ("visual-question-answering", "document-question-answering"):
            step.args["text"] = question or (own_quotes[0].value if own_quotes else _content(original) or parsed.text)
        elif name == "question-answering":
            step.args["text"] = question or parsed.text
            context = [q.value for q in own_quotes if q.value != question] or [q for q in spare_quotes if q != question]
            if prev is not None and (refers or not context):
                step.args["context"] = link(prev)
            elif context:
                step.args["context"] = context[0]
        elif name == "sentence-similarity":
            texts = [q.value for q in own_quotes]
            if prev is not None and (refers or len(texts) + len(spare_quotes) < 2):
                texts.insert(0, link(prev))
            texts += [q for q in spare_quotes if q not in texts]
            if len(texts) >= 2:
                step.args["text"], step.args["text2"] = texts[0], texts[1]
        elif name == "image-editing" or name.endswith("-text-to-image"):
            step.args["text"] = (own_quotes[0].value if own_quotes else edit_instruction(parsed, step.lo, step.hi)) or parsed.text
        elif "text" in spec.required and "text" not in step.args:
            # The text this task works on: its own quote, an earlier output, its own words, a spare quote.
            content = _content(original) if name in _GENERATIVE else None
            if own_quotes and own_quotes[0].value != question and not (named and steps[named[0]].mention.implied):
                step.args["text"] = own_quotes[0].value
            elif prev is not None and (refers or not (spare_quotes or content)):
                step.args["text"] = link(prev)
            elif content:
                step.args["text"] = content
            elif spare_quotes:
                step.args["text"] = spare_quotes[0]
            # else left empty: a task named later may feed it (_fill_from_later)

    def _fill_from_later(self, steps: list[Step]) -> None:
        """'Read aloud the caption of a.jpg': a task named before the task that feeds it."""
        for i, step in enumerate(steps):
            spec = TASKS[step.task]
            for slot in spec.required:
                if step.args.get(slot):
                    continue
                kind = spec.inputs[slot]
                for j in range(i + 1, len(steps)):
                    feeds = TASKS[steps[j].task].output == kind or (kind == "text" and produces_text(steps[j].task))
                    if feeds and i not in ancestors(steps, j):
                        step.args[slot] = f"<resource>-{j}"
                        step.deps.add(j)
                        break

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


def _content(text: str) -> str | None:
    """What a generative task should make, from its own words: 'an image of a red fox' -> 'a red fox'."""
    match = _CONTENT.search(text)
    if not match or _LEAD_REF.match(match.group(1).strip()):
        return None
    content = re.split(r"[,;.!?]|\b(?:and then|then|and also|and)\b", match.group(1))[0].strip()
    return content if len(content) > 2 else None
