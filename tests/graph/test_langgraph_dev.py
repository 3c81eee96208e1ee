"""`langgraph dev` (langgraph-cli[inmem]) serves the graphs langgraph.json names, offline on
127.0.0.1: threads keep conversations, and the plan-approval graph's interrupt comes back from
`POST /threads/{id}/runs/wait` as `__interrupt__` and resumes with a `command`."""

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time

import httpx
import numpy as np
import pytest

from .conftest import EDGES_REQUEST, REPO, canny, draw_square, pixels

# What `langgraph dev` would otherwise reach for at start-up: the CLI's usage analytics, a
# check for a newer langgraph-api on PyPI, and LangSmith tracing if a key is set.
OFFLINE = {"LANGGRAPH_CLI_NO_ANALYTICS": "1", "LANGGRAPH_NO_VERSION_CHECK": "true", "LANGSMITH_TRACING": "false",
           "LANGCHAIN_TRACING_V2": "false", "HF_HUB_OFFLINE": "1"}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="module")
def dev_server(tmp_path_factory):
    """`langgraph dev` in a folder holding the repository's langgraph.json and a picture."""
    root = tmp_path_factory.mktemp("langgraph-dev")
    shutil.copy(REPO / "langgraph.json", root / "langgraph.json")
    draw_square(root / "square.png")
    env = {key: value for key, value in os.environ.items() if key not in ("HUGGINGGPT_LLM", "LANGSMITH_API_KEY")}
    env.update(OFFLINE, HUGGINGGPT_HOME=str(root / "home"))
    port = free_port()
    log = (root / "server.log").open("w")
    server = subprocess.Popen(
        [sys.executable, "-m", "langgraph_cli", "dev", "--no-browser", "--no-reload", "--host", "127.0.0.1",
         "--port", str(port)], cwd=root, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 180
    while True:
        if server.poll() is not None or time.monotonic() > deadline:
            server.kill()
            pytest.fail(f"langgraph dev did not start:\n{(root / 'server.log').read_text()[-3000:]}")
        try:
            if httpx.get(f"{url}/ok", timeout=2).status_code == 200:
                break
        except httpx.HTTPError:
            time.sleep(0.5)
    yield url, root
    os.killpg(server.pid, signal.SIGTERM)  # its own session: the server and anything it started
    try:
        server.wait(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(server.pid, signal.SIGKILL)
        server.wait()
    log.close()


def test_the_served_graphs_are_the_ones_langgraph_json_names(dev_server):
    url, _ = dev_server
    graphs = json.loads((REPO / "langgraph.json").read_text())["graphs"]
    found = httpx.post(f"{url}/assistants/search", json={"limit": 20}).json()
    assert sorted({a["graph_id"] for a in found}) == sorted(graphs) == ["hugginggpt", "hugginggpt_approval"]


def test_runs_wait_returns_the_interrupt_and_resumes(dev_server):
    url, root = dev_server
    with httpx.Client(base_url=url, timeout=180) as http:
        thread = http.post("/threads", json={}).json()["thread_id"]
        run = {"assistant_id": "hugginggpt_approval"}
        paused = http.post(f"/threads/{thread}/runs/wait",
                           json={**run, "input": {"messages": [{"role": "user", "content": EDGES_REQUEST}]}}).json()
        [interrupt] = paused["__interrupt__"]
        assert interrupt["value"]["plan"] == [
            {"task": "canny-control", "id": 0, "dep": [-1], "args": {"image": "square.png"}}]
        assert interrupt["value"]["models"]["0"]["model_id"] == "opencv-canny"
        assert http.get(f"/threads/{thread}/state").json()["next"] == ["approve"]
        assert not (root / "outputs").exists()  # paused before the expert ran

        done = http.post(f"/threads/{thread}/runs/wait", json={**run, "command": {"resume": {"approve": True}}}).json()
        assert "__interrupt__" not in done and [m["type"] for m in done["messages"]] == ["human", "ai"]
        answer = done["messages"][-1]
        [edges] = answer["response_metadata"]["files"]
        assert answer["name"] == "hugginggpt" and edges in answer["content"]
        assert np.array_equal(pixels(edges), canny(root / "square.png"))


def test_a_thread_keeps_the_conversation(dev_server):
    url, root = dev_server
    with httpx.Client(base_url=url, timeout=180) as http:
        thread = http.post("/threads", json={}).json()["thread_id"]

        def ask(text: str) -> dict:
            body = {"assistant_id": "hugginggpt", "input": {"messages": [{"role": "user", "content": text}]}}
            return http.post(f"/threads/{thread}/runs/wait", json=body).json()

        [edges] = ask(EDGES_REQUEST)["messages"][-1]["response_metadata"]["files"]
        second = ask("Now give me the canny edge map of it")
        assert len(second["messages"]) == 4 and second["plan"][0]["args"] == {"image": edges}
        assert np.array_equal(pixels(second["results"]["0"]["files"][0]), canny(edges))
