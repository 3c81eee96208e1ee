"""LearnedPlanner: the task set from a classifier trained on the back-instruct corpus, the rest as
the retrieval planner does it.

1. Which tasks: `TaskSetClassifier` (taskset.py) scores every task; those over its threshold are planned.
   With `rules=True` (hybrid) the retrieval planner's rules find tasks first; the classifier drops a
   rule's task it scores under `veto` and adds the tasks it scores over its threshold.
2. Where each task is asked for (its place in the request decides the order and which words and
   files are its own): the task's cue if one names it, else a file of the task's input type no other
   task's cue is at, else the clause the classifier scores highest for the task.
3. Slots, links and order: the retrieval planner's steps and wiring (wiring.py, steps.py).
"""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

from langchain_hugginggpt.agent.planners.bank import ExampleBank
from langchain_hugginggpt.agent.planners.cues import Mention, find_mentions
from langchain_hugginggpt.agent.planners.retrieval import RetrievalPlanner
from langchain_hugginggpt.agent.planners.steps import Step
from langchain_hugginggpt.agent.planners.taskset import TASKSET_MODEL, TaskSetClassifier, model_text
from langchain_hugginggpt.agent.planners.text import ParsedRequest
from langchain_hugginggpt.agent.schema import Plan
from langchain_hugginggpt.tools.tasks import TASKS


# Below this probability a task the rules found is dropped (chosen by corpus cross-validation, bench/planning_cv.py).
VETO = 0.0


class LearnedPlanner(RetrievalPlanner):
    """The offline planner whose task set is learned. `model`: a trained classifier or the path of one
    (default: the one shipped in agent/planners/models/). `rules=False`: the classifier's task set alone."""

    name = "learned"

    def __init__(self, model: TaskSetClassifier | str | Path | None = None, tasks: list[str] | None = None,
                 threshold: float | None = None, rules: bool = True, veto: float = VETO, **kwargs) -> None:
        super().__init__(tasks=tasks, **kwargs)
        self.model = model if isinstance(model, TaskSetClassifier) else TaskSetClassifier.load(model or TASKSET_MODEL)
        self.threshold = self.model.threshold if threshold is None else threshold
        self.rules, self.veto = rules, veto
        self._corpus_bank: ExampleBank | None = None  # built on first use: only the LLM chain asks

    def select_examples(self, request: str, k: int = 4) -> list[tuple[str, Plan]]:
        """The k corpus requests most like this one, with their plans (the LLM chain's demonstrations)."""
        if self._corpus_bank is None:
            from langchain_hugginggpt.agent.planners.train import corpus_examples

            self._corpus_bank = ExampleBank(corpus_examples())
        return [(r, p) for r, p, _ in self._corpus_bank.search(request, k)]

    def task_scores(self, request: str) -> dict[str, float]:
        """The rules' scores (cues, example votes) plus the classifier's probability."""
        scores = super().task_scores(request)
        for task, probability in self.model.scores(request).items():
            if task in self.tasks:
                scores[task] = scores.get(task, 0.0) + probability
        return scores

    def chosen_tasks(self, parsed: ParsedRequest) -> list[str]:
        return self.model.choose(self.model.scores(parsed), list(self.tasks), self.threshold)

    def _steps(self, parsed: ParsedRequest) -> list[Step]:
        scores = self.model.scores(parsed)
        chosen = self.model.choose(scores, list(self.tasks), self.threshold)
        if self.rules:
            found = [m for m in self._found(parsed) if scores.get(m.task, 1.0) >= self.veto]
            # next to the rules' tasks only confident ones; with none, at least the most likely task
            chosen = [t for t in chosen if scores[t] >= self.threshold] if found else chosen
        else:
            found = [m for m in self._mentions(parsed) if m.task in chosen]
        loose = find_mentions(parsed)  # cues the retrieval planner would drop
        for task in chosen:
            if any(m.task == task for m in found):
                continue
            anchor = next((m for m in loose if m.task == task), None) or self._anchor(parsed, task, found)
            found.append(anchor)
        return self._steps_from(parsed, found)

    def _anchor(self, parsed: ParsedRequest, task: str, found: Sequence[Mention]) -> Mention:
        """Where a task no cue names is asked for: a file of its input type at no other task's cue,
        else the clause the classifier scores highest for it."""
        kinds = {TASKS[task].inputs[slot] for slot in TASKS[task].required} - {"text"}
        claimed = {(m.start, m.end) for m in found}
        for file in parsed.files:
            if file.kind in kinds and (file.start, file.stop) not in claimed:
                return Mention(task, file.start, file.stop, 0.5, f"{file.kind} file for {task}")
        clauses = parsed.clauses
        if len(clauses) > 1:
            column = self.model.probabilities([model_text(c.text) for c in clauses])[:, self.model.tasks.index(task)]
            best = int(column.argmax())
        else:
            best = 0
        return Mention(task, clauses[best].start, clauses[best].start, 0.5, f"clause for {task}")
