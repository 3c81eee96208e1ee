"""Issue 16's SSRF report, replayed against the real server: a request naming a URL on the
server's own network. By default nothing is fetched; with the host allow-listed, only media
is kept, and the reply names the rule without naming a server path."""

import json
import re

import numpy as np
import pytest

from langchain_hugginggpt.core.downloads import UrlPolicy

from ..agent.url_server import PNG, SECRET, MediaServer, connections  # noqa: F401 (fixture)
from .conftest import canny, fetch_image, scripted_agent

URL_RE = re.compile(r"https?://\S+")


def url_agent(workspace):
    """The scripted controller plans canny-control on the URL the request names."""
    def plan(messages):
        request = messages[-1].text.partition("Now I input: ")[2]
        return json.dumps([{"task": "canny-control", "id": 0, "dep": [-1], "args": {"image": URL_RE.findall(request)[0]}}])

    return scripted_agent(workspace, plan=plan)


@pytest.fixture(scope="module")
def internal():
    with MediaServer() as server:
        yield server


def run_task(live, url: str) -> dict:
    with live.client() as http:
        reply = http.post("/results", json={"messages": [{"role": "user", "content": f"Make an edge map of {url}"}]})
    assert reply.status_code == 200, reply.text
    return reply.json()["0"]


def downloads(live) -> list:
    folder = live.workspace.outputs / "downloads"
    return sorted(p.name for p in folder.iterdir()) if folder.exists() else []


def test_by_default_the_server_fetches_nothing_from_its_own_network(start_server, internal, connections):
    live = start_server(agent_factory=url_agent)
    for url in (internal.url("/secret.txt?a.jpg"), internal.url("/photo.png", host="127.1"),
                internal.url("/photo.png", host="localhost"), "http://169.254.169.254/latest/meta-data/x.png"):
        task = run_task(live, url)
        error = task["inference result"]["error"]
        assert task["status"] == "error" and "refused" in error and "--allow-url-host" in error
        assert str(live.workspace.root) not in error and task["files"] == []
    assert internal.requests == [] and downloads(live) == []
    assert all(port != internal.port and host == "127.0.0.1" for host, port in connections)  # only the test's own client


def test_a_url_sent_as_an_image_block_is_held_to_the_same_rule(start_server, internal, connections):
    """Content blocks name their URLs to the planner (OpenAI-style clients): the fetch rule still decides."""
    live = start_server(agent_factory=url_agent)
    with live.client() as http:
        reply = http.post("/results", json={"messages": [{"role": "user", "content": [
            {"type": "text", "text": "Make an edge map of this"},
            {"type": "image_url", "image_url": {"url": internal.url("/photo.png")}}]}]})
    assert reply.status_code == 200, reply.text
    task = reply.json()["0"]
    assert task["status"] == "error" and "refused" in task["inference result"]["error"] and task["files"] == []
    assert internal.requests == [] and downloads(live) == []


def test_an_allow_listed_host_gives_media_only(start_server, internal, tmp_path):
    live = start_server(agent_factory=url_agent, urls=UrlPolicy(allow_hosts=("127.0.0.1",)))
    secret = run_task(live, internal.url("/secret.txt?a.jpg"))
    error = secret["inference result"]["error"]
    assert secret["status"] == "error" and "not an image, audio or video file" in error
    assert SECRET.decode() not in json.dumps(secret) and str(live.workspace.root) not in error
    assert downloads(live) == []  # nothing stored, so nothing for GET /files to serve

    photo = run_task(live, internal.url("/photo.png"))
    assert photo["status"] == "ok", photo
    [stored] = downloads(live)
    assert stored.endswith(".png") and (live.workspace.outputs / "downloads" / stored).read_bytes() == PNG
    (tmp_path / "photo.png").write_bytes(PNG)
    with live.client() as http:
        edges = fetch_image(http, photo["files"][0]["url"])
    assert np.array_equal(edges, canny(tmp_path / "photo.png"))
