"""The conversation event stream (sse-starlette): keep-alive pings while a stage runs, and a
client that leaves mid-turn stops the stream, not the turn, which is still recorded.

The answer stage waits on a gate the test opens, so "while a stage runs" and "after the
client left" are ordered by the test, not by timing."""

import threading
import time

import pytest

from .conftest import respond_reply, scripted_agent, shape_image, sse_events, upload


@pytest.fixture
def gated(start_server):
    gate = threading.Event()

    def respond(messages):
        assert gate.wait(120), "the test never opened the gate"
        return respond_reply(messages)

    live = start_server(lambda ws: scripted_agent(ws, respond=respond), sse_ping_seconds=0.2)
    live.gate = gate
    yield live
    gate.set()


def test_pings_keep_a_quiet_stream_alive(gated, tmp_path):
    with gated.client() as http:
        image = upload(http, shape_image(tmp_path / "p.png", 2))
        cid = http.post("/conversations").json()["id"]
        lines = []
        with http.stream("POST", f"/conversations/{cid}/messages", json={"content": f"edges of {image['path']}"}) as response:
            assert response.headers["content-type"].startswith("text/event-stream")
            for line in response.iter_lines():
                lines.append(line)
                if line.startswith(": ping"):
                    gated.gate.set()  # a ping came while the answer stage was still running
            events = sse_events("\n".join(lines))
    assert gated.gate.is_set()
    kinds = [kind for kind, _ in events]
    assert kinds[:4] == ["conversation", "plan", "selection", "task"] and kinds[-2:] == ["answer", "result"]
    before_answer = lines[:next(i for i, line in enumerate(lines) if line == "event: answer")]
    assert any(line.startswith(": ping") for line in before_answer)


def test_a_client_that_leaves_stops_the_stream_not_the_turn(gated, tmp_path):
    with gated.client() as http:
        image = upload(http, shape_image(tmp_path / "gone.png", 5))
        cid = http.post("/conversations").json()["id"]
        with http.stream("POST", f"/conversations/{cid}/messages", json={"content": f"edges of {image['path']}"}) as response:
            for line in response.iter_lines():
                if line == "event: task":  # the edge map is made; the answer is still to come
                    break
        # The connection is closed; only now may the answer be written.
        gated.gate.set()
        stored = http.get(f"/conversations/{cid}").json()
        for _ in range(600):  # the turn finishes on its own: wait for it to be recorded
            if len(stored["messages"]) == 2:
                break
            time.sleep(0.1)
            stored = http.get(f"/conversations/{cid}").json()
        user, assistant = stored["messages"]
        assert user["content"] == f"edges of {image['path']}"
        assert assistant["content"].startswith(f"Edge map ready for: edges of {image['path']}")
        produced = assistant["details"]["files"][0]["url"]
        assert produced in assistant["content"] and http.get(produced).status_code == 200
