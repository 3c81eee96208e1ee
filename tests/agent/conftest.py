"""Engines for testing the scheduler: they do real, checkable work (Pillow, string
operations) with controllable duration, so overlap and failure paths are observable."""

import time

import pytest
from PIL import Image

from langchain_hugginggpt.tools.base import Engine, ExpertError, ExpertOutput
from langchain_hugginggpt.tools.registry import register, unregister


class SlowUpper(Engine):
    task = "text2text-generation"
    model_id = "test/slow-upper"
    description = "Uppercases the text after 0.4 s (test engine)."

    def run(self, inputs, workspace):
        time.sleep(0.4)
        return ExpertOutput(model=self.model_id, result={"generated_text": inputs["text"].upper()},
                            text=inputs["text"].upper())


class Grayscale(Engine):
    task = "image-to-image"
    model_id = "test/grayscale"
    description = "Converts an image to grayscale with Pillow (test engine)."

    def run(self, inputs, workspace):
        time.sleep(0.4)
        out = workspace.new_output(".png")
        Image.open(inputs["image"]).convert("L").save(out)
        return ExpertOutput(model=self.model_id, result={"mode": "L"}, image=str(out), text=f"grayscale image {out}")


class ImageSize(Engine):
    task = "image-classification"
    model_id = "test/image-size"
    description = "Labels an image with its size (test engine)."

    def run(self, inputs, workspace):
        with Image.open(inputs["image"]) as img:
            label = f"{img.width}x{img.height}"
        return ExpertOutput(model=self.model_id, result=[{"label": label, "score": 1.0}], text=label)


class AlwaysFails(Engine):
    task = "summarization"
    model_id = "test/always-fails"
    description = "Raises, to test failure propagation (test engine)."

    def run(self, inputs, workspace):
        raise ExpertError("summarization with test/always-fails failed: broken on purpose")


class Hangs(Engine):
    task = "translation"
    model_id = "test/hangs"
    description = "Sleeps past the timeout (test engine)."

    def run(self, inputs, workspace):
        time.sleep(3)
        return ExpertOutput(model=self.model_id, text="late")


TEST_ENGINES = (SlowUpper, Grayscale, ImageSize, AlwaysFails, Hangs)


@pytest.fixture
def test_engines():
    for cls in TEST_ENGINES:
        register(cls)
    yield {cls.task: cls.model_id for cls in TEST_ENGINES}
    for cls in TEST_ENGINES:
        unregister(cls.task, cls.model_id)


@pytest.fixture
def workspace(tmp_path):
    from langchain_hugginggpt.core.workspace import Workspace

    Image.new("RGB", (64, 48), (200, 30, 30)).save(tmp_path / "red.png")
    return Workspace(tmp_path)
