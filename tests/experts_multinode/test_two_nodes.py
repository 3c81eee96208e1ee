"""The experts and the multi-replica controller on a Ray cluster of two nodes on this machine (a head and
a worker node with its own resources, `ray.cluster_utils.Cluster`): a deployment pinned to the worker by a
custom resource serves there, and the worker's raylet killed mid-task gives a clear error, never a hang.

Its own package: a driver joins one cluster, and tests/experts' cluster is down before this one starts."""

from __future__ import annotations

import threading
import time

import httpx
import pytest
import ray
from ray import serve
from ray.cluster_utils import Cluster

from langchain_hugginggpt.experts import APP_NAME, RemoteExperts
from langchain_hugginggpt.experts.app import build_app
from langchain_hugginggpt.experts.client import HttpTransport
from langchain_hugginggpt.server.ray_controller import REPLICA_HEADER, build_controller_app
from langchain_hugginggpt.experts.protocol import ExpertUnavailable
from langchain_hugginggpt.core.workspace import Workspace
from tests.experts.conftest import forget_test_engines, free_port, replica_environment

pytestmark = pytest.mark.slow  # two real Ray nodes; runs in CI

NOTE = ("Ray Serve runs each expert as a deployment. Every deployment has replicas. The controller sends each task "
        "to the deployment of its model. A worker gets its inputs as bytes.")
ON_WORKER = {"num_cpus": 0.25, "resources": {"worker_node": 1}}
HANG_GUARD_S = 240  # a bound on a stuck call, not a speed claim


@pytest.fixture(scope="module")
def two_nodes(tmp_path_factory):
    markers = tmp_path_factory.mktemp("markers")
    with replica_environment(markers):
        yield from _two_nodes(markers)


def _two_nodes(markers):
    cluster = Cluster(initialize_head=True, head_node_args={
        "num_cpus": 2, "include_dashboard": False, "object_store_memory": 100 * 2**20})
    worker = cluster.add_node(num_cpus=1, resources={"worker_node": 4}, object_store_memory=100 * 2**20)
    ray.init(address=cluster.address, logging_level="warning", configure_logging=False)
    port = free_port()
    try:
        serve.start(http_options={"host": "127.0.0.1", "port": port})
        serve.run(build_app({
            "imports": ["tests.experts.engines"],
            "deployments": [
                {"task": "summarization", "model": "sumy-lexrank", "ray_actor_options": ON_WORKER},
                {"task": "text2text-generation", "model": "test/slow-upper-writer", "ray_actor_options": ON_WORKER},
            ]}), name=APP_NAME, route_prefix="/")
        yield cluster, worker, f"http://127.0.0.1:{port}", markers
    finally:
        serve.shutdown()
        ray.shutdown()
        cluster.shutdown()
        forget_test_engines()


def test_a_deployment_pinned_to_the_worker_node_serves_there_also_through_two_controller_replicas(
        two_nodes, tmp_path):
    cluster, worker, url, _ = two_nodes
    head_id = cluster.head_node.node_id
    assert worker.node_id != head_id
    output = RemoteExperts(HttpTransport(url)).resolve_engine("summarization", "sumy-lexrank").run(
        {"text": NOTE}, Workspace(tmp_path))
    assert output.served_by["node_id"] == worker.node_id  # the custom resource placed it on the worker

    serve.run(build_controller_app({"num_replicas": 2, "ray_actor_options": {"num_cpus": 0.25},
                                    "data_dir": str(tmp_path / "data"), "planner": "retrieval",
                                    "responder": "template", "selection": "top"}),
              name="hugginggpt-controller", route_prefix="/ctl")
    try:
        with httpx.Client(base_url=f"{url}/ctl", timeout=120) as client:
            replicas = set()
            for _ in range(6):
                reply = client.post("/results", json={"messages": [{"role": "user",
                                                                    "content": f"Summarize this note: '{NOTE}'"}]})
                assert reply.status_code == 200, reply.text
                [task] = reply.json().values()
                assert task["status"] == "ok", task
                assert task["inference result"]["served_by"]["node_id"] == worker.node_id
                replicas.add(reply.headers[REPLICA_HEADER])
            assert replicas  # which of the two answered is Serve's choice; each ran the task on the worker
    finally:
        serve.delete("hugginggpt-controller")


def test_killing_the_worker_nodes_raylet_mid_task_is_a_clear_error_not_a_hang(two_nodes, tmp_path):
    cluster, worker, url, markers = two_nodes
    experts = RemoteExperts("ray")
    engine = experts.resolve_engine("text2text-generation", "test/slow-upper-writer")
    outcome: list[BaseException | object] = []

    def call() -> None:
        try:
            outcome.append(engine.run({"text": "lost with its node"}, Workspace(tmp_path)))
        except BaseException as exc:  # noqa: BLE001 - the test inspects it
            outcome.append(exc)

    caller = threading.Thread(target=call, daemon=True)
    caller.start()
    deadline = time.monotonic() + HANG_GUARD_S
    while not any(markers.iterdir()):  # the engine writes a marker when the task has started on the worker
        assert time.monotonic() < deadline, "the task never started on the worker node"
        time.sleep(0.2)
    cluster.remove_node(worker, allow_graceful=False)  # the raylet (and its workers) killed
    killed = time.monotonic()

    caller.join(HANG_GUARD_S)
    print(f"after the raylet was killed: {time.monotonic() - killed:.1f} s, {outcome}")
    assert not caller.is_alive(), f"the call still waits {HANG_GUARD_S} s after the worker node died"
    [result] = outcome
    # No other node has `worker_node`: the retry finds no replica, and the error says so.
    assert isinstance(result, ExpertUnavailable), result
    assert "text2text-generation--test_slow-upper-writer" in str(result) and "replica died" in str(result)
