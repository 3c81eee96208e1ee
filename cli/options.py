"""The options the agent's commands share (`run`, `chat`, `replay`, `serve`, `mcp`): one definition of each
flag, and the agent they configure."""

from __future__ import annotations

import argparse
import os
from typing import Any

from langchain_hugginggpt.core.arguments import folder, positive_number


def build_agent(args: argparse.Namespace) -> Any:
    from langchain_hugginggpt.agent.hugginggpt import HuggingGPT
    from langchain_hugginggpt.core.workspace import Workspace

    options: dict[str, Any] = {"workspace": Workspace(args.workspace, urls=url_policy(args)), "planner": args.planner}
    if args.responder:
        options["responder"] = args.responder
    if args.no_log:
        options["log_runs"] = False
    if getattr(args, "catalog", False):
        from langchain_hugginggpt.retriever import CatalogCandidates

        options["candidate_source"] = CatalogCandidates()
    options.update(experts_options(args))
    return HuggingGPT.from_preset(args.llm, **options)


def add_url_options(parser: argparse.ArgumentParser) -> None:
    """The URL-input flags, shared by `run`, `chat`, `replay` and `serve`."""
    parser.add_argument("--allow-url-host", action="append", default=[], metavar="HOST",
                        help="let URL inputs reach this internal host (name, IP or network such as 10.0.0.0/8; "
                             "repeatable). Others must resolve to public addresses only")
    parser.add_argument("--no-url-inputs", action="store_true", help="refuse URL inputs: files must be in the workspace")
    parser.add_argument("--max-download-mb", type=positive_number, default=50.0, help="largest URL input (default: 50)")


def add_experts_options(parser: argparse.ArgumentParser) -> None:
    """`--experts`, shared by `run`, `chat`, `replay` and `serve`."""
    parser.add_argument("--experts", default=os.environ.get("HUGGINGGPT_EXPERTS"), metavar="URL",
                        help="run tasks on the experts of `hugginggpt experts serve` at this URL ('ray' inside the "
                             "Ray cluster; default: $HUGGINGGPT_EXPERTS, else every model runs in this process)")
    parser.add_argument("--local-fallback", action="store_true",
                        help="with --experts: run a task here when its model's deployment is missing or unhealthy")


def experts_options(args: argparse.Namespace) -> dict[str, Any]:
    if not getattr(args, "experts", None):
        return {}
    from langchain_hugginggpt.experts.client import RemoteExperts

    return {"experts": RemoteExperts(args.experts, fallback_local=args.local_fallback)}


def url_policy(args: argparse.Namespace) -> Any:
    from langchain_hugginggpt.core.downloads import UrlPolicy

    return UrlPolicy(enabled=not args.no_url_inputs, allow_hosts=tuple(args.allow_url_host),
                     max_bytes=int(args.max_download_mb * 2**20))


def add_agent_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--llm", default=os.environ.get("HUGGINGGPT_LLM"),
                        help="controller preset: local (default), openai:MODEL, hf:REPO_ID, hf-endpoint:REPO_ID")
    parser.add_argument("--planner", choices=["auto", "learned", "retrieval", "llm"], default="auto")
    parser.add_argument("--responder", choices=["llm", "template"], default=None)
    parser.add_argument("--workspace", type=folder, default=".", help="folder that inputs resolve in (default: current)")
    parser.add_argument("--catalog", action="store_true", help="pick candidates from the FAISS model catalog")
    add_experts_options(parser)
    add_url_options(parser)
    parser.add_argument("--no-log", action="store_true", help="do not append this run to the run log")
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress lines")
