"""Replicas killed mid-task, a deployment at capacity, tasks overlapping on different replicas."""

from __future__ import annotations

import asyncio
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor

import pytest
import ray

from langchain_hugginggpt.agent.executor import TaskExecutor
from langchain_hugginggpt.experts import APP_NAME
from langchain_hugginggpt.experts.protocol import CapacityError
from langchain_hugginggpt.core.schema import Plan, Selection, Task
from langchain_hugginggpt.tools.base import ExpertError
from tests.experts.conftest import CRASHES, SLOW
from tests.experts.test_remote_engines import TEXT

pytestmark = pytest.mark.slow  # a real local Ray cluster; runs in CI

MODELS = {"text2text-generation": "test/slow-upper-writer", "summarization": "sumy-lexrank",
          "text-to-speech": "flite/cmu_us_slt", "translation": "test/crashes-its-process"}


@pytest.fixture(params=["http", "handles"])
def experts(request, experts_cluster):
    experts_cluster.wait_healthy()
    return experts_cluster.http() if request.param == "http" else experts_cluster.handles()


def selections_for(plan: Plan) -> dict[int, Selection]:
    return {t.id: Selection(task_id=t.id, model_id=MODELS[t.task], reason="pinned by the test") for t in plan.tasks}


def run_plan(plan: Plan, experts, workspace) -> dict:
    return asyncio.run(TaskExecutor(workspace, engines=experts).arun(plan, selections_for(plan)))


def replica_actors(deployment: str) -> set[str]:
    prefix = f"SERVE_REPLICA::{APP_NAME}#{deployment}#"
    return {a["name"].removeprefix(prefix) for a in ray.util.list_named_actors(all_namespaces=True)
            if a["name"].startswith(prefix)}


def test_independent_tasks_overlap_on_different_replicas(experts, workspace):
    plan = Plan(tasks=[Task(task="text2text-generation", id=0, args={"text": "left"}),
                       Task(task="text2text-generation", id=1, args={"text": "right"}),
                       Task(task="summarization", id=2, args={"text": TEXT})])
    results = run_plan(plan, experts, workspace)
    assert all(r.ok for r in results.values()), {i: r.error for i, r in results.items()}
    left, right = results[0], results[1]
    assert left.output.result["generated_text"] == "LEFT" and right.output.result["generated_text"] == "RIGHT"
    # One task at a time per replica (max_ongoing_requests=1): they ran side by side on the two replicas.
    assert {left.served_by["replica"], right.served_by["replica"]} == replica_actors(SLOW)
    assert left.started_at < right.ended_at and right.started_at < left.ended_at
    # The written file came back and its worker path was replaced everywhere.
    written = left.files[0]
    assert open(written).read() == "LEFT" and left.output.result["file"] == written and written in left.output.text


def test_a_replica_killed_mid_task_is_replaced_and_the_task_retried(experts, experts_cluster, workspace):
    text = f"kill {uuid.uuid4().hex[:8]}"
    plan = Plan(tasks=[Task(task="text2text-generation", id=0, args={"text": text}),
                       Task(task="summarization", id=1, args={"text": TEXT}),
                       Task(task="text-to-speech", id=2, dep=[1], args={"text": "<resource>-1"})])
    outcome: dict = {}
    runner = threading.Thread(target=lambda: outcome.update(results=run_plan(plan, experts, workspace)))
    runner.start()
    killed = wait_for_marker(experts_cluster.markers, text)
    ray.kill(ray.get_actor(f"SERVE_REPLICA::{APP_NAME}#{SLOW}#{killed}", namespace="serve"), no_restart=True)
    runner.join(timeout=120)
    results = outcome["results"]

    assert all(r.ok for r in results.values()), {i: r.error for i, r in results.items()}
    retried = results[0]
    assert retried.output.result["generated_text"] == text.upper()
    assert retried.served_by["deployment"] == SLOW and retried.served_by["replica"] != killed
    assert results[2].output.audio  # the independent branch finished too
    # Ray notices the death (the handle may have seen it first) and starts a replacement.
    replaced = wait_until(lambda: killed not in replica_actors(SLOW) and len(replica_actors(SLOW)) == 2)
    assert replaced, replica_actors(SLOW)
    experts_cluster.wait_healthy()


def test_a_task_whose_replica_dies_twice_fails_naming_the_deployment(experts, workspace):
    plan = Plan(tasks=[Task(task="translation", id=0, args={"text": "hello"}),
                       Task(task="summarization", id=1, args={"text": TEXT})])
    results = run_plan(plan, experts, workspace)
    failed = results[0]
    assert failed.status == "error"
    assert CRASHES in failed.error and "died" in failed.error and "retry" in failed.error
    assert results[1].ok and results[1].served_by["deployment"] == "summarization--sumy-lexrank"


def test_a_deployment_at_capacity_queues_then_refuses_with_a_clear_error(experts_cluster):
    from langchain_hugginggpt.experts.client import RemoteEngine
    from langchain_hugginggpt.core.workspace import Workspace

    experts_cluster.wait_healthy()
    experts = experts_cluster.http()
    engine = RemoteEngine(experts, experts.deployment_for("text2text-generation", "test/slow-upper-writer"))
    tag = uuid.uuid4().hex[:6]

    def call(text: str):
        try:
            return engine.run({"text": text}, Workspace(experts_cluster.markers.parent))
        except ExpertError as exc:
            return exc

    with ThreadPoolExecutor(5) as pool:
        # Both replicas busy (one task at a time each) ...
        busy = [pool.submit(call, f"busy {i} {tag}") for i in range(2)]
        for i in range(2):
            wait_for_marker(experts_cluster.markers, f"busy {i} {tag}")
        # ... then three more at once: two wait in the queue (max_queued_requests=2), one is refused.
        late = [pool.submit(call, f"late {i} {tag}") for i in range(3)]
        outcomes = [f.result(timeout=120) for f in busy + late]
    refused = [o for o in outcomes if isinstance(o, CapacityError)]
    assert len(refused) == 1, outcomes
    assert SLOW in str(refused[0]) and "max_ongoing_requests" in str(refused[0]) and "at capacity" in str(refused[0])
    served = [o.text.split(" (")[0] for o in outcomes if not isinstance(o, Exception)]
    assert len(served) == 4 and all(text.endswith(tag.upper()) for text in served)  # the two that waited ran


def wait_for_marker(markers, text: str, timeout: float = 60.0) -> str:
    """The replica that started the task with this text (the test engine leaves a marker)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for marker in markers.iterdir():
            if marker.read_text() == text:
                return marker.name
        time.sleep(0.05)
    raise AssertionError(f"no replica started the task {text!r} within {timeout} s")


def wait_until(condition, timeout: float = 60.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.2)
    return False
