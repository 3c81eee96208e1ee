"""One real local Ray cluster, bound to 127.0.0.1, for the whole session; the experts
application runs on it with three packaged engines and the tests' own engines."""

from __future__ import annotations

import os
import shutil
import socket
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
import ray
from langchain_hugginggpt.experts import APP_NAME, RemoteExperts
from langchain_hugginggpt.experts.app import build_app
from langchain_hugginggpt.experts.client import HttpTransport
from langchain_hugginggpt.core.workspace import Workspace
from langchain_hugginggpt.tools.base import Engine
from ray import serve

from tests.experts import engines as test_engines
from tests.experts.engines import MARKERS_ENV

REPO = Path(__file__).resolve().parents[2]
SLOW = "text2text-generation--test_slow-upper-writer"
CRASHES = "translation--test_crashes-its-process"

CONFIG = {
    "imports": ["tests.experts.engines"],
    "defaults": {"ray_actor_options": {"num_cpus": 0.25}},
    "deployments": [
        {"task": "object-detection", "model": "centernet-mobilenetv3-coco"},
        {"task": "text-to-speech", "model": "flite/cmu_us_slt"},
        {"task": "summarization", "model": "sumy-lexrank"},
        # One task at a time per replica, two more may wait: a fifth concurrent task is refused.
        {"task": "text2text-generation", "model": "test/slow-upper-writer", "num_replicas": 2,
         "max_ongoing_requests": 1, "max_queued_requests": 2},
        {"task": "translation", "model": "test/crashes-its-process"},
    ],
}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class ExpertsCluster:
    url: str
    markers: Path

    def http(self) -> RemoteExperts:
        return RemoteExperts(HttpTransport(self.url))

    def handles(self) -> RemoteExperts:
        return RemoteExperts("ray")

    def wait_healthy(self, timeout: float = 60.0) -> None:
        """Until every deployment is HEALTHY again (after a replica was killed)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            statuses = serve.status().applications[APP_NAME].deployments
            if all(d.status == "HEALTHY" for d in statuses.values()):
                return
            time.sleep(0.5)
        raise AssertionError(f"deployments not healthy after {timeout} s: {statuses}")


def forget_test_engines() -> None:
    """The tests' engines (one ends its own process) leave the registry with this package: a later
    test elsewhere that runs every engine of a task must not pick them in the test runner's process."""
    from langchain_hugginggpt.tools.registry import unregister

    for value in vars(test_engines).values():
        if isinstance(value, type) and issubclass(value, Engine) and value.__module__ == test_engines.__name__:
            unregister(value.task, value.model_id)


@contextmanager
def replica_environment(markers: Path):
    """The environment Ray's workers inherit while a test cluster runs, restored after: replicas are processes of
    their own, which find the tests' engines through PYTHONPATH and leave their markers in `markers`."""
    with pytest.MonkeyPatch.context() as env:
        env.setenv(MARKERS_ENV, str(markers))
        env.setenv("PYTHONPATH", os.pathsep.join(p for p in (str(REPO), os.environ.get("PYTHONPATH")) if p))
        env.setenv("HF_HUB_OFFLINE", os.environ.get("HF_HUB_OFFLINE", "1"))
        yield


@pytest.fixture(scope="package")  # started once, and stopped before the rest of the suite runs
def experts_cluster(tmp_path_factory):
    markers = tmp_path_factory.mktemp("replica-markers")
    with replica_environment(markers):
        yield from _experts_cluster(markers)


def _experts_cluster(markers: Path):
    ray.init(num_cpus=4, include_dashboard=False, object_store_memory=200 * 2**20,
             logging_level="warning", configure_logging=False)
    port = free_port()
    try:
        serve.start(http_options={"host": "127.0.0.1", "port": port})
        serve.run(build_app(CONFIG), name=APP_NAME, route_prefix="/")
        yield ExpertsCluster(url=f"http://127.0.0.1:{port}", markers=markers)
    finally:
        serve.shutdown()
        ray.shutdown()
        forget_test_engines()


@pytest.fixture
def workspace(tmp_path) -> Workspace:
    shutil.copy(REPO / "examples" / "street.jpg", tmp_path / "street.jpg")
    return Workspace(tmp_path)


@pytest.fixture(scope="package", autouse=True)
def _test_engines_stay_in_this_package():
    yield
    forget_test_engines()
