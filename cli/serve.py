"""`hugginggpt serve`: run the HTTP server (see app.py for the routes)."""

from __future__ import annotations

import argparse
import logging
import os
from typing import Any

from langchain_hugginggpt.core.arguments import folder_to_use, port, positive_int, positive_number


def cmd_serve(args: argparse.Namespace) -> int:
    import uvicorn

    from langchain_hugginggpt.cli.options import experts_options, url_policy
    from langchain_hugginggpt.server.app import create_app, default_agent_factory

    options: dict[str, Any] = {"planner": args.planner}
    if args.responder:
        options["responder"] = args.responder
    if args.catalog:
        from langchain_hugginggpt.retriever import CatalogCandidates

        options["candidate_source"] = CatalogCandidates()
    options.update(experts_options(args))
    app = create_app(default_agent_factory(args.llm, **options), workspace=args.workspace,
                     api_key=args.api_key, data_dir=args.data_dir,
                     max_upload_bytes=int(args.max_upload_mb * 2**20),
                     max_upload_storage=args.max_upload_storage, urls=url_policy(args),
                     cors_origins=args.cors_origin, allowed_hosts=args.allow_host or ())
    state = app.state.hugginggpt
    if not state.api_key and not _loopback_bind(args.host):
        logging.getLogger("uvicorn.error").warning(
            "listening on %s with no API key: anyone who can reach this port can run models, read the workspace's "
            "files and use the conversations; set HUGGINGGPT_API_KEY or --api-key", args.host)
    logging.getLogger("uvicorn.error").info(
        "HuggingGPT on http://%s:%d/ (workspace %s, auth %s)", args.host, args.port, state.workspace.root,
        "on" if state.api_key else "off")
    uvicorn.run(app, host=args.host, port=args.port, log_level=args.log_level)
    return 0


def add_commands(subparsers: Any) -> None:
    from langchain_hugginggpt.cli.options import add_experts_options, add_url_options

    serve = subparsers.add_parser("serve", help="serve the agent over HTTP, with a chat page")
    serve.add_argument("--host", default="127.0.0.1", help="interface to listen on (default: 127.0.0.1)")
    serve.add_argument("--port", type=port, default=8004)
    serve.add_argument("--llm", default=os.environ.get("HUGGINGGPT_LLM"),
                       help="controller preset: local (default), openai:MODEL, hf:REPO_ID, hf-endpoint:REPO_ID")
    serve.add_argument("--planner", choices=["auto", "learned", "retrieval", "llm"], default="auto")
    serve.add_argument("--responder", choices=["llm", "template"], default=None)
    serve.add_argument("--catalog", action="store_true", help="pick candidates from the FAISS model catalog")
    serve.add_argument("--api-key", default=None,
                       help="require this bearer token on every route but /health (default: $HUGGINGGPT_API_KEY)")
    serve.add_argument("--workspace", type=folder_to_use, default=None,
                       help="folder for uploads, inputs and outputs, served under /files (default: <data dir>/workspace)")
    serve.add_argument("--data-dir", default=None, help="where conversations are stored (default: the data folder)")
    serve.add_argument("--max-upload-mb", type=positive_number, default=50.0)
    serve.add_argument("--max-upload-storage", type=positive_int, default=2 * 2**30, metavar="BYTES",
                       help="the most bytes all uploads may take together; an upload past it is refused until "
                            "some are deleted with DELETE /files/uploads/NAME (default: 2 GiB)")
    add_experts_options(serve)
    add_url_options(serve)
    serve.add_argument("--cors-origin", action="append", default=None, metavar="ORIGIN",
                       help="a browser origin allowed to call the API, e.g. http://example.com:3000; repeat for "
                            "more; '*' allows any (default: http(s)://localhost, 127.0.0.1 and [::1] on any port)")
    serve.add_argument("--allow-host", action="append", metavar="NAME",
                       help="a host name the server answers to without an API key (repeatable); loopback names and "
                            "IP addresses always are, other names are refused so that no web page can rebind its "
                            "own name to this server")
    serve.add_argument("--log-level", default="info", choices=["critical", "error", "warning", "info", "debug"])
    serve.set_defaults(func=cmd_serve)


def _loopback_bind(host: str) -> bool:
    import ipaddress

    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return host.lower() == "localhost"
