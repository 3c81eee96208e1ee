"""Tools of another MCP server as experts: a config maps the small edges server's tools (tests/mcp/edges_server.py,
OpenCV's Canny, started over stdio) to canny-control. Each is then a model like any other: listed by `hugginggpt
tasks`, a candidate the selection LLM picks, run by the executor, with `served_by` naming the server."""

import asyncio
import json
import shutil
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest
import yaml
from PIL import Image

from langchain_hugginggpt.agent.executor import TaskExecutor
from langchain_hugginggpt.agent.hugginggpt import HuggingGPT
from langchain_hugginggpt.tools.mcp.connections import CONNECTIONS
from langchain_hugginggpt.tools.mcp.experts import McpExpertsConfig
from langchain_hugginggpt.core.schema import Plan, Selection, Task
from langchain_hugginggpt.tools.candidates import RegistryCandidates
from langchain_hugginggpt.core.workspace import Workspace
from langchain_hugginggpt.tools import registry

from ..agent.scripted import ScriptedChat
from .conftest import KEY, STREET, server_env

EDGES_SERVER = Path(__file__).with_name("edges_server.py")
MODELS = ("edges-box/canny", "edges-box/broken")


@pytest.fixture
def config_file(tmp_path) -> Path:
    config = {"servers": {"edges-box": {"command": [sys.executable, str(EDGES_SERVER)]}},
              "models": [{"id": "edges-box/canny", "task": "canny-control", "server": "edges-box", "tool": "edges",
                          "arguments": {"image": "picture"}, "description": "Canny edges on the edges box"},
                         {"id": "edges-box/broken", "task": "canny-control", "server": "edges-box", "tool": "broken",
                          "arguments": {"image": "picture"}}]}
    path = tmp_path / "mcp-experts.yaml"
    path.write_text(yaml.safe_dump(config))
    return path


@pytest.fixture
def registered(config_file):
    engines = registry.register_mcp_experts(config_file)
    yield engines
    for engine in engines:
        registry.unregister(engine.task, engine.model_id)
    CONNECTIONS.close()  # the edges server ends with its session


def canny(path: Path) -> np.ndarray:
    return cv2.Canny(np.asarray(Image.open(path).convert("RGB")), 100, 200)


def test_hugginggpt_tasks_lists_the_mcp_tools_as_models(config_file, tmp_path):
    proc = subprocess.run([sys.executable, "-m", "langchain_hugginggpt.cli.main", "tasks", "--json"],
                          capture_output=True, text=True, timeout=300, cwd=tmp_path,
                          env={**server_env(tmp_path / "home"), "HUGGINGGPT_MCP_EXPERTS": str(config_file)})
    assert proc.returncode == 0, proc.stderr
    row = next(r for r in json.loads(proc.stdout) if r["task"] == "canny-control")
    assert row["models"] == ["opencv-canny", *MODELS]


def test_the_executor_runs_the_tool_and_says_which_server_served_it(registered, workspace):
    plan = Plan(tasks=[Task(task="canny-control", id=0, args={"image": "street.jpg"}),
                       Task(task="canny-control", id=1, args={"image": "street.jpg"})])
    selections = {0: Selection(task_id=0, model_id="edges-box/canny", reason="test"),
                  1: Selection(task_id=1, model_id="edges-box/broken", reason="test")}
    done = asyncio.run(TaskExecutor(Workspace(workspace)).arun(plan, selections))
    assert done[0].status == "ok", done[0].error
    assert done[0].model_id == "edges-box/canny"
    assert done[0].served_by == {"mcp_server": "edges-box", "tool": "edges"}
    [edges] = done[0].files
    assert Path(edges).parent == workspace / "outputs"
    assert np.array_equal(np.asarray(Image.open(edges)), canny(STREET))
    assert done[1].status == "error" and "the edge box is out of order" in done[1].error
    assert "'edges-box'" in done[1].error and "'broken'" in done[1].error


def test_selection_offers_the_tool_and_the_pipeline_runs_it(registered, workspace):
    task = Task(task="canny-control", id=0, args={"image": "street.jpg"})
    offered = {c.id: c for c in RegistryCandidates().candidates(task, "edges of street.jpg", 5)}
    assert set(MODELS) <= set(offered) and offered["edges-box/canny"].backend == "mcp"
    plan = json.dumps([{"task": "canny-control", "id": 0, "dep": [-1], "args": {"image": "street.jpg"}}])
    llm = ScriptedChat(replies={"plan": plan, "select": json.dumps({"id": "edges-box/canny", "reason": "on the box"}),
                                "respond": "Here are the edges."}, calls=[])
    agent = HuggingGPT(llm=llm, planner="llm", workspace=workspace, log_runs=False)
    result = agent.invoke("Give me the canny edges of street.jpg")
    assert result.selections[0].model_id == "edges-box/canny"
    assert result.results[0].status == "ok" and result.results[0].served_by["mcp_server"] == "edges-box"
    assert np.array_equal(np.asarray(Image.open(result.files[0])), canny(STREET))


def test_a_config_that_does_not_fit_is_refused_by_name(tmp_path):
    with pytest.raises(ValueError, match="canny-control has no input slot picture"):
        McpExpertsConfig.model_validate({"servers": {"s": {"command": ["x"]}}, "models": [
            {"id": "m", "task": "canny-control", "server": "s", "tool": "t", "arguments": {"picture": "image"}}]})
    with pytest.raises(ValueError, match="no server 'elsewhere'"):
        McpExpertsConfig.model_validate({"servers": {"s": {"url": "http://127.0.0.1:1/mcp"}}, "models": [
            {"id": "m", "task": "canny-control", "server": "elsewhere", "tool": "t"}]})
    with pytest.raises(ValueError, match="either `command`"):
        McpExpertsConfig.model_validate({"servers": {"s": {}}, "models": []})


def test_a_tool_of_an_http_mcp_server_with_a_key(http_server, tmp_path, monkeypatch):
    """The remote server is `hugginggpt mcp --transport http` itself, on its own workspace: the picture goes as a
    data: URL (the two share no folder), the key comes from the environment (${BOX_KEY}), and a server reached
    without the key is the task's error."""
    _, url = http_server
    monkeypatch.setenv("BOX_KEY", KEY)
    detector = {"task": "object-detection", "tool": "object_detection",
                "arguments": {"image": {"name": "image", "encoding": "data_url"}}}
    config = McpExpertsConfig.model_validate({
        "servers": {"box": {"url": url, "headers": {"Authorization": "Bearer ${BOX_KEY}"}}, "keyless": {"url": url}},
        "models": [{"id": "box/detector", "server": "box", **detector},
                   {"id": "keyless/detector", "server": "keyless", **detector}]})
    engines = registry.register_mcp_experts(config)
    here = tmp_path / "here"
    here.mkdir()
    shutil.copy(STREET, here / "street.jpg")
    plan = Plan(tasks=[Task(task="object-detection", id=i, args={"image": "street.jpg"}) for i in (0, 1)])
    selections = {0: Selection(task_id=0, model_id="box/detector", reason="test"),
                  1: Selection(task_id=1, model_id="keyless/detector", reason="test")}
    try:
        done = asyncio.run(TaskExecutor(Workspace(here)).arun(plan, selections))
    finally:
        for engine in engines:
            registry.unregister(engine.task, engine.model_id)
        CONNECTIONS.close()
    assert done[0].status == "ok", done[0].error
    assert done[0].output.text.startswith("1 motorcycle, 1 cat, 1 person")
    assert done[0].served_by == {"mcp_server": "box", "tool": "object_detection"}
    [drawn] = done[0].files
    assert Path(drawn).parent == here / "outputs" and Image.open(drawn).size == Image.open(STREET).size
    assert done[1].status == "error" and "'keyless'" in done[1].error and "could not be called" in done[1].error
    assert "401 Unauthorized" in done[1].error


def test_a_config_named_by_the_environment_that_cannot_be_used_says_which_and_why(tmp_path, monkeypatch):
    from langchain_hugginggpt.tools.mcp.experts import configured_engines

    bad = tmp_path / "bad.yaml"
    bad.write_text("servers: {s: {command: [x]}}\nmodels: [{id: m, task: no-such-task, server: s, tool: t}]\n")
    monkeypatch.setenv("HUGGINGGPT_MCP_EXPERTS", str(bad))
    with pytest.raises(ValueError, match=r"HUGGINGGPT_MCP_EXPERTS=.*bad\.yaml: models\.0: m: unknown task 'no-such-task'$"):
        configured_engines()
