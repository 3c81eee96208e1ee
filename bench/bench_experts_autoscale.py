"""Autoscaling one expert deployment under a burst: the same bounded burst of concurrent HTTP requests from
loopback, to 1 fixed replica and to an `autoscaling_config` deployment (1 to 4 replicas). Prints the
replicas over time (Ray Serve's own count of RUNNING replicas, every second), p50/p95 latency and
throughput, and how long the extra replicas take to go away after the burst.

    python bench/bench_experts_autoscale.py                 # 32 requests, 16 at a time
    python bench/bench_experts_autoscale.py --requests 48 --concurrency 24

The expert is the tests' `test/slow-upper-writer` (3 s of waiting per task, one task per replica at a time):
it stands for a model whose time is spent off this machine's 2 CPUs (a GPU, a remote call), so what is
measured is Ray Serve's scaling, not how 2 cores divide CPU-bound work (bench_experts.py shows that).
A local Ray (4 logical CPUs, dashboard off, 127.0.0.1) is started and shut down by the script.
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # `tests.experts.engines`, imported by the replicas too (PYTHONPATH below)
NAME = "text2text-generation--test_slow-upper-writer"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def running_replicas(app: str) -> int:
    from ray import serve

    application = serve.status().applications.get(app)
    if application is None or NAME not in application.deployments:
        return 0
    return sum(n for state, n in application.deployments[NAME].replica_states.items()
               if str(getattr(state, "value", state)) == "RUNNING")


def burst(url: str, requests: int, concurrency: int) -> tuple[list[float], float]:
    body = {"inputs": {"text": "scale me"}}

    def one(_: int) -> float:
        started = time.perf_counter()
        reply = httpx.post(f"{url}/experts/{NAME}", json=body, timeout=600)
        reply.raise_for_status()
        return time.perf_counter() - started

    started = time.perf_counter()
    with ThreadPoolExecutor(concurrency) as pool:
        latencies = list(pool.map(one, range(requests)))
    return latencies, time.perf_counter() - started


def measure(label: str, options: dict, url: str, app: str, args: argparse.Namespace) -> None:
    from ray import serve

    from langchain_hugginggpt.experts.app import build_app

    config = {"imports": ["tests.experts.engines"],
              "deployments": [{"task": "text2text-generation", "model": "test/slow-upper-writer",
                               "max_ongoing_requests": 1, "ray_actor_options": {"num_cpus": 0.25}, **options}]}
    serve.run(build_app(config), name=app, route_prefix=f"/{app}")
    timeline: list[tuple[float, int]] = []
    stop = threading.Event()
    t0 = time.perf_counter()

    def sample() -> None:
        while not stop.is_set():
            timeline.append((time.perf_counter() - t0, running_replicas(app)))
            stop.wait(1.0)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    latencies, wall = burst(f"{url}/{app}", args.requests, args.concurrency)
    burst_end = time.perf_counter() - t0
    back_to_one = None
    while time.perf_counter() - t0 < burst_end + args.settle:  # until the extra replicas are gone
        if timeline and timeline[-1][0] > burst_end and timeline[-1][1] <= 1:
            back_to_one = timeline[-1][0] - burst_end
            break
        time.sleep(1.0)
    stop.set()
    sampler.join()
    serve.delete(app)
    peak = max(n for _, n in timeline)
    changes = [f"{t:.0f}s:{n}" for i, (t, n) in enumerate(timeline) if i == 0 or n != timeline[i - 1][1]]
    print(f"[{label}] {args.requests} requests, {args.concurrency} at a time: throughput "
          f"{args.requests / wall:.2f} req/s, wall {wall:.1f} s, p50 {statistics.median(latencies):.1f} s, "
          f"p95 {percentile(latencies, 0.95):.1f} s; replicas peak {peak}; burst ended at {burst_end:.0f} s; "
          f"back to 1 replica " + (f"{back_to_one:.0f} s after it" if back_to_one is not None
                                   else f"not within {args.settle:.0f} s"))
    print(f"[{label}] replicas over time (s:RUNNING): {' '.join(changes)}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=32)
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--settle", type=float, default=120.0, help="longest wait for the downscale (s)")
    args = parser.parse_args(argv)

    import ray
    from ray import serve

    os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p)
    ray.init(num_cpus=4, include_dashboard=False, logging_level="warning", configure_logging=False,
             object_store_memory=200 * 2**20)
    port = free_port()
    try:
        serve.start(http_options={"host": "127.0.0.1", "port": port})
        url = f"http://127.0.0.1:{port}"
        print(f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}; Ray {ray.__version__}")
        measure("1 replica, fixed", {"num_replicas": 1}, url, "fixed", args)
        measure("autoscaled 1..4", {"autoscaling_config": {
            "min_replicas": 1, "max_replicas": 4, "target_ongoing_requests": 1,
            "upscale_delay_s": 1, "downscale_delay_s": 10, "metrics_interval_s": 1, "look_back_period_s": 2}},
            url, "autoscaled", args)
    finally:
        serve.shutdown()
        ray.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
