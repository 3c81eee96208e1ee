"""Builds the example images the repo ships, from photos inside scikit-image's wheel.

    python examples/make_examples.py

street.jpg: no street photo ships in any package we can install offline, so it is a
2 x 2 collage of scikit-image's own photos (astronaut: a person, chelsea: a cat, coffee:
a cup, motorcycle_left: a motorcycle) for requests like "Detect the objects in
examples/street.jpg". The CenterNet detector (object-detection) finds the person, the
motorcycle and the cat in it; the cup is too small at this scale for that model (it finds
the cup in coffee.png alone). Deterministic for given scikit-image and Pillow versions.
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image

HERE = Path(__file__).resolve().parent
CELL = (480, 360)  # width, height of each tile
GAP = 8


def _skimage_photo(name: str) -> Image.Image:
    import skimage

    return Image.open(Path(skimage.__file__).parent / "data" / name).convert("RGB")


def _fit(image: Image.Image, size: tuple[int, int]) -> Image.Image:
    """Scale to cover `size`, then centre-crop (keeps the aspect ratio of the subject)."""
    scale = max(size[0] / image.width, size[1] / image.height)
    image = image.resize((round(image.width * scale), round(image.height * scale)), Image.LANCZOS)
    left, top = (image.width - size[0]) // 2, (image.height - size[1]) // 2
    return image.crop((left, top, left + size[0], top + size[1]))


def make_street(path: Path = HERE / "street.jpg") -> Path:
    tiles = ["astronaut.png", "motorcycle_left.png", "chelsea.png", "coffee.png"]
    width, height = 2 * CELL[0] + GAP, 2 * CELL[1] + GAP
    canvas = Image.new("RGB", (width, height), (255, 255, 255))
    for i, name in enumerate(tiles):
        x, y = (i % 2) * (CELL[0] + GAP), (i // 2) * (CELL[1] + GAP)
        canvas.paste(_fit(_skimage_photo(name), CELL), (x, y))
    canvas.save(path, quality=85, optimize=True)
    return path


if __name__ == "__main__":
    out = make_street()
    print(f"wrote {out} ({out.stat().st_size // 1024} KB)")
