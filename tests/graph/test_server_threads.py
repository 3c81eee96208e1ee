"""The server keeps conversations as threads in the checkpointer `hugginggpt chat` uses: a chat
started in the REPL shows and continues over HTTP, and turns sent to one conversation at once
both land in it, each seeing the one before."""

import io
import sys
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from langchain_hugginggpt.agent.checkpoints import CHECKPOINTS_NAME
from langchain_hugginggpt.server import create_app

from ..server.conftest import LiveServer, scripted_agent, sse_events
from .conftest import EDGES_REQUEST, canny, pixels


@pytest.fixture
def live(tmp_path, workspace, home):
    server = LiveServer(create_app(scripted_agent, workspace=workspace, data_dir=tmp_path / "data", api_key=""))
    yield server.__enter__()
    server.__exit__(None, None, None)


def test_a_chat_from_the_repl_continues_over_http(live, workspace, tmp_path, monkeypatch, capsys):
    from langchain_hugginggpt.cli.main import main

    monkeypatch.setattr(sys, "stdin", io.StringIO(EDGES_REQUEST + "\n"))
    assert main(["chat", "--thread", "shared", "--checkpoints", str(tmp_path / "data" / CHECKPOINTS_NAME),
                 "--workspace", str(workspace.root), "-q"]) == 0
    assert "Canny edge map written to" in capsys.readouterr().out

    with live.client() as http:
        shown = http.get("/conversations/shared").json()
        assert [m["role"] for m in shown["messages"]] == ["user", "assistant"]
        assert shown["messages"][0]["content"] == EDGES_REQUEST
        [edges] = shown["messages"][1]["details"]["files"]
        assert shown["resources"] == [{"path": edges["path"], "kind": "image", "origin": "output",
                                       "created": shown["messages"][1]["created"]}]
        assert shown["created"] <= shown["messages"][1]["created"] <= shown["updated"]

        # The server's (scripted) planner reads the REPL's turn from the thread: "again" means its file.
        again = http.post("/hugginggpt", json={"conversation_id": "shared", "messages": [
            {"role": "user", "content": "do it again on the result"}]}).json()
        assert again["conversation_id"] == "shared"
        assert np.array_equal(pixels(workspace.root / again["files"][0]["path"]),
                              canny(workspace.root / edges["path"]))
        assert len(http.get("/conversations/shared").json()["messages"]) == 4


def test_a_refused_turn_in_the_repl_is_not_stored_and_the_chat_goes_on(live, workspace, tmp_path, monkeypatch,
                                                                        capsys):
    from langchain_hugginggpt.cli.main import main

    monkeypatch.setattr(sys, "stdin", io.StringIO("good " * 5000 + "\n" + EDGES_REQUEST + "\n"))
    assert main(["chat", "--thread", "refused", "--checkpoints", str(tmp_path / "data" / CHECKPOINTS_NAME),
                 "--workspace", str(workspace.root), "-q"]) == 0
    captured = capsys.readouterr()
    assert "24,999 characters long" in " ".join(captured.err.split())  # the line as typed, stripped
    assert "Canny edge map written to" in captured.out  # the next line still ran
    with live.client() as http:
        shown = http.get("/conversations/refused").json()
        assert [(m["role"], m["content"][:20]) for m in shown["messages"]][0] == ("user", EDGES_REQUEST[:20])
        assert len(shown["messages"]) == 2


def test_turns_sent_at_once_run_one_after_the_other(live, workspace):
    with live.client() as http:
        cid = http.post("/conversations").json()["id"]

        def send(text: str) -> list:
            with live.client() as own:
                return sse_events(own.post(f"/conversations/{cid}/messages", json={"content": text}).text)

        with ThreadPoolExecutor(2) as pool:
            replies = list(pool.map(send, ["edge map of square.png", "and hello there"]))
        assert all(events[-1][0] == "result" for events in replies)
        stored = http.get(f"/conversations/{cid}").json()["messages"]
        assert [m["role"] for m in stored] == ["user", "assistant", "user", "assistant"]
        assert {stored[0]["content"], stored[2]["content"]} == {"edge map of square.png", "and hello there"}
        # Whichever ran second saw the first in its chat log.
        llm_calls = live.agent.llm.calls
        plan_prompts = [messages[-1] for stage, messages in llm_calls if stage == "plan"]
        assert stored[0]["content"] in plan_prompts[1]
