"""What conversations cost on disk: LangGraph writes a checkpoint per step and each holds the whole
conversation, so a thread kept every checkpoint of every turn grew with the square of its turns (a QA
probe: 300 one-line turns, 193 MB), and a deleted conversation left its pages in the file. Now a thread
keeps its latest checkpoint after each turn (LangGraph's `prune`, "keep_latest"), a run paused at
`interrupt()` still resumes after pruning, and a delete gives the file's free pages back.

The agents plan with the retrieval planner (offline, a few ms a request): the scripted chat model answers
chit-chat, and Canny runs for the edge-map requests."""

import asyncio
import io
import sqlite3
import sys

import numpy as np
from langchain_core.messages import HumanMessage
from langgraph.types import Command

from langchain_hugginggpt.agent.checkpoints import sqlite_checkpointer
from langchain_hugginggpt.agent.graph import build_graph
from langchain_hugginggpt.agent.hugginggpt import HuggingGPT
from langchain_hugginggpt.server.conversations import ConversationThreads

from ..agent.scripted import ScriptedChat
from .conftest import EDGES_REQUEST, canny, pixels, thread


def chat_agent(workspace) -> HuggingGPT:
    """Finds no task in a line of small talk and answers it with one line."""
    llm = ScriptedChat(replies={"plan": "[]", "chat": "Hello! Send me an image and I will work on it."}, calls=[])
    return HuggingGPT(llm=llm, planner="retrieval", workspace=workspace, log_runs=False)


def stored(path, thread_id: str) -> dict[str, int]:
    """The thread's rows: checkpoints, pending writes, and the bytes they hold."""
    with sqlite3.connect(path) as db:
        checkpoints, size = db.execute("SELECT count(*), coalesce(sum(length(checkpoint) + length(metadata)), 0) "
                                       "FROM checkpoints WHERE thread_id = ?", (thread_id,)).fetchone()
        writes, write_bytes = db.execute("SELECT count(*), coalesce(sum(length(value)), 0) FROM writes "
                                         "WHERE thread_id = ?", (thread_id,)).fetchone()
    return {"checkpoints": checkpoints, "writes": writes, "bytes": size + write_bytes}


def pages(path) -> dict[str, int]:
    with sqlite3.connect(path) as db:
        return {name: db.execute(f"PRAGMA {name}").fetchone()[0] for name in ("page_count", "freelist_count")}


def test_a_thread_grows_linearly_with_its_turns_and_shows_all_of_them(workspace, home, tmp_path):
    path = tmp_path / "threads.sqlite"
    store = ConversationThreads(chat_agent(workspace), path, workspace)

    async def scenario():
        created = await store.create()
        sizes = []
        for turn in range(1, 31):
            result = await store.run(created.id, [HumanMessage(f"Hi there, line {turn} from me.")])
            assert result.plan == [] and result.answer  # small talk, answered
            sizes.append(stored(path, created.id))
        first, second, last = sizes[0]["bytes"], sizes[1]["bytes"] - sizes[0]["bytes"], \
            sizes[29]["bytes"] - sizes[28]["bytes"]
        # Kept whole, 30 turns held ~200x the first turn's bytes, and the 30th turn added ~20x what the 2nd
        # did; pruned, a turn adds its two messages, whatever came before.
        assert sizes[-1]["bytes"] <= 30 * first, sizes
        assert last <= 2 * second, (second, last)
        assert sizes[-1]["checkpoints"] == 1 and sizes[-1]["writes"] == 0
        # The user sees every turn, and when the conversation began (its first checkpoint was pruned away).
        shown = await store.get(created.id)
        assert [m.content for m in shown.messages[::2]] == [f"Hi there, line {turn} from me." for turn in range(1, 31)]
        assert all(m.role == "assistant" and m.content for m in shown.messages[1::2])
        assert shown.created == created.created < shown.messages[1].created

    try:
        asyncio.run(scenario())
    finally:
        store.close()


def test_a_chat_in_the_repl_keeps_one_checkpoint(workspace, home, tmp_path, monkeypatch, capsys):
    from langchain_hugginggpt.cli.main import main

    path = tmp_path / "checkpoints.sqlite3"
    monkeypatch.setattr(sys, "stdin", io.StringIO(f"{EDGES_REQUEST}\n{EDGES_REQUEST}\n{EDGES_REQUEST}\n"))
    assert main(["chat", "--thread", "repl", "--checkpoints", str(path), "--workspace", str(workspace.root),
                 "--planner", "retrieval", "-q"]) == 0
    assert capsys.readouterr().out.count("hugginggpt> Canny edge map written to") == 3
    assert stored(path, "repl")["checkpoints"] == 1

    store = ConversationThreads(chat_agent(workspace), path, workspace)
    try:
        shown = asyncio.run(store.get("repl"))
    finally:
        store.close()
    assert [m.role for m in shown.messages] == ["user", "assistant"] * 3
    assert shown.created <= shown.messages[1].created <= shown.updated  # the first turn's date outlived pruning


def test_a_deleted_conversation_leaves_no_rows_and_gives_its_pages_back(workspace, home, tmp_path):
    path = tmp_path / "threads.sqlite"
    store = ConversationThreads(chat_agent(workspace), path, workspace)

    async def scenario():
        kept, deleted = (await store.create()).id, (await store.create()).id
        for turn in range(20):
            await store.run(kept, [HumanMessage(f"Hi there, line {turn} from me.")])
            await store.run(deleted, [HumanMessage(f"Thanks, talk soon ({turn}).")])
        before = pages(path)
        await store.delete(deleted)
        return kept, deleted, before

    try:
        kept, deleted, before = asyncio.run(scenario())
        after = pages(path)
        assert stored(path, deleted) == {"checkpoints": 0, "writes": 0, "bytes": 0}
        assert after["freelist_count"] == 0 and after["page_count"] < before["page_count"], (before, after)
        assert len(asyncio.run(store.get(kept)).messages) == 40  # the other conversation is whole
    finally:
        store.close()


def test_a_file_made_without_incremental_vacuum_is_converted_once(saver, sqlite_file, workspace, home):
    """A checkpoint file of LangGraph's own SqliteSaver (as files made before this change): its threads load,
    and from then on a delete gives pages back."""
    build_graph(chat_agent(workspace), checkpointer=saver).invoke({"messages": [("user", "Hi there, line 1 from me.")]},
                                                                  thread("old"))
    saver.conn.commit()
    with sqlite3.connect(sqlite_file) as db:
        assert db.execute("PRAGMA auto_vacuum").fetchone()[0] == 0  # NONE: freed pages stay in the file

    checkpointer = sqlite_checkpointer(sqlite_file)
    try:
        assert checkpointer.conn.execute("PRAGMA auto_vacuum").fetchone()[0] == 2  # INCREMENTAL
        graph = build_graph(chat_agent(workspace), checkpointer=checkpointer)
        assert len(graph.get_state(thread("old")).values["messages"]) == 2
        checkpointer.delete_thread("old")
    finally:
        checkpointer.close()
    assert pages(sqlite_file)["freelist_count"] == 0


def test_a_run_paused_for_approval_resumes_after_pruning(workspace, home, tmp_path):
    """The paused run's latest checkpoint and its pending writes (the interrupt, each resume value given so
    far) are what LangGraph resumes from: pruning keeps them, and drops the rest."""
    path = tmp_path / "checkpoints.sqlite3"
    checkpointer = sqlite_checkpointer(path)
    agent = HuggingGPT.from_preset(workspace=workspace, planner="retrieval")
    graph = build_graph(agent, checkpointer=checkpointer, approve_plan=True)
    try:
        first = graph.invoke({"messages": [("user", EDGES_REQUEST)]}, thread("ask"))
        assert first["__interrupt__"] and stored(path, "ask")["checkpoints"] > 1
        checkpointer.prune(["ask"])
        assert stored(path, "ask")["checkpoints"] == 1
        assert graph.get_state(thread("ask")).next == ("approve",)

        # A bad resume value pauses again, with the problem named; pruned again, the thread still resumes.
        again = graph.invoke(Command(resume={"plan": [{"task": "edge-magic", "id": 0, "dep": [-1], "args": {}}]}),
                             thread("ask"))
        assert "unknown task 'edge-magic'" in again["__interrupt__"][0].value["error"]
        checkpointer.prune(["ask"])
        state = graph.invoke(Command(resume={"approve": True}), thread("ask"))
        assert "__interrupt__" not in state and graph.get_state(thread("ask")).next == ()
        assert np.array_equal(pixels(state["results"][0].files[0]), canny(workspace.root / "square.png"))
        assert [m.type for m in state["messages"]] == ["human", "ai"]

        # The next turn reads the first from the pruned thread: "it" is the edge map made there.
        checkpointer.prune(["ask"])
        graph.invoke({"messages": [("user", "Now give me the canny edge map of it")]}, thread("ask"))
        state = graph.invoke(Command(resume={"approve": True}), thread("ask"))
        assert state["plan"][0].args == {"image": state["messages"][1].response_metadata["files"][0]}
        assert [m.type for m in state["messages"]] == ["human", "ai", "human", "ai"]
    finally:
        checkpointer.close()
