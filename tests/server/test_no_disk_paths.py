"""No response of the server contains a path of its disk: answers, task results, LangServe
output, event streams and error bodies name workspace files by the URL that serves them
(`/files/outputs/...`), and any other path of the machine by its last part only."""

import json
import os
import re
from pathlib import Path

import numpy as np

from langchain_hugginggpt.agent.hugginggpt import HuggingGPT
from langchain_hugginggpt.agent.local_llm import ChatLlamaCpp
from langchain_hugginggpt.core.workspace import Workspace

from .conftest import canny, fetch_image, scripted_agent, shape_image, upload

TOP_LEVEL = set(os.listdir("/"))
ABSOLUTE = re.compile(r"(?<![\w.~/-])/([^/\s\"'<>\\]+)")
REPO = Path(__file__).resolve().parents[2]


def disk_paths(text: str, live) -> list[str]:
    """Paths of the server's disk in a response: its folders by name, and any absolute path
    that starts with a folder at the root of this machine."""
    folders = {live.workspace.root, live.workspace.outputs, live.state.store.path.parent, REPO, Path.home()}
    found = [str(f) for f in folders if len(str(f)) > 1 and str(f) in text]
    return found + [m.group(0) for m in ABSOLUTE.finditer(text) if m.group(1) in TOP_LEVEL]


def check(responses, live) -> None:
    for label, response in responses:
        assert response.status_code < 500 or label.startswith("500"), (label, response.text)
        assert disk_paths(response.text, live) == [], (label, response.text)


def test_no_route_answers_with_a_disk_path(server, client, tmp_path):
    image = upload(client, shape_image(tmp_path / "swept.png", 7))
    absolute = server.workspace.root / image["path"]
    outside = tmp_path / "outside.png"  # a real file of this machine, not in the workspace
    shape_image(outside, 2)
    requests = {"relative": f"edges of {image['path']}", "absolute": f"edges of {absolute}",
                "file-url": f"edges of file://{absolute}", "missing": "edges of missing.png",
                "outside": f"edges of {outside}"}
    conversation = client.post("/conversations").json()["id"]
    responses = []
    for label, text in requests.items():
        messages = {"messages": [{"role": "user", "content": text}]}
        responses += [(f"/hugginggpt {label}", client.post("/hugginggpt", json=messages)),
                      (f"/tasks {label}", client.post("/tasks", json=messages)),
                      (f"/results {label}", client.post("/results", json=messages)),
                      (f"invoke {label}", client.post("/hugginggpt/invoke", json={"input": {"request": text}})),
                      (f"batch {label}", client.post("/hugginggpt/batch", json={"inputs": [{"request": text}]})),
                      (f"stream {label}", client.post("/hugginggpt/stream", json={"input": {"request": text}})),
                      (f"stream_log {label}", client.post("/hugginggpt/stream_log", json={"input": {"request": text}})),
                      (f"stream_events {label}", client.post("/hugginggpt/stream_events", json={"input": {"request": text}})),
                      (f"conversation {label}", client.post(f"/conversations/{conversation}/messages",
                                                           json={"content": text}))]
    responses += [("conversation files", client.post(f"/conversations/{conversation}/messages",
                                                      json={"content": "edges", "files": [str(absolute)]})),
                  ("stored conversation", client.get(f"/conversations/{conversation}")),
                  ("long file name", client.get("/files/" + "a" * 5000)),
                  ("long file name in a folder", client.get("/files/uploads/" + "b" * 5000 + ".png")),
                  ("no file", client.get(f"/files/{absolute}")),
                  ("no route", client.get("/nowhere")), ("method", client.delete("/tasks")),
                  ("not JSON", client.post("/tasks", content=b"{", headers={"content-type": "application/json"})),
                  ("health", client.get("/health")), ("openapi", client.get("/openapi.json"))]
    check(responses, server)
    events = dict(responses)["stream_events relative"].text
    assert '"event": "on_chain_stream"' in events.replace('":"', '": "') and "outputs/canny-" in events

    # What the paths became: URLs the server serves, and the reasons of the failures.
    answer = responses[0][1].json()
    produced = answer["files"][0]["url"]
    assert produced.startswith("/files/outputs/canny-") and produced in answer["message"]
    assert client.get(produced).status_code == 200
    absolute_answer = dict(responses)["/hugginggpt absolute"].json()
    assert absolute_answer["files"][0]["url"] in absolute_answer["message"]
    plan = dict(responses)["/tasks absolute"].json()
    assert plan[0]["args"]["image"] == "/files/" + image["path"]
    missing = dict(responses)["/results missing"].json()["0"]["inference result"]["error"]
    assert "'missing.png' not found in the workspace" in missing
    outside_error = dict(responses)["/results outside"].json()["0"]["inference result"]["error"]
    assert "'outside.png' is outside the workspace" in outside_error
    stream = dict(responses)["stream relative"].text
    assert "/files/outputs/canny-" in stream
    assert dict(responses)["long file name"].status_code == 404


def test_failures_name_no_path(start_server, tmp_path):
    root = tmp_path / "blocked"
    root.mkdir()
    (root / "outputs").write_text("a file where the outputs folder should be")
    blocked = start_server(workspace=Workspace(root))

    class Crashing(HuggingGPT):
        async def ainvoke(self, input, config=None, **kwargs):
            raise FileNotFoundError(2, "No such file or directory", str(tmp_path / "cache" / "gone.bin"))

    crashing = start_server(lambda ws: Crashing(llm=scripted_agent(ws).llm, planner="llm", workspace=ws, log_runs=False))
    no_model = start_server(lambda ws: HuggingGPT(llm=ChatLlamaCpp(model_path=str(tmp_path / "models" / "absent.gguf")),
                                                  planner="retrieval", responder="template", workspace=ws,
                                                  log_runs=False))

    with blocked.client() as http:
        image = upload(http, shape_image(tmp_path / "b.png", 1))
        failed = http.post("/results", json={"messages": [{"role": "user", "content": f"edges of {image['path']}"}]})
        check([("task error", failed)], blocked)
        error = failed.json()["0"]["inference result"]["error"]
        assert "File exists: '/files/outputs'" in error, error  # the reason stays; the folder is named by its URL
    with crashing.client() as http:
        crashed = http.post("/hugginggpt", json={"messages": [{"role": "user", "content": "hi"}]})
        assert crashed.status_code == 500
        check([("500 unhandled", crashed)], crashing)
        assert json.loads(crashed.text)["error"] == "internal error: FileNotFoundError: [Errno 2] No such file or directory: 'gone.bin'"
    with no_model.client() as http:
        health = http.get("/health")
        check([("health", health)], no_model)
        assert "model file absent.gguf not found" in health.json()["llm"]["detail"]


def test_urls_a_client_sends_back_name_the_workspace_files(server, client, tmp_path):
    """The original client keeps the chat log and sends it back: the /files/... URLs in an
    earlier answer name the files the next request works on."""
    source = shape_image(tmp_path / "twice.png", 8)
    image = upload(client, source)
    first = client.post("/hugginggpt", json={"messages": [{"role": "user", "content": f"edges of {image['path']}"}]}).json()
    url = first["files"][0]["url"]
    assert url in first["message"]
    second = client.post("/hugginggpt", json={"messages": [
        {"role": "user", "content": f"edges of {image['path']}"}, {"role": "assistant", "content": first["message"]},
        {"role": "user", "content": "again"}]}).json()
    assert second["files"], second
    again = fetch_image(client, second["files"][0]["url"])
    assert np.array_equal(again, canny(server.workspace.root / first["files"][0]["path"]))
