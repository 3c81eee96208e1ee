"""The `hf:REPO_ID` preset for real: langchain-huggingface's HuggingFacePipeline + ChatHuggingFace
on a tiny randomly initialised Llama the test saves to a folder (a folder works as the id; no
download). Its words are meaningless, so the tests assert what the code path guarantees."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from langchain_hugginggpt.agent import HuggingGPT
from langchain_hugginggpt.agent.hf_pipeline_chat import ChatHuggingFacePipeline
from langchain_hugginggpt.agent.llms import load_llm
from langchain_hugginggpt.core.workspace import Workspace
from tests.tools import _hf_tiny as tiny

STREET = Path(__file__).resolve().parents[2] / "examples" / "street.jpg"


@pytest.fixture(scope="module")
def tiny_chat_model(tmp_path_factory) -> Path:
    """A one-layer Llama with a chat template and room for the planning prompt (rotary positions)."""
    import torch
    from transformers import LlamaConfig, LlamaForCausalLM

    folder = tmp_path_factory.mktemp("tiny-llama-chat")
    tokenizer = tiny.word_tokenizer()
    tokenizer.chat_template = "{% for m in messages %}{{ m['role'] }} : {{ m['content'] }} {% endfor %}assistant :"
    tokenizer.model_max_length = 8192
    torch.manual_seed(0)
    config = LlamaConfig(vocab_size=len(tokenizer), hidden_size=16, intermediate_size=32, num_hidden_layers=1,
                         num_attention_heads=2, num_key_value_heads=2, max_position_embeddings=8192,
                         bos_token_id=2, eos_token_id=3, pad_token_id=0)
    LlamaForCausalLM(config).save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return folder


@pytest.fixture(scope="module")
def llm(tiny_chat_model):
    return load_llm(f"hf:{tiny_chat_model}")


def test_the_preset_is_a_langchain_huggingface_chat_model(llm):
    from langchain_huggingface import ChatHuggingFace, HuggingFacePipeline

    assert isinstance(llm, ChatHuggingFace) and isinstance(llm.llm, HuggingFacePipeline)
    reply = llm.invoke("who lived in london ?")
    assert reply.type == "ai" and isinstance(reply.content, str)
    assert "who lived in london" not in reply.content  # the reply, not the prompt echoed back


@pytest.mark.asyncio
async def test_async_calls_run_the_pipeline_instead_of_failing(llm):
    # HuggingFacePipeline alone raises NotImplementedError for async generation.
    reply = await llm.ainvoke("where is paris ?")
    chunks = [chunk async for chunk in llm.astream("where is paris ?")]
    assert reply.type == "ai" and "".join(chunk.content for chunk in chunks) == reply.content


def test_its_meaningless_plan_falls_back_to_the_offline_plan(llm, tmp_path, monkeypatch):
    monkeypatch.setenv("HUGGINGGPT_HOME", str(tmp_path / "home"))
    shutil.copy(STREET, tmp_path / "street.jpg")
    agent = HuggingGPT(llm=llm, planner="auto", confidence_threshold=1.1, selection="top", responder="template",
                       workspace=Workspace(tmp_path), log_runs=False)
    result = agent.invoke("Detect the objects in street.jpg")
    assert result.planner == "learned (the LLM's plan was invalid)"
    assert [t.task for t in result.plan] == ["object-detection"] and result.results[0].ok
    assert "person" in result.answer


def test_with_the_llm_planner_only_the_error_names_the_problem(llm, tmp_path, monkeypatch):
    monkeypatch.setenv("HUGGINGGPT_HOME", str(tmp_path / "home"))
    agent = HuggingGPT(llm=llm, planner="llm", workspace=Workspace(tmp_path), log_runs=False)
    result = agent.invoke("Detect the objects in street.jpg")
    assert result.error and result.plan == [] and result.results == {}
    assert result.error.startswith("PlanError: invalid plan: the LLM reply is not JSON:")
    assert result.answer.startswith("I could not complete this request:")
