"""The labelled pool (prompts/corpus/pool): TaskBench's own requests with our readers' plans. Every row passes the
checker, holds its request unchanged, and keeps out of what we measure on; the builder turns a reader's draft into
a row and refuses a draft that breaks the plan rules; the split that dealt the requests reproduces."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.corpus_scripts import CORPUS, load_script

ROOT = CORPUS.parent.parent
POOL = CORPUS / "pool"
build = load_script(POOL / "build.py", CORPUS)
split = load_script(POOL / "split.py", CORPUS)


def _rows(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


ROWS = [r for p in sorted(POOL.glob("shard_*.jsonl")) for r in _rows(p)]
REQUESTS = {r["id"]: r["user_request"] for r in _rows(POOL / "requests.jsonl")}


def test_the_pool_has_at_least_5000_rows_each_passing_the_checker():
    assert len(ROWS) >= 5000
    bad = {r["id"]: build.row_errors(r) for r in ROWS if build.row_errors(r)}
    assert not bad, list(bad.items())[:5]
    assert len({r["id"] for r in ROWS}) == len(ROWS)


def test_each_row_holds_its_request_unchanged_and_none_is_measured_on():
    assert all(REQUESTS[r["id"]] == r["instruction"] for r in ROWS)
    measured = {r["id"] for name in ("planning/data/hf_dev.jsonl", "bench/data/fresh_hf.jsonl")
                for r in _rows(ROOT / name)}
    measured_text = {r["instruction"] for name in ("planning/data/hf_dev.jsonl", "bench/data/fresh_hf.jsonl")
                     for r in _rows(ROOT / name)}
    assert not measured & {r["id"] for r in ROWS}
    assert not measured_text & {r["instruction"] for r in ROWS}


def test_every_shard_was_read_a_second_time_blind_on_rows_of_another_reader():
    seconds = sorted((POOL / "second").glob("second_*.jsonl"))
    assert len(seconds) == len(list(POOL.glob("shard_*.jsonl")))
    first = {r["id"]: r["reader"] for r in ROWS}
    for path in seconds:
        rows = _rows(path)
        assert len(rows) == 40 and not [build.row_errors(r) for r in rows if build.row_errors(r)]
        assert all(r["id"] in first and r["reader"] != first[r["id"]] for r in rows)


def test_the_split_reproduces_the_shards_the_readers_labelled():
    dealt = split.shards()
    for k, rows in enumerate(dealt):
        labelled = [r["id"] for r in _rows(POOL / f"shard_{k:02d}.jsonl")]
        assert labelled == [r["id"] for r in rows][:len(labelled)]


REQUEST = ("I have an image 'example.jpg'. Please describe it, then read the description aloud. "
           "Here is a note too: 'The meeting starts at nine and ends at noon, with lunch served after.'")


def test_the_builder_expands_a_span_derives_links_and_type():
    draft = {"id": "x", "nodes": [["Image-to-Text", "example.jpg"], ["Text-to-Speech", "<node-0>"],
                                  ["Summarization", "<<The meeting starts|||served after.>>"]]}
    row = build.build_row(draft, REQUEST, "r9")
    assert row["task_nodes"][2]["arguments"] == ["The meeting starts at nine and ends at noon, with lunch served after."]
    assert row["task_links"] == [{"source": "Image-to-Text", "target": "Text-to-Speech"}]
    assert row["type"] == "dag" and row["n_tools"] == 3  # two unconnected asks are a "dag", as in TaskBench
    assert build.row_errors(row) == []


@pytest.mark.parametrize("nodes, expected", [
    ([["Image-to-Text", "photo.jpg"]], "literal 'photo.jpg' is not in the request"),
    ([["Text-to-Speech", "<node-1>"], ["Image-to-Text", "example.jpg"]], "not an earlier node"),
    ([["Image-to-Text", "example.jpg"], ["Depth Estimation", "<node-0>"]], "wants image but <node-0>"),
    ([["Visual Question Answering", "example.jpg"]], "takes 2 argument(s)"),
    ([["Captioning", "example.jpg"]], "unknown tool"),
])
def test_the_builder_refuses_a_draft_that_breaks_the_plan_rules(nodes, expected):
    row = build.build_row({"id": "x", "nodes": nodes}, REQUEST, "r9")
    assert any(expected in e for e in build.row_errors(row)), build.row_errors(row)


def test_a_span_that_is_not_in_the_request_is_refused_by_name():
    with pytest.raises(ValueError, match="span start 'The concert' is not in the request"):
        build.build_row({"id": "x", "nodes": [["Summarization", "<<The concert|||after.>>"]]}, REQUEST, "r9")
