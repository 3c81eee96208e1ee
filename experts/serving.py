"""The life of `hugginggpt experts serve`: start (or join) Ray, refuse to clash with another one,
deploy without blocking, say when every deployment is ready (or which cannot be, and why), and stop
within a bounded time on SIGTERM or SIGINT.

Why not `serve.run`: it blocks until the application is RUNNING, so a deployment that Ray can never
schedule kept it waiting forever, deaf to signals (the handler only set a flag nobody read).
"""

from __future__ import annotations

import os
import signal
import socket
import sys
import threading
import time
from typing import Any

import httpx

from langchain_hugginggpt.core.errors import HuggingGPTError
from langchain_hugginggpt.experts.readiness import Readiness, readiness

POLL_S = 1.0
DELETE_TIMEOUT_S = 15.0  # then Ray itself is shut down: SIGTERM must end us well within 30 s


class ServeClash(HuggingGPTError, RuntimeError):
    """Another experts server (or another program) holds what this one would use."""


def stop_on_signals(stop: threading.Event | None = None) -> threading.Event:
    """An event set by SIGTERM or SIGINT (`stop`, when given: to install the handlers again after Ray's
    start). Set explicitly: a shell starts a background job with SIGINT ignored, and Python's default
    SIGINT handler raises KeyboardInterrupt wherever the main thread is."""
    stop = stop or threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: stop.set())
    return stop


def check_port_free(host: str, port: int) -> None:
    """Refuse to start a second local Ray whose HTTP proxy could not bind (it would retry forever)."""
    with socket.socket() as probe:
        probe.settimeout(1.0)
        if probe.connect_ex((host if host != "0.0.0.0" else "127.0.0.1", port)) != 0:
            return
    url = f"http://{host}:{port}"
    try:
        app = httpx.get(f"{url}/health", timeout=5).json().get("app")
    except Exception:
        app = None
    if app:
        raise ServeClash(f"another `hugginggpt experts serve` already answers at {url} (application {app!r}): "
                         f"use it (`hugginggpt experts status --experts {url}`), stop it, or pass another --port")
    raise ServeClash(f"port {port} on {host} is already in use by another program: pass another --port")


def check_app_absent(app_name: str, address: str) -> None:
    """On a joined cluster, redeploying an application of the same name would replace someone else's."""
    from ray import serve

    if app_name in serve.status().applications:
        raise ServeClash(f"the Ray cluster at {address} already runs an application named {app_name!r} (another "
                         f"`hugginggpt experts serve`?): stop it, or pass another --app-name")


def deploy(app: Any, app_name: str, route_prefix: str) -> None:
    """Send the application to Serve's controller and return at once (readiness is watched apart)."""
    from ray import serve

    # `serve._run` is `serve.run` without waiting for RUNNING (Ray marks it PublicAPI, stable).
    serve._run(app, _blocking=False, name=app_name, route_prefix=route_prefix)


def wait_ready(app_name: str, stop: threading.Event, report: Any = None) -> Readiness | None:
    """Poll Serve's status until every deployment serves (returns it) or `stop` is set (returns None).
    Each deployment that is stuck (cannot be scheduled, failed) is reported once per distinct reason."""
    report = report or (lambda line: print(line, file=sys.stderr, flush=True))
    told: dict[str, str] = {}
    while not stop.is_set():
        state = readiness(app_name)
        if state.ready:
            return state
        for name, problem in state.problems().items():
            if told.get(name) != problem:
                told[name] = problem
                report(f"experts: not ready: {problem}")
        stop.wait(POLL_S)
    return None


def shut_down(app_name: str | None, started_ray: bool) -> None:
    """Delete our application, if we deployed one (bounded: replicas mid-task may take their graceful
    timeout), then shut down a Ray we started, which ends its processes; a joined cluster stays up."""
    import ray
    from ray import serve

    if app_name is None:
        ray.shutdown()
        return
    deleting = threading.Thread(target=_delete_quietly, args=(serve, app_name), daemon=True)
    deleting.start()
    deleting.join(DELETE_TIMEOUT_S)
    if deleting.is_alive():
        print(f"experts: application {app_name!r} still deleting after {DELETE_TIMEOUT_S:.0f} s"
              + ("; shutting Ray down anyway" if started_ray else "; Ray Serve finishes it"), file=sys.stderr)
    ray.shutdown()  # our own local Ray: its GCS, raylet and workers exit with it


def _delete_quietly(serve: Any, app_name: str) -> None:
    try:
        serve.delete(app_name)
    except Exception as exc:  # the cluster may be gone already; shutting down must go on
        print(f"experts: could not delete application {app_name!r}: {exc}", file=sys.stderr)


def ray_address() -> str | None:
    return os.environ.get("RAY_ADDRESS") or None


def elapsed(since: float) -> str:
    return f"{time.monotonic() - since:.1f} s"
