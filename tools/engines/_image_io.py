"""Shared helpers of the vision and control engines: read an image with a clear error,
write a PNG output, draw labelled boxes, and the cache folder for converted weights."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from langchain_hugginggpt.tools.base import Engine, ExpertError

if TYPE_CHECKING:
    from langchain_hugginggpt.core.workspace import Workspace
    from PIL import Image as PILImage

# A fixed palette so the same label gets the same colour in every image.
PALETTE = [(230, 25, 75), (60, 180, 75), (255, 225, 25), (0, 130, 200), (245, 130, 48), (145, 30, 180),
           (70, 240, 240), (240, 50, 230), (210, 245, 60), (250, 190, 212), (0, 128, 128), (170, 110, 40)]


def fail(engine: Engine, cause: str) -> ExpertError:
    """An ExpertError that names the task and the model."""
    return ExpertError(f"{engine.task} with {engine.model_id}: {cause}")


def image_input(engine: Engine, inputs: dict[str, Any]) -> str:
    path = inputs.get("image")
    if not path:
        raise fail(engine, "no input image given (slot 'image')")
    return str(path)


def load_image(engine: Engine, path: str | Path, mode: str = "RGB") -> PILImage.Image:
    """The image at `path`, decoded and converted to `mode`; ExpertError if it is not one."""
    from PIL import Image, ImageOps, UnidentifiedImageError

    from langchain_hugginggpt.core.media import too_many_pixels

    try:
        with Image.open(path) as image:
            if problem := too_many_pixels(image.size, path):  # the header's size, before decoding
                raise fail(engine, problem)
            image.load()
            image = ImageOps.exif_transpose(image)  # phone photos store their rotation in EXIF
            if image.mode in ("RGBA", "LA", "P") and mode == "RGB":
                image = _flatten(image)
            return image.convert(mode)
    except FileNotFoundError:
        raise fail(engine, f"cannot read image {path}: file not found") from None
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError) as exc:
        raise fail(engine, f"cannot read image {path}: not an image ({exc})") from None


def _flatten(image: PILImage.Image) -> PILImage.Image:
    """Transparent pixels over white, as a viewer shows them (not the black RGB conversion gives)."""
    from PIL import Image

    rgba = image.convert("RGBA")
    background = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
    return Image.alpha_composite(background, rgba)


def save_png(image: PILImage.Image, workspace: Workspace, stem: str) -> str:
    path = workspace.new_output(".png", stem=stem)
    image.save(path)
    return str(path)


def draw_boxes(image: PILImage.Image, detections: list[dict[str, Any]]) -> PILImage.Image:
    """A copy of `image` with each detection's box and "label score" drawn on it."""
    from PIL import ImageDraw, ImageFont

    canvas = image.convert("RGB").copy()
    draw = ImageDraw.Draw(canvas)
    width = max(2, round(min(canvas.size) / 200))
    font = ImageFont.load_default(size=max(12, round(min(canvas.size) / 30)))
    colours: dict[str, tuple[int, int, int]] = {}
    for det in detections:
        box = det["box"]
        colour = colours.setdefault(det["label"], PALETTE[len(colours) % len(PALETTE)])
        xy = (box["xmin"], box["ymin"], box["xmax"], box["ymax"])
        draw.rectangle(xy, outline=colour, width=width)
        caption = f"{det['label']} {det['score']:.2f}"
        left, top, right, bottom = draw.textbbox((xy[0], xy[1]), caption, font=font)
        offset = bottom - top + 2 * width
        y = xy[1] - offset if xy[1] - offset >= 0 else xy[1]
        draw.rectangle((left, y, right + 2 * width, y + offset), fill=colour)
        draw.text((xy[0] + width, y + width / 2), caption, fill=(0, 0, 0), font=font)
    return canvas


def count_summary(labels: list[str]) -> str:
    """"2 persons, 1 cat" from a list of labels, most frequent first."""
    from collections import Counter

    parts = []
    for label, n in Counter(labels).most_common():
        parts.append(f"{n} {label}" if n == 1 else f"{n} {_plural(label)}")
    return ", ".join(parts)


def _plural(word: str) -> str:
    irregular = {"person": "persons", "mouse": "mice", "knife": "knives", "sheep": "sheep", "skis": "skis",
                 "scissors": "scissors"}
    if word in irregular:
        return irregular[word]
    if word.endswith(("s", "x", "ch", "sh")):
        return word + "es"
    if word.endswith("y") and word[-2:-1] not in "aeiou":
        return word[:-1] + "ies"
    return word + "s"
