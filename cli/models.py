"""`hugginggpt models ...`: import, refresh, list, search and add catalog models.

    hugginggpt models import                     # HuggingGPT's model list, shipped with the package
    hugginggpt models import my_models.jsonl
    hugginggpt models refresh --task text-classification --limit 30
    hugginggpt models list --task text-classification [--json]
    hugginggpt models search "sentiment of Spanish financial news" --task text-classification [--all] [--json]
    hugginggpt models add ./my-model --task image-classification --description "Classifies bird species."
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from langchain_hugginggpt.core.arguments import count, positive_int
from langchain_hugginggpt.retriever.records import CatalogError


def _catalog():
    from langchain_hugginggpt.retriever.catalog import ModelCatalog

    return ModelCatalog()


def _check_task(task: str | None) -> None:
    from langchain_hugginggpt.core.tasks import TASKS

    if task is not None and task not in TASKS:
        raise CatalogError(f"unknown task {task!r}; known tasks: {', '.join(TASKS)}")


def _print_report(what: str, report: Any) -> None:
    print(f"{what}: {report.added} added, {report.updated} updated, {len(report.skipped)} skipped")
    for line in report.skipped[:20]:
        print(f"  skipped {line}", file=sys.stderr)


def cmd_import(args: argparse.Namespace) -> int:
    from langchain_hugginggpt.retriever.catalog import P0_MODELS

    catalog = _catalog()
    what = args.file or "HuggingGPT's model list (p0_models.jsonl)"
    _print_report(f"imported {what}", catalog.import_file(args.file or P0_MODELS))
    print(f"catalog: {len(catalog)} models over {len(catalog.tasks())} tasks")
    return 0


def cmd_refresh(args: argparse.Namespace) -> int:
    for task in args.task or []:
        _check_task(task)
    catalog = _catalog()
    _print_report("refreshed from the Hub", catalog.refresh(args.task or None, limit=args.limit))
    print(f"catalog: {len(catalog)} models over {len(catalog.tasks())} tasks")
    return 0


def cmd_list(args: argparse.Namespace) -> int:
    _check_task(args.task)
    records = [r for r in _catalog().records(args.task) if r.available or not args.available]
    if args.json:
        print(json.dumps([r.model_dump() for r in records], ensure_ascii=False, indent=2))
        return 0
    for r in records:
        state = "stand-in" if r.stand_in and r.available else ("available" if r.available else "-")
        print(f"{r.task:<30} {r.id:<60} {r.downloads:>10} {r.likes:>6}  {r.backend:<13} {state:<9} {r.source}")
    print(f"{len(records)} models", file=sys.stderr)
    return 0


def cmd_search(args: argparse.Namespace) -> int:
    from langchain_hugginggpt.retriever.retriever import CandidateRetriever

    _check_task(args.task)
    retriever = CandidateRetriever(catalog=_catalog(), max_description=args.max_description)
    found = retriever.candidates(args.task, args.query, k=args.k, available_only=not args.all,
                                 include_remote=args.remote)
    if args.json:
        rows = [{**c.model_dump(exclude={"details"}), **c.details} for c in found]
        print(json.dumps(rows, ensure_ascii=False, indent=2))
        return 0
    for rank, c in enumerate(found, 1):
        flag = " [stand-in]" if c.stand_in else ("" if c.available else " [cannot run here]")
        print(f"{rank}. {c.id} ({c.task}, {c.backend}){flag}  score {c.score:.3f} = similarity "
              f"{c.details['similarity']:.3f}, popularity {c.details['popularity']:.3f}; {c.downloads} downloads")
        print(f"   {c.description}")
    if not found:
        hint = "" if args.all else " that can run here (--all includes the others)"
        print(f"no models{hint}", file=sys.stderr)
    return 0


def cmd_add(args: argparse.Namespace) -> int:
    record = _catalog().add(args.id, args.task, args.description, downloads=args.downloads, likes=args.likes,
                            license=args.license, tags=args.tag, languages=args.language)
    state = "can run here" if record.available else f"cannot run here yet: {record.unavailable_reason}"
    print(f"added {record.id} for {record.task} ({state})")
    return 0


def cmd_remove(args: argparse.Namespace) -> int:
    removed = _catalog().remove(args.id, args.task)
    if not removed:
        raise CatalogError(f"no user-added model {args.id!r}" + (f" for {args.task}" if args.task else ""))
    print(f"removed {args.id} ({removed} record{'s' if removed > 1 else ''})")
    return 0


def add_commands(subparsers: Any) -> None:
    """Add the `models` group to the `hugginggpt` parser."""
    models = subparsers.add_parser("models", help="the model catalog: import, refresh, list, search, add")
    sub = models.add_subparsers(dest="models_command", metavar="COMMAND", required=True)

    p = sub.add_parser("import", help="import a model list in HuggingGPT's JSONL format (e.g. p0_models.jsonl)")
    p.add_argument("file", nargs="?", default=None,
                   help="a JSONL model list (default: HuggingGPT's p0_models.jsonl, shipped with the package)")
    p.set_defaults(func=cmd_import)

    p = sub.add_parser("refresh", help="fetch the most downloaded models per task from the Hugging Face Hub")
    p.add_argument("--task", action="append", help="a task to refresh (repeatable; default: every Hub task)")
    p.add_argument("--limit", type=positive_int, default=30, help="models per task (default 30)")
    p.set_defaults(func=cmd_refresh)

    p = sub.add_parser("list", help="list catalogued models")
    p.add_argument("--task")
    p.add_argument("--available", action="store_true", help="only models that can run here")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_list)

    p = sub.add_parser("search", help="the candidates retrieval returns for a request")
    p.add_argument("query")
    p.add_argument("--task", help="restrict to one task (default: every task)")
    p.add_argument("--k", type=positive_int, default=5)
    p.add_argument("--all", action="store_true", help="include models that cannot run here")
    p.add_argument("--remote", action="store_true", help="include models that run remotely (Hugging Face inference API; needs a token)")
    p.add_argument("--max-description", type=int, default=100)
    p.add_argument("--json", action="store_true", help="a JSON list, best first")
    p.set_defaults(func=cmd_search)

    p = sub.add_parser("add", help="add your own model (a local path or a Hub id) with a description")
    p.add_argument("id", help="a local path or a Hub id (owner/name)")
    p.add_argument("--task", required=True)
    p.add_argument("--description", required=True, help="what it does: this is what retrieval matches")
    p.add_argument("--downloads", type=count, default=0)
    p.add_argument("--likes", type=count, default=0)
    p.add_argument("--license")
    p.add_argument("--tag", action="append", default=[])
    p.add_argument("--language", action="append", default=[])
    p.set_defaults(func=cmd_add)

    p = sub.add_parser("remove", help="remove a model you added")
    p.add_argument("id")
    p.add_argument("--task")
    p.set_defaults(func=cmd_remove)

