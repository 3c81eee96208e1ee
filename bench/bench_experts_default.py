"""`hugginggpt experts serve` with no config, as a user starts it: time until `/health` says ready, the
processes and RSS of the whole Ray cluster at idle, one task per family sent the moment it is ready, and
the time SIGTERM takes to leave no process behind. Compared with the former default (one deployment per
engine, `num_cpus: 0.1` each), reproduced with a config that lists every engine that way.

    python bench/bench_experts_default.py            # both, printed
    python bench/bench_experts_default.py --only grouped

Figures go to docs/benchmarks.md by hand (one run; the machine is noted there).
"""

from __future__ import annotations

import argparse
import os
import platform
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import psutil

ROOT = Path(__file__).resolve().parents[1]
READY_TIMEOUT_S = 300.0  # the bar: every deployment RUNNING within 5 minutes
IDLE_S = 15.0
TEXT = ("Ray Serve runs each expert as a deployment. Every deployment has replicas. The controller sends each task "
        "to the deployment of its model. A worker gets its inputs as bytes.")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def per_engine_config(folder: Path) -> Path:
    """The former default: every engine that runs here, its own deployment, 0.1 CPU each."""
    from langchain_hugginggpt.tools.registry import available_engines
    from langchain_hugginggpt.core.tasks import TASKS

    lines = ["defaults:", "  ray_actor_options: {num_cpus: 0.1}", "deployments:"]
    lines += [f"  - {{task: {task}, model: '{cls.model_id}'}}" for task in TASKS for cls in available_engines(task)]
    path = folder / "per-engine.yaml"
    path.write_text("\n".join(lines) + "\n")
    return path


def tree(pid: int) -> list[psutil.Process]:
    root = psutil.Process(pid)
    return [root, *root.children(recursive=True)]


def rss_mb(processes: list[psutil.Process]) -> float:
    total = 0
    for process in processes:
        try:
            total += process.memory_info().rss
        except psutil.Error:
            pass
    return total / 2**20


def wait_ready(url: str, server: subprocess.Popen) -> tuple[float | None, dict]:
    started, body = time.monotonic(), {}
    while time.monotonic() - started < READY_TIMEOUT_S and server.poll() is None:
        try:
            reply = httpx.get(f"{url}/health", timeout=10)
            body = reply.json()
            if reply.status_code == 200:
                return time.monotonic() - started, body
        except (httpx.HTTPError, ValueError):
            pass
        time.sleep(0.5)
    return None, body


def one_task_per_family(url: str, folder: Path) -> list[str]:
    """Sent at once when ready: a task for each family's deployment, each engine loading on its first task."""
    from langchain_hugginggpt.experts import RemoteExperts
    from langchain_hugginggpt.experts.client import HttpTransport
    from langchain_hugginggpt.core.workspace import Workspace

    image = folder / "street.jpg"
    image.write_bytes((ROOT / "examples" / "street.jpg").read_bytes())
    workspace = Workspace(folder)
    experts = RemoteExperts(HttpTransport(url))
    lines = []
    speech = None
    for task, inputs in [("summarization", {"text": TEXT}), ("object-detection", {"image": str(image)}),
                         ("text-to-speech", {"text": "The street has two cars."}),
                         ("automatic-speech-recognition", None), ("canny-control", {"image": str(image)}),
                         ("text-to-video", {"text": "A street. Two cars."})]:
        if inputs is None:
            inputs = {"audio": speech}
        started = time.perf_counter()
        try:
            output = experts.resolve_engine(task).run(inputs, workspace)
            outcome = f"ok on {output.served_by['deployment']}"
            if task == "text-to-speech":
                speech = output.files[0]
        except Exception as exc:
            outcome = f"FAILED: {exc}"
        lines.append(f"{task}: {outcome} in {time.perf_counter() - started:.1f} s (first task: loads the model)")
    return lines


def run(label: str, config: Path | None, folder: Path) -> None:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    env = {k: v for k, v in os.environ.items() if k not in ("RAY_ADDRESS", "HUGGINGGPT_EXPERTS")}
    command = [sys.executable, "-m", "langchain_hugginggpt.cli.main", "experts", "serve", "--port", str(port)]
    if config:
        command += ["--config", str(config)]
    log = open(folder / f"{label}.log", "w")
    server = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        ready_s, body = wait_ready(url, server)
        statuses = body.get("deployments", {})
        serving = sum(s in ("HEALTHY", "UPSCALING", "DOWNSCALING") for s in statuses.values())
        print(f"[{label}] ready: {'in %.1f s' % ready_s if ready_s is not None else 'NEVER (in %.0f s)' % READY_TIMEOUT_S}"
              f"; deployments serving {serving}/{len(statuses)}")
        time.sleep(IDLE_S)
        processes = tree(server.pid)
        print(f"[{label}] idle: {len(processes)} processes, RSS {rss_mb(processes):.0f} MB "
              f"({rss_mb(processes) / (psutil.virtual_memory().total / 2**20) * 100:.1f}% of RAM)")
        if ready_s is not None:
            for line in one_task_per_family(url, folder):
                print(f"[{label}]   {line}")
            processes = tree(server.pid)
            print(f"[{label}] after those tasks: {len(processes)} processes, RSS {rss_mb(processes):.0f} MB")
        processes = tree(server.pid)
        stopping = time.monotonic()
        server.send_signal(signal.SIGTERM)
        _, alive = psutil.wait_procs(processes, timeout=60)
        print(f"[{label}] SIGTERM: exit code {server.poll()}, every process gone in "
              f"{time.monotonic() - stopping:.1f} s; left after 60 s: {len(alive)}")
        for process in alive:
            process.kill()
    finally:
        if server.poll() is None:
            for process in tree(server.pid):
                process.kill()
        log.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", choices=["grouped", "per-engine"], default=None)
    args = parser.parse_args(argv)
    print(f"{platform.machine()}, {os.cpu_count()} cores, {psutil.virtual_memory().total / 2**30:.1f} GiB RAM, "
          f"load average {os.getloadavg()[0]:.1f}")
    with tempfile.TemporaryDirectory(prefix="bench-experts-default-") as tmp:
        folder = Path(tmp)
        if args.only in (None, "per-engine"):
            run("per-engine (former default)", per_engine_config(folder), folder)
        if args.only in (None, "grouped"):
            run("grouped (default)", None, folder)
    return 0


if __name__ == "__main__":
    sys.exit(main())
