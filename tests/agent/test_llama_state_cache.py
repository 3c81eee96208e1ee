"""The embedded SmolLM2's cache of KV states, for real: what it holds stays under its limit,
and a prompt prefix it holds is reused and gives the same reply as a cold model."""

import llama_cpp
import pytest
from langchain_core.messages import HumanMessage, SystemMessage

from langchain_hugginggpt.agent.local_llm import ChatLlamaCpp
from langchain_hugginggpt.prompts import render

pytestmark = pytest.mark.slow
TOPICS = ["rainy days", "jazz", "chess", "mountains", "coffee", "castles", "the ocean", "kites", "trains", "tea"]


def chat(request: str) -> list:
    return [SystemMessage(render("chat.md")), HumanMessage(request)]


def held_bytes(state) -> int:
    """What a saved state holds, counted from its own buffers (not by the cache's accounting)."""
    return len(state.llama_state) + state.scores.nbytes + state.input_ids.nbytes


def test_what_the_cache_holds_stays_under_its_limit():
    limit = 8 * 2**20
    llm = ChatLlamaCpp(max_tokens=16, cache_bytes=limit)
    for topic in TOPICS:  # distinct prompts: each completion saves a new state (~2 MB of KV)
        llm.invoke(chat(f"What do you think about {topic}?"))
    cache = llm._client().cache
    held = sum(held_bytes(state) for state in cache.cache_state.values())
    assert 0 < held <= limit
    assert cache.cache_size == held
    assert 1 < len(cache.cache_state) < len(TOPICS)  # the oldest states were evicted


def test_a_cached_prefix_is_reused_and_answers_as_a_cold_model_does():
    llm = ChatLlamaCpp(max_tokens=24)
    llm.invoke(chat("Hello, how are you?"))
    # Another prompt in between: the chat prefix is no longer in the context, only in the cache.
    llm.invoke([SystemMessage("You translate English into French."), HumanMessage("Good night")])
    llama = llm._client()
    evaluated_before = llama_cpp.llama_perf_context(llama.ctx).n_p_eval
    reply = llm.invoke(chat("What is the capital of France?"))
    evaluated = llama_cpp.llama_perf_context(llama.ctx).n_p_eval - evaluated_before
    prompt_tokens = reply.usage_metadata["input_tokens"]
    system_tokens = len(llama.tokenize(render("chat.md").encode(), add_bos=False))
    assert evaluated <= prompt_tokens - system_tokens  # the system prompt came from the cache

    cold = ChatLlamaCpp(max_tokens=24, cache_bytes=0).invoke(chat("What is the capital of France?"))
    assert reply.text == cold.text and reply.text
