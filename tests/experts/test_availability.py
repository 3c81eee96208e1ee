"""Model selection sees only healthy deployments; a missing or failed one is a clear error
naming it, and runs locally only when the user allows it."""

from __future__ import annotations

import asyncio

import pytest
from ray import serve

from langchain_hugginggpt.agent.executor import TaskExecutor
from langchain_hugginggpt.experts import RemoteExperts
from langchain_hugginggpt.experts.app import build_app
from langchain_hugginggpt.experts.client import HttpTransport
from langchain_hugginggpt.experts.protocol import ExpertUnavailable
from langchain_hugginggpt.core.schema import Plan, Task
from langchain_hugginggpt.agent.selection import ModelSelector

pytestmark = pytest.mark.slow  # a real local Ray cluster; runs in CI

BROKEN_APP = "broken-experts"
BROKEN = "image-classification--test_needs-a-missing-module"


@pytest.fixture(scope="module")
def broken_app(experts_cluster):
    """A second application whose only engine cannot start: its deployment is DEPLOY_FAILED."""
    config = {"imports": ["tests.experts.engines"],
              "defaults": {"ray_actor_options": {"num_cpus": 0.25}, "max_constructor_retry_count": 1},
              "deployments": [{"task": "image-classification", "model": "test/needs-a-missing-module"}]}
    with pytest.raises(RuntimeError, match="DEPLOY_FAILED|failed"):
        serve.run(build_app(config), name=BROKEN_APP, route_prefix="/broken")
    yield f"{experts_cluster.url}/broken"
    serve.delete(BROKEN_APP)


@pytest.fixture(params=["http", "handles"])
def broken(request, broken_app):
    return RemoteExperts(HttpTransport(broken_app) if request.param == "http" else f"ray:{BROKEN_APP}")


def test_a_failed_deployment_is_listed_with_its_reason_and_never_selected(broken):
    [info] = broken.catalog()
    assert info.name == BROKEN and info.status == "DEPLOY_FAILED" and not info.healthy
    assert "a_module_that_is_not_installed" in info.message

    plan = Plan(tasks=[Task(task="image-classification", id=0, args={"image": "street.jpg"})])
    [selection] = asyncio.run(ModelSelector(None, broken.candidates()).aselect("classify it", plan)).values()
    assert selection.model_id is None
    assert BROKEN in selection.reason and "DEPLOY_FAILED" in selection.reason


def test_running_on_a_failed_deployment_is_an_error_naming_it(broken):
    with pytest.raises(ExpertUnavailable, match=f"{BROKEN}.*DEPLOY_FAILED.*a_module_that_is_not_installed"):
        broken.resolve_engine("image-classification", "test/needs-a-missing-module")


def test_a_model_with_no_deployment_is_an_error_unless_local_fallback_is_allowed(experts_cluster, workspace):
    experts = experts_cluster.http()
    with pytest.raises(ExpertUnavailable, match="no expert deployment .* serves translation with apertium.*"
                                                "translation--test_crashes-its-process.*local fallback is off"):
        experts.resolve_engine("translation", "apertium")

    plan = Plan(tasks=[Task(task="translation", id=0, args={"text": "Good morning, my friend."}),
                       Task(task="summarization", id=1, args={"text": "One sentence. Another sentence here."})])
    selections = {0: _pinned(0, "apertium"), 1: _pinned(1, "sumy-lexrank")}
    allowed = RemoteExperts(HttpTransport(experts_cluster.url), fallback_local=True)
    results = asyncio.run(TaskExecutor(workspace, engines=allowed).arun(plan, selections))
    assert results[0].ok and results[0].served_by is None  # ran here, with the packaged Apertium
    assert results[0].output.text and results[0].output.text != "Good morning, my friend."
    assert results[1].served_by["deployment"] == "summarization--sumy-lexrank"

    results = asyncio.run(TaskExecutor(workspace, engines=experts).arun(plan, selections))
    assert results[0].status == "error" and "local fallback is off" in results[0].error
    assert results[1].ok  # the other task is not lost


def test_an_unreachable_gateway_is_a_clear_error():
    experts = RemoteExperts(HttpTransport("http://127.0.0.1:9"))
    with pytest.raises(ExpertUnavailable, match="could not list the experts at http://127.0.0.1:9"):
        experts.catalog()


def _pinned(task_id: int, model: str):
    from langchain_hugginggpt.core.schema import Selection

    return Selection(task_id=task_id, model_id=model, reason="pinned by the test")


SLOW_START_APP = "slow-start-experts"


@pytest.mark.parametrize("transport", ["http", "handles"])
def test_a_task_sent_while_its_deployment_starts_waits_for_it(experts_cluster, workspace, transport):
    """Sent the moment the application is deployed (its replica still constructing, UPDATING): the task
    waits and runs; with a start timeout shorter than the start, it fails naming the deployment."""
    from langchain_hugginggpt.experts.serving import deploy

    config = {"imports": ["tests.experts.engines"], "defaults": {"ray_actor_options": {"num_cpus": 0.25}},
              "deployments": [{"task": "text2text-generation", "model": "test/slow-to-start"}]}
    deploy(build_app(config), SLOW_START_APP, "/slow-start")
    try:
        def experts(timeout: float) -> RemoteExperts:
            target = HttpTransport(f"{experts_cluster.url}/slow-start") if transport == "http" else f"ray:{SLOW_START_APP}"
            return RemoteExperts(target, start_timeout_s=timeout)

        if transport == "http":  # the gateway may itself be starting: wait until it answers the catalog
            _until(lambda: experts(0).catalog())
        with pytest.raises(ExpertUnavailable, match="text2text-generation--test_slow-to-start.*UPDATING.*still "
                                                    "starting after 1 s"):
            experts(1).resolve_engine("text2text-generation", "test/slow-to-start")
        output = experts(120).resolve_engine("text2text-generation", "test/slow-to-start").run({"text": "hi"}, workspace)
        assert output.text == "hi" and output.served_by["deployment"] == "text2text-generation--test_slow-to-start"
    finally:
        serve.delete(SLOW_START_APP)


def _until(call, timeout: float = 120.0):
    import time

    deadline = time.monotonic() + timeout
    while True:
        try:
            return call()
        except Exception:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.5)
