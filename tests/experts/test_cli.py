"""`hugginggpt experts serve` joins the running cluster ($RAY_ADDRESS), serves until SIGTERM and
removes its application; `hugginggpt run --experts URL` sends its tasks there."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading

import httpx
import pytest
import ray
from ray import serve

pytestmark = pytest.mark.slow  # a real local Ray cluster; runs in CI

CLI = [sys.executable, "-m", "langchain_hugginggpt.cli.main"]
TEXT = ("Ray Serve runs each expert as a deployment. Every deployment has replicas. The controller sends each task "
        "to the deployment of its model. A worker gets its inputs as bytes.")


def test_experts_serve_joins_the_cluster_serves_and_stops_cleanly(experts_cluster, tmp_path):
    config = tmp_path / "experts.yaml"
    config.write_text("defaults:\n  ray_actor_options: {num_cpus: 0.25}\n"
                      "deployments:\n  - {task: summarization, model: sumy-lexrank}\n")
    env = {**os.environ, "RAY_ADDRESS": ray.get_runtime_context().gcs_address, "HUGGINGGPT_EXPERTS": ""}
    server = subprocess.Popen([*CLI, "experts", "serve", "--config", str(config), "--app-name", "cli-experts",
                               "--route-prefix", "/cli"], env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                              text=True)
    try:
        ready = _first_line(server, timeout=150)
        url = f"{experts_cluster.url}/cli"
        assert ready.startswith(f"experts on {url}/experts;")
        [info] = httpx.get(f"{url}/experts", timeout=30).json()
        assert info["name"] == "summarization--sumy-lexrank" and info["status"] == "HEALTHY"

        run = subprocess.run([*CLI, "run", f"Summarize this note: '{TEXT}'", "--experts", url, "--planner", "retrieval",
                              "--responder", "template", "--no-log", "--json", "--workspace", str(tmp_path)],
                             env=env, capture_output=True, text=True, timeout=300)
        assert run.returncode == 0, run.stderr[-2000:]
        [result] = json.loads(run.stdout)["results"].values()
        assert result["task"] == "summarization" and result["status"] == "ok"
        assert result["served_by"]["deployment"] == "summarization--sumy-lexrank"
        assert result["served_by"]["app"] == "cli-experts"

        # A second one with the same application name on this cluster is refused, not redeployed over it.
        second = subprocess.run([*CLI, "experts", "serve", "--config", str(config), "--app-name", "cli-experts"],
                                env=env, capture_output=True, text=True, timeout=180)
        said = " ".join(second.stderr.split())
        assert second.returncode == 2 and "already runs an application named 'cli-experts'" in said, said[-1000:]
        health = httpx.get(f"{url}/health", timeout=30).json()
        assert health["ready"] is True, health  # the first one untouched

        server.send_signal(signal.SIGTERM)
        assert server.wait(timeout=120) == 0
        assert "experts stopped" in server.stdout.read()
        assert "cli-experts" not in serve.status().applications  # its application is gone
        assert experts_cluster.http().catalog()  # and the cluster's other application is untouched
    finally:
        if server.poll() is None:
            server.kill()


def _first_line(process: subprocess.Popen, timeout: float) -> str:
    line: list[str] = []
    reader = threading.Thread(target=lambda: line.append(process.stdout.readline()), daemon=True)
    reader.start()
    reader.join(timeout)
    assert line and line[0], f"`experts serve` printed nothing within {timeout} s (exit code {process.poll()})"
    return line[0].strip()
