"""Conversation storage: the SQLite checkpoint file over hundreds of one-line turns, with and without pruning.

    python bench/bench_checkpoints.py [--turns 300] [--every 50] [--pruning both|on|off] [--write]

One conversation of the server's store (`ConversationThreads`: the agent's graph on the SQLite checkpointer
of agent/checkpoints.py, as `POST /conversations/{id}/messages` runs it) gets `--turns` one-line chit-chat
turns. The agent runs offline and fast: the retrieval planner finds no task in the line, and the scripted
chat model the tests use (tests/agent/scripted.py) replies with one line. Every `--every` turns the
write-ahead log is checkpointed into the file and the file's size printed, with the bytes the thread's rows
hold and the mean time of the turns since the last line. Then the conversation is deleted and the file
measured again.

`--pruning off` runs the same turns with the saver's `prune` and `reclaim` turned into no-ops, i.e. the
storage as it was before pruning: every checkpoint of every turn is kept (each holds the whole conversation,
so the file grows with the square of the turns) and a delete frees pages inside the file without returning
them. `both` (the default) measures the two in one run, each on a file of its own, their turns
alternating.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import shutil
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))  # tests/agent/scripted.py: the scripted chat model of the tests
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from docs_section import DOC, replace_section  # noqa: E402 (bench/, beside this script)

SECTION = "## Conversation storage"
MB = 1e6


def agent(workspace):
    from langchain_hugginggpt.agent.hugginggpt import HuggingGPT
    from tests.agent.scripted import ScriptedChat

    llm = ScriptedChat(replies={"plan": "[]", "chat": "Hello! Send me an image and I will work on it."}, calls=[])
    return HuggingGPT(llm=llm, planner="retrieval", workspace=workspace, log_runs=False)


def measure(path: Path, thread_id: str) -> dict[str, float]:
    """The file's size once its write-ahead log is written into it, and what the thread's rows hold."""
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        stored = db.execute("SELECT coalesce(sum(length(checkpoint) + length(metadata)), 0), count(*) "
                            "FROM checkpoints WHERE thread_id = ?", (thread_id,)).fetchone()
        writes = db.execute("SELECT coalesce(sum(length(value)), 0) FROM writes WHERE thread_id = ?",
                            (thread_id,)).fetchone()[0]
        free = db.execute("PRAGMA freelist_count").fetchone()[0] * db.execute("PRAGMA page_size").fetchone()[0]
    return {"file": path.stat().st_size, "thread": stored[0] + writes, "checkpoints": stored[1], "free": free}


class Conversation:
    """One conversation on a checkpoint file of its own, pruned or not, and what its turns cost."""

    def __init__(self, pruning: bool, scratch: Path) -> None:
        from langchain_hugginggpt.server.conversations import ConversationThreads
        from langchain_hugginggpt.core.workspace import Workspace

        self.mode = "on" if pruning else "off"
        workspace = Workspace(scratch / "workspace")
        self.path = scratch / f"checkpoints-pruning-{self.mode}.sqlite3"
        self.store = ConversationThreads(agent(workspace), self.path, workspace)
        self.rows: list[dict] = []
        self.deleted: dict = {}
        self.seconds, self.pruning, self.turns = 0.0, 0.0, 0  # since the last row
        saver = self.store.checkpointer
        if pruning:
            prune = saver.prune

            def timed(thread_ids, *, strategy="keep_latest"):
                started = time.perf_counter()
                prune(thread_ids, strategy=strategy)
                self.pruning += time.perf_counter() - started

            saver.prune = timed
        else:  # the storage as it was: all checkpoints kept, deletes leave the pages inside the file
            saver.prune = lambda thread_ids, *, strategy="keep_latest": None
            saver.reclaim = lambda: None

    async def start(self) -> None:
        self.id = (await self.store.create()).id

    async def turn(self, turn: int) -> None:
        from langchain_core.messages import HumanMessage

        started = time.perf_counter()
        result = await self.store.run(self.id, [HumanMessage(f"Hi there, line {turn} from me.")])
        self.seconds, self.turns = self.seconds + time.perf_counter() - started, self.turns + 1
        if result.error:
            raise RuntimeError(f"turn {turn} failed: {result.error}")

    def row(self, turn: int) -> None:
        row = {"turn": turn, **measure(self.path, self.id), "ms_per_turn": self.seconds / self.turns * 1000,
               "prune_ms": self.pruning / self.turns * 1000}
        self.rows.append(row)
        self.seconds, self.pruning, self.turns = 0.0, 0.0, 0
        print(f"pruning {self.mode:>3}  turn {turn:4d}  file {row['file'] / MB:8.2f} MB"
              f"  (free pages {row['free'] / MB:6.2f} MB)  thread rows {row['thread'] / MB:8.2f} MB"
              f"  checkpoints {row['checkpoints']:5d}  {row['ms_per_turn']:6.1f} ms/turn"
              f" (pruning {row['prune_ms']:.2f})", flush=True)

    async def delete(self, turns: int) -> None:
        assert len((await self.store.get(self.id)).messages) == 2 * turns  # the history is whole either way
        before = measure(self.path, self.id)
        started = time.perf_counter()
        await self.store.delete(self.id)
        self.deleted = {**measure(self.path, self.id), "delete_ms": (time.perf_counter() - started) * 1000}
        print(f"pruning {self.mode:>3}  deleted: file {before['file'] / MB:.2f} MB -> "
              f"{self.deleted['file'] / MB:.2f} MB ({self.deleted['free'] / MB:.2f} MB of free pages left inside), "
              f"delete took {self.deleted['delete_ms']:.0f} ms", flush=True)


async def conversations(turns: int, every: int, modes: list[str], scratch: Path) -> dict[str, dict]:
    """The conversations take their turns alternately (which goes first alternates too), so that the load
    of a shared machine weighs on both alike."""
    runs = [Conversation(mode == "on", scratch) for mode in modes]
    try:
        for run in runs:
            await run.start()
        for turn in range(1, turns + 1):
            for run in runs if turn % 2 else runs[::-1]:
                await run.turn(turn)
            if turn % every == 0 or turn == turns:
                for run in runs:
                    run.row(turn)
        for run in runs:
            await run.delete(turns)
    finally:
        for run in runs:
            run.store.close()
    return {run.mode: {"rows": run.rows, "deleted": run.deleted} for run in runs}


def section(results: dict[str, dict], command: str, every: int) -> str:
    modes = list(results)
    prune_column = " | of which pruning, ms" if "on" in modes else ""
    head = ("| turns | " + " | ".join(f"file, pruning {m} (MB)" for m in modes) + " | "
            + " | ".join(f"ms per turn, pruning {m}" for m in modes) + prune_column + " |")
    rule = "|---" * (1 + 2 * len(modes) + bool(prune_column)) + "|"
    lines = []
    for index, row in enumerate(results[modes[0]]["rows"]):
        sizes = " | ".join(f"{results[m]['rows'][index]['file'] / MB:.2f}" for m in modes)
        times = " | ".join(f"{results[m]['rows'][index]['ms_per_turn']:.1f}" for m in modes)
        prune = f" | {results['on']['rows'][index]['prune_ms']:.2f}" if prune_column else ""
        lines.append(f"| {row['turn']} | {sizes} | {times}{prune} |")
    deleted = "\n".join(["| pruning | file before (MB) | file after (MB) | free pages left in it (MB) | delete, ms |",
                         "|---|---|---|---|---|",
                         *(f"| {m} | {results[m]['rows'][-1]['file'] / MB:.2f} | "
                           f"{results[m]['deleted']['file'] / MB:.2f} | {results[m]['deleted']['free'] / MB:.2f} | "
                           f"{results[m]['deleted']['delete_ms']:.0f} |" for m in modes)])
    table = "\n".join([head, rule, *lines])
    kept = ""
    if "on" in results:
        last = results["on"]["rows"][-1]
        kept = (f":\nafter {last['turn']} turns the thread's rows hold {last['thread'] / MB:.2f} MB, and the rest "
                f"of the file ({last['free'] / MB:.2f} MB) is the pages\nthe last turn's pruned checkpoints freed, "
                f"which the next turn reuses")
    return f"""{SECTION}

Command: `{command}` ({platform.machine()}, {os.cpu_count()} cores shared with other work, Python
{platform.python_version()}, SQLite {sqlite3.sqlite_version}). A conversation of the server's store
(`ConversationThreads`, one per setting, each on a file of its own) gets one-line chit-chat turns (the
retrieval planner finds no task, the tests' scripted chat model replies with one line: no model runs); the
checkpoint file's size, its write-ahead log written into it, every {every} turns, and the mean time of those turns.

"Pruning off" is the storage as it was: LangGraph writes a checkpoint per step and each holds the whole
conversation, so the file grows with the square of the turns. With pruning, each turn ends with LangGraph's
`prune(strategy="keep_latest")` (implemented by `ThreadedSqliteSaver`, agent/checkpoints.py), which keeps the
thread's latest checkpoint and its pending writes, and the file grows with the turns{kept}.
The two conversations take their turns alternately, so the load of the shared machine weighs on both alike.
The time per turn grows with the conversation in both (each step reads and serializes the whole message
list); the `prune` call itself (two DELETEs) takes the last column's time.

{table}

Then the conversation is deleted. The file is made with `auto_vacuum=INCREMENTAL` and a delete ends with
`PRAGMA incremental_vacuum`, which moves only as many pages as were freed; with the vacuum off (as before) the
pages stay in the file, free for later checkpoints but never given back.

{deleted}
"""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--turns", type=int, default=300)
    parser.add_argument("--every", type=int, default=50, help="print the file's size every N turns")
    parser.add_argument("--pruning", choices=["both", "on", "off"], default="both",
                        help="off: keep every checkpoint, as before pruning (default: both, turn by turn)")
    parser.add_argument("--write", action="store_true", help=f"replace the section '{SECTION}' of {DOC}")
    args = parser.parse_args(argv)
    scratch = Path(tempfile.mkdtemp(prefix="bench-checkpoints-"))
    os.environ["HUGGINGGPT_HOME"] = str(scratch / "home")
    modes = {"both": ["off", "on"], "on": ["on"], "off": ["off"]}[args.pruning]
    try:
        results = asyncio.run(conversations(args.turns, args.every, modes, scratch))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    command = "python bench/bench_checkpoints.py" + "".join(
        f" {flag} {value}" for flag, value, default in (("--turns", args.turns, 300), ("--every", args.every, 50),
                                                        ("--pruning", args.pruning, "both")) if value != default)
    text = section(results, command, args.every)
    print()
    print(text)
    if args.write:
        replace_section(DOC, SECTION, text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
