"""Vision engines on real inputs: Tesseract OCR, EfficientNet-Lite0, CenterNet (Node), U^2-Net-p.

Photos come from scikit-image's wheel; text and shapes are drawn with Pillow. Every
task runs through ExpertTool, the way the agent calls it.
"""

import os
import shutil
from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

os.environ.setdefault("HF_HUB_OFFLINE", "1")

from langchain_hugginggpt.core.workspace import Workspace  # noqa: E402
from langchain_hugginggpt.tools import ExpertError, ExpertTool  # noqa: E402
from langchain_hugginggpt.tools.engines import _human  # noqa: E402
from langchain_hugginggpt.tools.engines._image_io import count_summary  # noqa: E402
from langchain_hugginggpt.tools.registry import (  # noqa: E402
    engine_class,
    resolve_engine,
    task_status,
)

REPO = Path(__file__).resolve().parents[2]
FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"  # Debian fonts-dejavu-core


@pytest.fixture(scope="module")
def workspace(tmp_path_factory) -> Workspace:
    import skimage

    root = tmp_path_factory.mktemp("vision")
    for name in ("astronaut.png", "chelsea.png", "coffee.png"):
        shutil.copy(Path(skimage.__file__).parent / "data" / name, root / name)
    shutil.copy(REPO / "examples" / "street.jpg", root / "street.jpg")
    (root / "corrupt.jpg").write_bytes(np.random.default_rng(0).integers(0, 256, 4096, dtype=np.uint8).tobytes())
    return Workspace(root)


def run(task: str, workspace: Workspace, **args) -> dict:
    return ExpertTool.for_task(task, workspace=workspace).run_expert(args).model_dump()


def render_text(path: Path, lines: list[str], size: int = 30) -> None:
    font = ImageFont.truetype(FONT, size)
    image = Image.new("RGB", (900, 40 + 2 * size * len(lines)), "white")
    draw = ImageDraw.Draw(image)
    for i, line in enumerate(lines):
        draw.text((30, 20 + 2 * size * i), line, font=font, fill="black")
    image.save(path)


def test_ocr_reads_a_rendered_sentence(workspace, char_error_rate):
    sentence = "The quick brown fox jumps over the lazy dog at 10:45."
    render_text(workspace.root / "sentence.png", [sentence])
    out = run("image-to-text", workspace, image="sentence.png")
    assert out["model"] == "tesseract-ocr" and out["stand_in"] is False
    assert out["result"]["generated_text"] == out["text"]
    assert char_error_rate(sentence, out["text"].strip()) < 0.05, out["text"]


def test_ocr_of_a_blank_page_says_no_text(workspace):
    Image.new("RGB", (300, 200), "white").save(workspace.root / "blank.png")
    out = run("image-to-text", workspace, image="blank.png")
    assert out["text"] == "" and "no text" in out["note"]


def test_document_qa_stand_in_looks_up_key_value_lines(workspace):
    render_text(workspace.root / "invoice.png",
                ["ACME Supplies Ltd.", "Invoice number: 2024-0173", "Date: 12 March 2024", "Total amount due: $42.50"])
    out = run("document-question-answering", workspace, image="invoice.png", text="What is the total amount due?")
    assert out["stand_in"] is True and "stand-in" in out["note"]
    assert out["result"][0]["answer"] == "$42.50" == out["text"]
    number = run("document-question-answering", workspace, image="invoice.png", text="What is the invoice number?")
    assert number["text"] == "2024-0173"
    unanswerable = run("document-question-answering", workspace, image="invoice.png", text="Who signed the contract?")
    assert unanswerable["result"] == [] and "no OCR line matches" in unanswerable["note"]


def test_document_qa_is_reported_as_stand_in_only():
    status = task_status("document-question-answering")
    assert "tesseract-ocr+key-value-lookup" in status["stand_ins"]
    assert "tesseract-ocr+key-value-lookup" not in status["models"]


# ------------------------------------------------------------------- classification

@pytest.mark.slow
def test_classification_top5_of_chelsea_has_a_cat(workspace):
    out = run("image-classification", workspace, image="chelsea.png")
    labels = [r["label"] for r in out["result"]]
    scores = [r["score"] for r in out["result"]]
    assert len(labels) == 5 and scores == sorted(scores, reverse=True) and sum(scores) <= 1.0001
    assert any("cat" in label for label in labels), labels
    coffee = run("image-classification", workspace, image="coffee.png")["result"]
    assert not any("cat" in r["label"] for r in coffee[:2]), coffee  # the model discriminates, it does not always say cat


# ------------------------------------------------------------------------ detection

def _pixels(path) -> np.ndarray:
    return np.asarray(Image.open(path).convert("RGB"), dtype=np.int16)


@pytest.mark.slow
def test_detection_finds_a_person_in_astronaut_and_draws_boxes(workspace):
    out = run("object-detection", workspace, image="astronaut.png")
    labels = [r["label"] for r in out["result"]]
    assert "person" in labels, out["result"]
    person = next(r for r in out["result"] if r["label"] == "person")
    box = person["box"]
    assert 0 <= box["xmin"] < box["xmax"] <= 512 and 0 <= box["ymin"] < box["ymax"] <= 512
    assert (box["xmax"] - box["xmin"]) * (box["ymax"] - box["ymin"]) > 0.2 * 512 * 512  # she fills the photo
    drawn = Path(out["image"])
    assert drawn.is_file() and drawn.parent == workspace.outputs and out["files"] == [str(drawn)]
    original = _pixels(workspace.root / "astronaut.png")
    assert drawn_differs(original, _pixels(drawn))
    assert "person" in out["text"]


def drawn_differs(original: np.ndarray, drawn: np.ndarray) -> bool:
    return original.shape == drawn.shape and (np.abs(original - drawn).max(axis=2) > 40).mean() > 0.005


@pytest.mark.slow
def test_detection_finds_the_cat_in_chelsea_as_cat_or_dog(workspace):
    out = run("object-detection", workspace, image="chelsea.png")
    assert {"cat", "dog"} & {r["label"] for r in out["result"]}, out["result"]  # CenterNet often calls it a dog


@pytest.mark.slow
def test_detection_finds_several_objects_in_the_shipped_street_example(workspace):
    out = run("object-detection", workspace, image="street.jpg")
    labels = {r["label"] for r in out["result"]}
    assert {"person", "cat", "motorcycle"} <= labels, out["result"]
    assert drawn_differs(_pixels(workspace.root / "street.jpg"), _pixels(out["image"]))


def test_detection_names_the_missing_npm_install(monkeypatch, tmp_path):
    monkeypatch.setenv("HUGGINGGPT_NODE_DIR", str(tmp_path / "empty"))
    reason = engine_class("object-detection", "centernet-mobilenetv3-coco")().unavailable_reason()
    assert "@vladmandic/human" in reason and "npm ci" in reason and str(tmp_path / "empty") in reason
    with pytest.raises(ExpertError, match="npm ci"):
        resolve_engine("object-detection", "centernet-mobilenetv3-coco")


def test_count_summary():
    assert count_summary(["person", "cat", "person"]) == "2 persons, 1 cat"
    assert count_summary(["bus", "bus", "wine glass", "wine glass"]) == "2 buses, 2 wine glasses"
    assert count_summary([]) == ""


# --------------------------------------------------------------------- segmentation

def test_segmentation_mask_covers_a_drawn_object(workspace):
    image = Image.new("RGB", (400, 300), (200, 200, 200))
    ImageDraw.Draw(image).ellipse((130, 70, 270, 230), fill=(200, 30, 30))
    image.save(workspace.root / "disc.png")
    truth = Image.new("L", image.size, 0)
    ImageDraw.Draw(truth).ellipse((130, 70, 270, 230), fill=255)
    disc = np.asarray(truth) > 0

    out = run("image-segmentation", workspace, image="disc.png")
    assert out["model"] == "u2netp" and out["result"][0]["label"] == "foreground"
    mask = np.asarray(Image.open(out["result"][0]["mask"])) > 0
    assert mask[disc].mean() > 0.9 and mask[~disc].mean() < 0.05
    assert Path(out["image"]).is_file() and set(out["files"]) == {out["image"], out["result"][0]["mask"]}


# --------------------------------------------------------------------------- errors

@pytest.mark.parametrize("task", ["image-to-text", "image-classification", "object-detection", "image-segmentation"])
def test_corrupt_image_gives_a_clear_error(workspace, task):
    with pytest.raises(ExpertError, match=r"cannot read image .*corrupt\.jpg: not an image") as info:
        run(task, workspace, image="corrupt.jpg")
    assert task in str(info.value)


def test_missing_image_is_refused_by_the_workspace(workspace):
    with pytest.raises(Exception, match="not found"):
        run("image-to-text", workspace, image="nowhere.png")


def test_node_install_command_uses_the_shipped_lockfile():
    command = _human.install_command()
    assert (_human.js_dir() / "package-lock.json").is_file() and (_human.js_dir() / "human_runner.mjs").is_file()
    assert "package-lock.json" in command and "npm ci" in command


def test_an_image_of_too_many_pixels_is_refused_before_decoding(workspace, tmp_path):
    """A 1-bit PNG of 7,000 x 7,000 pixels is a few kB on disk and 147 MB as RGB: refused from its header."""
    Image.new("1", (7000, 7000)).save(workspace.root / "bomb.png", optimize=True)
    assert (workspace.root / "bomb.png").stat().st_size < 100_000
    with pytest.raises(ExpertError, match=r"bomb\.png is 7,000 x 7,000 pixels; images of at most 40 million"):
        run("image-classification", workspace, image="bomb.png")
