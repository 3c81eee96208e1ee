"""Conversations kept on the server: two turns where the client sends only its new message,
and the chat page's streaming route."""

import numpy as np

from .conftest import canny, fetch_image, scripted_agent, shape_image, sse_events, upload


def test_two_turns_client_sends_only_the_new_message(client, server, tmp_path):
    source = shape_image(tmp_path / "first.png", 6)
    image = upload(client, source)
    conversation = client.post("/conversations")
    assert conversation.status_code == 201
    cid = conversation.json()["id"]

    first = client.post("/hugginggpt", json={"conversation_id": cid, "messages": [
        {"role": "user", "content": f"edge map of {image['path']}"}]}).json()
    assert first["conversation_id"] == cid
    edges_path = first["files"][0]["path"]

    llm = server.agent.llm
    llm.calls.clear()
    second = client.post("/hugginggpt", json={"conversation_id": cid, "messages": [
        {"role": "user", "content": "do it again on the result"}]}).json()
    # The server gave the planner the first turn: the request and the file it produced...
    planning_prompt = llm.calls[0][1][-1]
    assert f"edge map of {image['path']}" in planning_prompt and edges_path in planning_prompt
    # ...so "again on the result" ran Canny on the first turn's edge map.
    again = fetch_image(client, second["files"][0]["url"])
    first_edges = server.workspace.root / edges_path
    assert np.array_equal(again, canny(first_edges)) and not np.array_equal(again, canny(source))

    stored = client.get(f"/conversations/{cid}").json()
    assert [m["role"] for m in stored["messages"]] == ["user", "assistant", "user", "assistant"]
    assert stored["messages"][2]["content"] == "do it again on the result"
    assert stored["messages"][3]["content"] == second["message"]
    assert [(r["path"], r["origin"]) for r in stored["resources"]] == [
        (edges_path, "output"), (second["files"][0]["path"], "output")]


def test_unknown_conversation_is_404(client):
    reply = client.post("/hugginggpt", json={"conversation_id": "nope", "messages": [{"role": "user", "content": "hi"}]})
    assert reply.status_code == 404 and "POST /conversations" in reply.json()["error"]
    assert client.get("/conversations/nope").status_code == 404
    assert client.post("/conversations/nope/messages", json={"content": "hi"}).status_code == 404


def test_message_route_streams_stages_and_records_the_turn(client, server, tmp_path):
    source = shape_image(tmp_path / "streamed.png", 2)
    image = upload(client, source)
    cid = client.post("/conversations").json()["id"]
    with client.stream("POST", f"/conversations/{cid}/messages",
                       json={"content": "Make an edge map", "files": [image["path"]]}) as response:
        assert response.headers["content-type"].startswith("text/event-stream")
        events = sse_events(response.read().decode())
    kinds = [kind for kind, _ in events]
    assert kinds[:4] == ["conversation", "plan", "selection", "task"] and kinds[-2:] == ["answer", "result"]
    assert events[0][1]["request"] == f"Make an edge map (attached: {image['path']})"
    task = dict(events)["task"]
    assert task["status"] == "ok" and task["media"][0]["url"].startswith("/files/outputs/")
    assert np.array_equal(fetch_image(client, task["media"][0]["url"]), canny(source))
    result = dict(events)["result"]
    assert result["media"] == task["media"] and result["answer"].startswith("Edge map ready for: Make an edge map")
    stored = client.get(f"/conversations/{cid}").json()
    assert [r["origin"] for r in stored["resources"]] == ["upload", "output"]
    assert stored["messages"][1]["details"]["files"] == task["media"]
    # the `url` POST /files answered with names the same file as its `path`
    again = sse_events(client.post(f"/conversations/{cid}/messages",
                                   json={"content": "Make an edge map", "files": [image["url"]]}).text)
    assert again[0][1]["request"] == f"Make an edge map (attached: {image['path']})" and again[-1][0] == "result"


def test_message_route_refuses_files_outside_the_workspace(client):
    cid = client.post("/conversations").json()["id"]
    # a URL in any case ("HTTP://") was downloaded, on the event loop, stalling every other request (QA probe)
    for name in ("../../etc/passwd", "/etc/passwd", "http://example.com/a.png", "HTTP://127.0.0.1:9/a.png",
                 "File:///etc/passwd", "uploads/missing.png"):
        reply = client.post(f"/conversations/{cid}/messages", json={"content": "edges", "files": [name]})
        assert reply.status_code == 400, name
        assert ("attach files by their workspace path" in reply.json()["error"]) == (":" in name), name
    # names no file system takes: each a 400 that names the problem, not a 500
    for name, problem in (("a\u0000b.jpg", "embedded null byte"), ("a" * 5000 + ".jpg", "File name too long"),
                          ("~nosuchuser/x.jpg", "'~nosuchuser' names no user's home here")):
        reply = client.post(f"/conversations/{cid}/messages", json={"content": "edges", "files": [name]})
        assert reply.status_code == 400 and problem in reply.json()["error"], name
    for content, problem in ((" ", "the message is empty"), ("good " * 5000, "the message is 25,000 characters long")):
        reply = client.post(f"/conversations/{cid}/messages", json={"content": content})
        assert reply.status_code == 400 and reply.json()["error"].startswith(problem)
    assert client.get(f"/conversations/{cid}").json()["messages"] == []


def test_delete_conversation(client):
    cid = client.post("/conversations").json()["id"]
    assert client.delete(f"/conversations/{cid}").status_code == 204
    assert client.get(f"/conversations/{cid}").status_code == 404
    assert client.delete(f"/conversations/{cid}").status_code == 404


def test_deleting_a_conversation_mid_turn_stops_the_turn_and_it_stays_deleted(start_server):
    """The turn's last checkpoint used to bring a conversation deleted while it ran back to life."""
    import threading
    import time

    def slow_answer(messages):
        time.sleep(3)
        return "late answer"

    live = start_server(agent_factory=lambda ws: scripted_agent(ws, respond=slow_answer, chat=slow_answer))
    with live.client() as http:
        cid = http.post("/conversations").json()["id"]
        streamed: list = []
        sender = threading.Thread(target=lambda: streamed.append(
            sse_events(http.post(f"/conversations/{cid}/messages", json={"content": "hello there"}).text)))
        sender.start()
        time.sleep(1.0)  # the turn is in its answer
        assert http.delete(f"/conversations/{cid}").status_code == 204
        sender.join(30)
        assert streamed and streamed[0][-1][0] == "error"
        assert "was deleted while this turn ran" in streamed[0][-1][1]["error"]
        time.sleep(3)  # past the moment the slow answer would have been stored
        assert http.get(f"/conversations/{cid}").status_code == 404


def test_turns_queued_behind_a_delete_stop_and_leave_no_lock_behind(tmp_path):
    """A turn waiting for the conversation while it was deleted used to run afterwards and write the thread
    back; and every conversation served kept its lock in the store for the life of the process."""
    import asyncio

    import pytest
    from langchain_core.messages import HumanMessage

    from langchain_hugginggpt.server.conversations import (ConversationDeleted, ConversationNotFound,
                                                                 ConversationThreads)
    from langchain_hugginggpt.core.workspace import Workspace

    workspace = Workspace(tmp_path / "ws")
    store = ConversationThreads(scripted_agent(workspace), tmp_path / "threads.sqlite", workspace)

    async def scenario():
        cid = (await store.create()).id
        answered = (await store.run(cid, [HumanMessage("hello")])).answer
        assert answered and store._turns == {}  # the lock went with the turn

        holding, release = asyncio.Event(), asyncio.Event()

        async def long_turn():
            async with store._turn(cid):
                holding.set()
                await release.wait()

        running = asyncio.create_task(long_turn())
        await holding.wait()
        queued = asyncio.create_task(store.run(cid, [HumanMessage("hello again")]))
        await asyncio.sleep(0.05)  # the queued turn now waits for the lock
        await store.delete(cid)
        with pytest.raises(ConversationDeleted):
            await running
        with pytest.raises(ConversationDeleted):
            await queued
        with pytest.raises(ConversationNotFound):
            await store.get(cid)
        with pytest.raises(ConversationNotFound):  # a turn that starts after the delete
            await store.run(cid, [HumanMessage("anyone there?")])
        with pytest.raises(ConversationNotFound):
            await store.get(cid)
        assert store._turns == {} and store._running == {} and store._deleting == set()

    try:
        asyncio.run(scenario())
    finally:
        store.close()
