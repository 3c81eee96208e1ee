"""`hugginggpt mcp`: serve the experts and the whole pipeline as MCP tools, over stdio or streamable HTTP."""

from __future__ import annotations

import argparse
import logging
import os
from typing import Any

from langchain_hugginggpt.core.arguments import port

logger = logging.getLogger(__name__)


def cmd_mcp(args: argparse.Namespace) -> int:
    from langchain_hugginggpt.cli.options import build_agent
    from langchain_hugginggpt.server.mcp.server import HuggingGPTMCP
    from langchain_hugginggpt.core.paths import data_dir

    server = HuggingGPTMCP(build_agent(args), private=[data_dir()], host=args.host, port=args.port)
    if args.transport == "stdio":
        server.run("stdio")
        return 0
    import uvicorn

    from langchain_hugginggpt.server.app import API_KEY_ENV
    from langchain_hugginggpt.cli.serve import _loopback_bind

    api_key = (args.api_key if args.api_key is not None else os.environ.get(API_KEY_ENV)) or None
    if not api_key and not _loopback_bind(args.host):
        logging.getLogger("uvicorn.error").warning(
            "listening on %s with no API key: anyone who can reach this port can run models and read the "
            "workspace's outputs; set HUGGINGGPT_API_KEY or --api-key", args.host)
    logging.getLogger("uvicorn.error").info("HuggingGPT MCP server on http://%s:%d/mcp (auth %s)", args.host,
                                            args.port, "on" if api_key else "off")
    uvicorn.run(server.guarded_http_app(api_key, args.allow_host or ()), host=args.host, port=args.port,
                log_level=args.log_level)
    return 0


def add_commands(subparsers: Any) -> None:
    from langchain_hugginggpt.cli.options import add_agent_options

    mcp = subparsers.add_parser("mcp", help="serve the experts and the whole pipeline as MCP tools")
    add_agent_options(mcp)
    mcp.add_argument("--transport", choices=["stdio", "http"], default="stdio",
                     help="stdio (default: an MCP client starts this command) or streamable HTTP at /mcp")
    mcp.add_argument("--host", default="127.0.0.1", help="with --transport http: interface to listen on")
    mcp.add_argument("--port", type=port, default=8005, help="with --transport http (default: 8005)")
    mcp.add_argument("--api-key", default=None,
                     help="with --transport http: require this bearer token (default: $HUGGINGGPT_API_KEY)")
    mcp.add_argument("--allow-host", action="append", metavar="NAME",
                     help="a host name answered without an API key (repeatable), as for `hugginggpt serve`")
    mcp.add_argument("--log-level", default="warning", choices=["critical", "error", "warning", "info", "debug"])
    mcp.set_defaults(func=cmd_mcp)
