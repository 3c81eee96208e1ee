"""`POST /v1/chat/completions` and `GET /v1/models`, driven by the official `openai` Python client.

The main server runs the offline planner with no LLM (the plan, the models and the template answer are the
project's own), on a workspace holding examples/street.jpg, with the real object detector and speech engine.
"""

import base64
import io
import re
import shutil
from pathlib import Path

import httpx
import numpy as np
import openai
import pytest
from PIL import Image

from langchain_hugginggpt.agent.hugginggpt import HuggingGPT

from .conftest import API_KEY, canny, shape_image

STREET = Path(__file__).resolve().parents[2] / "examples" / "street.jpg"
REQUEST = "Detect the objects in street.jpg and read the result aloud"
LINK = re.compile(r"(!?)\[([^\]]+)\]\((/files/[^)\s]+)\)")


def offline_agent(workspace) -> HuggingGPT:
    return HuggingGPT(llm=None, selection="top", responder="template", workspace=workspace, log_runs=False)


@pytest.fixture(scope="module")
def offline(start_server, tmp_path_factory):
    root = tmp_path_factory.mktemp("openai-workspace")
    shutil.copy(STREET, root / "street.jpg")
    return start_server(offline_agent, workspace=root)


def sdk(server, key: str = "unused") -> openai.OpenAI:
    return openai.OpenAI(base_url=server.url + "/v1", api_key=key, max_retries=0, timeout=120)


def check_files(server, content: str) -> None:
    """Two Markdown links to /files/: the detection picture shown inline, the speech linked; both served."""
    links = LINK.findall(content)
    assert [(bang, Path(url).suffix) for bang, _, url in links] == [("!", ".png"), ("", ".wav")], content
    with httpx.Client(base_url=server.url) as http:
        picture, speech = (http.get(url) for _, _, url in links)
    assert picture.status_code == 200 and Image.open(io.BytesIO(picture.content)).size == Image.open(STREET).size
    assert speech.status_code == 200 and speech.content[:4] == b"RIFF" and len(speech.content) > 10_000
    assert str(server.workspace.root) not in content  # no disk path: the answer's own paths are /files/ URLs


def test_models_lists_hugginggpt(offline):
    client = sdk(offline)
    assert [m.id for m in client.models.list()] == ["hugginggpt"]
    assert client.models.retrieve("hugginggpt").owned_by == "langchain-hugginggpt"
    with pytest.raises(openai.NotFoundError):
        client.models.retrieve("gpt-4o")


def test_a_two_task_request_answers_with_the_picture_and_the_speech(offline):
    reply = sdk(offline).chat.completions.create(model="hugginggpt", messages=[{"role": "user", "content": REQUEST}])
    [choice] = reply.choices
    assert reply.model == "hugginggpt" and choice.finish_reason == "stop" and choice.message.role == "assistant"
    content = choice.message.content
    assert content.startswith("1 motorcycle, 1 cat, 1 person\n")
    assert "Task 0, object-detection: I used centernet-mobilenetv3-coco" in content
    assert "Task 1, text-to-speech: I used flite/cmu_us_slt" in content
    check_files(offline, content)


def test_streamed_progress_per_stage_and_task_then_the_answer(offline):
    stream = sdk(offline).chat.completions.create(model="hugginggpt", stream=True,
                                                  messages=[{"role": "user", "content": REQUEST}])
    chunks = list(stream)
    progress = [c.choices[0].delta.model_extra.get("reasoning_content") for c in chunks]
    progress = [p for p in progress if p]
    assert progress[0] == "Plan (learned): 0: object-detection, 1: text-to-speech\n"
    models = progress[1].splitlines()  # one chunk for the selection stage, a line per task
    assert models[0].startswith("Model for task 0: centernet-mobilenetv3-coco") and len(models) == 2
    assert models[1].startswith("Model for task 1: flite/cmu_us_slt")
    assert progress[2] == "Task 0 object-detection: ok: 1 motorcycle, 1 cat, 1 person\n"
    assert progress[3].startswith("Task 1 text-to-speech: ok: ") and len(progress) == 4
    content = "".join(c.choices[0].delta.content or "" for c in chunks)
    assert content.startswith("1 motorcycle, 1 cat, 1 person\n")
    # the progress came before any of the answer, and the last chunk says the answer is complete
    first_answer = next(i for i, c in enumerate(chunks) if c.choices[0].delta.content)
    assert all(not (c.choices[0].delta.model_extra or {}).get("reasoning_content") for c in chunks[first_answer:])
    assert chunks[-1].choices[0].finish_reason == "stop" and all(c.id == chunks[0].id for c in chunks)
    check_files(offline, content)


def test_a_picture_sent_as_a_data_url_part_is_the_input(server, client, tmp_path):
    picture = shape_image(tmp_path / "inline.png", 4)
    data_url = "data:image/png;base64," + base64.b64encode(picture.read_bytes()).decode()
    reply = sdk(server).chat.completions.create(model="hugginggpt", messages=[{"role": "user", "content": [
        {"type": "text", "text": "Make an edge map of this picture"},
        {"type": "image_url", "image_url": {"url": data_url}}]}])
    content = reply.choices[0].message.content
    [(bang, name, url)] = LINK.findall(content)
    assert bang == "!" and name.startswith("canny-")
    edges = np.asarray(Image.open(io.BytesIO(client.get(url).content)).convert("L"))
    assert np.array_equal(edges, canny(picture))
    kept = [p for p in (server.workspace.root / "uploads").glob("inline-*.png") if p.read_bytes() == picture.read_bytes()]
    assert len(kept) == 1  # the picture was kept as an upload, which the plan named


def test_a_later_turn_names_an_earlier_answers_file_by_its_url(server, client, tmp_path):
    """The /files/ link a client sends back in the chat log is the workspace file again."""
    picture = shape_image(tmp_path / "first.png", 6)
    data_url = "data:image/png;base64," + base64.b64encode(picture.read_bytes()).decode()
    first = sdk(server).chat.completions.create(model="hugginggpt", messages=[{"role": "user", "content": [
        {"type": "text", "text": "edges"}, {"type": "image_url", "image_url": {"url": data_url}}]}])
    answer = first.choices[0].message.content
    [(_, _, url)] = LINK.findall(answer)
    second = sdk(server).chat.completions.create(model="hugginggpt", messages=[
        {"role": "user", "content": "edges of the picture"}, {"role": "assistant", "content": answer},
        {"role": "user", "content": f"edges of {url} again"}])
    [(_, _, again)] = LINK.findall(second.choices[0].message.content)
    edges = np.asarray(Image.open(io.BytesIO(client.get(url).content)).convert("RGB"))
    Image.fromarray(edges).save(tmp_path / "edges.png")
    assert np.array_equal(np.asarray(Image.open(io.BytesIO(client.get(again).content)).convert("L")),
                          canny(tmp_path / "edges.png"))


def test_errors_come_in_openais_shape(server):
    client = sdk(server)
    with pytest.raises(openai.NotFoundError) as unknown:
        client.chat.completions.create(model="gpt-4o", messages=[{"role": "user", "content": "hi"}])
    assert unknown.value.code == "model_not_found" and "'gpt-4o' does not exist" in unknown.value.message
    with pytest.raises(openai.BadRequestError) as empty:
        client.chat.completions.create(model="hugginggpt", messages=[])
    assert empty.value.body["type"] == "invalid_request_error" and "messages" in empty.value.message
    with pytest.raises(openai.BadRequestError) as last:
        client.chat.completions.create(model="hugginggpt", messages=[{"role": "assistant", "content": "hi"}])
    assert "must come from the user" in last.value.message
    with pytest.raises(openai.BadRequestError) as not_media:
        client.chat.completions.create(model="hugginggpt", messages=[{"role": "user", "content": [
            {"type": "text", "text": "edges"},
            {"type": "image_url", "image_url": {"url": "data:image/png;base64," + base64.b64encode(b"not a picture" * 9).decode()}}]}])
    assert "not an image, audio or video file" in not_media.value.message
    with pytest.raises(openai.BadRequestError) as long_log:
        client.chat.completions.create(model="hugginggpt", stream=True,
                                       messages=[{"role": "user", "content": "hi"}] * 202)
    assert "the chat history is 201 messages" in long_log.value.message
    raw = httpx.post(server.url + "/v1/chat/completions", json={"model": "hugginggpt"})
    assert raw.status_code == 400 and set(raw.json()["error"]) == {"message", "type", "param", "code"}
    assert httpx.get(server.url + "/v1/nothing").json()["error"]["type"] == "not_found_error"


def test_the_same_api_key_as_every_route(start_server):
    locked = start_server(api_key=API_KEY)
    with pytest.raises(openai.AuthenticationError) as refused:
        sdk(locked, "wrong").models.list()
    assert refused.value.body["type"] == "authentication_error" and "not this server's" in refused.value.message
    with pytest.raises(openai.AuthenticationError):
        sdk(locked, "wrong").chat.completions.create(model="hugginggpt", messages=[{"role": "user", "content": "hi"}])
    assert [m.id for m in sdk(locked, API_KEY).models.list()] == ["hugginggpt"]


def test_an_http_picture_part_is_fetched_under_the_url_rules(offline):
    """An image_url part with an http(s) URL is the task's input, downloaded under the workspace's URL rules:
    an address of the server's own network is refused before anything is sent, and the answer says why."""
    reply = sdk(offline).chat.completions.create(model="hugginggpt", messages=[{"role": "user", "content": [
        {"type": "text", "text": "Detect the objects in this picture"},
        {"type": "image_url", "image_url": {"url": "http://127.0.0.1:9/street.jpg"}}]}])
    content = reply.choices[0].message.content
    assert "object-detection" in content and "loopback" in content and not LINK.findall(content)


def test_a_chat_reply_streams_as_the_answer(server):
    """No task: the plan chunk says so, and the controller's reply is the whole content."""
    chunks = list(sdk(server).chat.completions.create(model="hugginggpt", stream=True,
                                                      messages=[{"role": "user", "content": "hello"}]))
    progress = [p for c in chunks if (p := (c.choices[0].delta.model_extra or {}).get("reasoning_content"))]
    assert progress == ["Plan (llm): no task (chit-chat)\n"]
    assert "".join(c.choices[0].delta.content or "" for c in chunks) == "Hello! Send me an image for an edge map."
