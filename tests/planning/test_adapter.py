"""Our plan format <-> TaskBench's, on hand-made plans."""

from langchain_hugginggpt.planning.taskbench import nodes_to_plan, plan_to_nodes, score
from langchain_hugginggpt.core.schema import Plan, Task
from langchain_hugginggpt.planning.validation import validate_plan


def test_names_and_references_map_to_taskbench(hf_tools):
    # ids are not positions: task 7 is node 0, task 3 is node 1
    plan = Plan(tasks=[
        Task(task="image-to-text", id=7, args={"image": "street.jpg"}),
        Task(task="translation", id=3, dep=[7], args={"text": "<resource>-7"}),
        Task(task="text-to-speech", id=5, dep=[3], args={"text": "<resource>-3"}),
    ])
    nodes = plan_to_nodes(plan, hf_tools)
    assert [(n.task, n.arguments) for n in nodes] == [
        ("Image-to-Text", ["street.jpg"]),
        ("Translation", ["<node-0>"]),
        ("Text-to-Speech", ["<node-1>"]),
    ]


def test_generated_spelling_and_multi_reference_text(hf_tools):
    plan = [
        {"task": "image-to-text", "id": 0, "dep": [-1], "args": {"image": "a.png"}},
        {"task": "visual-question-answering", "id": 1, "dep": [-1], "args": {"image": "a.png", "text": "Any boats?"}},
        {"task": "text-generation", "id": 2, "dep": [0, 1], "args": {"text": "<GENERATED>-0 and <resource>-1"}},
    ]
    nodes = plan_to_nodes(plan, hf_tools)
    assert nodes[1].task == "Visual Question Answering" and nodes[1].arguments == ["a.png", "Any boats?"]
    assert nodes[2].arguments == ["<node-0> and <node-1>"]


def test_tasks_outside_the_tool_list_keep_a_readable_name(hf_tools):
    nodes = plan_to_nodes([{"task": "canny-control", "id": 0, "args": {"image": "a.png"}}], hf_tools)
    assert nodes[0].task == "Canny Control"
    assert "Canny Control" not in hf_tools.names


def test_round_trip_through_our_plan_format(hf_tools):
    plan = Plan(tasks=[
        Task(task="automatic-speech-recognition", id=0, args={"audio": "talk.wav"}),
        Task(task="summarization", id=1, dep=[0], args={"text": "<resource>-0"}),
        Task(task="question-answering", id=2, dep=[1], args={"text": "Who spoke?", "context": "<resource>-1"}),
    ])
    nodes = plan_to_nodes(plan, hf_tools)
    back = validate_plan(nodes_to_plan(nodes, hf_tools)).plan
    assert [t.task for t in back.tasks] == [t.task for t in plan.tasks]
    assert back.tasks[2].args == {"text": "Who spoke?", "context": "<resource>-1"}
    assert score([nodes], [plan_to_nodes(back, hf_tools)], hf_tools)["edge_f1"] == 100.0
