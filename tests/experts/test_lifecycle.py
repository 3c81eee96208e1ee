"""`hugginggpt experts serve` on its own Ray, as a user runs it: `/health` says 503 until every deployment
serves and 200 then, a task sent at that moment runs, a second server on the same port is refused, and
SIGTERM or SIGINT (also to a background job of a script, which starts with SIGINT ignored) ends it and
every Ray process it started."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import psutil
import pytest

from langchain_hugginggpt.experts import RemoteExperts
from langchain_hugginggpt.experts.client import HttpTransport
from tests.experts.conftest import free_port

pytestmark = pytest.mark.slow  # starts a real local Ray per test; runs in CI

CLI = [sys.executable, "-m", "langchain_hugginggpt.cli.main"]
NOTE = ("Ray Serve runs each expert as a deployment. Every deployment has replicas. The controller sends each task "
        "to the deployment of its model. A worker gets its inputs as bytes.")
# Two light engines in one group's deployment (one process), as the default groups them.
GROUP = "experts--language"
CONFIG = ("defaults:\n  ray_actor_options: {num_cpus: 0.25}\n"
          "deployments:\n  - {task: summarization, model: sumy-lexrank, group: language}\n"
          "  - {task: text-classification, model: vader-sentiment, group: language}\n")
START_TIMEOUT_S = 240  # a hang guard on a busy 2-core machine, not a speed claim
STOP_TIMEOUT_S = 30  # the promise: stopped, with its Ray, within 30 s of the signal


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("RAY_ADDRESS", "HUGGINGGPT_EXPERTS")}
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(Path(__file__).resolve().parents[2]), env.get("PYTHONPATH")) if p)
    return env


def _wait_ready(url: str, server: psutil.Process) -> list[int]:
    """Poll /health until 200; the status codes seen (never a 200 while not ready)."""
    seen: list[int] = []
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        assert server.is_running() and server.status() != psutil.STATUS_ZOMBIE, "experts serve exited while starting"
        try:
            reply = httpx.get(f"{url}/health", timeout=10)
        except httpx.HTTPError:
            time.sleep(1)
            continue
        seen.append(reply.status_code)
        try:
            body = reply.json()
        except ValueError:  # Serve's proxy, before the gateway's routes exist: not 200, so not ready either
            assert reply.status_code != 200, reply.text
            time.sleep(0.5)
            continue
        assert reply.status_code in (200, 503) and body["ready"] is (reply.status_code == 200), body
        if reply.status_code == 200:
            assert set(body["deployments"]) == {GROUP, "ExpertsGateway"}
            assert set(body["deployments"].values()) == {"HEALTHY"} and body["app_status"] == "RUNNING"
            return seen
        assert body["not_ready"], body  # 503 says which deployments are not serving
        time.sleep(0.5)
    raise AssertionError(f"/health not 200 within {START_TIMEOUT_S} s; saw {seen[-5:]}")


def _ray_processes(server: psutil.Process) -> list[psutil.Process]:
    ray = [p for p in server.children(recursive=True) if _is_ray(p)]
    assert any(p.name().startswith(("raylet", "gcs_server")) for p in ray), [p.name() for p in ray]
    return ray


def _is_ray(process: psutil.Process) -> bool:
    try:
        return "ray" in " ".join(process.cmdline()).lower() or process.name().startswith(("raylet", "gcs_server"))
    except psutil.Error:
        return False


def _left_after(processes: list[psutil.Process], timeout: float) -> list[str]:
    gone, alive = psutil.wait_procs(processes, timeout=timeout)
    left = [f"{p.pid} {p.name()}" for p in alive]
    for process in alive:  # never leave a cluster behind for the rest of the suite
        process.kill()
    return left


def _run_both_engines(url: str, workspace) -> None:
    experts = RemoteExperts(HttpTransport(url))
    summary = experts.resolve_engine("summarization", "sumy-lexrank").run({"text": NOTE}, workspace)
    sentiment = experts.resolve_engine("text-classification", "vader-sentiment").run({"text": "I love it"}, workspace)
    assert NOTE.split(".")[0] in summary.text and "positive" in sentiment.text.lower()
    assert summary.served_by["deployment"] == sentiment.served_by["deployment"] == GROUP  # one process, two engines
    assert summary.served_by["replica"] == sentiment.served_by["replica"]
    assert summary.served_by["engine"] == "summarization--sumy-lexrank"


def test_sigterm_stops_experts_serve_and_the_ray_it_started(tmp_path, workspace):
    config = tmp_path / "experts.yaml"
    config.write_text(CONFIG)
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    popen = subprocess.Popen([*CLI, "experts", "serve", "--config", str(config), "--port", str(port), "--num-cpus", "1"],
                             env=_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    server = psutil.Process(popen.pid)
    try:
        seen = _wait_ready(url, server)
        _run_both_engines(url, workspace)  # the moment /health said ready, tasks run on the deployment

        second = subprocess.run([*CLI, "experts", "serve", "--port", str(port)], env=_env(), capture_output=True,
                                text=True, timeout=120)
        assert second.returncode == 2
        said = " ".join(second.stderr.split())  # the CLI's console wraps long lines
        assert f"another `hugginggpt experts serve` already answers at {url}" in said, said[-1000:]

        status = subprocess.run([*CLI, "experts", "status", "--experts", url], env=_env(), capture_output=True,
                                text=True, timeout=120)
        assert status.returncode == 0, status.stdout + status.stderr[-1000:]
        assert status.stdout.startswith("ready: 2/2 deployments of application 'hugginggpt-experts' serving")
        assert "HEALTHY        summarization--sumy-lexrank" in status.stdout

        ray = _ray_processes(server)
        popen.send_signal(signal.SIGTERM)
        assert popen.wait(timeout=STOP_TIMEOUT_S) == 0
        assert _left_after(ray, timeout=STOP_TIMEOUT_S) == []
        out = popen.stdout.read()
        assert "deployments of 'hugginggpt-experts' ready in" in out and "experts stopped" in out, (out, seen)
    finally:
        if popen.poll() is None:
            _left_after([server, *server.children(recursive=True)], timeout=0)


def test_a_deployment_ray_cannot_place_is_reported_and_sigint_still_stops_a_background_server(tmp_path):
    """A replica asking for more CPUs than Ray has: /health stays 503 with Ray's reason, `experts serve` prints
    what to change, and SIGINT ends it (`serve.run` used to wait for it forever). Started as `cmd &` by a
    shell, which starts a background job with SIGINT ignored."""
    config = tmp_path / "experts.yaml"
    config.write_text(CONFIG + "  - {task: text-to-speech, model: flite/cmu_us_slt, ray_actor_options: {num_cpus: 2}}\n")
    port = free_port()
    pid_file, err = tmp_path / "pid", tmp_path / "err"
    script = (f"{' '.join(CLI)} experts serve --config {config} --port {port} --num-cpus 1 "
              f"> {tmp_path / 'out'} 2> {err} & echo $! > {pid_file}")
    err.touch()  # the background job opens it itself, maybe after `sh` has returned
    subprocess.run(["sh", "-c", script], env=_env(), check=True, timeout=30)
    server = psutil.Process(int(pid_file.read_text()))
    unplaced = "text-to-speech--flite_cmu_us_slt"
    try:
        deadline = time.monotonic() + START_TIMEOUT_S  # Ray Serve says so after 30 s of waiting
        while f"experts: not ready: deployment {unplaced!r} is UPDATING" not in err.read_text():
            assert time.monotonic() < deadline and server.is_running(), err.read_text()[-2000:]
            time.sleep(1)
        line = next(l for l in err.read_text().splitlines() if l.startswith(f"experts: not ready: deployment {unplaced!r}"))
        assert "to be scheduled" in line and '{"CPU": 2.0}' in line and "lower its ray_actor_options" in line, line
        health = httpx.get(f"http://127.0.0.1:{port}/health", timeout=30)
        assert health.status_code == 503 and health.json()["ready"] is False
        assert "to be scheduled" in health.json()["not_ready"][unplaced]
        assert health.json()["deployments"][GROUP] == "HEALTHY"
        status = subprocess.run([*CLI, "experts", "status", "--experts", f"http://127.0.0.1:{port}"], env=_env(),
                                capture_output=True, text=True, timeout=120)
        assert status.returncode == 1 and status.stdout.startswith("NOT ready: 2/3 deployments"), status.stdout
        assert f"deployment {unplaced!r} is UPDATING" in status.stdout and "to be scheduled" in status.stdout

        ray = _ray_processes(server)
        server.send_signal(signal.SIGINT)
        assert _left_after([server], timeout=STOP_TIMEOUT_S) == []
        assert _left_after(ray, timeout=STOP_TIMEOUT_S) == []
        assert "experts stopped" in (tmp_path / "out").read_text()
    finally:
        if server.is_running():
            _left_after([server, *server.children(recursive=True)], timeout=0)
