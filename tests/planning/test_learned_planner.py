"""The learned planner: trained for real on a slice of the corpus, and as shipped."""

import json

import pytest

pytest.importorskip("sklearn")

from langchain_hugginggpt.agent import cli  # noqa: E402
from langchain_hugginggpt.agent.eval.taskbench import ToolSet, plan_to_nodes, predict, prediction_row  # noqa: E402
from langchain_hugginggpt.agent.planners.learned import LearnedPlanner  # noqa: E402
from langchain_hugginggpt.agent.planners.taskset import TASKSET_MODEL, TaskSetClassifier  # noqa: E402
from langchain_hugginggpt.agent.planners.train import corpus_dir, load_corpus, train_taskset  # noqa: E402

from .conftest import TASKBENCH  # noqa: E402


@pytest.fixture(scope="module")
def corpus():
    return load_corpus()


@pytest.fixture(scope="module")
def slice_planner(corpus):
    """Trained on every other row of the first 1,200 (the odd rows of that range are held out); the
    classifier's task set alone, without the rules, so what is measured is what it learned."""
    tasks = ToolSet.load(TASKBENCH / "hf_tool_desc.json").our_tasks()
    return LearnedPlanner(train_taskset(corpus[:1200:2]), tasks=tasks, rules=False, threshold=0.3)


def test_a_model_trained_on_a_slice_plans_held_out_rows(corpus, slice_planner, hf_tools):
    held_out = corpus[1:240:2]
    exact = 0
    for sample in held_out:
        nodes = plan_to_nodes(slice_planner.plan(sample.request).plan, hf_tools)
        exact += {n.task for n in nodes} == {n.task for n in sample.nodes}
    assert exact >= 0.65 * len(held_out), f"{exact} of {len(held_out)} held-out task sets exact"


def test_held_out_single_tool_rows_get_their_tool_and_file(corpus, slice_planner, hf_tools):
    singles = [s for s in corpus[1:400:2] if s.type == "single" and any("." in a for a in s.nodes[0].arguments)][:10]
    right = 0
    for sample in singles:
        nodes = plan_to_nodes(slice_planner.plan(sample.request).plan, hf_tools)
        right += [(n.task, n.arguments) for n in nodes] == [(n.task, n.arguments) for n in sample.nodes]
    assert right >= 7, f"{right} of {len(singles)} single-tool rows planned exactly"


def test_the_classifier_always_names_a_task(slice_planner):
    scores = slice_planner.model.scores("hmm")
    assert len(slice_planner.model.choose(scores)) >= 1
    assert slice_planner.plan("Please caption holiday.jpg").plan.tasks


def test_mismatched_training_data_is_refused():
    with pytest.raises(ValueError, match="as many label sets as texts"):
        TaskSetClassifier.fit(["a request"], [])


def test_a_missing_model_file_names_the_command(tmp_path):
    with pytest.raises(FileNotFoundError, match="hugginggpt train planner"):
        TaskSetClassifier.load(tmp_path / "none.joblib")


def test_the_hybrid_keeps_rule_tasks_and_adds_confident_ones(corpus, slice_planner):
    from langchain_hugginggpt.agent.planners.retrieval import RetrievalPlanner

    hybrid = LearnedPlanner(slice_planner.model, tasks=list(slice_planner.tasks), rules=True, veto=0.0, threshold=0.5)
    rules = RetrievalPlanner(tasks=list(slice_planner.tasks))
    for sample in corpus[1:120:2]:
        mine = {t.task for t in hybrid.plan(sample.request).plan.tasks}
        theirs = {t.task for t in rules.plan(sample.request).plan.tasks}
        scores = slice_planner.model.scores(sample.request)
        assert all(scores[t] >= 0.5 for t in mine - theirs), sample.request


def test_the_shipped_model_loads_and_plans():
    assert TASKSET_MODEL.is_file() and TASKSET_MODEL.stat().st_size < 50e6
    planner = LearnedPlanner()
    plan = planner.plan("Translate 'good morning, everyone' into French, then read the translation aloud.").plan
    assert [t.task for t in plan.tasks] == ["translation", "text-to-speech"]
    assert plan.tasks[0].args["text"] == "good morning, everyone"
    assert plan.tasks[1].args["text"] == "<resource>-0"
    assert planner.likely_tasks("Find the objects in street.jpg", 3)[0] == "object-detection"


def test_train_command_writes_a_model_that_plans(tmp_path, capsys):
    shard = sorted(corpus_dir().glob("shard_*.jsonl"))[0]
    rows = shard.read_text(encoding="utf-8").splitlines()[:300]
    (tmp_path / "shard_00.jsonl").write_text("\n".join(rows) + "\n", encoding="utf-8")
    out = tmp_path / "model.joblib"
    assert cli.main(["train", "planner", "--corpus", str(tmp_path), "--out", str(out)]) == 0
    assert "300 corpus rows" in capsys.readouterr().out
    planner = LearnedPlanner(out)
    assert planner.plan("Transcribe meeting.wav please").plan.tasks[0].task == "automatic-speech-recognition"


def test_train_command_names_a_folder_without_shards(tmp_path, capsys):
    assert cli.main(["train", "planner", "--corpus", str(tmp_path), "--out", str(tmp_path / "m.joblib")]) == 2
    assert "no corpus shards" in capsys.readouterr().err


def test_predictions_file_is_taskbench_format(tmp_path, capsys):
    out = tmp_path / "pred.jsonl"
    assert cli.main(["eval", "taskbench", str(TASKBENCH / "hf_dev.jsonl"), "--planner", "learned", "--limit", "8",
                     "--predictions", str(out), "--json"]) == 0
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert len(rows) == 8 and all(set(r) >= {"id", "task_nodes", "task_links"} for r in rows)
    tools = ToolSet.load(TASKBENCH / "hf_tool_desc.json")
    for row in rows:
        assert row["task_nodes"] and all(n["task"] in tools.names for n in row["task_nodes"])
        refs = {(row["task_nodes"][int(a[6:-1])]["task"], n["task"]) for n in row["task_nodes"]
                for a in n["arguments"] if a.startswith("<node-")}
        assert {(link["source"], link["target"]) for link in row["task_links"]} == refs


def test_prediction_links_come_from_references(hf_tools):
    class Fixed:
        def plan(self, request, chat_history=None):
            from langchain_hugginggpt.agent.schema import Plan

            return Plan.model_validate({"tasks": [
                {"task": "image-to-text", "id": 0, "dep": [-1], "args": {"image": "a.jpg"}},
                {"task": "text-to-speech", "id": 1, "dep": [0], "args": {"text": "<resource>-0"}}]})

    from langchain_hugginggpt.agent.eval.taskbench import Sample

    [prediction] = predict([Sample("x", "chain", "caption a.jpg and read it", [])], Fixed(), hf_tools)
    row = prediction_row(prediction)
    assert row["task_nodes"] == [{"task": "Image-to-Text", "arguments": ["a.jpg"]},
                                 {"task": "Text-to-Speech", "arguments": ["<node-0>"]}]
    assert row["task_links"] == [{"source": "Image-to-Text", "target": "Text-to-Speech"}]


def test_a_model_pickled_by_another_scikit_learn_is_retrained_not_trusted(tmp_path, monkeypatch):
    """joblib pickles are only safe with the scikit-learn that wrote them: the shipped model, stamped with
    another release, is retrained once from the corpus into the cache folder and read from there."""
    import joblib

    from langchain_hugginggpt.agent.planners import taskset, train

    shipped = tmp_path / "shipped.joblib"
    saved = joblib.load(TASKSET_MODEL)
    joblib.dump({**saved, "sklearn": "0.0.1"}, shipped)
    shard = sorted(corpus_dir().glob("shard_*.jsonl"))[0]
    (tmp_path / "corpus").mkdir()
    (tmp_path / "corpus" / "shard_00.jsonl").write_text(
        "\n".join(shard.read_text(encoding="utf-8").splitlines()[:300]) + "\n", encoding="utf-8")
    monkeypatch.setattr(taskset, "TASKSET_MODEL", shipped)
    monkeypatch.setattr(train, "corpus_dir", lambda: tmp_path / "corpus")
    monkeypatch.setenv("HUGGINGGPT_CACHE", str(tmp_path / "cache"))

    model = TaskSetClassifier.load(shipped)
    retrained = list((tmp_path / "cache").rglob("taskset-sklearn-*.joblib"))
    assert len(retrained) == 1 and joblib.load(retrained[0])["sklearn"] != "0.0.1"
    assert model.pipeline is not saved["pipeline"]
    assert LearnedPlanner(retrained[0]).plan("Transcribe meeting.wav please").plan.tasks[0].task == \
        "automatic-speech-recognition"
