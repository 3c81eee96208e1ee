"""The `hugginggpt` command line.

    hugginggpt run "REQUEST" [--llm PRESET] [--json]   one request, stage by stage
    hugginggpt chat                                   multi-turn REPL
    hugginggpt tasks [--json]                         tasks and the models that can run them here
    hugginggpt logs [--last N] / replay RUN_ID        inspect and replay logged runs
The other groups (`models`, `eval`, `serve`, `experts`, `mcp`, `train`) are modules with an
`add_commands(subparsers)` function; the flags they share with these are in options.py.
"""

from __future__ import annotations

import argparse
import difflib
import json
import os
import sys
from typing import TYPE_CHECKING, Any

from rich.console import Console

from langchain_hugginggpt.cli.options import add_agent_options, build_agent
from langchain_hugginggpt.core.arguments import positive_int

if TYPE_CHECKING:
    from langchain_hugginggpt.core.schema import StageEvent

err = Console(stderr=True, highlight=False)


def _show_event(event: StageEvent) -> None:
    """One progress line per stage and task, on stderr (stdout stays clean for --json)."""
    if event.kind == "plan":
        tasks = ", ".join(f"{t.id}:{t.task}" for t in event.plan or []) or "none (chit-chat)"
        err.print(f"[bold]plan[/] ({event.planner}): {tasks}")
        for repair in event.repairs:
            err.print(f"  [dim]repaired: {repair}[/]")
    elif event.kind == "selection":
        for task_id, selection in (event.selections or {}).items():
            err.print(f"[bold]model[/] for task {task_id}: {selection.model_id or '-'} [dim]({selection.reason})[/]")
    elif event.kind == "task" and (task := event.task) is not None:
        status = {"ok": "[green]ok[/]", "error": "[red]error[/]", "skipped": "[yellow]skipped[/]"}[task.status]
        took = (task.ended_at - task.started_at) if task.ended_at and task.started_at else 0
        detail = task.error or ", ".join(task.files) or ((task.output.text if task.output else None) or "")[:120]
        err.print(f"[bold]task[/] {task.task_id} {task.task}: {status} in {took:.2f}s {detail}")
    elif event.kind == "error":
        err.print(f"[red]error[/]: {event.error}")


def cmd_run(args: argparse.Namespace) -> int:
    agent = build_agent(args)
    result = None
    for event in agent.stream({"request": args.request}):
        if event.kind == "result":
            result = event.result
        elif not args.json and not args.quiet:
            _show_event(event)
    assert result is not None
    if args.json:
        print(json.dumps(result.model_dump(mode="json"), ensure_ascii=False, indent=2))
    else:
        print(result.answer)
        err.print(f"[dim]timings: {json.dumps(result.timings)}[/]")
    return 1 if result.error or _every_task_failed(result) else 0


def _every_task_failed(result: Any) -> bool:
    """A plan whose tasks all failed: the run did nothing it was asked, which a script must be able to see."""
    return bool(result.plan) and not any(r.status == "ok" for r in result.results.values())


def cmd_chat(args: argparse.Namespace) -> int:
    """A conversation kept as a LangGraph thread in the SQLite checkpointer the server uses too."""
    import time
    import uuid

    from langchain_core.messages import HumanMessage

    from langchain_hugginggpt.agent.checkpoints import sqlite_checkpointer
    from langchain_hugginggpt.agent.graph import build_graph
    from langchain_hugginggpt.core.schema import request_problem

    checkpointer = sqlite_checkpointer(args.checkpoints)
    graph = build_graph(build_agent(args), checkpointer=checkpointer)
    thread = args.thread or uuid.uuid4().hex[:12]
    config = {"configurable": {"thread_id": thread}}
    earlier = graph.get_state(config).values.get("messages") or []
    # Each checkpoint carries when the thread began (shown by the server), as pruning removes the first one.
    config["metadata"] = {"created": checkpointer.thread_created(config) or time.time()}
    err.print(f"HuggingGPT chat, thread {thread} ({len(earlier)} earlier messages; "
              f"continue it later with --thread {thread}). Type 'exit' to quit.")
    try:
        while True:
            try:
                request = input("you> ").strip()
            except EOFError:
                break
            if request in ("exit", "quit"):
                break
            if not request:
                continue
            if problem := request_problem(request):  # checked before the thread stores the message
                err.print(f"[red]error:[/] {problem}")
                continue
            answer = ""
            try:
                for event in graph.stream({"messages": [HumanMessage(request)]}, config, stream_mode="custom"):
                    if event.kind == "result":
                        answer = event.result.answer
                    elif not args.quiet:
                        _show_event(event)
            except Exception as exc:  # one failed turn (a model down, a busy LLM) does not end the conversation
                err.print(f"[red]error:[/] {_error_text(exc)}")
                continue
            finally:
                # Only the latest checkpoint is needed to go on: the thread grows with its length, not its square.
                checkpointer.prune([thread])
            print(f"hugginggpt> {answer}")
    finally:
        checkpointer.close()
    return 0


def cmd_tasks(args: argparse.Namespace) -> int:
    from langchain_hugginggpt.tools import TASKS, task_status

    rows = [task_status(name) for name in TASKS]
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    if args.markdown:  # the README's task table is generated with this
        print("| task | inputs | runs here with | stand-in (not a model) | otherwise |")
        print("|---|---|---|---|---|")
        for row in rows:
            other = "needs a download or a GPU" if row["unavailable"] else "no engine yet"
            print(f"| {row['task']} | {', '.join(row['inputs'])} | {', '.join(row['models']) or '-'} "
                  f"| {', '.join(row['stand_ins']) or '-'} | {other if not row['models'] else '-'} |")
        return 0
    from rich.table import Table

    table = Table("task", "inputs", "runs here with", "stand-in", "not available")
    for row in rows:
        table.add_row(row["task"], ", ".join(f"{k}:{v}" for k, v in row["inputs"].items()),
                      ", ".join(row["models"]) or "-", ", ".join(row["stand_ins"]) or "-",
                      "; ".join(f"{m}: {r}" for m, r in row["unavailable"].items())[:160] or "-")
    Console().print(table)
    return 0


def cmd_logs(args: argparse.Namespace) -> int:
    from langchain_hugginggpt.agent.run_log import log_path, read_runs

    runs = list(read_runs())[-args.last:]
    if args.json:
        print(json.dumps(runs, ensure_ascii=False, indent=2))
        return 0
    for run in runs:
        plan = run.get("plan") if isinstance(run.get("plan"), list) else []
        tasks = ", ".join(str(t.get("task", "?")) if isinstance(t, dict) else "?" for t in plan) or "chit-chat"
        timings = run.get("timings") if isinstance(run.get("timings"), dict) else {}
        print(f"{run['id']}  {run.get('time', '?')}  {str(run.get('request', ''))[:60]!r}  [{tasks}]  "
              f"{timings.get('total', '?')}s")
    err.print(f"[dim]log: {log_path()}[/]")
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    import asyncio

    from langchain_hugginggpt.agent.run_log import areplay, find_run

    record = find_run(args.run_id)
    if args.workspace is None:  # the folder the run read its inputs in, where it still exists
        logged = record.get("workspace")
        args.workspace = logged if logged and os.path.isdir(logged) else "."
    result = asyncio.run(areplay(record, build_agent(args)))
    print(json.dumps(result.model_dump(mode="json"), ensure_ascii=False, indent=2) if args.json else result.answer)
    return 1 if result.error or _every_task_failed(result) else 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="hugginggpt", description="HuggingGPT on LangChain.")
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="answer one request")
    run.add_argument("request")
    add_agent_options(run)
    run.add_argument("--json", action="store_true", help="print the full result as one JSON object")
    run.set_defaults(func=cmd_run)
    chat = sub.add_parser("chat", help="multi-turn chat")
    add_agent_options(chat)
    chat.add_argument("--thread", help="continue this conversation (its id is shown when a chat starts)")
    chat.add_argument("--checkpoints", default=None,
                      help="SQLite file that keeps conversations (default: checkpoints.sqlite3 in the data folder)")
    chat.set_defaults(func=cmd_chat)
    tasks = sub.add_parser("tasks", help="supported tasks and the models that can run them here")
    shape = tasks.add_mutually_exclusive_group()
    shape.add_argument("--json", action="store_true")
    shape.add_argument("--markdown", action="store_true", help="a Markdown table (used for the README)")
    tasks.set_defaults(func=cmd_tasks)
    logs = sub.add_parser("logs", help="logged runs")
    logs.add_argument("--last", type=positive_int, default=20)
    logs.add_argument("--json", action="store_true")
    logs.set_defaults(func=cmd_logs)
    replay = sub.add_parser("replay", help="run a logged plan again with its logged models")
    replay.add_argument("run_id")
    add_agent_options(replay)
    replay.add_argument("--json", action="store_true", help="print the full result as one JSON object")
    replay.set_defaults(workspace=None)  # default: the run's own workspace (cmd_replay)
    replay.set_defaults(func=cmd_replay)
    # The other groups, each a module with `add_commands` (the trainer's is in planning/): imported here, when the
    # parser is built, so `import langchain_hugginggpt.cli.main` stays cheap.
    from langchain_hugginggpt.cli import eval as taskbench, experts, mcp, models, serve
    from langchain_hugginggpt.planning import training

    for group in (models, taskbench, serve, experts, training, mcp):
        group.add_commands(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    # The CLI shows its own progress; model loaders' bars would only interleave with it.
    os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
    parser = build_parser()
    args, unknown = parser.parse_known_args(argv)
    if unknown:
        _refuse_unknown(parser, sys.argv[1:] if argv is None else argv, unknown)
    try:
        return args.func(args) or 0
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # a clear one-line error, not a stack trace
        if os.environ.get("HUGGINGGPT_DEBUG"):
            raise
        err.print(f"[red]error:[/] {_error_text(exc)}")
        return 2


def _refuse_unknown(parser: argparse.ArgumentParser, argv: list[str], unknown: list[str]) -> None:
    """Exit with the usage of the (sub)command the words name, not the top-level one, and a likely spelling for a
    misspelt option ("--planer": did you mean --planner?)."""
    command = parser
    for word in argv:  # the deepest subcommand named ("eval taskbench", "models import")
        subcommands = [a for a in command._actions if isinstance(a, argparse._SubParsersAction)]
        if subcommands and word in subcommands[0].choices:
            command = subcommands[0].choices[word]
    options = [o for a in command._actions for o in a.option_strings]
    hints = [f"{word}: did you mean {close[0]}?" for word in unknown if word.startswith("-")
             for close in [difflib.get_close_matches(word.split("=")[0], options, n=1)] if close]
    command.error(f"unrecognized arguments: {' '.join(unknown)}" + ("; " + "; ".join(hints) if hints else ""))


def _error_text(exc: Exception) -> str:
    """One line naming the problem: a pydantic error by its messages alone (no URL, no echo of the input)."""
    from pydantic import ValidationError

    if isinstance(exc, ValidationError):
        return "; ".join(".".join(map(str, e["loc"])) + ": " + e["msg"].removeprefix("Value error, ")
                         for e in exc.errors())
    return f"{type(exc).__name__}: {exc}"


if __name__ == "__main__":
    sys.exit(main())
