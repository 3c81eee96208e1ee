"""The SQLite checkpointer that keeps HuggingGPT's conversations (LangGraph threads).

    saver = sqlite_checkpointer()              # checkpoints.sqlite3 in the data folder
    graph = build_graph(agent, checkpointer=saver)

`hugginggpt chat` and the server keep their conversations in it. It is LangGraph's
`SqliteSaver` with these additions: the serializer that names the agent's state types as
allowed (`graph.checkpoint_serde`); async methods that run the sync ones in a worker
thread, so one saver (and one SQLite connection, which SqliteSaver guards with a lock)
serves both `graph.invoke` in the CLI and `graph.ainvoke` in the async server; and the
storage upkeep SqliteSaver leaves out:

- `prune(thread_ids)`, LangGraph's `BaseCheckpointSaver.prune` API (SqliteSaver does not
  implement it): `"keep_latest"` keeps a thread's latest checkpoint with its pending writes,
  all a thread needs to go on, an interrupted run's resume included. LangGraph writes a
  checkpoint at every step and each holds the whole state, the conversation's messages
  included, so unpruned a thread's storage grows with the square of its turns; the server
  and `hugginggpt chat` prune a thread after each of its turns, which keeps it linear.
- Space given back: the file is made with `auto_vacuum=INCREMENTAL`, and deleting a
  thread ends with `PRAGMA incremental_vacuum`, which truncates the file by its free pages.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections.abc import AsyncIterator, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import ChannelVersions, Checkpoint, CheckpointMetadata, CheckpointTuple

try:
    from langgraph.checkpoint.sqlite import SqliteSaver
except ImportError as exc:  # the `graph` extra
    raise ImportError("conversations are kept with langgraph-checkpoint-sqlite: "
                      "pip install 'langchain-hugginggpt[graph]'") from exc

from langchain_hugginggpt.agent.graph import checkpoint_serde

CHECKPOINTS_NAME = "checkpoints.sqlite3"


class ThreadedSqliteSaver(SqliteSaver):
    """`SqliteSaver` whose async methods run its sync ones in a worker thread."""

    async def aget_tuple(self, config: RunnableConfig) -> CheckpointTuple | None:
        return await asyncio.to_thread(self.get_tuple, config)

    async def alist(self, config: RunnableConfig | None, *, filter: dict[str, Any] | None = None,
                    before: RunnableConfig | None = None, limit: int | None = None) -> AsyncIterator[CheckpointTuple]:
        found = await asyncio.to_thread(lambda: list(self.list(config, filter=filter, before=before, limit=limit)))
        for item in found:
            yield item

    async def aput(self, config: RunnableConfig, checkpoint: Checkpoint, metadata: CheckpointMetadata,
                   new_versions: ChannelVersions) -> RunnableConfig:
        return await asyncio.to_thread(self.put, config, checkpoint, metadata, new_versions)

    async def aput_writes(self, config: RunnableConfig, writes: Sequence[tuple[str, Any]], task_id: str,
                          task_path: str = "") -> None:
        await asyncio.to_thread(self.put_writes, config, writes, task_id, task_path)

    async def adelete_thread(self, thread_id: str) -> None:
        await asyncio.to_thread(self.delete_thread, thread_id)

    def delete_thread(self, thread_id: str) -> None:
        """Delete the thread's checkpoints and writes, and give the pages they held back to the file system."""
        super().delete_thread(thread_id)
        self.reclaim()

    def prune(self, thread_ids: Sequence[str], *, strategy: str = "keep_latest") -> None:
        """LangGraph's `prune`: `"keep_latest"` keeps only each thread's latest checkpoint per namespace, with
        its pending writes (what a run paused at an `interrupt()` resumes from); `"delete"` deletes the threads.

        LangGraph warns that keep_latest loses the state of a `DeltaChannel`, which rebuilds itself from the
        writes of earlier checkpoints: the agent's state has none (`messages` is a plain `add_messages`
        channel, stored whole in each checkpoint). The pages freed stay in the file for the next checkpoints
        to reuse (a thread's next turn writes as much again), so pruning does not vacuum."""
        if strategy == "delete":
            for thread_id in thread_ids:
                super().delete_thread(thread_id)
            self.reclaim()
            return
        if strategy != "keep_latest":
            raise ValueError(f"unknown prune strategy {strategy!r}: 'keep_latest' or 'delete'")
        latest = ("(SELECT max(checkpoint_id) FROM checkpoints AS kept WHERE kept.thread_id = {table}.thread_id "
                  "AND kept.checkpoint_ns = {table}.checkpoint_ns)")
        ids = [(str(thread_id),) for thread_id in thread_ids]
        with self.cursor() as cur:
            # writes first, while each namespace's latest checkpoint is known; writes left without any
            # checkpoint of their namespace (`IS NOT NULL`) belong to no checkpoint and go too.
            cur.executemany(f"DELETE FROM writes WHERE thread_id = ? "
                            f"AND checkpoint_id IS NOT {latest.format(table='writes')}", ids)
            cur.executemany(f"DELETE FROM checkpoints WHERE thread_id = ? "
                            f"AND checkpoint_id < {latest.format(table='checkpoints')}", ids)

    async def aprune(self, thread_ids: Sequence[str], *, strategy: str = "keep_latest") -> None:
        await asyncio.to_thread(self.prune, thread_ids, strategy=strategy)

    def reclaim(self) -> None:
        """Truncate the file by its free pages (`PRAGMA incremental_vacuum`), those of deleted threads and of
        pruned checkpoints.

        Incremental rather than VACUUM: VACUUM rewrites the whole file, holding the saver's lock (every
        conversation's checkpoints wait) for as long as that takes, and needs as much free disk again; the
        incremental vacuum moves only as many pages as were freed, so a delete costs what the deleted thread
        held. Run in a worker thread by `adelete_thread`, off the event loop. A file made before this saver
        set `auto_vacuum` has it off until `sqlite_checkpointer` converts it; then this is a no-op."""
        with self.lock:
            # executescript steps the pragma to its end (`execute` would free a single page) and commits first;
            # the passive WAL checkpoint (it waits for no reader) writes the shorter file out now.
            self.conn.executescript("PRAGMA incremental_vacuum; PRAGMA wal_checkpoint(PASSIVE);")

    def thread_created(self, config: RunnableConfig) -> float | None:
        """When a thread began (a timestamp), None for an unknown thread: the `created` its checkpoints'
        metadata carry (a conversation passes it on at each turn, as the first checkpoint is pruned away),
        else, for a thread that never carried it, the time of its first checkpoint (step -1, its first
        input, or 0, the empty state a conversation starts with), else that of its latest."""
        latest = self.get_tuple(config)
        if latest is None:
            return None
        if (created := latest.metadata.get("created")) is not None:
            return created
        first = [tup for step in (-1, 0) for tup in self.list(config, filter={"step": step})]
        return min((t.metadata.get("created") or checkpoint_time(t.checkpoint["ts"]) for t in first),
                   default=checkpoint_time(latest.checkpoint["ts"]))

    async def athread_created(self, config: RunnableConfig) -> float | None:
        return await asyncio.to_thread(self.thread_created, config)

    def close(self) -> None:
        self.conn.close()


def checkpoint_time(iso: str) -> float:
    """A checkpoint's ISO `ts` (or a snapshot's `created_at`) as a Unix timestamp."""
    return datetime.fromisoformat(iso).timestamp()


def sqlite_checkpointer(path: str | Path | None = None) -> ThreadedSqliteSaver:
    """A checkpointer on a SQLite file (default: `checkpoints.sqlite3` in the data folder)."""
    if path is None:
        from langchain_hugginggpt.core.paths import data_dir

        path = data_dir() / CHECKPOINTS_NAME
    path = Path(path)
    if path.is_dir():
        raise ValueError(f"checkpoints file {path} is a folder; give a file name (e.g. {path / CHECKPOINTS_NAME})")
    path.parent.mkdir(parents=True, exist_ok=True)
    # check_same_thread=False: the saver locks the connection itself (see SqliteSaver).
    connection = sqlite3.connect(path, check_same_thread=False)
    try:
        auto_vacuum = connection.execute("PRAGMA auto_vacuum").fetchone()[0]
    except sqlite3.DatabaseError as exc:  # "file is not a database", naming neither the file nor the option
        connection.close()
        raise ValueError(f"checkpoints file {path} is not a SQLite database ({exc})") from None
    # The WAL file keeps the size of the largest transaction it held (a vacuum, a big delete) unless limited.
    connection.execute(f"PRAGMA journal_size_limit={WAL_SIZE_LIMIT}")
    if auto_vacuum != INCREMENTAL:
        _set_incremental_vacuum(connection)
    # Write-ahead log without an fsync per commit (LangGraph commits at every step): a crash of the
    # machine may lose the last steps, never the file. Waiting for the disk at each step cost ~20 ms a request.
    connection.execute("PRAGMA journal_mode=WAL")
    connection.execute("PRAGMA synchronous=NORMAL")
    return ThreadedSqliteSaver(connection, serde=checkpoint_serde())


INCREMENTAL = 2  # PRAGMA auto_vacuum's value for INCREMENTAL
WAL_SIZE_LIMIT = 16 * 2**20


def _set_incremental_vacuum(connection: sqlite3.Connection) -> None:
    """`auto_vacuum=INCREMENTAL`, so that deleted threads' pages can be given back (`reclaim`). It must be set
    before the first table: a new file gets it at once; a file made before it needs one VACUUM, a rewrite of
    the whole file, done here once (not at each delete). When the rewrite cannot be made now (another
    process holds the file, the disk is full), the file stays as it was, and works, until the next start."""
    connection.execute("PRAGMA auto_vacuum=INCREMENTAL")
    if connection.execute("PRAGMA page_count").fetchone()[0]:
        with contextlib.suppress(sqlite3.OperationalError):
            connection.execute("VACUUM")
