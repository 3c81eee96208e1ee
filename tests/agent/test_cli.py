"""The `hugginggpt` console script, run as a user would (a subprocess), with real engines."""

import json
import subprocess
import sys

from PIL import Image, ImageDraw


def hugginggpt(*args, cwd, home):
    env_cmd = [sys.executable, "-m", "langchain_hugginggpt.agent.cli", *args]
    return subprocess.run(env_cmd, cwd=cwd, capture_output=True, text=True, timeout=300,
                          env={**__import__("os").environ, "HUGGINGGPT_HOME": str(home), "HF_HUB_OFFLINE": "1"})


def test_run_json_prints_one_object_with_every_stage(tmp_path):
    img = Image.new("RGB", (96, 96), "white")
    ImageDraw.Draw(img).rectangle([24, 24, 72, 72], fill="black")
    img.save(tmp_path / "square.png")
    proc = hugginggpt("run", "Give me the canny edge map of square.png", "--planner", "retrieval", "--json",
                      cwd=tmp_path, home=tmp_path / "home")
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)  # stdout holds the JSON object and nothing else
    assert {"plan", "selections", "results", "answer", "timings"} <= set(result)
    assert [t["task"] for t in result["plan"]] == ["canny-control"]
    task = result["results"]["0"]
    assert task["status"] == "ok" and task["files"][0].startswith(str(tmp_path / "outputs"))
    assert result["selections"]["0"]["model_id"] == task["model_id"]
    assert task["files"][0] in result["answer"]
    log = (tmp_path / "home" / "runs.jsonl").read_text().splitlines()
    assert json.loads(log[-1])["request"] == "Give me the canny edge map of square.png"


def test_missing_file_is_reported_not_crashed(tmp_path):
    proc = hugginggpt("run", "Give me the canny edge map of ghost.png", "--planner", "retrieval", "--json",
                      cwd=tmp_path, home=tmp_path / "home")
    result = json.loads(proc.stdout)
    assert result["results"]["0"]["status"] == "error"
    assert "ghost.png" in result["results"]["0"]["error"] and "not found" in result["results"]["0"]["error"]
    assert proc.returncode == 1  # every task failed: a script must be able to tell


def test_an_empty_or_overlong_request_is_refused_by_name(tmp_path):
    for request, problem in (("  ", "request: the request is empty"),
                             ("good " * 5000, "request: the request is 25,000 characters long; at most 20,000")):
        proc = hugginggpt("run", request, "--planner", "retrieval", cwd=tmp_path, home=tmp_path / "home")
        assert proc.returncode == 2 and problem in proc.stderr and "pydantic" not in proc.stderr, proc.stderr


def test_tasks_json_lists_every_task_with_availability(tmp_path):
    proc = hugginggpt("tasks", "--json", cwd=tmp_path, home=tmp_path / "home")
    assert proc.returncode == 0, proc.stderr
    rows = {row["task"]: row for row in json.loads(proc.stdout)}
    assert {"object-detection", "text-to-speech", "canny-control", "openpose-text-to-image"} <= set(rows)
    for row in rows.values():
        assert set(row) >= {"task", "inputs", "available", "models"}
        assert row["available"] == bool(row["models"])
    assert rows["canny-control"]["available"] and "opencv-canny" in rows["canny-control"]["models"]
    # a stand-in never counts as the task's model
    assert "opencv-lsd-lines" not in rows["mlsd-control"]["models"]


def test_bad_arguments_give_a_one_line_error(tmp_path):
    proc = hugginggpt("run", "hello", "--llm", "nonsense:x", cwd=tmp_path, home=tmp_path / "home")
    assert proc.returncode == 2 and "unknown LLM preset" in proc.stderr and "Traceback" not in proc.stderr
