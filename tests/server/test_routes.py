"""Every route of the real server: health, the original HuggingGPT API, LangServe, the page, errors."""

import json

import numpy as np

from .conftest import canny, fetch_image, scripted_agent, shape_image, sse_events, upload


def test_health_reports_llm_and_ready_experts(client):
    health = client.get("/health").json()
    assert health["status"] == "ok" and health["auth"] is False
    assert health["llm"] == {"name": "ScriptedChat", "type": "scripted", "ready": True,
                             "detail": "remote or custom model: not probed"}
    assert health["experts"]["ready"]["canny-control"] == ["opencv-canny"]
    assert "canny-control" not in health["experts"]["unavailable"]


def test_hugginggpt_route_answers_in_the_original_shape(client, server, tmp_path):
    image = upload(client, shape_image(tmp_path / "photo.png", 3))
    reply = client.post("/hugginggpt", json={"messages": [
        {"role": "user", "content": f"Make an edge map of {image['path']}"}]})
    assert reply.status_code == 200, reply.text
    body = reply.json()
    assert body["message"].startswith(f"Edge map ready for: Make an edge map of {image['path']}")
    [produced] = body["files"]
    assert produced["kind"] == "image" and produced["path"].startswith("outputs/canny-")
    assert produced["path"] in body["message"]  # the answer names the file it made
    assert np.array_equal(fetch_image(client, produced["url"]), canny(tmp_path / "photo.png"))
    assert "error" not in body and "conversation_id" not in body


def test_earlier_messages_are_the_chat_log(client, server):
    llm = server.agent.llm
    llm.calls.clear()
    client.post("/hugginggpt", json={"messages": [
        {"role": "user", "content": "my favourite picture is zebra.png"},
        {"role": "assistant", "content": "Noted."},
        {"role": "user", "content": "hello"}]})
    stage, prompt = llm.calls[0]
    assert stage == "plan" and "zebra.png" in prompt[-1] and prompt[-1].rstrip().split("Now I input: ")[1].startswith("hello")
    assert [stage for stage, _ in llm.calls] == ["plan", "chat"]  # no task: chit-chat


def test_content_blocks_from_openai_style_clients_are_read_as_text(client, server):
    """An OpenAI-style client sends content as blocks; the server answered 422 (content must be a string)."""
    llm = server.agent.llm
    llm.calls.clear()
    reply = client.post("/hugginggpt", json={"messages": [
        {"role": "user", "content": [{"type": "text", "text": "my favourite picture is"},
                                     {"type": "image_url", "image_url": {"url": "zebra.png"}}]},
        {"role": "assistant", "content": [{"type": "text", "text": "Noted."}]},
        {"role": "user", "content": [{"type": "text", "text": "hello"}]}]})
    assert reply.status_code == 200, reply.text
    stage, prompt = llm.calls[0]
    assert stage == "plan" and "zebra.png" in prompt[-1] and "'type'" not in prompt[-1]
    assert prompt[-1].rstrip().split("Now I input: ")[1].startswith("hello")


def test_tasks_returns_the_plan_only(client, server):
    server.agent.llm.calls.clear()
    reply = client.post("/tasks", json={"messages": [{"role": "user", "content": "edges of a.png and b.jpg"}]})
    assert reply.status_code == 200, reply.text
    assert reply.json() == [{"task": "canny-control", "id": 0, "dep": [-1], "args": {"image": "a.png"}},
                            {"task": "canny-control", "id": 1, "dep": [-1], "args": {"image": "b.jpg"}}]
    assert [stage for stage, _ in server.agent.llm.calls] == ["plan"]  # nothing ran but planning


def test_results_gives_selection_and_result_per_task(client, server, tmp_path):
    good = upload(client, shape_image(tmp_path / "good.png", 5))
    reply = client.post("/results", json={"messages": [
        {"role": "user", "content": f"edges of {good['path']} and missing.png"}]})
    assert reply.status_code == 200, reply.text
    results = reply.json()
    assert set(results) == {"0", "1"}
    first, second = results["0"], results["1"]
    assert first["task"]["task"] == "canny-control" and first["task"]["args"]["image"].endswith(good["path"])
    assert first["choose model result"] == {"id": "opencv-canny", "reason": "only one model available"}
    assert first["status"] == "ok" and 0 < first["inference result"]["result"]["edge_fraction"] < 1
    assert np.array_equal(fetch_image(client, first["files"][0]["url"]), canny(tmp_path / "good.png"))
    assert second["status"] == "error" and "missing.png" in second["inference result"]["error"]


def test_langserve_invoke_batch_and_schemas(client, tmp_path):
    image = upload(client, shape_image(tmp_path / "ls.png", 1))
    invoked = client.post("/hugginggpt/invoke", json={"input": {"request": f"edges of {image['path']}"}})
    assert invoked.status_code == 200, invoked.text
    output = invoked.json()["output"]
    assert output["plan"][0]["task"] == "canny-control" and output["results"]["0"]["status"] == "ok"
    batch = client.post("/hugginggpt/batch", json={"inputs": [{"request": "hello"}, {"request": f"edges of {image['path']}"}]})
    first, second = batch.json()["output"]
    assert first["plan"] == [] and first["answer"] == "Hello! Send me an image for an edge map."
    assert second["results"]["0"]["model_id"] == "opencv-canny"
    assert client.get("/hugginggpt/input_schema").json()["required"] == ["request"]
    assert {"plan", "selections", "results", "answer"} <= set(client.get("/hugginggpt/output_schema").json()["properties"])
    playground = client.get("/hugginggpt/playground/")
    assert playground.status_code == 200 and "<html" in playground.text.lower()


def test_langserve_stream_yields_each_stage(client, tmp_path):
    image = upload(client, shape_image(tmp_path / "st.png", 2))
    response = client.post("/hugginggpt/stream", json={"input": {"request": f"edges of {image['path']}"}})
    assert response.headers["content-type"].startswith("text/event-stream")
    events = sse_events(response.text)
    kinds = [data["kind"] for event, data in events if event == "data"]
    assert kinds[:3] == ["plan", "selection", "task"] and kinds[-2:] == ["answer", "result"]
    assert events[-1][0] == "end"
    task = next(data["data"] for event, data in events if event == "data" and data["kind"] == "task")
    assert task["status"] == "ok" and task["files"][0].endswith(".png")


def test_langserve_stream_log(client):
    response = client.post("/hugginggpt/stream_log", json={"input": {"request": "hello"}})
    ops = [op for event, data in sse_events(response.text) if event == "data" for op in data["ops"]]
    streamed = [op["value"]["kind"] for op in ops if op["path"] == "/streamed_output/-"]
    assert streamed == ["plan", "answer", "result"]


def test_chat_page_and_its_assets(client):
    page = client.get("/")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert 'id="request"' in page.text and "/static/app.js" in page.text
    script = client.get("/static/app.js")
    assert script.status_code == 200 and "/conversations/" in script.text
    assert client.get("/favicon.ico").status_code == 200


def test_malformed_and_bad_requests(client):
    missing = client.post("/hugginggpt", json={"msgs": []})
    assert missing.status_code == 422 and missing.json()["error"].startswith("invalid request: body.messages")
    not_json = client.post("/tasks", content=b"{not json", headers={"content-type": "application/json"})
    assert not_json.status_code == 422 and "the body is not valid JSON" in not_json.json()["error"]
    wrong_type = client.post("/tasks", content=b"hi", headers={"content-type": "text/plain"})
    assert wrong_type.status_code == 415 and "application/json" in wrong_type.json()["error"]
    no_type = client.post("/hugginggpt", content=b'{"messages": [{"role": "user", "content": "hi"}]}')
    assert no_type.status_code == 415 and no_type.json()["error"].endswith("it came with no Content-Type")
    assert client.post("/conversations").status_code == 201  # no body, no type: fine
    blank_id = client.post("/hugginggpt", json={"conversation_id": "", "messages": [{"role": "user", "content": "hi"}]})
    assert blank_id.status_code == 422 and blank_id.json()["error"].startswith("invalid request: body.conversation_id")
    not_user = client.post("/tasks", json={"messages": [{"role": "assistant", "content": "hi"}]})
    assert not_user.status_code == 400 and "must come from the user" in not_user.json()["error"]
    empty = client.post("/hugginggpt", json={"messages": [{"role": "user", "content": "  "}]})
    assert empty.status_code == 400 and empty.json() == {"error": "the request is empty (the last message)", "status": 400}
    long = client.post("/hugginggpt", json={"messages": [{"role": "user", "content": "good " * 5000}]})
    assert long.status_code == 400 and long.json()["error"].startswith("the request is 25,000 characters long; at most 20,000")
    for request in ("", "good " * 5000):  # LangServe's route validates the same input model
        refused = client.post("/hugginggpt/invoke", json={"input": {"request": request}})
        assert refused.status_code == 422 and ("is empty" if not request else "at most 20,000") in refused.json()["error"]
    invalid_input = client.post("/hugginggpt/invoke", json={"input": {"requests": "x"}})
    assert invalid_input.status_code == 422 and "request" in invalid_input.json()["error"]
    unknown = client.get("/nowhere")
    assert unknown.status_code == 404 and unknown.json()["error"] == "no route GET /nowhere"
    too_big = client.post("/hugginggpt", json={"messages": [{"role": "user", "content": "x" * (3 * 2**20)}]})
    assert too_big.status_code == 413 and "limit" in too_big.json()["error"]
    deep = "[" * 50_000 + "]" * 50_000  # within the size limit, past Python's recursion limit
    nested = client.post("/hugginggpt/invoke", content=f'{{"input": {{"request": "hi", "chat_history": {deep}}}}}',
                         headers={"content-type": "application/json"})
    assert nested.status_code == 400 and nested.json()["error"] == "invalid request: the body is nested too deeply to read"
    # a file part sent without a file name is a plain form field: refused without echoing what was sent
    unnamed = client.post("/files", files={"file": (None, b"\x89PNG" + b"x" * 100_000, "image/png")})
    assert unnamed.status_code == 422 and len(unnamed.content) < 2_000, len(unnamed.content)


def test_failures_are_json_without_stack_traces(start_server):
    def broken_planner(workspace):
        return scripted_agent(workspace, plan=RuntimeError("controller endpoint down"))

    live = start_server(broken_planner)
    with live.client() as http:
        planning = http.post("/tasks", json={"messages": [{"role": "user", "content": "edges of a.png"}]})
        assert planning.status_code == 500
        assert planning.json() == {"error": "planning failed: RuntimeError: controller endpoint down", "status": 500}
        # The full pipeline keeps going and says what failed, as the original did.
        answered = http.post("/hugginggpt", json={"messages": [{"role": "user", "content": "edges of a.png"}]}).json()
        assert "controller endpoint down" in answered["error"] and "could not complete" in answered["message"]
        live.state.store.close()  # an unexpected failure deep inside a route
        crashed = http.post("/conversations")
        assert crashed.status_code == 500 and crashed.headers["content-type"] == "application/json"
        body = crashed.json()
        assert body["error"].startswith("internal error: ProgrammingError") and "Traceback" not in json.dumps(body)


def test_lone_surrogates_are_a_clear_422_before_anything_runs(client, server):
    """JSON may spell a lone UTF-16 surrogate ("\\ud800"); no UTF-8 text can hold one."""
    bad = "edges of a.png \ud800"
    cid = client.post("/conversations").json()["id"]
    server.agent.llm.calls.clear()
    for path, body in [("/tasks", {"messages": [{"role": "user", "content": bad}]}),
                       ("/results", {"messages": [{"role": "user", "content": "hi"}, {"role": "user", "content": bad}]}),
                       ("/hugginggpt", {"conversation_id": cid, "messages": [{"role": "user", "content": bad}]}),
                       ("/hugginggpt/invoke", {"input": {"request": bad}}),
                       ("/hugginggpt/stream", {"input": {"request": "x", "chat_history": [{"role": "user", "content": bad}]}}),
                       (f"/conversations/{cid}/messages", {"content": bad})]:
        reply = client.post(path, content=json.dumps(body), headers={"content-type": "application/json"})
        assert reply.status_code == 422, (path, reply.text)
        error = reply.json()["error"]
        assert error.startswith("invalid request: body.") and "lone UTF-16 surrogate (\\ud800)" in error, error
    assert server.agent.llm.calls == []  # refused before the pipeline ran
    assert client.get(f"/conversations/{cid}").json()["messages"] == []
    # A surrogate pair is a real character (an emoji), and the turn is kept.
    pair = json.dumps({"conversation_id": cid, "messages": [{"role": "user", "content": "hi \U0001f600"}]})
    assert "\\ud83d\\ude00" in pair
    kept = client.post("/hugginggpt", content=pair, headers={"content-type": "application/json"})
    assert kept.status_code == 200, kept.text
    assert client.get(f"/conversations/{cid}").json()["messages"][0]["content"] == "hi \U0001f600"


def test_batch_inputs_must_be_a_list_of_inputs(client):
    for inputs, where in (("x", "body.inputs: Input should be a valid list"),
                          ([{"request": "hello"}, "x"], "body.inputs.1: Input should be a valid dictionary"),
                          ([{"requests": "hello"}], "body.inputs.0.request: Field required")):
        reply = client.post("/hugginggpt/batch", json={"inputs": inputs})
        assert reply.status_code == 422, reply.text
        assert reply.json()["error"].startswith(f"invalid request: {where}"), reply.json()["error"]
