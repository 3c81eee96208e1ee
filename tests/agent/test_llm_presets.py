"""Controller LLMs for real: the embedded SmolLM2 in process, and the `openai:` preset
against llama.cpp's OpenAI-compatible server on 127.0.0.1 serving the same weights."""

import asyncio
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import pytest
from langchain_core.messages import HumanMessage

from langchain_hugginggpt.agent.llms import json_llm, load_llm, parse_json
from langchain_hugginggpt.agent.local_llm import ChatLlamaCpp, LlamaTimeoutError, smollm2_gguf_path
from langchain_hugginggpt.agent.llm_planner import LLMPlanner, plan_from_reply, plan_json_schema
from langchain_hugginggpt.core.tasks import TASKS

pytestmark = pytest.mark.slow
REQUEST = "Detect the objects in street.jpg, then read the result aloud"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def llama_server(tmp_path_factory):
    """llama.cpp's own OpenAI-compatible HTTP server (tests/agent/llama_http.py) serving the same weights."""
    port = free_port()
    log = tmp_path_factory.mktemp("llama") / "server.log"
    with log.open("wb") as sink:  # a file, not a pipe: a full pipe would block the server
        proc = subprocess.Popen([sys.executable, str(Path(__file__).with_name("llama_http.py")),
                                 str(smollm2_gguf_path()), str(port)], stdout=sink, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}/v1"
    deadline = time.monotonic() + 180
    while True:
        if proc.poll() is not None:
            raise RuntimeError("the llama.cpp server exited: " + log.read_text()[-2000:])
        try:
            if httpx.get(f"{base}/models", timeout=1).status_code == 200:
                break
        except httpx.HTTPError:
            pass
        if time.monotonic() > deadline:
            proc.kill()
            raise RuntimeError("the llama.cpp server did not answer within 180 s: " + log.read_text()[-2000:])
        time.sleep(0.5)
    yield base
    proc.terminate()
    proc.wait(timeout=20)


@pytest.fixture(scope="module")
def local_llm():
    return ChatLlamaCpp(max_tokens=160)


def assert_schema_valid_plan(reply: str, names):
    plan = plan_from_reply(parse_json(reply))  # every plan parses, whatever its quality
    assert all(task.task in names for task in plan.tasks)
    return plan


def test_local_model_plans_parse_and_reuse_the_prompt_prefix(local_llm):
    planner = LLMPlanner(local_llm)
    structured = json_llm(local_llm, plan_json_schema(list(TASKS)))
    cached = []
    for request in (REQUEST, "Say hello.", "Transcribe b.wav and summarize it"):
        if request == "Say hello.":  # a chat call in between takes the slot
            local_llm.invoke([HumanMessage(request)])
            continue
        messages, names = planner.messages(request)
        reply = structured.invoke(messages)
        assert_schema_valid_plan(reply.text, names)
        cached.append((reply.usage_metadata["input_token_details"]["cache_read"], reply.usage_metadata["input_tokens"]))
    # llama.cpp's prompt cache kept the first planning prompt's state through the chat call, so the second
    # prompt's shared prefix (specification, task list, demonstrations) was loaded rather than evaluated.
    (_, first_total), (reused, second_total) = cached
    assert first_total > 500 and reused > second_total // 2, cached


def test_local_model_streams_text(local_llm):
    chunks = [c.text for c in local_llm.stream([HumanMessage("Say hello in three words.")])]
    assert len(chunks) > 1 and "".join(chunks).strip()


def test_openai_preset_chat_stream_and_structured_plan(llama_server, monkeypatch):
    monkeypatch.setenv("OPENAI_BASE_URL", llama_server)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    llm = load_llm("openai:smollm2", max_tokens=160)
    assert llm.invoke("What is the capital of France? One word.").text.strip()
    chunks = [c.text for c in llm.stream("Count from one to five.")]
    assert len([c for c in chunks if c]) > 1
    planner = LLMPlanner(llm)
    messages, names = planner.messages(REQUEST)
    reply = json_llm(llm, plan_json_schema(names)).invoke(messages).text
    assert_schema_valid_plan(reply, names)
    selection = json_llm(llm, {"type": "object", "properties": {"id": {"type": "string", "enum": ["a/x", "b/y"]},
                                                                "reason": {"type": "string", "maxLength": 80}},
                               "required": ["id", "reason"]})
    choice = parse_json(selection.invoke("Pick a model for object detection. Reply JSON.").text)
    assert choice["id"] in ("a/x", "b/y")


def test_openai_preset_drives_the_planning_chain(llama_server, monkeypatch):
    monkeypatch.setenv("OPENAI_BASE_URL", llama_server)
    llm = load_llm("openai:smollm2", max_tokens=160)
    try:
        out = asyncio.run(LLMPlanner(llm).aplan(REQUEST))
        assert out.planner == "llm" and out.details["raw"]
    except ValueError as exc:  # a 135M model often plans wrongly; the error must say why
        assert "invalid plan: task" in str(exc)


def test_presets_fail_clearly(monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    with pytest.raises(ValueError, match="OPENAI_API_KEY"):
        load_llm("openai:gpt-4o-mini")
    with pytest.raises(ValueError, match="unknown LLM preset"):
        load_llm("llamafile:x")
    with pytest.raises(ValueError, match="needs a model id"):
        load_llm("hf:")


def test_an_inference_providers_model_without_a_token_fails_before_any_task(monkeypatch, tmp_path):
    for name in ("HF_TOKEN", "HUGGING_FACE_HUB_TOKEN", "HUGGINGFACEHUB_API_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HF_HOME", str(tmp_path))  # no stored login either
    monkeypatch.setenv("HF_TOKEN_PATH", str(tmp_path / "token"))
    with pytest.raises(ValueError, match="need a token: set HF_TOKEN"):
        load_llm("hf-endpoint:meta-llama/Llama-3.1-8B-Instruct")
    monkeypatch.setenv("HF_TOKEN", "hf_test")  # with one, the chat model is built (nothing is sent yet)
    assert load_llm("hf-endpoint:meta-llama/Llama-3.1-8B-Instruct") is not None


def test_hf_endpoint_preset_chats_with_a_server_by_url(llama_server, monkeypatch):
    """`hf-endpoint:URL` goes through langchain-huggingface's HuggingFaceEndpoint and huggingface_hub's
    InferenceClient (the Inference Endpoints / TGI protocol), here against llama.cpp's server."""
    import huggingface_hub.constants
    from langchain_huggingface import ChatHuggingFace, HuggingFaceEndpoint

    # Other tests set HF_HUB_OFFLINE=1, which huggingface_hub reads once and then refuses every request.
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_OFFLINE", False)

    llm = load_llm("hf-endpoint:" + llama_server.removesuffix("/v1"))
    assert isinstance(llm, ChatHuggingFace) and isinstance(llm.llm, HuggingFaceEndpoint)
    assert llm.invoke("What is the capital of France? One word.").text.strip()
    out = asyncio.run(llm.ainvoke("Say hello."))
    assert out.text.strip()


def test_a_call_that_waits_too_long_for_the_busy_local_model_fails_saying_so(local_llm, tmp_path):
    from langchain_hugginggpt.agent.hugginggpt import HuggingGPT
    from langchain_hugginggpt.core.workspace import Workspace

    # Another call holds the model's only slot: a long story, read slowly until the checks are done.
    started, release = threading.Event(), threading.Event()

    def long_call():
        for _ in local_llm.stream([HumanMessage("Write a very long story about the sea.")], max_tokens=400):
            started.set()
            release.wait(60)

    holder = threading.Thread(target=long_call)
    holder.start()
    assert started.wait(120)
    busy = local_llm.model_copy(update={"timeout_s": 0.3})
    try:
        began = time.monotonic()
        with pytest.raises(LlamaTimeoutError, match="did not answer within 0.3 s"):
            busy.invoke([HumanMessage("Say hello.")])
        assert time.monotonic() - began < 5
        # Through the agent: the chat reply's failure is said, and the run ends rather than queueing.
        agent = HuggingGPT(llm=busy, planner="retrieval", workspace=Workspace(tmp_path), log_runs=False)
        result = agent.invoke({"request": "Hello! How are you today?"})
        assert "did not answer within 0.3 s" in result.error and "busy" in result.answer
    finally:
        release.set()
        holder.join(120)
    assert busy.model_copy(update={"timeout_s": 120}).invoke([HumanMessage("Say hello in three words.")]).text.strip()
