"""The caption stand-in for image-to-text: a sentence from what CenterNet and EfficientNet-Lite0
really report on examples/street.jpg, flagged as a stand-in everywhere it shows."""

import os
import shutil
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")

from langchain_hugginggpt.core.workspace import Workspace  # noqa: E402
from langchain_hugginggpt.tools import ExpertError, ExpertTool  # noqa: E402
from langchain_hugginggpt.tools.engines.caption import object_phrase  # noqa: E402
from langchain_hugginggpt.tools.registry import engine_class, resolve_engine, task_status  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
STAND_IN = "detection+classification-caption"


@pytest.fixture(scope="module")
def workspace(tmp_path_factory) -> Workspace:
    root = tmp_path_factory.mktemp("caption")
    shutil.copy(REPO / "examples" / "street.jpg", root / "street.jpg")
    (root / "broken.jpg").write_bytes(b"\xff\xd8\xff\xe0 not really a jpeg")
    return Workspace(root)


@pytest.fixture(scope="module")
def caption(workspace) -> dict:
    return ExpertTool.for_task("image-to-text", model=STAND_IN, workspace=workspace).run_expert({"image": "street.jpg"}).model_dump()


def test_caption_names_what_centernet_detects(workspace, caption):
    detected = ExpertTool.for_task("object-detection", workspace=workspace).run_expert({"image": "street.jpg"}).model_dump()
    labels = {d["label"] for d in detected["result"]}
    assert {"person", "cat", "motorcycle"} <= labels  # what examples/make_examples.py put in the collage
    assert caption["text"].startswith("A picture with ")
    for label in labels:
        assert label in caption["text"]
    assert [d["label"] for d in caption["result"]["objects"]] == [d["label"] for d in detected["result"]]


def test_caption_gives_efficientnets_top_class(workspace, caption):
    classified = ExpertTool.for_task("image-classification", workspace=workspace).run_expert({"image": "street.jpg"}).model_dump()
    top = classified["result"][0]["label"].split(",")[0]
    assert f"EfficientNet-Lite0's best guess for the whole picture: {top}," in caption["text"]
    assert caption["result"]["classes"] == classified["result"]


def test_caption_is_flagged_as_a_stand_in(caption):
    assert caption["model"] == STAND_IN and caption["stand_in"] is True
    assert "not a captioning model" in caption["note"]
    assert caption["result"]["generated_text"] == caption["text"]
    assert caption["files"] == []  # the detector's drawing is not an output of captioning
    cls = engine_class("image-to-text", STAND_IN)
    assert cls.stand_in is True and cls.backend == "stand-in" and "Stand-in" in cls.description
    status = task_status("image-to-text")
    assert STAND_IN in status["stand_ins"] and STAND_IN not in status["models"]
    assert status["models"][0] == "tesseract-ocr"


def test_captioning_writes_no_file(tmp_path):
    shutil.copy(REPO / "examples" / "street.jpg", tmp_path / "street.jpg")
    ExpertTool.for_task("image-to-text", model=STAND_IN, workspace=Workspace(tmp_path)).invoke({"image": "street.jpg"})
    assert [p.name for p in tmp_path.rglob("*") if p.is_file()] == ["street.jpg"]  # the detector drew nothing


def test_without_a_model_named_image_to_text_still_runs_a_real_model():
    assert resolve_engine("image-to-text").model_id == "tesseract-ocr"


def test_a_broken_image_names_the_task_the_model_and_the_file(workspace):
    tool = ExpertTool.for_task("image-to-text", model=STAND_IN, workspace=workspace)
    with pytest.raises(ExpertError) as caught:
        tool.invoke({"image": "broken.jpg"})
    message = str(caught.value)
    assert message.startswith(f"image-to-text with {STAND_IN}: ") and "broken.jpg" in message


@pytest.mark.parametrize("labels, phrase", [
    ([], ""),
    (["cat"], "a cat"),
    (["umbrella", "cat"], "an umbrella and a cat"),
    (["person", "dog", "person", "bus", "bus", "bus"], "two people, a dog and three buses"),
])
def test_object_phrase(labels, phrase):
    assert object_phrase(labels) == phrase
