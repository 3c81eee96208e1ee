"""`hugginggpt serve`'s app as a Ray Serve ingress with two replicas: a conversation started on one is
there on the other, and the tasks run on the experts' deployments."""

from __future__ import annotations

import httpx
import pytest
from ray import serve

from langchain_hugginggpt.server.ray_controller import REPLICA_HEADER, build_controller_app

pytestmark = pytest.mark.slow  # a real local Ray cluster; runs in CI

NOTE = ("Ray Serve runs each expert as a deployment. Every deployment has replicas. The controller sends each task "
        "to the deployment of its model. A worker gets its inputs as bytes.")


@pytest.fixture(scope="module")
def controller(experts_cluster, tmp_path_factory):
    data = tmp_path_factory.mktemp("controller-data")
    app = build_controller_app({"num_replicas": 2, "ray_actor_options": {"num_cpus": 0.25}, "data_dir": str(data),
                                "planner": "retrieval", "responder": "template", "selection": "top",
                                "max_upload_storage": 40_000})
    serve.run(app, name="hugginggpt-controller", route_prefix="/ctl")
    yield f"{experts_cluster.url}/ctl"
    serve.delete("hugginggpt-controller")


def test_two_controller_replicas_share_conversations_and_use_the_experts(controller):
    with httpx.Client(base_url=controller, timeout=120) as client:
        conversation = client.post("/conversations").json()["id"]
        reply = client.post("/hugginggpt", json={"conversation_id": conversation, "messages": [
            {"role": "user", "content": f"Summarize this note: '{NOTE}'"}]})
        assert reply.status_code == 200, reply.text
        assert NOTE.split(".")[0] in reply.json()["message"]

        # Whichever replica answers, the conversation is there (routing is random: 16 reads reach both).
        replicas = set()
        for _ in range(16):
            read = client.get(f"/conversations/{conversation}")
            assert read.status_code == 200
            assert [m["role"] for m in read.json()["messages"]][:2] == ["user", "assistant"]
            replicas.add(read.headers[REPLICA_HEADER])
        assert len(replicas) == 2

        results = client.post("/results", json={"messages": [{"role": "user",
                                                               "content": f"Summarize this note: '{NOTE}'"}]}).json()
        [task] = results.values()
        assert task["status"] == "ok"
        assert task["inference result"]["served_by"]["deployment"] == "summarization--sumy-lexrank"


def test_the_replicas_keep_the_upload_storage_quota_they_are_given(controller):
    """The controller passes `hugginggpt serve`'s upload limits on: a 50 kB upload is over a 40 kB quota."""
    with httpx.Client(base_url=controller, timeout=60) as client:
        reply = client.post("/files", files={"file": ("long.txt", b"word " * 10_000, "text/plain")})
        assert reply.status_code == 507, reply.text
        assert "quota of 40000 bytes" in reply.json()["error"]
        kept = client.post("/files", files={"file": ("short.txt", b"a short note", "text/plain")})
        assert kept.status_code == 201, kept.text


def test_controller_upload_limits_are_checked():
    with pytest.raises(ValueError, match="max_upload_storage"):
        build_controller_app({"max_upload_storage": 0})
