"""TaskBench metrics on hand-made gold/prediction pairs whose scores are worked out by hand."""

import json

import pytest

from langchain_hugginggpt.planning.taskbench import (
    Counts, Node, ToolSet, content_type, graph_of, levenshtein_ratio, load_samples, normalize_nodes,
    one_based_refs_fixed, score)

TOOLS = ToolSet(
    names=("Image-to-Text", "Text-to-Speech", "Translation", "Object Detection", "Summarization"),
    output_types={"Image-to-Text": "text", "Text-to-Speech": "audio", "Translation": "text",
                  "Object Detection": "text", "Summarization": "text"},
)


def nodes(*items):
    return [Node(task, list(args)) for task, args in items]


def test_content_type_follows_taskbench_extensions():
    assert content_type("example.jpg") == "image"
    assert content_type("'song.flac'") == "audio"
    assert content_type("clip.mp4") == "video"
    assert content_type("a photo of a dog") == "text"


def test_graph_derives_edges_and_argument_names_from_references():
    g = graph_of(nodes(("Image-to-Text", ["a.jpg"]), ("Text-to-Speech", ["<node-0>"])), TOOLS)
    assert g.edges == {("Image-to-Text", "Text-to-Speech")}
    assert g.arg_names == {"Image-to-Text-image", "Text-to-Speech-text"}
    assert g.arg_values == {"Image-to-Text-image-a.jpg", "Text-to-Speech-text-Image-to-Text"}


def test_perfect_prediction_scores_100():
    gold = [nodes(("Image-to-Text", ["a.jpg"]), ("Translation", ["<node-0>"]))]
    result = score(gold, gold, TOOLS)
    assert result["node_f1"] == result["edge_f1"] == result["arg_name_f1"] == result["arg_value_f1"] == 100.0
    assert result["ned"] == 0.0


def test_known_partial_scores():
    gold = [
        nodes(("Image-to-Text", ["a.jpg"]), ("Translation", ["<node-0>"]), ("Text-to-Speech", ["<node-1>"])),
        nodes(("Summarization", ["long text"])),
    ]
    pred = [
        # right first two tools, TTS replaced by Object Detection; the chain edge kept
        nodes(("Image-to-Text", ["a.jpg"]), ("Translation", ["<node-0>"]), ("Object Detection", ["a.jpg"])),
        nodes(("Summarization", ["other text"])),
    ]
    result = score(gold, pred, TOOLS)
    # nodes: tp 3 (I2T, Translation, Summarization), fp 1 (OD), fn 1 (TTS): 2*3/(6+1+1) = 75
    assert result["node_f1"] == 75.0
    # edges: gold {I2T->Tr, Tr->TTS}, pred {I2T->Tr}: tp 1, fn 1: 2/3
    assert result["edge_f1"] == pytest.approx(66.67)
    # arg names: gold {I2T-image, Tr-text, TTS-text, Sum-text}, pred {I2T-image, Tr-text, OD-image, Sum-text}: 2*3/8
    assert result["arg_name_f1"] == 75.0
    # arg values: only I2T-image-a.jpg and Tr-text-Image-to-Text match: tp 2, fp 2, fn 2: 4/8
    assert result["arg_value_f1"] == 50.0
    # NED: 1 - mean(ratio([I2T, Tr, OD], [I2T, Tr, TTS]) = 4/6, ratio([Sum], [Sum]) = 1)
    assert result["ned"] == pytest.approx(1 - (4 / 6 + 1) / 2, abs=1e-4)


def test_node_f1_ignores_names_outside_the_tool_list_but_edges_do_not():
    gold = [nodes(("Image Enhancement", ["a.jpg"]), ("Image-to-Text", ["<node-0>"]))]
    pred = [nodes(("Image-to-Text", ["a.jpg"]))]
    result = score(gold, pred, TOOLS)
    assert result["node_f1"] == 100.0  # 'Image Enhancement' is not a tool type
    assert result["edge_f1"] == 0.0


def test_sets_ignore_duplicates_and_order():
    gold = [nodes(("Translation", ["x"]), ("Summarization", ["y"]))]
    pred = [nodes(("Summarization", ["y"]), ("Translation", ["x"]), ("Translation", ["x"]))]
    result = score(gold, pred, TOOLS)
    assert result["node_f1"] == 100.0 and result["arg_value_f1"] == 100.0
    assert result["ned"] > 0  # the sequence differs


def test_metric_without_positives_is_none():
    single = [nodes(("Translation", ["x"]))]
    assert score(single, single, TOOLS)["edge_f1"] is None


def test_levenshtein_ratio_matches_python_levenshtein_definition():
    assert levenshtein_ratio([], []) == 1.0
    assert levenshtein_ratio(["a"], []) == 0.0
    # "kitten" vs "sitting": indel distance 5 over 13 characters (python-Levenshtein gives 0.6154)
    assert levenshtein_ratio(list("kitten"), list("sitting")) == pytest.approx(0.6154, abs=1e-4)


def test_counts_f1():
    c = Counts()
    c.add({"a", "b"}, {"b", "c"})
    assert (c.tp, c.fp, c.fn) == (1, 1, 1) and c.f1 == 50.0


def test_one_based_references_are_read_as_such():
    fixed = one_based_refs_fixed(nodes(("Image-to-Text", ["a.jpg"]), ("Translation", ["<node-1>"])))
    assert fixed[1].arguments == ["<node-0>"]
    well_formed = nodes(("Image-to-Text", ["a.jpg"]), ("Translation", ["<node-0>"]))
    assert one_based_refs_fixed(well_formed) == well_formed


def test_normalize_nodes_tolerates_noise():
    raw = json.dumps([{"task": "Image_to_Text", "arguments": "a.jpg"},
                      {"task": "Translation", "arguments": [{"name": "text", "value": "<node-0>"}, 3]},
                      "Summarization", {"no": "task"}])
    got = normalize_nodes(raw)
    assert [(n.task, n.arguments) for n in got] == [
        ("Image to Text", ["a.jpg"]), ("Translation", ["<node-0>", "3"]), ("Summarization", [])]


def test_loader_reads_either_request_field_and_skips_bad_lines(tmp_path):
    path = tmp_path / "data.jsonl"
    path.write_text("\n".join([
        json.dumps({"id": "1", "type": "single", "instruction": "caption a.jpg",
                    "task_nodes": [{"task": "Image-to-Text", "arguments": ["a.jpg"]}]}),
        "{not json",
        json.dumps({"id": "2", "type": "chain", "user_request": "translate and read",
                    "tool_nodes": json.dumps([{"task": "Translation", "arguments": ["hi"]},
                                              {"task": "Made Up Tool", "arguments": ["<node-0>"]}])}),
        json.dumps({"id": "3", "type": "single"}),
        "",
    ]))
    samples = load_samples(path)
    assert [s.id for s in samples] == ["1", "2"]
    assert samples[1].request == "translate and read"
    assert [n.task for n in samples[1].nodes] == ["Translation", "Made Up Tool"]


def test_loader_names_a_missing_file(tmp_path):
    with pytest.raises(ValueError, match="cannot read TaskBench data"):
        load_samples(tmp_path / "nope.jsonl")


def test_a_file_with_no_records_is_an_error_not_an_empty_report(tmp_path):
    path = tmp_path / "passwd"
    path.write_text("root:x:0:0:root:/root:/bin/bash\n{\"id\": 1}\n")
    with pytest.raises(ValueError, match="no TaskBench records in"):
        load_samples(path)
