"""`hugginggpt experts serve|status`: run the experts on Ray Serve, and see what is deployed."""

from __future__ import annotations

import argparse
import logging
import os
import time
from typing import Any

from langchain_hugginggpt.core.arguments import port
from langchain_hugginggpt.experts.config import APP_NAME

log = logging.getLogger(__name__)


def start_ray(args: argparse.Namespace) -> bool:
    """Join the cluster at $RAY_ADDRESS, else start a local one; True when we started it."""
    import ray

    from langchain_hugginggpt.experts.serving import ray_address

    address = ray_address()
    if address:
        ray.init(address=address, logging_level="warning")
        return False
    local: dict[str, Any] = {"include_dashboard": False}
    if args.num_cpus is not None:
        local["num_cpus"] = args.num_cpus
    if args.object_store_mb is not None:
        local["object_store_memory"] = int(args.object_store_mb * 2**20)
    ray.init(address="local", logging_level="warning", **local)  # "local": never attach to another cluster
    return True


def cmd_serve(args: argparse.Namespace) -> int:
    from ray import serve

    from langchain_hugginggpt.experts import serving
    from langchain_hugginggpt.experts.app import build_app, load_config

    stop = serving.stop_on_signals()  # first: a signal during Ray's start must not be lost
    config = load_config({"config": args.config} if args.config else None)  # a bad config fails before Ray starts
    address = serving.ray_address()
    if not address:
        serving.check_port_free(args.host, args.port)
    started = time.monotonic()
    started_ray = start_ray(args)
    serving.stop_on_signals(stop)  # whatever Ray's start did to the handlers, ours are the ones that count
    deployed = False  # refused (a clash) or stopped before deploying: the application is not ours to delete
    try:
        if stop.is_set():
            return 0
        if address:
            serving.check_app_absent(args.app_name, address)
        serve.start(http_options={"host": args.host, "port": args.port})
        app = build_app(config)
        if stop.is_set():
            return 0
        deployed = True  # from here, even a deploy that failed half-way is ours to clean up
        serving.deploy(app, args.app_name, args.route_prefix)
        http = serve_http_options()  # a joined cluster's Serve may listen elsewhere than --host/--port
        url = f"http://{http.host}:{http.port}{args.route_prefix.rstrip('/')}"
        log.warning("experts: deploying application %r; GET %s/health answers 200 once every deployment serves",
                    args.app_name, url)
        ready = serving.wait_ready(args.app_name, stop)
        if ready is not None:
            print(f"experts on {url}/experts; all {len(ready.deployments)} deployments of {args.app_name!r} ready "
                  f"in {serving.elapsed(started)}; stop with Ctrl-C or SIGTERM", flush=True)
            stop.wait()
    finally:
        serving.shut_down(args.app_name if deployed else None, started_ray)
    print("experts stopped", flush=True)
    return 0


def serve_http_options() -> Any:
    """The HTTP options Ray Serve runs with (no public API tells them)."""
    from ray.serve.context import _get_global_client

    return _get_global_client().http_config


def cmd_status(args: argparse.Namespace) -> int:
    import json

    from langchain_hugginggpt.experts.client import RemoteExperts

    experts = RemoteExperts(args.experts)
    health = experts.readiness()
    catalog = experts.catalog()
    if args.json:
        print(json.dumps({"health": health.model_dump(), "experts": [info.model_dump() for info in catalog]},
                         indent=2))
        return 0 if health.ready else 1
    print(("ready: " if health.ready else "NOT ready: ") + health.summary())
    for problem in health.problems().values():
        print(f"  {problem}")
    for info in catalog:
        print(f"{info.status:<14} {info.name}  ({info.task} with {info.model})" + (f"  {info.message}" if info.message else ""))
    return 0 if health.ready else 1


def add_commands(subparsers: Any) -> None:
    experts = subparsers.add_parser("experts", help="run the expert models on Ray Serve (pip install '.[scale]')")
    sub = experts.add_subparsers(dest="experts_command", required=True)
    serve = sub.add_parser("serve", help="deploy the experts on Ray Serve; says when all are ready; "
                                         "stops on Ctrl-C/SIGTERM")
    serve.add_argument("--config", default=None, help="experts YAML (default: every engine that runs here, "
                                                      "grouped by task family, sized to the machine)")
    serve.add_argument("--host", default="127.0.0.1", help="HTTP interface (default: 127.0.0.1)")
    serve.add_argument("--port", type=port, default=8000)
    serve.add_argument("--app-name", default=APP_NAME, help=f"Ray Serve application name (default: {APP_NAME})")
    serve.add_argument("--route-prefix", default="/", help="HTTP route prefix of the application (default: /)")
    serve.add_argument("--num-cpus", type=float, default=None, help="CPUs of a local Ray (default: all)")
    serve.add_argument("--object-store-mb", type=float, default=None, help="object store of a local Ray")
    serve.set_defaults(func=cmd_serve)
    status = sub.add_parser("status", help="the deployed experts and their health")
    status.add_argument("--experts", default=os.environ.get("HUGGINGGPT_EXPERTS", "http://127.0.0.1:8000"))
    status.add_argument("--json", action="store_true")
    status.set_defaults(func=cmd_status)
