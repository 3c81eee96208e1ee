"""A task the executor stopped waiting for (timed out, or its run was cancelled) keeps running in
its thread, which cannot be killed: it must get no more output files, and the files it was given
must be gone once it has ended, so nothing appears in the outputs after its run has returned.

The engines below block on an event the test sets only after the run has returned."""

import asyncio
import threading
from pathlib import Path

import pytest
from PIL import Image

from langchain_hugginggpt.agent.executor import TaskExecutor
from langchain_hugginggpt.core.schema import Plan, Selection, Task
from langchain_hugginggpt.core.workspace import TaskAbandoned
from langchain_hugginggpt.tools.base import Engine, ExpertOutput
from langchain_hugginggpt.tools.registry import register, unregister


class Gate:
    def __init__(self) -> None:
        self.started, self.release = threading.Event(), threading.Event()
        self.written: list[Path] = []
        self.errors: list[Exception] = []


GATE = Gate()


class LateWriter(Engine):
    """Takes its output path at once, then writes it after the test releases it."""

    task = "image-to-image"
    model_id = "test/late-writer"

    def run(self, inputs, workspace):
        out = workspace.new_output(".png", stem="late")
        GATE.started.set()
        assert GATE.release.wait(60)
        Image.open(inputs["image"]).convert("L").save(out)
        GATE.written.append(out)
        return ExpertOutput(model=self.model_id, image=str(out))


class LateAsker(Engine):
    """Asks for its output path only after the test releases it."""

    task = "image-to-image"
    model_id = "test/late-asker"

    def run(self, inputs, workspace):
        GATE.started.set()
        assert GATE.release.wait(60)
        try:
            out = workspace.new_output(".png", stem="late")
        except TaskAbandoned as exc:
            GATE.errors.append(exc)
            raise
        Image.open(inputs["image"]).save(out)
        GATE.written.append(out)
        return ExpertOutput(model=self.model_id, image=str(out))


@pytest.fixture(autouse=True)
def gate():
    global GATE
    GATE = Gate()
    for engine in (LateWriter, LateAsker):
        register(engine)
    yield GATE
    GATE.release.set()
    for engine in (LateWriter, LateAsker):
        unregister(engine.task, engine.model_id)


def plan_for(model: str):
    plan = Plan(tasks=[Task.model_validate({"task": "image-to-image", "id": 0, "args": {"image": "red.png"}})])
    return plan, {0: Selection(task_id=0, model_id=model, reason="test")}


def eventually(condition, seconds: float = 30) -> bool:
    """Whether `condition()` holds within `seconds`: the step's thread, on the executor's own pool, ends after
    the run has returned."""
    import time

    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def outputs(workspace) -> list[str]:
    return sorted(p.name for p in workspace.outputs.rglob("*")) if workspace.outputs.exists() else []


def test_a_timed_out_task_leaves_no_output_file(workspace, gate):
    async def main():
        results = await TaskExecutor(workspace, task_timeout=2.0).arun(*plan_for("test/late-writer"))
        assert gate.started.is_set() and outputs(workspace) == []  # returned while the task still runs
        gate.release.set()
        return results

    results = asyncio.run(main())
    assert results[0].status == "error" and "timed out after 2 s" in results[0].error
    assert results[0].files == [] and "discarded" in results[0].error
    assert eventually(lambda: gate.written)  # the thread did write its file after the run returned ...
    [written] = gate.written
    assert written.parent == workspace.outputs
    assert eventually(lambda: not written.exists()) and outputs(workspace) == []  # ... removed when the thread ended


def test_a_timed_out_task_gets_no_more_output_paths(workspace, gate):
    async def main():
        results = await TaskExecutor(workspace, task_timeout=2.0).arun(*plan_for("test/late-asker"))
        gate.release.set()
        return results

    results = asyncio.run(main())
    assert results[0].status == "error" and "timed out" in results[0].error
    assert eventually(lambda: gate.errors) and len(gate.errors) == 1 and "abandoned" in str(gate.errors[0])
    assert gate.written == [] and outputs(workspace) == []


def test_a_cancelled_run_leaves_no_output_file(workspace, gate):
    async def main():
        run = asyncio.create_task(TaskExecutor(workspace, task_timeout=None).arun(*plan_for("test/late-writer")))
        await asyncio.to_thread(gate.started.wait, 60)
        run.cancel()
        with pytest.raises(asyncio.CancelledError):
            await run
        gate.release.set()

    asyncio.run(main())
    assert eventually(lambda: gate.written and not gate.written[0].exists())
    assert len(gate.written) == 1 and outputs(workspace) == []


def test_a_finished_task_keeps_its_files(workspace, gate):
    gate.release.set()
    results = asyncio.run(TaskExecutor(workspace, task_timeout=60).arun(*plan_for("test/late-writer")))
    assert results[0].status == "ok" and Path(results[0].files[0]).is_file()
    assert Image.open(results[0].files[0]).mode == "L"
