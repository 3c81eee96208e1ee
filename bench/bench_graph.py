"""The LangGraph graph against the plain Runnable: time per request beyond the stages, and checkpoint size per turn.

    python bench/bench_graph.py [--runs 20] [--turns 5] [--write docs/benchmarks.md]

Both fronts run the README's main request on the embedded defaults: the same graph of the same stage nodes
(agent/stages.py), the Runnable without a checkpointer and `build_graph(agent)` with the caller's. A request's
wall time minus the time its stages measured themselves is what the front adds (LangGraph's steps, tracing,
the result, and with a checkpointer a checkpoint per step); the medians of that over `--runs` requests, interleaved, compare the fronts without
the noise of the models' own run times. Then one thread of `--turns` turns on the SQLite checkpointer
`hugginggpt chat` and the server use: the bytes each turn adds (checkpoints, their metadata, and the
pending writes), and the file's growth.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path
from docs_section import replace_section  # noqa: E402 (bench/, beside this script)

REPO = Path(__file__).resolve().parents[1]
REQUEST = "Detect the objects in examples/street.jpg and read the result aloud"
SECTION = "## LangGraph graph"


def beyond_stages(wall: float, timings: dict[str, float]) -> float:
    """Seconds of a request not spent inside a stage."""
    return wall - sum(seconds for stage, seconds in timings.items() if stage != "total")


def thread_bytes(path: Path, thread_id: str) -> dict[str, int]:
    with sqlite3.connect(path) as db:
        checkpoints, stored = db.execute(
            "SELECT count(*), coalesce(sum(length(checkpoint) + length(metadata)), 0) FROM checkpoints "
            "WHERE thread_id = ?", (thread_id,)).fetchone()
        writes = db.execute("SELECT coalesce(sum(length(value)), 0) FROM writes WHERE thread_id = ?",
                            (thread_id,)).fetchone()[0]
    return {"checkpoints": checkpoints, "checkpoint_bytes": stored, "write_bytes": writes}


def run(runs: int, turns: int) -> dict:
    from langchain_hugginggpt.agent.checkpoints import sqlite_checkpointer
    from langchain_hugginggpt.agent.graph import build_graph
    from langchain_hugginggpt.agent.hugginggpt import HuggingGPT
    from langchain_hugginggpt.core.workspace import Workspace

    scratch = Path(tempfile.mkdtemp(prefix="bench-graph-"))
    os.environ["HUGGINGGPT_HOME"] = str(scratch / "home")  # the run log goes here, for both fronts alike
    agent = HuggingGPT.from_preset(workspace=Workspace(REPO, outputs=scratch / "outputs"))
    checkpoints = scratch / "checkpoints.sqlite3"
    fronts = {"runnable": agent, "graph": build_graph(agent),
              "graph + SQLite checkpointer": build_graph(agent, checkpointer=sqlite_checkpointer(checkpoints))}

    def once(name: str, index: int) -> tuple[float, float]:
        started = time.perf_counter()
        if name == "runnable":
            timings = agent.invoke(REQUEST).timings
        else:
            config = {"configurable": {"thread_id": f"bench-{index}"}}  # a fresh thread: every request alike
            timings = fronts[name].invoke({"messages": [("user", REQUEST)]}, config)["timings"]
        wall = time.perf_counter() - started
        return wall, beyond_stages(wall, timings)

    for name in fronts:  # warm up: models loaded, caches filled
        once(name, -1)
    samples: dict[str, list[tuple[float, float]]] = {name: [] for name in fronts}
    for index in range(runs):
        for name in fronts:
            samples[name].append(once(name, index))
    results = {name: {"wall_ms": statistics.median(w for w, _ in s) * 1000,
                      "beyond_stages_ms": statistics.median(b for _, b in s) * 1000} for name, s in samples.items()}

    conversation = scratch / "conversation.sqlite3"
    graph = build_graph(agent, checkpointer=sqlite_checkpointer(conversation))
    per_turn, size_before = [], 0
    before = {"checkpoints": 0, "checkpoint_bytes": 0, "write_bytes": 0}
    for turn in range(1, turns + 1):
        graph.invoke({"messages": [("user", REQUEST)]}, {"configurable": {"thread_id": "talk"}})
        now = thread_bytes(conversation, "talk")
        with sqlite3.connect(conversation) as db:  # move the write-ahead log into the file, then measure the file
            db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        size = conversation.stat().st_size
        per_turn.append({"turn": turn, **{k: now[k] - before[k] for k in now}, "file_growth": size - size_before})
        before, size_before = now, size
    shutil.rmtree(scratch, ignore_errors=True)
    return {"fronts": results, "turns": per_turn}


def section(data: dict, command: str, runs: int) -> str:
    fronts = data["fronts"]
    base = fronts["runnable"]["beyond_stages_ms"]

    def overhead(name: str) -> str:
        return "-" if name == "runnable" else f"{fronts[name]['beyond_stages_ms'] - base:+.1f}"

    rows = "\n".join(f"| {name} | {r['wall_ms']:.0f} | {r['beyond_stages_ms']:.1f} | {overhead(name)} |"
                     for name, r in fronts.items())
    turns = "\n".join(f"| {t['turn']} | {t['checkpoints']} | {t['checkpoint_bytes']:,} | {t['write_bytes']:,} | "
                      f"{t['checkpoint_bytes'] + t['write_bytes']:,} | {t['file_growth']:,} |" for t in data["turns"])
    worst = max(r["beyond_stages_ms"] - base for name, r in fronts.items() if name != "runnable")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    return f"""{SECTION}

Command: `{command}` ({platform.machine()}, {os.cpu_count()} cores shared with other work, Python
{platform.python_version()}, load average at start {load:.1f}).

The README's main request ("{REQUEST}": object detection, then text to speech) on the embedded
defaults, through the `HuggingGPT` Runnable and through `build_graph(agent)`, without and with the SQLite
checkpointer (a fresh thread per request). Medians of {runs} requests per front, the fronts interleaved, after one
warm-up request each. "Beyond the stages" = wall time minus the time the four stages measured themselves, i.e.
what the front adds around the same stage code; the models' own run-time noise (tens of ms) stays out of it.

| front | wall ms | beyond the stages, ms | overhead against the Runnable, ms |
|---|---|---|---|
{rows}

Overhead of the graph: at most {worst:.1f} ms per request (target: at most 10 ms).

Checkpoint size per turn: one thread, the same request {len(data['turns'])} times, on the SQLite checkpointer
(`agent/checkpoints.py`). LangGraph writes a checkpoint per step (input, plan, select, execute, respond) and
each checkpoint holds every channel's value, so the messages (the whole conversation so far) are stored again at
every step and a turn costs more as the conversation grows.

| turn | checkpoints | checkpoint + metadata bytes | pending-write bytes | bytes added | SQLite file growth (pages) |
|---|---|---|---|---|---|
{turns}
"""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--turns", type=int, default=5)
    parser.add_argument("--write", type=Path, help="replace the LangGraph section of this markdown file")
    args = parser.parse_args(argv)
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    data = run(args.runs, args.turns)
    print(json.dumps(data, indent=1), file=sys.stderr)
    command = "python bench/bench_graph.py" + " ".join([""] + (argv if argv is not None else sys.argv[1:]))
    text = section(data, command, args.runs)
    print(text)
    if args.write:
        replace_section(args.write, SECTION, text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
