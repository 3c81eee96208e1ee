"""Tasks sent to real Ray Serve deployments, over HTTP and through DeploymentHandles."""

from __future__ import annotations

import asyncio
import wave
from pathlib import Path

import pytest

from langchain_hugginggpt.agent.executor import TaskExecutor
from langchain_hugginggpt.experts import ExpertInfo
from langchain_hugginggpt.core.schema import Plan, Task
from langchain_hugginggpt.agent.selection import ModelSelector
from tests.experts.conftest import CRASHES, SLOW

pytestmark = pytest.mark.slow  # a real local Ray cluster; runs in CI

TEXT = ("Ray Serve runs each expert model as a deployment with its own replicas. The controller sends every "
        "task to the deployment of the model it chose. Media travel as bytes, so a worker needs no shared disk. "
        "Results come back as bytes and are written into the controller's workspace. A replica that dies is "
        "replaced by Ray, and the task is retried once on a healthy replica.")


@pytest.fixture(params=["http", "handles"])
def experts(request, experts_cluster):
    return experts_cluster.http() if request.param == "http" else experts_cluster.handles()


def test_the_catalog_lists_every_deployment_healthy(experts):
    catalog = {info.name: info for info in experts.catalog()}
    assert set(catalog) == {"object-detection--centernet-mobilenetv3-coco", "text-to-speech--flite_cmu_us_slt",
                            "summarization--sumy-lexrank", SLOW, CRASHES}
    detector = catalog["object-detection--centernet-mobilenetv3-coco"]
    assert isinstance(detector, ExpertInfo) and detector.status == "HEALTHY"
    assert detector.model == "centernet-mobilenetv3-coco" and "COCO" in detector.description


def test_a_plan_runs_on_the_deployments_and_its_files_land_in_the_workspace(experts, workspace):
    plan = Plan(tasks=[
        Task(task="object-detection", id=0, args={"image": "street.jpg"}),
        Task(task="summarization", id=1, args={"text": TEXT}),
        Task(task="text-to-speech", id=2, dep=[1], args={"text": "<resource>-1"}),
    ])
    # No LLM: the top-ranked candidate among the healthy deployments of each task.
    chosen = asyncio.run(ModelSelector(None, experts.candidates()).aselect("detect, summarize and read it", plan))
    assert {s.model_id for s in chosen.values()} == {"centernet-mobilenetv3-coco", "sumy-lexrank", "flite/cmu_us_slt"}
    results = asyncio.run(TaskExecutor(workspace, engines=experts).arun(plan, chosen))
    assert all(r.ok for r in results.values()), {i: r.error for i, r in results.items()}

    detection, summary, speech = results[0], results[1], results[2]
    assert detection.served_by["deployment"] == "object-detection--centernet-mobilenetv3-coco"
    assert detection.served_by["replica"] and detection.served_by["app"] == "hugginggpt-experts"
    labels = {d["label"] for d in detection.output.result}
    assert "car" in labels or "person" in labels
    # The annotated image came back as bytes into the controller's workspace; no worker path is left.
    drawn = Path(detection.output.image)
    assert drawn.parent == workspace.outputs and drawn.is_file() and drawn.stat().st_size > 1000
    assert detection.files == [str(drawn)]

    assert summary.served_by["deployment"] == "summarization--sumy-lexrank"
    assert summary.output.text[:40] in TEXT  # LexRank picks sentences of the text

    audio = Path(speech.output.audio)
    assert audio.parent == workspace.outputs and speech.served_by["deployment"] == "text-to-speech--flite_cmu_us_slt"
    with wave.open(str(audio)) as wav:
        assert wav.getnframes() / wav.getframerate() > 1.0
    assert str(audio.name) in speech.output.text


def test_hugginggpt_with_experts_runs_its_plan_on_them(experts_cluster, workspace):
    from langchain_hugginggpt.experts.client import HandleTransport
    from langchain_hugginggpt.agent.hugginggpt import HuggingGPT

    # A URL, from a process connected to the cluster that serves it: DeploymentHandles, not HTTP.
    agent = HuggingGPT(llm=None, planner="retrieval", responder="template", log_runs=False,
                       workspace=workspace, experts=experts_cluster.url)
    assert isinstance(agent.experts.transport, HandleTransport)
    result = agent.invoke("Detect the objects in street.jpg")
    assert result.error is None and [t.task for t in result.plan] == ["object-detection"]
    [task] = result.results.values()
    assert task.ok and task.served_by["deployment"] == "object-detection--centernet-mobilenetv3-coco"
    assert result.selections[0].candidates[0].id == "centernet-mobilenetv3-coco"
    assert task.files and all(Path(f).parent == workspace.outputs for f in task.files)


@pytest.mark.parametrize("body, status, detail", [
    ({"inputs": {"image": "/etc/hostname"}}, 422, "media slots travel as files"),  # no path onto the worker's disk
    ({"inputs": {"prompt": "x"}}, 422, "object-detection has no input slot prompt"),
    ({"files": {"image": {"name": "a.jpg", "data": "not base64!"}}}, 422, "not an expert request"),
])
def test_the_gateway_refuses_a_bad_request_naming_the_problem(experts_cluster, body, status, detail):
    import httpx

    reply = httpx.post(f"{experts_cluster.url}/experts/object-detection--centernet-mobilenetv3-coco", json=body,
                       timeout=60)
    assert reply.status_code == status and detail in reply.json()["detail"]


def test_the_gateway_names_the_deployments_when_one_is_missing(experts_cluster):
    import httpx

    reply = httpx.post(f"{experts_cluster.url}/experts/no-such-deployment", json={}, timeout=60)
    assert reply.status_code == 404
    assert "no expert deployment named 'no-such-deployment'" in reply.json()["detail"]
    assert "summarization--sumy-lexrank" in reply.json()["detail"]
