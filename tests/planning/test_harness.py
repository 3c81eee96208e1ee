"""`hugginggpt eval taskbench` end to end on a slice of the development sample."""

import json

import pytest

from langchain_hugginggpt.cli import main as cli  # the `hugginggpt` console script's main
from langchain_hugginggpt.planning.taskbench import ToolSet, evaluate, find_tool_list

from .conftest import TASKBENCH

KEYS = {"n", "node_f1", "edge_f1", "arg_name_f1", "arg_value_f1", "ned", "by_type", "latency_ms_median", "invalid_plans"}


def in_range(value, low, high):
    return value is None or low <= value <= high


def test_json_report_on_a_slice(capsys):
    assert cli.main(["eval", "taskbench", str(TASKBENCH / "hf_dev.jsonl"), "--planner", "retrieval",
                     "--limit", "12", "--json"]) == 0
    out = capsys.readouterr().out.strip()
    result = json.loads(out)  # exactly one JSON object
    assert KEYS <= set(result)
    assert result["n"] == 12 and result["invalid_plans"] == 0
    for key in ("node_f1", "edge_f1", "arg_name_f1", "arg_value_f1"):
        assert in_range(result[key], 0, 100)
    assert in_range(result["ned"], 0, 1) and result["latency_ms_median"] > 0
    assert sum(part["n"] for part in result["by_type"].values()) == 12
    assert set(result["by_type"]) <= {"single", "chain", "dag"}


def test_table_output(capsys):
    assert cli.main(["eval", "taskbench", str(TASKBENCH / "hf_dev.jsonl"), "--planner", "retrieval", "--limit", "5"]) == 0
    out = capsys.readouterr().out
    assert "| all | 5 |" in out and "median planning time" in out


def test_the_hugginggpt_command_has_eval(capsys):
    from langchain_hugginggpt.cli.main import build_parser

    args = build_parser().parse_args(["eval", "taskbench", str(TASKBENCH / "hf_dev.jsonl"), "--planner", "retrieval",
                                      "--limit", "3", "--json"])
    assert args.func(args) == 0
    assert json.loads(capsys.readouterr().out)["n"] == 3


def test_any_object_with_plan_is_a_planner_and_failures_count_as_invalid():
    from langchain_hugginggpt.planning import PlannerOutput
    from langchain_hugginggpt.core.schema import Plan, Task

    class Broken:
        name = "broken"

        def __init__(self):
            self.calls = 0

        def plan(self, request, chat_history=None):
            self.calls += 1
            if self.calls % 2:
                raise RuntimeError("model fell over")
            return PlannerOutput(Plan(tasks=[Task(task="no-such-task", id=0)]), "broken")

    result = evaluate(TASKBENCH / "hf_dev.jsonl", Broken(), limit=4)
    assert result["invalid_plans"] == 4 and result["node_f1"] == 0.0


def test_a_file_with_no_tool_list_beside_it_uses_the_shipped_one(tmp_path):
    (tmp_path / "x.jsonl").write_text("")
    assert find_tool_list(tmp_path / "x.jsonl") == TASKBENCH / "hf_tool_desc.json"
    (tmp_path / "tool_desc.json").write_text("[]")
    assert find_tool_list(tmp_path / "x.jsonl") == tmp_path / "tool_desc.json"


def test_with_no_file_it_scores_the_shipped_dev_sample(capsys):
    assert cli.main(["eval", "taskbench", "--planner", "retrieval", "--limit", "3", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["n"] == 3 and result["invalid_plans"] == 0


def test_tool_list_names_map_to_our_tasks():
    from langchain_hugginggpt.core.tasks import TASKS

    tools = ToolSet.load(TASKBENCH / "hf_tool_desc.json")
    assert len(tools.names) == 23
    assert all(name in TASKS for name in tools.our_tasks())
    assert tools.output_types["Object Detection"] == "text"


def test_missing_data_file_is_named(capsys):
    assert cli.main(["eval", "taskbench", "/no/such/data.jsonl"]) == 2
    assert "/no/such/data.jsonl not found" in capsys.readouterr().err


def test_a_predictions_file_is_scored_as_it_is(tmp_path, capsys):
    """--predictions writes a run's plans; --score reads such a file back (or anyone's) and scores it, no planner."""
    data, written = TASKBENCH / "hf_dev.jsonl", tmp_path / "pred.jsonl"
    assert cli.main(["eval", "taskbench", str(data), "--planner", "retrieval", "--limit", "6",
                     "--predictions", str(written), "--json"]) == 0
    planned = json.loads(capsys.readouterr().out)
    assert cli.main(["eval", "taskbench", str(data), "--limit", "6", "--score", str(written), "--json"]) == 0
    scored = json.loads(capsys.readouterr().out)
    for key in ("node_f1", "edge_f1", "arg_name_f1", "arg_value_f1", "ned"):
        assert scored[key] == planned[key]
    assert scored["latency_ms_median"] is None and scored["invalid_plans"] == 0

    gold = [json.loads(line) for line in data.read_text(encoding="utf-8").splitlines()[:6]]
    perfect = tmp_path / "gold.jsonl"  # the gold plans themselves, the first sample (a transcription) left out
    perfect.write_text("\n".join(json.dumps({"id": g["id"], "task_nodes": g["task_nodes"]}) for g in gold[1:]))
    assert cli.main(["eval", "taskbench", str(data), "--limit", "6", "--score", str(perfect), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["invalid_plans"] == 1 and 80 < result["node_f1"] < 100

    broken = tmp_path / "broken.jsonl"
    broken.write_text(json.dumps({"id": gold[0]["id"], "task_nodes": []}) + "\n{not json\n")
    assert cli.main(["eval", "taskbench", str(data), "--limit", "6", "--score", str(broken)]) == 2
    assert "broken.jsonl, line 2: not JSON" in " ".join(capsys.readouterr().err.split())
    assert cli.main(["eval", "taskbench", str(data), "--score", str(tmp_path / "none.jsonl")]) == 2
    assert "none.jsonl not found" in " ".join(capsys.readouterr().err.split())


def test_a_file_that_is_no_taskbench_data_is_named_in_a_few_lines_not_one_per_line(tmp_path, caplog):
    """`eval taskbench README.md` printed a 'skipped' line for each of its 400 lines before the error."""
    import logging

    from langchain_hugginggpt.planning.taskbench import MAX_SKIPS_SHOWN, load_samples

    text = tmp_path / "notes.md"
    text.write_text("\n".join(f"line {n} of prose" for n in range(40)))
    with caplog.at_level(logging.WARNING), pytest.raises(ValueError, match="no TaskBench records in"):
        load_samples(text)
    lines = [r.getMessage() for r in caplog.records]
    assert len(lines) == MAX_SKIPS_SHOWN + 1 and lines[-1].endswith("35 more lines skipped (40 in all)")
