"""Conversations as LangGraph threads: the graph answers as the Runnable does, a second turn on
the same thread refers to the first turn's file, and a thread carries on in a new process (the
`hugginggpt chat` REPL) and in a new graph object on the same SQLite file."""

import io
import re
import shutil
import subprocess
import sys

import numpy as np
from langchain_core.messages import AIMessage, HumanMessage

from langchain_hugginggpt.agent.checkpoints import sqlite_checkpointer
from langchain_hugginggpt.agent.graph import build_graph
from langchain_hugginggpt.agent.run_log import read_runs

from .conftest import EDGES_REQUEST, REPO, agent_for, canny, pixels, thread


def test_invoke_answers_as_the_runnable_does(agent, saver, workspace, home):
    shutil.copy(REPO / "examples" / "street.jpg", workspace.root / "street.jpg")
    graph = build_graph(agent, checkpointer=saver)
    state = graph.invoke({"messages": [("user", "Detect the objects in street.jpg")]}, thread("t1"))
    runnable = agent.invoke("Detect the objects in street.jpg")

    human, answer = state["messages"]
    assert isinstance(human, HumanMessage) and isinstance(answer, AIMessage) and answer.name == "hugginggpt"
    assert state["plan"] == runnable.plan and [t.task for t in state["plan"]] == ["object-detection"]
    assert state["selections"][0].model_id == runnable.selections[0].model_id == "centernet-mobilenetv3-coco"
    detected = state["results"][0]
    assert detected.ok and detected.output.text == runnable.results[0].output.text
    assert "person" in detected.output.text
    # The same template answer, but for the name of the file each run wrote.
    assert answer.content.replace(detected.files[0], "FILE") == runnable.answer.replace(runnable.files[0], "FILE")
    assert answer.response_metadata["files"] == detected.files and answer.response_metadata["planner"] == runnable.planner
    assert set(state["timings"]) == set(runnable.timings) == {"planning", "selection", "execution", "response", "total"}
    assert state["error"] is None
    assert [run["request"] for run in read_runs()] == ["Detect the objects in street.jpg"] * 2  # both logged


def test_second_turn_refers_to_the_first_turns_file(agent, saver, workspace):
    graph = build_graph(agent, checkpointer=saver)
    first = graph.invoke({"messages": [("user", EDGES_REQUEST)]}, thread("talk"))
    edges = first["results"][0].files[0]
    assert np.array_equal(pixels(edges), canny(workspace.root / "square.png"))

    second = graph.invoke({"messages": [("user", "Now give me the canny edge map of it")]}, thread("talk"))
    assert [m.type for m in second["messages"]] == ["human", "ai", "human", "ai"]
    assert second["plan"][0].args == {"image": edges}  # "it": the file the first turn made
    again = second["results"][0].files[0]
    assert np.array_equal(pixels(again), canny(edges)) and not np.array_equal(pixels(again), pixels(edges))
    # The state describes the latest request; another thread knows nothing of this one.
    assert list(second["results"]) == [0] and second["results"][0].args == {"image": edges}
    other = graph.invoke({"messages": [("user", "Now give me the canny edge map of it")]}, thread("other"))
    assert other["plan"] == [] and other["results"] == {}  # no file to refer to there: a chat reply


def test_a_thread_continues_in_a_new_process_and_a_new_graph(workspace, home, sqlite_file, monkeypatch, capsys):
    # Turn 1: the chat REPL in its own process, in the workspace folder.
    chat = [sys.executable, "-m", "langchain_hugginggpt.cli.main", "chat", "--thread", "talk",
            "--checkpoints", str(sqlite_file), "-q"]
    done = subprocess.run(chat, input=EDGES_REQUEST + "\n", capture_output=True, text=True, cwd=workspace.root,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    assert "thread talk (0 earlier messages" in done.stderr
    edges = re.search(r"hugginggpt> Canny edge map written to (\S+\.png)", done.stdout).group(1)
    assert np.array_equal(pixels(edges), canny(workspace.root / "square.png"))

    # Turn 2: that process is gone; a new agent and graph on the same file carry on.
    checkpointer = sqlite_checkpointer(sqlite_file)
    graph = build_graph(agent_for(workspace), checkpointer=checkpointer)
    earlier = graph.get_state(thread("talk")).values["messages"]
    assert [m.type for m in earlier] == ["human", "ai"] and earlier[1].response_metadata["files"] == [edges]
    second = graph.invoke({"messages": [("user", "Now give me the canny edge map of it")]}, thread("talk"))
    assert second["plan"][0].args == {"image": edges}
    assert np.array_equal(pixels(second["results"][0].files[0]), canny(edges))
    checkpointer.close()

    # Turn 3: the REPL again (in this process), continuing the thread by its id.
    from langchain_hugginggpt.cli.main import main

    monkeypatch.setattr(sys, "stdin", io.StringIO("Run canny on the result again\n"))
    assert main(["chat", "--thread", "talk", "--checkpoints", str(sqlite_file), "--workspace", str(workspace.root),
                 "-q"]) == 0
    out, err = capsys.readouterr()
    assert "thread talk (4 earlier messages" in err and "hugginggpt> Canny edge map written to" in out
    checkpointer = sqlite_checkpointer(sqlite_file)
    state = build_graph(agent_for(workspace), checkpointer=checkpointer).get_state(thread("talk")).values
    checkpointer.close()
    assert len(state["messages"]) == 6
    assert state["plan"][0].args == {"image": second["results"][0].files[0]}


def test_a_failing_stage_ends_the_turn_as_the_runnable_does(workspace, saver, home):
    from ..server.conftest import scripted_agent

    broken = scripted_agent(workspace, plan=RuntimeError("controller endpoint down"))
    graph = build_graph(broken, checkpointer=saver)
    state = graph.invoke({"messages": [("user", "edges of square.png")]}, thread("broken"))
    runnable = broken.invoke("edges of square.png")
    assert state["error"] == runnable.error == "RuntimeError: controller endpoint down"
    assert state["messages"][-1].content == runnable.answer == (
        "I could not complete this request: RuntimeError: controller endpoint down")
    assert state["messages"][-1].response_metadata["error"] == state["error"] and state["plan"] == []

    # The thread is not stuck: once the controller answers again, the next turn runs.
    working = build_graph(scripted_agent(workspace), checkpointer=saver)
    state = working.invoke({"messages": [("user", "edges of square.png")]}, thread("broken"))
    assert state["error"] is None and state["results"][0].ok and len(state["messages"]) == 4


SECOND_TURN_WITH_LANGGRAPHS_DEFAULT_SAVER = """
import tempfile
from langgraph.checkpoint.memory import InMemorySaver
from langchain_hugginggpt.agent import HuggingGPT, build_graph
from langchain_hugginggpt.core.workspace import Workspace
agent = HuggingGPT(llm=None, planner="retrieval", responder="template", workspace=Workspace(tempfile.mkdtemp()),
                   log_runs=False)
graph = build_graph(agent, checkpointer=InMemorySaver())
config = {"configurable": {"thread_id": "t1"}}
for text in ("What is the sentiment of: 'a great day'?", "What is the sentiment of: 'a sad day'?"):
    print(graph.invoke({"messages": [("user", text)]}, config)["messages"][-1].content.splitlines()[0])
"""


def test_the_readme_graph_loads_its_state_back_without_langgraph_warnings():
    # A fresh process: LangGraph warns once per type per process.
    out = subprocess.run([sys.executable, "-c", SECOND_TURN_WITH_LANGGRAPHS_DEFAULT_SAVER], capture_output=True,
                         text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split("\n")[:2] == ["POSITIVE (compound +0.62)", "NEGATIVE (compound -0.48)"]
    assert "unregistered type" not in out.stderr, out.stderr
