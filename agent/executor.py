"""Stage 3: run a validated plan as a DAG.

Every task waits on its dependencies' completion events (no polling); tasks
whose dependencies are done start at once, bounded by a semaphore. A failed
task marks its dependents as skipped with the reason, while independent
tasks run to the end.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import json
import os
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Awaitable, Callable

from langchain_core.runnables import RunnableConfig

from langchain_hugginggpt.core.errors import HuggingGPTError
from langchain_hugginggpt.core.schema import (
    REFERENCE_RE, ExpertOutput, Plan, Selection, Task, TaskResult, references_in)
from langchain_hugginggpt.core.workspace import Workspace
from langchain_hugginggpt.tools.expert_tool import ExpertTool
from langchain_hugginggpt.core.tasks import TASKS


@functools.cache
def _experts_pool() -> ThreadPoolExecutor:
    """The threads expert steps run on, apart from asyncio's default pool: planning, the checkpointer and the
    server's health check use that one, and slow steps (or timed-out ones, whose threads cannot be stopped) would
    otherwise leave them no thread (six long summaries froze a server's every route)."""
    return ThreadPoolExecutor(max_workers=max(4, os.cpu_count() or 1), thread_name_prefix="hugginggpt-expert")

OnResult = Callable[[TaskResult], Awaitable[None] | None]


class UnresolvedReference(HuggingGPTError, ValueError):
    """A `<resource>-N` that cannot be filled from task N's output."""


def text_of(result: TaskResult) -> str:
    """The text a task contributes when another task references it in a text slot."""
    output = result.output
    if output is not None and output.text:
        return output.text
    return json.dumps(output.result if output is not None else None, ensure_ascii=False, default=str)


def resolve_args(task: Task, results: dict[int, TaskResult]) -> dict[str, Any]:
    """Replace `<resource>-N` references with the concrete outputs of earlier tasks."""
    spec = TASKS[task.task]
    resolved: dict[str, Any] = {}
    for slot, value in task.args.items():
        if not isinstance(value, str) or not references_in(value):
            resolved[slot] = value
            continue
        kind = spec.inputs.get(slot, "text")
        if kind == "text":
            resolved[slot] = REFERENCE_RE.sub(lambda m: text_of(results[int(m.group(1))]), value)
            continue
        source = results[references_in(value)[0]]
        path = getattr(source.output, kind, None) if source.output is not None else None
        if not path:
            raise UnresolvedReference(f"slot {slot!r} refers to task {source.task_id} ({source.task}), "
                                      f"which produced no {kind}")
        resolved[slot] = path
    return resolved


class TaskExecutor:
    """Runs the tasks of a plan with the models chosen for them."""

    def __init__(self, workspace: Workspace | None = None, max_concurrency: int = 4, task_timeout: float | None = 600.0,
                 engines: Any = None):
        self.workspace = workspace or Workspace()
        self.engines = engines  # None: the local registry; RemoteExperts: the Ray Serve deployments
        self.max_concurrency = max_concurrency
        self.task_timeout = task_timeout

    async def arun(
        self,
        plan: Plan,
        selections: dict[int, Selection],
        on_result: OnResult | None = None,
        config: RunnableConfig | None = None,
    ) -> dict[int, TaskResult]:
        results: dict[int, TaskResult] = {}
        done = {t.id: asyncio.Event() for t in plan.tasks}
        semaphore = asyncio.Semaphore(self.max_concurrency)

        async def run_one(task: Task) -> None:
            try:
                for dep in task.dependencies:
                    await done[dep].wait()
                failed = [d for d in task.dependencies if not results[d].ok]
                if failed:
                    reasons = "; ".join(f"task {d} {results[d].status}: {results[d].error}" for d in failed)
                    result = TaskResult(task_id=task.id, task=task.task, status="skipped",
                                        error=f"skipped because a dependency did not finish ({reasons})",
                                        model_id=_model_of(selections, task.id))
                else:
                    async with semaphore:
                        result = await self._run_task(task, selections.get(task.id), results, config)
                results[task.id] = result
                if on_result is not None:
                    maybe = on_result(result)
                    if asyncio.iscoroutine(maybe):
                        await maybe
            finally:
                done[task.id].set()

        await asyncio.gather(*(run_one(t) for t in plan.tasks))
        return {t.id: results[t.id] for t in plan.tasks}

    async def _run_task(self, task: Task, selection: Selection | None, results: dict[int, TaskResult],
                        config: RunnableConfig | None) -> TaskResult:
        model_id = selection.model_id if selection else None
        base = dict(task_id=task.id, task=task.task, model_id=model_id)
        started = time.time()
        if selection is not None and model_id is None:
            return TaskResult(**base, status="error", error=selection.reason, started_at=started, ended_at=time.time())
        try:
            args = resolve_args(task, results)
        except (UnresolvedReference, KeyError) as exc:
            return TaskResult(**base, status="error", error=str(exc), started_at=started, ended_at=time.time())
        workspace = self.workspace.for_task()
        tool = ExpertTool.for_task(task.task, model=model_id, workspace=workspace, engines=self.engines)

        def work() -> ExpertOutput:
            try:
                return tool.run_expert(args, config)
            finally:
                workspace.task_files.end()

        try:
            call = asyncio.get_running_loop().run_in_executor(_experts_pool(), contextvars.copy_context().run, work)
            output = await asyncio.wait_for(call, self.task_timeout) if self.task_timeout else await call
        except (asyncio.TimeoutError, asyncio.CancelledError) as exc:
            # A thread cannot be killed: the task gets no more output files, and the ones it has
            # are removed once it ends, so nothing appears after its run has returned.
            workspace.task_files.abandon()
            if isinstance(exc, asyncio.CancelledError):
                raise
            return TaskResult(**base, args=args, status="error", started_at=started, ended_at=time.time(),
                              error=f"timed out after {self.task_timeout:g} s; its output files are discarded")
        except Exception as exc:  # every failure becomes a result, never a lost run
            return TaskResult(**base, args=args, status="error", started_at=started, ended_at=time.time(),
                              error=str(exc) or type(exc).__name__)
        base["model_id"] = output.model or model_id
        return TaskResult(**base, args=args, status="ok", output=output, files=list(output.files),
                          served_by=output.served_by, started_at=started, ended_at=time.time())


def _model_of(selections: dict[int, Selection], task_id: int) -> str | None:
    selection = selections.get(task_id)
    return selection.model_id if selection else None
