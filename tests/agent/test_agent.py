"""HuggingGPT as a Runnable: stages wired end to end, LCEL, stream, batch, failures."""

import asyncio
import json
import time

import pytest
from langchain_core.runnables import RunnableLambda

from langchain_hugginggpt.agent.hugginggpt import HuggingGPT
from langchain_hugginggpt.core.schema import Candidate

from .scripted import ScriptedChat

PLAN = json.dumps([
    {"task": "image-to-image", "id": 0, "dep": [-1], "args": {"image": "red.png"}},
    {"task": "image-classification", "id": 1, "dep": [0], "args": {"image": "<resource>-0"}},
    {"task": "text2text-generation", "id": 2, "dep": [1], "args": {"text": "size <resource>-1"}},
])


class TestCandidates:
    """Two candidates for text2text-generation, so the selection LLM is asked."""

    def candidates(self, task, request, k):
        ids = {"image-to-image": ["test/grayscale"], "image-classification": ["test/image-size"],
               "text2text-generation": ["test/slow-upper", "test/other"]}[task.task]
        return [Candidate(id=i, task=task.task, description=f"{i} model") for i in ids]


def make_agent(workspace, tmp_path, monkeypatch, **replies):
    monkeypatch.setenv("HUGGINGGPT_HOME", str(tmp_path / "home"))
    script = {"plan": PLAN, "select": '{"id": "test/slow-upper", "reason": "it uppercases"}',
              "respond": "The image is 64x48.", "chat": "Hello to you too!"}
    script.update(replies)
    llm = ScriptedChat(replies=script, calls=[])
    return HuggingGPT(llm=llm, planner="llm", workspace=workspace, candidate_source=TestCandidates()), llm


def test_invoke_runs_all_four_stages(test_engines, workspace, tmp_path, monkeypatch):
    agent, llm = make_agent(workspace, tmp_path, monkeypatch)
    result = agent.invoke("Make red.png gray, tell me its size, and shout it")
    assert [t.task for t in result.plan] == ["image-to-image", "image-classification", "text2text-generation"]
    assert result.planner == "llm"
    assert result.selections[0].reason == "only one model available"
    assert result.selections[2].model_id == "test/slow-upper" and result.selections[2].reason == "it uppercases"
    assert [c.id for c in result.selections[2].candidates] == ["test/slow-upper", "test/other"]
    assert result.results[2].output.text == "SIZE 64X48"
    gray = result.results[0].output.image
    assert result.answer.startswith("The image is 64x48.") and gray in result.answer  # file path always named
    assert set(result.timings) >= {"planning", "selection", "execution", "response", "total"}
    assert [stage for stage, _ in llm.calls] == ["plan", "select", "respond"]


def test_agent_composes_in_lcel_and_batches(test_engines, workspace, tmp_path, monkeypatch):
    agent, _ = make_agent(workspace, tmp_path, monkeypatch)
    chain = RunnableLambda(lambda q: {"request": q}) | agent | RunnableLambda(lambda r: r.results[1].output.text)
    assert chain.invoke("size of red.png after graying") == "64x48"
    assert chain.batch(["one", "two"]) == ["64x48", "64x48"]


async def test_ainvoke_and_astream_events(test_engines, workspace, tmp_path, monkeypatch):
    agent, _ = make_agent(workspace, tmp_path, monkeypatch)
    result = await agent.ainvoke({"request": "gray it"})
    assert result.results[0].ok
    kinds = [event.kind async for event in agent.astream("gray it")]
    assert kinds[:2] == ["plan", "selection"]
    assert kinds.count("task") == 3 and kinds[-2:] == ["answer", "result"]
    assert kinds.index("answer_chunk") > max(i for i, k in enumerate(kinds) if k == "task")
    # LangChain's event stream (LangServe's /stream_events) sees the run start, each stage event, and the end
    events = [e async for e in agent.astream_events("gray it", version="v2")]
    ours = [e for e in events if e["name"] == agent.get_name()]
    assert ours[0]["event"] == "on_chain_start" and ours[-1]["event"] == "on_chain_end"
    streamed = [e["data"]["chunk"].kind for e in ours if e["event"] == "on_chain_stream"]
    assert streamed[:2] == ["plan", "selection"] and streamed.count("task") == 3 and streamed[-1] == "result"
    assert any(e["event"] == "on_chat_model_start" for e in events)  # the LLM's own runs, nested under ours


def test_sync_stream_yields_as_tasks_finish(test_engines, workspace, tmp_path, monkeypatch):
    agent, _ = make_agent(workspace, tmp_path, monkeypatch)
    tasks = [e.data["task_id"] for e in agent.stream("gray it") if e.kind == "task"]
    assert tasks == [0, 1, 2]  # a chain: each finishes before the next starts


async def test_sync_invoke_inside_a_running_loop(test_engines, workspace, tmp_path, monkeypatch):
    agent, _ = make_agent(workspace, tmp_path, monkeypatch)
    result = agent.invoke("gray it")  # sync, from a coroutine: as in a notebook cell
    assert all(r.ok for r in result.results.values()) and result.answer.startswith("The image is 64x48.")


def test_closing_a_sync_stream_early_cancels_the_pipeline(test_engines, workspace, tmp_path, monkeypatch):
    from langchain_hugginggpt.agent.run_log import log_path

    two_grays = json.dumps([{"task": "image-to-image", "id": 0, "dep": [-1], "args": {"image": "red.png"}},
                            {"task": "image-to-image", "id": 1, "dep": [0], "args": {"image": "<resource>-0"}}])
    agent, _ = make_agent(workspace, tmp_path, monkeypatch, plan=two_grays)
    events = agent.stream("gray it, then gray that")
    assert next(events).kind == "plan"
    events.close()  # the caller stops reading
    time.sleep(2)  # were it still running, both tasks (0.4 s each) and the answer would be done by now
    grays = list(workspace.outputs.glob("*.png")) if workspace.outputs.is_dir() else []
    assert len(grays) <= 1  # task 0 may have started before the close; task 1 never starts
    assert not log_path().exists()  # the run did not finish, so it was not logged


def test_malformed_plan_reply_is_a_clear_error(workspace, tmp_path, monkeypatch):
    agent, _ = make_agent(workspace, tmp_path, monkeypatch, plan="Sure! I will detect things.")
    result = agent.invoke("detect things in red.png")
    assert result.plan == [] and "not JSON" in result.error and "could not complete" in result.answer


def test_invalid_plan_names_the_task(workspace, tmp_path, monkeypatch):
    bad = json.dumps([{"task": "object-detection", "id": 0, "dep": [-1], "args": {"image": "<resource>-5"}}])
    agent, _ = make_agent(workspace, tmp_path, monkeypatch, plan=bad)
    result = agent.invoke("detect")
    assert "task 0: refers to <resource>-5, but there is no task 5" in result.error


def test_empty_plan_is_chit_chat(workspace, tmp_path, monkeypatch):
    agent, llm = make_agent(workspace, tmp_path, monkeypatch, plan="[]")
    result = agent.invoke("hi there")
    assert result.plan == [] and result.answer == "Hello to you too!" and result.error is None
    assert [stage for stage, _ in llm.calls] == ["plan", "chat"]


def test_response_failure_keeps_computed_results(test_engines, workspace, tmp_path, monkeypatch):
    agent, _ = make_agent(workspace, tmp_path, monkeypatch, respond=RuntimeError("endpoint down"))
    result = agent.invoke("gray it")
    assert "endpoint down" in result.error
    assert all(r.ok for r in result.results.values()) and len(result.results) == 3
    assert result.selections and result.plan


def test_chat_log_reaches_the_planner(test_engines, workspace, tmp_path, monkeypatch):
    agent, llm = make_agent(workspace, tmp_path, monkeypatch)
    history = [{"role": "user", "content": "Here is my photo red.png"},
               {"role": "assistant", "content": "Nice photo."}]
    agent.invoke({"request": "now make it black and white", "chat_history": history})
    planning_prompt = llm.calls[0][1][-1]
    assert "red.png" in planning_prompt and "now make it black and white" in planning_prompt


def test_chat_history_reaches_the_planner_with_each_turns_role(test_engines, workspace, tmp_path, monkeypatch):
    """The Runnable hands its input to the graph as `messages`: each turn keeps its role there and back, a role
    LangChain has no message class for (a tool's output) included."""
    agent, llm = make_agent(workspace, tmp_path, monkeypatch)
    history = [{"role": "user", "content": "Here is red.png"}, {"role": "tool", "content": "wrote out/gray.png"},
               {"role": "assistant", "content": "Nice photo."}, {"role": "system", "content": "Be brief."}]
    agent.invoke({"request": "now make it black and white", "chat_history": history})
    planning_prompt = llm.calls[0][1][-1]
    assert json.dumps(history) in planning_prompt


def test_original_messages_shape_is_accepted(test_engines, workspace, tmp_path, monkeypatch):
    agent, llm = make_agent(workspace, tmp_path, monkeypatch)
    agent.invoke({"messages": [{"role": "user", "content": "photo.png is mine"},
                               {"role": "user", "content": "gray it"}]})
    assert "photo.png is mine" in llm.calls[0][1][-1] and "gray it" in llm.calls[0][1][-1]


def test_every_run_is_logged_and_replayable(test_engines, workspace, tmp_path, monkeypatch):
    import asyncio

    from langchain_hugginggpt.agent.run_log import areplay, read_runs

    agent, _ = make_agent(workspace, tmp_path, monkeypatch)
    first = agent.invoke("gray it")
    runs = list(read_runs())
    assert len(runs) == 1 and runs[0]["request"] == "gray it" and runs[0]["llm"] == "ScriptedChat"
    replayed = asyncio.run(areplay(runs[0], agent))
    assert replayed.results[2].output.text == first.results[2].output.text
    assert replayed.results[0].output.image != first.results[0].output.image  # new unique file


def test_input_schema_is_exposed(workspace):
    agent = HuggingGPT(llm=None, workspace=workspace)
    assert agent.get_input_jsonschema()["required"] == ["request"]
    assert "answer" in agent.get_output_jsonschema()["properties"]


def test_chit_chat_after_the_retrieval_planner_says_no_task_was_found(workspace, tmp_path, monkeypatch):
    """No LLM judged the request to be chat, so the reply must not pass for a done task."""
    agent, llm = make_agent(workspace, tmp_path, monkeypatch)
    agent = agent.model_copy(update={"planner": "retrieval", "chit_chat_history": False})
    history = [{"role": "user", "content": "Detect the objects in red.png"}, {"role": "assistant", "content": "1 cat"}]
    result = agent.invoke({"request": "good night, see you", "chat_history": history})
    assert result.plan == [] and result.planner.startswith("retrieval")
    assert result.answer.startswith("I found no task for an expert model in this request")
    assert result.answer.endswith("Hello to you too!")
    chat_prompt = " ".join(str(m) for m in llm.calls[-1][1])
    assert llm.calls[-1][0] == "chat" and "red.png" not in chat_prompt and "good night" in chat_prompt


def test_the_default_planner_plans_what_the_agents_models_can_run(workspace, tmp_path, monkeypatch):
    """The learned planner reads a counting question as visual question answering; an agent whose models
    answer no visual question counts with its object detector, one whose models do asks that question."""
    pytest.importorskip("sklearn")
    monkeypatch.setenv("HUGGINGGPT_HOME", str(tmp_path / "home"))

    class Offers:
        def __init__(self, tasks):
            self.tasks = tasks

        def candidates(self, task, request, k):
            return [Candidate(id=f"test/{task.task}", task=task.task)] if task.task in self.tasks else []

    everything_but_vqa = Offers({"object-detection", "image-to-text", "text-to-speech"})
    for source, tasks in ((everything_but_vqa, ["object-detection"]),
                          (Offers({"visual-question-answering", "object-detection"}), ["visual-question-answering"])):
        agent = HuggingGPT(planner="auto", workspace=workspace, candidate_source=source, log_runs=False)
        planned = asyncio.run(agent.aplan("Look at street.jpg and tell me how many people are in it."))
        assert planned.planner == "learned" and [t.task for t in planned.plan.tasks] == tasks


def test_options_are_checked_and_take_the_forms_users_write(tmp_path):
    """A misspelt option used to be ignored (the default planner ran); a folder given as text was refused; the
    chat history in LangChain's ("user", "hi") pairs was refused."""
    import pydantic
    from PIL import Image

    from langchain_hugginggpt.agent.hugginggpt import HuggingGPT

    with pytest.raises(pydantic.ValidationError, match="planer"):
        HuggingGPT(planer="retrieval")
    agent = HuggingGPT(llm=None, planner="retrieval", responder="template", workspace=str(tmp_path), log_runs=False)
    assert agent.workspace.root == tmp_path.resolve()
    Image.new("RGB", (32, 32), "white").save(tmp_path / "a.png")
    result = agent.invoke({"request": "Give me the canny edge map of a.png",
                           "chat_history": [("user", "hi"), ("assistant", "Hello!")]})
    assert result.results[0].status == "ok" and result.results[0].files[0].startswith(str(tmp_path.resolve()))


@pytest.mark.parametrize("option, value, problem", [
    ("max_concurrency", 0, "greater than or equal to 1"),  # hung forever on a semaphore of 0
    ("max_concurrency", -1, "greater than or equal to 1"),
    ("task_timeout", -1, "greater than 0"),  # every task "timed out after -1 s"
    ("k", 0, "greater than or equal to 1"),  # "no model ... can run here"
])
def test_settings_that_cannot_work_are_refused_by_name(option, value, problem):
    import pydantic

    from langchain_hugginggpt.agent.hugginggpt import HuggingGPT

    with pytest.raises(pydantic.ValidationError, match=rf"{option}\n.*{problem}"):
        HuggingGPT(planner="retrieval", log_runs=False, **{option: value})


def test_a_chat_history_is_bounded_and_a_long_kept_conversation_sends_its_recent_turns():
    """'Summarize it' after a 200,000-character answer held a worker for 396 s (QA probe): a client's history
    is bounded; the graph's own thread, however long, passes its latest turns within the bound."""
    import pydantic

    from langchain_hugginggpt.agent.turn import (
        MAX_HISTORY_CHARS, MAX_HISTORY_MESSAGES, HuggingGPTInput, recent_history)

    long_answer = {"role": "assistant", "content": "The cat sat on the mat. " * 10_000}
    with pytest.raises(pydantic.ValidationError, match="the chat history is 1 messages and 240,000 characters"):
        HuggingGPTInput(request="Summarize it", chat_history=[long_answer])
    turns = [{"role": "user", "content": f"turn {i}"} for i in range(MAX_HISTORY_MESSAGES + 50)]
    kept = recent_history(turns)
    assert len(kept) == MAX_HISTORY_MESSAGES and kept[-1] == turns[-1]
    assert recent_history(turns[:3] + [long_answer]) == []  # the latest message alone is over the bound
    short = [{"role": "user", "content": "x" * (MAX_HISTORY_CHARS // 2)}] * 3
    assert recent_history(short) == short[1:]
    HuggingGPTInput(request="Summarize it", chat_history=recent_history(turns))


def test_chat_history_in_content_blocks_is_read_as_its_text_and_files():
    """LangChain and OpenAI clients send a turn's content as blocks ([{"type": "text", ...}, {"type": "image_url",
    ...}]); the planner read their Python repr. Now the texts and the image's URL are the turn's words, so 'caption
    it' reads the photo an earlier turn sent, and inline base64 adds nothing."""
    from langchain_hugginggpt.agent.hugginggpt import HuggingGPT, HuggingGPTInput

    given = HuggingGPTInput.model_validate({"request": "caption it", "chat_history": [
        {"role": "user", "content": [{"type": "text", "text": "Here is my photo."},
                                     {"type": "image_url", "image_url": {"url": "https://example.org/street.jpg"}},
                                     {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgo="}}]},
        {"role": "assistant", "content": [{"type": "text", "text": "Got it."}]},
        ("user", [{"type": "image", "url": "https://example.org/dog.png"}])]})
    assert [m["content"] for m in given.chat_history] == [
        "Here is my photo.\nhttps://example.org/street.jpg", "Got it.", "https://example.org/dog.png"]
    agent = HuggingGPT(planner="learned", log_runs=False)
    planned = asyncio.run(agent.aplan(given.request, given.chat_history[:2]))
    assert [(t.task, t.args.get("image")) for t in planned.plan.tasks] == [("image-to-text", "https://example.org/street.jpg")]
