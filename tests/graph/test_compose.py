"""The graph composes as LangGraph users expect: a node (subgraph) in a larger graph sharing
`messages`, `stream_mode="updates"` and `"custom"` (the same stage events as the Runnable's
`stream`), and the experts as tools a `create_agent` agent calls."""

import shutil
from pathlib import Path

import numpy as np
import pytest
from langchain.agents import create_agent
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage
from langgraph.graph import START, MessagesState, StateGraph

from langchain_hugginggpt.agent.graph import build_graph, task_tools
from langchain_hugginggpt.tools import TASKS, task_status

from .conftest import EDGES_REQUEST, REPO, canny, pixels, thread


def file_report(state: MessagesState) -> dict:
    """The parent graph's own step: say how many edge pixels each file of the answer has."""
    answer = state["messages"][-1]
    counts = [f"{path}: {int((pixels(path) > 0).sum())} edge pixels" for path in answer.response_metadata["files"]]
    return {"messages": [AIMessage("; ".join(counts), name="report")]}


def test_the_graph_is_a_node_of_a_larger_graph(agent, saver, workspace):
    parent = StateGraph(MessagesState)
    parent.add_node("hugginggpt", build_graph(agent))  # no checkpointer of its own: the parent's keeps the thread
    parent.add_node("report", file_report)
    parent.add_edge(START, "hugginggpt")
    parent.add_edge("hugginggpt", "report")
    app = parent.compile(checkpointer=saver)

    state = app.invoke({"messages": [("user", EDGES_REQUEST)]}, thread("parent"))
    human, answer, report = state["messages"]
    assert answer.name == "hugginggpt" and report.name == "report" and set(state) == {"messages"}
    [edges] = answer.response_metadata["files"]
    assert np.array_equal(pixels(edges), canny(workspace.root / "square.png"))
    assert report.content == f"{edges}: {int((canny(workspace.root / 'square.png') > 0).sum())} edge pixels"

    # The parent's thread is the conversation: the next turn's "it" is the file of the first.
    state = app.invoke({"messages": [("user", "Now give me the canny edge map of it")]}, thread("parent"))
    assert [m.name for m in state["messages"][4:]] == ["hugginggpt", "report"]
    [again] = state["messages"][4].response_metadata["files"]
    assert np.array_equal(pixels(again), canny(edges))


def test_updates_come_per_node_and_custom_events_match_the_runnables_stream(agent, saver):
    graph = build_graph(agent, checkpointer=saver)
    chunks = list(graph.stream({"messages": [("user", EDGES_REQUEST)]}, thread("s"),
                               stream_mode=["updates", "custom"]))
    updates = [next(iter(chunk)) for mode, chunk in chunks if mode == "updates"]
    assert updates == ["plan", "select", "execute", "respond"]
    events = [chunk for mode, chunk in chunks if mode == "custom"]
    runnable = list(agent.stream(EDGES_REQUEST))
    assert [e.kind for e in events] == [e.kind for e in runnable] == [
        "plan", "selection", "task", "answer_chunk", "answer", "result"]
    task = next(e.task for e in events if e.kind == "task")
    assert task.status == "ok" and task.model_id == "opencv-canny"
    assert events[-1].result.answer == graph.get_state(thread("s")).values["messages"][-1].content
    # on the wire (LangGraph Server, server-sent events) an event is {"kind", "data"}, and reads back the same
    assert events[2].model_dump(mode="json") == {"kind": "task", "data": task.model_dump(mode="json")}
    assert [type(e).model_validate(e.model_dump(mode="json")) for e in events] == events


async def test_astream_custom_events_per_task(agent, workspace):
    shutil.copy(REPO / "examples" / "street.jpg", workspace.root / "street.jpg")
    graph = build_graph(agent)
    request = "Detect the objects in street.jpg and read the result aloud"
    events = [e async for e in graph.astream({"messages": [("user", request)]}, stream_mode="custom")]
    tasks = [e.task for e in events if e.kind == "task"]
    assert [(t.task_id, t.task, t.status) for t in tasks] == [(0, "object-detection", "ok"), (1, "text-to-speech", "ok")]
    assert tasks[1].args["text"] == tasks[0].output.text  # read aloud: what task 0 found


class ScriptedToolCaller(GenericFakeChatModel):
    """Stands in for a tool-calling LLM (none runs offline): replies with the messages it is given."""

    def bind_tools(self, tools, **kwargs):
        return self


def test_task_tools_for_create_agent(agent, workspace):
    tools = task_tools(agent)
    runnable_here = [name for name in TASKS if task_status(name)["models"] or task_status(name)["stand_ins"]]
    assert [tool.name for tool in tools] == [name.replace("-", "_") for name in runnable_here]
    assert "canny_control" in [tool.name for tool in tools] and len(task_tools(agent, runnable_only=False)) == len(TASKS)

    model = ScriptedToolCaller(messages=iter([
        AIMessage("", tool_calls=[{"id": "call-1", "name": "canny_control", "args": {"image": "square.png"}}]),
        AIMessage("Done: the edge map is ready."),
    ]))
    state = create_agent(model, tools=tools).invoke({"messages": [("user", "edges of square.png, please")]})
    call, result, final = state["messages"][1:]
    assert call.tool_calls[0]["name"] == "canny_control" and final.content == "Done: the edge map is ready."
    # The LLM reads what was made and its name in the workspace; the program gets the typed output.
    edges = result.artifact.image
    assert f"image written: {Path(edges).relative_to(workspace.root).as_posix()}" in result.content
    assert str(workspace.root) not in result.content and "served_by" not in result.content
    assert np.array_equal(pixels(edges), canny(workspace.root / "square.png"))


def test_a_photo_sent_as_a_content_block_is_planned_on(agent, saver, workspace):
    """A multimodal HumanMessage (a text block and an image block, as LangChain chat UIs send them) lost its image:
    the graph read only the text blocks, so "the canny edge map of this" had no picture to work on."""
    from langchain_core.messages import HumanMessage

    app = build_graph(agent, checkpointer=saver)
    message = HumanMessage(content=[{"type": "text", "text": "Give me the canny edge map of this photo:"},
                                    {"type": "image_url", "image_url": {"url": "square.png"}}])
    state = app.invoke({"messages": [message]}, thread("blocks"))
    [edges] = state["messages"][-1].response_metadata["files"]
    assert np.array_equal(pixels(edges), canny(workspace.root / "square.png"))


def _data_url(path, media="image/png") -> str:
    import base64

    return f"data:{media};base64," + base64.b64encode(path.read_bytes()).decode()


def test_a_photo_sent_inline_is_kept_in_the_workspace_and_planned_on(agent, saver, workspace):
    """Chat UIs send a picture inline, as a base64 data: URL (OpenAI's image_url block, LangChain's image block).
    It was left out, so "the edge map of this" had nothing to read. It is kept under uploads/, named by its
    content: the next turn's "it", and the same picture sent again, are the same file."""
    from langchain_core.messages import HumanMessage

    app = build_graph(agent, checkpointer=saver)
    square = workspace.root / "square.png"
    for n, block in enumerate(({"type": "image_url", "image_url": {"url": _data_url(square)}},
                               {"type": "image", "base64": _data_url(square).split(",", 1)[1], "mime_type": "image/png"})):
        message = HumanMessage(content=[{"type": "text", "text": "Give me the canny edge map of this photo:"}, block])
        state = app.invoke({"messages": [message]}, thread(f"inline-{n}"))
        [edges] = state["messages"][-1].response_metadata["files"]
        assert np.array_equal(pixels(edges), canny(square))
    kept = sorted((workspace.root / "uploads").iterdir())
    assert len(kept) == 1 and kept[0].name.startswith("inline-") and kept[0].read_bytes() == square.read_bytes()

    state = app.invoke({"messages": [("user", "Now give me the canny edge map of it")]}, thread("inline-0"))
    [again] = state["messages"][-1].response_metadata["files"]
    assert np.array_equal(pixels(again), canny(edges))


def test_a_file_sent_inline_that_is_not_media_is_refused_by_name(agent, saver, workspace, tmp_path):
    from langchain_core.messages import HumanMessage

    app = build_graph(agent, checkpointer=saver)
    page = tmp_path / "page.html"
    page.write_text("<script>alert(1)</script>")
    for url, problem in ((_data_url(page, "image/png"), "not an image, audio or video file"),
                         ("data:image/png;base64,iVBORw0KGgo%%%%", "not an image, audio or video file|corrupt base64"),
                         ("data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAAB!!!!", "corrupt base64")):
        message = HumanMessage(content=[{"type": "text", "text": "Caption this:"},
                                        {"type": "image_url", "image_url": {"url": url}}])
        with pytest.raises(ValueError, match=problem):
            app.invoke({"messages": [message]}, thread("bad-inline"))
    assert not (workspace.root / "uploads").exists() or not list((workspace.root / "uploads").iterdir())


async def test_the_runnable_inside_a_graph_node_keeps_no_state_in_the_parents_thread(agent, sqlite_file):
    """HuggingGPT runs its graph without a checkpointer, also when a node of another graph calls it with that
    graph's config (LangGraph would otherwise give the nested graph the parent's checkpointer): the parent's
    thread holds the parent's state alone, and the call still streams its stage events to the caller."""
    import sqlite3

    from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

    async def ask(state: MessagesState, config) -> dict:
        kinds = [event.kind async for event in agent.astream(state["messages"][-1].content, config)]
        assert kinds[0] == "plan" and kinds[-1] == "result"
        result = await agent.ainvoke(state["messages"][-1].content, config)
        return {"messages": [AIMessage(result.answer, name="asked")]}

    parent = StateGraph(MessagesState)
    parent.add_node("ask", ask)
    parent.add_edge(START, "ask")
    async with AsyncSqliteSaver.from_conn_string(str(sqlite_file)) as saver:
        state = await parent.compile(checkpointer=saver).ainvoke({"messages": [("user", EDGES_REQUEST)]},
                                                                 thread("nested"))
    assert state["messages"][-1].name == "asked" and state["messages"][-1].content.startswith("Canny edge map")
    with sqlite3.connect(sqlite_file) as db:
        assert {ns for (ns,) in db.execute("SELECT DISTINCT checkpoint_ns FROM checkpoints")} == {""}
