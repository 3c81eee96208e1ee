"""The back-instruct corpus (prompts/corpus): the sampler reproduces the shipped graphs, the written
shards pass the checker, and the checker rejects rows that do not match their plan."""

from __future__ import annotations

import copy
import json
from collections import Counter
from pathlib import Path

import pytest

from tests.corpus_scripts import CORPUS, load_script

sampler = load_script(CORPUS / "sample_graphs.py", CORPUS)
check = load_script(CORPUS / "check.py", CORPUS)


def _rows(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


GRAPHS = [g for p in sorted((CORPUS / "graphs").glob("shard_*.jsonl")) for g in _rows(p)]
WRITTEN = sorted(CORPUS.glob("shard_*.jsonl"))


def test_sampler_reproduces_the_shipped_graphs():
    assert [g for shard in sampler.sample_rounds() for g in shard] == GRAPHS


@pytest.mark.parametrize("first, n, mix, voices", [
    (0, 3200, {"single": 1280, "chain": 1440, "dag": 480}, {"terse", "polite", "story", "steps", "casual", "formal"}),
    (3200, 800, {"single": 320, "chain": 360, "dag": 120}, {"chatty", "roundabout"}),
    (4000, 800, {"single": 320, "chain": 360, "dag": 120}, {"informed", "inline"}),
    (4800, 800, {"single": 320, "chain": 360, "dag": 120}, {"indirect", "curious"}),
    (5600, 800, {"single": 320, "chain": 360, "dag": 120}, {"assisted", "outcome"}),
    (6400, 800, {"single": 320, "chain": 360, "dag": 120}, {"enumerated", "scenario"}),
    (7200, 800, {"single": 320, "chain": 360, "dag": 120}, {"nominal", "inquisitive"}),
])
def test_sampled_graphs_have_the_documented_mix_and_are_valid_plans(first, n, mix, voices):
    graphs = GRAPHS[first:first + n]
    assert len(graphs) == n and [g["id"] for g in graphs] == [f"bi-{i:05d}" for i in range(first, first + n)]
    assert Counter(g["type"] for g in graphs) == mix and {g["voice"] for g in graphs} == voices
    coverage = Counter(nd["task"] for g in graphs for nd in g["task_nodes"])
    assert set(coverage) == set(check.TOOLS) and min(coverage.values()) >= n // 16
    assert all(not check.plan_errors(g) for g in graphs)


def test_written_shards_pass_the_checker(capsys):
    assert WRITTEN, "no written shard"
    assert check.check_written(WRITTEN, CORPUS) == 0, capsys.readouterr().out


GENERATOR_DEV = CORPUS.parent.parent / "bench" / "data" / "generator_dev"


def test_the_generator_style_dev_set_is_its_sampled_graphs_written_apart_from_the_corpus(capsys):
    """bench/data/generator_dev: the sampler reproduces its graphs, every row passes the checker against them,
    and it shares no id and no request with the corpus the planner trains on (it is for choosing, not training)."""
    dev_graphs = [g for shard in sampler.sample_generator_dev() for g in shard]
    assert dev_graphs == [g for p in sorted((GENERATOR_DEV / "graphs").glob("shard_*.jsonl")) for g in _rows(p)]
    assert Counter(g["type"] for g in dev_graphs) == {"single": 128, "chain": 144, "dag": 48}
    assert check.check_written([GENERATOR_DEV / "dev.jsonl"], GENERATOR_DEV) == 0, capsys.readouterr().out
    rows = _rows(GENERATOR_DEV / "dev.jsonl")
    assert [r["id"] for r in rows] == [g["id"] for g in dev_graphs]
    corpus = [r for path in WRITTEN for r in _rows(path)]
    assert not {r["id"] for r in rows} & {r["id"] for r in corpus}
    assert not {r["instruction"] for r in rows} & {r["instruction"] for r in corpus}


def _a_written_row(kind: str, files_only: bool = False) -> tuple[dict, dict]:
    graphs = {g["id"]: g for g in GRAPHS}
    row = next(r for r in _rows(WRITTEN[0]) if r["type"] == kind and not (files_only and graphs[r["id"]]["slots"]))
    return copy.deepcopy(row), graphs[row["id"]]


def test_checker_accepts_a_written_row():
    row, graph = _a_written_row("chain")
    assert check.row_errors(row, graph) == []


@pytest.mark.parametrize("damage, expected", [
    (lambda r: r.update(instruction=r["instruction"].replace(check.literals(r)[0], "the file")), "is not in the instruction"),
    (lambda r: r["task_links"].reverse() or r["task_links"].append(dict(r["task_links"][0])), "differ from the <node-j> references"),
    (lambda r: r["task_nodes"][1]["arguments"].__setitem__(0, "<node-1>"), "not an earlier node"),
    (lambda r: r.update(instruction=r["instruction"] + " {QUESTION}"), "PLACEHOLDER"),
    (lambda r: r["task_nodes"][0].update(task="Image Classification" if r["task_nodes"][0]["task"] != "Image Classification" else "Translation"), ""),
])
def test_checker_rejects_a_damaged_row(damage, expected):
    row, graph = _a_written_row("dag")
    damage(row)
    errors = check.row_errors(row, graph)
    assert errors and expected in "; ".join(errors)


def test_checker_flags_a_copied_request_with_other_file_names(tmp_path, capsys):
    row, _ = _a_written_row("single", files_only=True)
    graph_twin = next(g for g in GRAPHS if g["id"] != row["id"] and g["type"] == "single"
                      and g["task_nodes"][0]["task"] == row["task_nodes"][0]["task"] and not g["slots"])
    twin = {**row, "id": graph_twin["id"], "voice": graph_twin["voice"], "task_nodes": graph_twin["task_nodes"],
            "instruction": row["instruction"].replace(check.literals(row)[0], graph_twin["task_nodes"][0]["arguments"][0])}
    shard = tmp_path / "shard_99.jsonl"
    shard.write_text(json.dumps(twin) + "\n")
    assert check.check_written([shard], CORPUS) == 1
    assert f"copies {row['id']}" in capsys.readouterr().out


build = load_script(CORPUS / "build_shard.py", CORPUS)


def _graph_with(role: str, voice: str) -> dict:
    return next(g for g in GRAPHS if g["voice"] == voice and "{" + role + "}" in g["slots"] and len(g["slots"]) == 1)


@pytest.mark.parametrize("role", sorted(sampler.PARAPHRASED_ROLES))
@pytest.mark.parametrize("voice", ["indirect", "outcome", "inquisitive"])
def test_later_rounds_say_a_question_edit_or_scene_in_their_own_words(role, voice):
    """In the fourth and fifth rounds' voices the plan holds the plain question, edit or scene the user means,
    given as [[ROLE=...]] in the draft: it fills the plan and stays out of the request."""
    graph = _graph_with(role, voice)
    files = " ".join(a for n in graph["task_nodes"] for a in n["arguments"] if "." in a and "{" not in a)
    meant = "What is written on the second shelf from the top?"
    row = build.build_row(graph, f"Have a go at {files} for me, the way I described.\n[[{role}={meant}]]")
    assert meant not in row["instruction"] and row["instruction"].endswith("the way I described.")
    assert meant in check.literals(row)
    assert check.row_errors(row, graph) == []


def test_only_the_fourth_and_fifth_rounds_may_leave_a_question_unquoted():
    graph = copy.deepcopy(_graph_with("QUESTION", "indirect"))
    files = " ".join(a for n in graph["task_nodes"] for a in n["arguments"] if "." in a and "{" not in a)
    graph["voice"] = "polite"
    row = build.build_row(graph, f"Please look at {files}.\n[[QUESTION=How old is the bridge?]]")
    assert any("'How old is the bridge?' is not in the instruction" in e for e in check.row_errors(row, graph))


@pytest.mark.parametrize("voice", ["curious", "assisted"])
def test_later_rounds_still_quote_passages(voice):
    graph = next(g for g in GRAPHS if g["voice"] == voice and "{PASSAGE}" in g["slots"])
    row = build.build_row(graph, "I wonder about this.\n" + "\n".join(f"[[{s.strip('{}')}=some text {i}]]"
                                                                     for i, s in enumerate(graph["slots"])))
    assert any("'some text" in e and "is not in the instruction" in e for e in check.row_errors(row, graph))
