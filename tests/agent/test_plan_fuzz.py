"""Malformed plan replies: every one ends in a valid plan that keeps all its tasks, or a named PlanError.

The corpus (data/plan_fuzz.jsonl, written by data/make_plan_fuzz.py) holds each
reply with the outcome it must have; every reply goes through `parse_plan`, the
parse + validate path of the LLM planner.
"""

import asyncio
import importlib.util
import json
from pathlib import Path

import pytest
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage

from langchain_hugginggpt.agent.hugginggpt import HuggingGPT
from langchain_hugginggpt.agent.llms import LLMJSONError, finish_reason, parse_json, read_json
from langchain_hugginggpt.agent.llm_planner import LLMPlanner, parse_plan
from langchain_hugginggpt.core.schema import Plan, Task
from langchain_hugginggpt.planning.validation import PlanError, PlanTruncated, validate_plan

from .scripted import ScriptedChat

DATA = Path(__file__).parent / "data"
CORPUS = [json.loads(line) for line in (DATA / "plan_fuzz.jsonl").read_text(encoding="utf-8").splitlines()]
PLAN = [{"task": "image-to-text", "id": 0, "dep": [-1], "args": {"image": "a.jpg"}},
        {"task": "text-to-speech", "id": 1, "dep": [0], "args": {"text": "<resource>-0"}}]


def long_chain(n):
    return [{"task": "summarization", "id": i, "dep": [i - 1] if i else [-1],
             "args": {"text": f"<resource>-{i - 1}" if i else "long text"}} for i in range(n)]


def test_the_corpus_is_what_its_generator_writes():
    spec = importlib.util.spec_from_file_location("make_plan_fuzz", DATA / "make_plan_fuzz.py")
    generator = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(generator)
    assert generator.build() == CORPUS
    assert len(CORPUS) >= 300 and len({case["name"] for case in CORPUS}) == len(CORPUS)
    kinds = {case["name"].split("/")[0] for case in CORPUS}
    assert {"cut", "deep", "cycle", "task", "media", "shape", "mend"} <= kinds


@pytest.mark.parametrize("case", CORPUS, ids=[case["name"] for case in CORPUS])
def test_every_reply_is_a_full_plan_or_a_named_error(case):
    if case["expect"] == "plan":
        validated = parse_plan(case["reply"])  # any exception fails the test
        assert [t.id for t in validated.plan.tasks] == case["ids"]  # no task lost
        return
    with pytest.raises(PlanError) as info:
        parse_plan(case["reply"])
    assert case["error"] in str(info.value)
    if case["expect"] == "truncated":
        assert isinstance(info.value, PlanTruncated)
        assert [item["id"] for item in info.value.tasks] == case["ids"]  # exactly the tasks complete in the reply
    else:
        assert not isinstance(info.value, PlanTruncated)


def test_the_issue_examples_are_named_errors_not_recursion_errors():
    with pytest.raises(PlanError, match="nests brackets 100000 deep"):
        parse_plan("[" * 100000)
    with pytest.raises(PlanError, match="the plan has 1500 tasks; at most 64"):
        parse_plan(json.dumps(long_chain(1500)))
    with pytest.raises(PlanError, match="the plan has 1500 tasks; at most 64"):
        validate_plan(Plan(tasks=[Task.model_validate(t) for t in long_chain(1500)]))
    with pytest.raises(PlanError, match="no task list"):
        parse_plan("{}")  # not chit-chat: that is []
    with pytest.raises(PlanError, match="must be a string"):
        parse_plan(json.dumps([{"task": "image-to-text", "id": 0, "args": {"image": {"url": "a.jpg"}}}]))
    with pytest.raises(PlanError, match="greater than or equal to 0"):
        parse_plan(json.dumps([{"task": "image-to-text", "id": -1, "args": {"image": "a.jpg"}}]))


def test_a_cut_off_reply_names_the_kept_tasks_and_the_token_limit():
    reply = json.dumps(PLAN + [{"task": "summarization", "id": 2, "dep": [1], "args": {"text": "<resource>-1"}}])
    cut = reply[:reply.index('"summarization"') + 5]
    with pytest.raises(PlanTruncated) as info:
        parse_plan(cut, "length")
    message = str(info.value)
    assert "cut off (the LLM stopped at its token limit) after 2 complete task(s)" in message
    assert "tasks kept: 0 image-to-text, 1 text-to-speech" in message
    assert info.value.tasks == PLAN


def test_json_repair_mends_the_replies_strict_json_rejects():
    mended = {
        "trailing commas": ('[{"task": "summarization", "id": 0, "dep": [-1,], "args": {"text": "x",},},]', 1),
        "single quotes": ("[{'task': 'summarization', 'id': 0, 'dep': [-1], 'args': {'text': 'x'}}]", 1),
        "missing bracket": ('[{"task": "summarization", "id": 0, "dep": [-1], "args": {"text": "x"}}', 1),
        "unquoted keys": ('[{task: "summarization", id: 0, dep: [-1], args: {text: "x"}}]', 1),
    }
    for name, (text, n_tasks) in mended.items():
        parsed = read_json(text)
        assert parsed.repaired and len(parsed.value) == n_tasks, name
    assert read_json('[{"task": "summarization"}]').repaired is False
    assert read_json(mended["missing bracket"][0]).truncated  # mended, and reported as cut off
    assert not read_json(mended["trailing commas"][0]).truncated
    assert parse_json("{'id': 'a/x', 'reason': 'it fits',}") == {"id": "a/x", "reason": "it fits"}  # model selection
    with pytest.raises(LLMJSONError, match="not JSON"):
        parse_json("I would pick the first model.")


def test_the_planner_reads_the_finish_reason_of_the_reply():
    cut = json.dumps(PLAN)[:-30]
    llm = GenericFakeChatModel(messages=iter([AIMessage(content=cut, response_metadata={"finish_reason": "length"})]))
    with pytest.raises(PlanTruncated, match="token limit.*tasks kept: 0 image-to-text"):
        asyncio.run(LLMPlanner(llm, demos=[]).aplan("Describe a.jpg and read it aloud"))
    assert finish_reason(AIMessage(content="", response_metadata={"stop_reason": "max_tokens"})) == "length"
    assert finish_reason(AIMessage(content="")) is None


@pytest.mark.parametrize("reply", ["[" * 100000, json.dumps(long_chain(1500)), json.dumps(PLAN)[:-30], "{}",
                                   json.dumps([{"task": "object-detection", "id": 0, "args": {"image": 7}}])],
                         ids=["deep", "1500-tasks", "cut-off", "empty-object", "number-as-image"])
def test_the_agent_falls_back_to_the_offline_plan(reply, workspace, tmp_path, monkeypatch):
    monkeypatch.setenv("HUGGINGGPT_HOME", str(tmp_path / "home"))
    agent = HuggingGPT(llm=ScriptedChat(replies={"plan": reply}, calls=[]), planner="auto",
                       confidence_threshold=1.1, workspace=workspace, log_runs=False)  # 1.1: always ask the LLM
    planned = asyncio.run(agent.aplan("Detect the objects in street.jpg"))
    why = "cut off" if reply == json.dumps(PLAN)[:-30] else "invalid"  # a truncation is named as such
    assert planned.planner == f"learned (the LLM's plan was {why})"
    assert [t.task for t in planned.plan] == ["object-detection"]
    assert planned.details["llm_plan_error"].startswith("invalid plan: ")
