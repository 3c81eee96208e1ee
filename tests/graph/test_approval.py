"""Plan approval: with `approve_plan=True` the graph pauses after model selection, before any
expert runs, and a `Command(resume=...)` approves, declines or edits the plan. A bad resume
value pauses again with the problem named, so the thread stays resumable."""

import numpy as np
import pytest
from langgraph.types import Command

from langchain_hugginggpt.agent.graph import build_graph

from .conftest import EDGES_REQUEST, canny, pixels, thread


@pytest.fixture
def graph(agent, saver):
    return build_graph(agent, checkpointer=saver, approve_plan=True)


def paused(graph, thread_id: str) -> dict:
    """Send the request; return the interrupt's value, checking that nothing ran yet."""
    state = graph.invoke({"messages": [("user", EDGES_REQUEST)]}, thread(thread_id))
    [interrupt] = state["__interrupt__"]
    assert graph.get_state(thread(thread_id)).next == ("approve",)
    assert state["results"] == {} and [m.type for m in state["messages"]] == ["human"]
    return interrupt.value


def outputs(workspace) -> list:
    return sorted(workspace.outputs.glob("*")) if workspace.outputs.exists() else []


def test_the_pause_shows_the_plan_and_the_models_with_their_reasons(graph, workspace):
    value = paused(graph, "show")
    assert value["request"] == EDGES_REQUEST
    assert value["plan"] == [{"task": "canny-control", "id": 0, "dep": [-1], "args": {"image": "square.png"}}]
    assert value["models"] == {"0": {"model_id": "opencv-canny", "reason": "only one model available"}}
    assert "error" not in value and outputs(workspace) == []  # the expert has not run


def test_approve_runs_the_plan(graph, workspace):
    paused(graph, "yes")
    state = graph.invoke(Command(resume={"approve": True}), thread("yes"))
    assert "__interrupt__" not in state and graph.get_state(thread("yes")).next == ()
    [edges] = state["results"][0].files
    assert np.array_equal(pixels(edges), canny(workspace.root / "square.png"))
    assert state["messages"][-1].content.startswith(f"Canny edge map written to {edges}")


def test_decline_ends_with_an_answer_that_says_so(graph, workspace):
    paused(graph, "no")
    state = graph.invoke(Command(resume={"approve": False}), thread("no"))
    answer = state["messages"][-1]
    assert answer.type == "ai" and answer.content == "I did not run the plan (0: canny-control): it was declined at approval."
    assert state["results"] == {} and state["error"] is None and outputs(workspace) == []
    assert graph.get_state(thread("no")).next == ()


async def test_an_edited_plan_runs_instead(agent, workspace, sqlite_file):
    from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

    async with AsyncSqliteSaver.from_conn_string(str(sqlite_file)) as saver:  # async, as a server would run it
        graph = build_graph(agent, checkpointer=saver, approve_plan=True)
        await edit_the_plan(graph, workspace)


async def edit_the_plan(graph, workspace):
    state = await graph.ainvoke({"messages": [("user", EDGES_REQUEST)]}, thread("edit"))
    assert state["__interrupt__"]
    edited = [{"task": "canny-control", "id": 0, "dep": [-1], "args": {"image": "square.png"}},
              {"task": "canny-control", "id": 1, "dep": [0], "args": {"image": "<resource>-0"}}]
    state = await graph.ainvoke(Command(resume={"plan": edited}), thread("edit"))
    assert [t.model_dump() for t in state["plan"]] == edited and state["planner"].endswith(", edited at approval")
    assert sorted(state["selections"]) == [0, 1]  # models chosen for the edited plan
    first, second = state["results"][0].files[0], state["results"][1].files[0]
    assert np.array_equal(pixels(first), canny(workspace.root / "square.png"))
    assert np.array_equal(pixels(second), canny(first))  # task 1 ran on task 0's output
    assert first in state["messages"][-1].content and second in state["messages"][-1].content


def test_a_bad_edit_is_named_and_the_thread_stays_resumable(graph, workspace):
    paused(graph, "bad")
    unknown = [{"task": "edge-magic", "id": 0, "dep": [-1], "args": {"image": "square.png"}}]
    state = graph.invoke(Command(resume={"plan": unknown}), thread("bad"))
    [again] = state["__interrupt__"]
    assert again.value["error"] == "PlanError: invalid plan: task 0: unknown task 'edge-magic'"
    assert again.value["plan"][0]["task"] == "canny-control"  # the plan on offer is unchanged

    state = graph.invoke(Command(resume={"plan": [{"task": "canny-control", "id": "zero"}]}), thread("bad"))
    assert state["__interrupt__"][0].value["error"].startswith(
        "PlanError: invalid plan: item 0 of the edited plan does not parse: id: Input should be a valid integer")
    state = graph.invoke(Command(resume={"approve": "yes"}), thread("bad"))
    assert "cannot read the resume value {'approve': 'yes'}" in state["__interrupt__"][0].value["error"]
    assert outputs(workspace) == [] and graph.get_state(thread("bad")).next == ("approve",)

    state = graph.invoke(Command(resume={"approve": True}), thread("bad"))
    assert np.array_equal(pixels(state["results"][0].files[0]), canny(workspace.root / "square.png"))
    assert [m.type for m in state["messages"]] == ["human", "ai"]
