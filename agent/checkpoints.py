"""The SQLite checkpointer that keeps HuggingGPT's conversations (LangGraph threads).

    saver = sqlite_checkpointer()              # checkpoints.sqlite3 in the data folder
    graph = build_graph(agent, checkpointer=saver)

`hugginggpt chat` and the server keep their conversations in it. It is LangGraph's
`SqliteSaver` with two additions: the serializer that names the agent's state types as
allowed (`graph.checkpoint_serde`), and async methods that run the sync ones in a worker
thread, so one saver (and one SQLite connection, which SqliteSaver guards with a lock)
serves both `graph.invoke` in the CLI and `graph.ainvoke` in the async server.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Sequence
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

    def close(self) -> None:
        self.conn.close()


def sqlite_checkpointer(path: str | Path | None = None) -> ThreadedSqliteSaver:
    """A checkpointer on a SQLite file (default: `checkpoints.sqlite3` in the data folder)."""
    if path is None:
        from langchain_hugginggpt.retriever.paths import data_dir

        path = data_dir() / CHECKPOINTS_NAME
    path = Path(path)
    if path.is_dir():
        raise ValueError(f"checkpoints file {path} is a folder; give a file name (e.g. {path / CHECKPOINTS_NAME})")
    path.parent.mkdir(parents=True, exist_ok=True)
    # check_same_thread=False: the saver locks the connection itself (see SqliteSaver).
    connection = sqlite3.connect(path, check_same_thread=False)
    # Write-ahead log without an fsync per commit (LangGraph commits at every step): a crash of the
    # machine may lose the last steps, never the file. Waiting for the disk at each step cost ~20 ms a request.
    try:
        connection.execute("PRAGMA journal_mode=WAL")
    except sqlite3.DatabaseError as exc:  # "file is not a database", naming neither the file nor the option
        connection.close()
        raise ValueError(f"checkpoints file {path} is not a SQLite database ({exc})") from None
    connection.execute("PRAGMA synchronous=NORMAL")
    return ThreadedSqliteSaver(connection, serde=checkpoint_serde())
