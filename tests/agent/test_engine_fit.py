"""Model selection picks the engine made for what the request asks: OCR to read the text in an
image, the caption stand-in to describe one, and never a stand-in over a real model that fits."""

import asyncio
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image, ImageDraw, ImageFont

os.environ.setdefault("HF_HUB_OFFLINE", "1")

from langchain_hugginggpt.planning.retrieval import RetrievalPlanner  # noqa: E402
from langchain_hugginggpt.core.schema import Task  # noqa: E402
from langchain_hugginggpt.agent.selection import ModelSelector
from langchain_hugginggpt.tools.candidates import RegistryCandidates  # noqa: E402
from langchain_hugginggpt.core.workspace import Workspace  # noqa: E402
from langchain_hugginggpt.tools.base import Engine
from langchain_hugginggpt.tools.expert_tool import ExpertTool  # noqa: E402
from langchain_hugginggpt.tools.registry import register, unregister  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"  # Debian fonts-dejavu-core
STAND_IN = "detection+classification-caption"


@pytest.fixture(scope="module")
def workspace(tmp_path_factory) -> Workspace:
    root = tmp_path_factory.mktemp("fit")
    font = ImageFont.truetype(FONT, 48)
    left, top, right, bottom = font.getbbox("NO PARKING TODAY")
    sign = Image.new("RGB", (right + 80, bottom + 80), "white")
    ImageDraw.Draw(sign).text((40, 40), "NO PARKING TODAY", font=font, fill="black")
    sign.save(root / "sign.png")
    shutil.copy(REPO / "examples" / "street.jpg", root / "street.jpg")
    return Workspace(root)


def select(request: str):
    """Plan the request as the agent does offline, then select a model for its image-to-text task."""
    plan = RetrievalPlanner().plan(request).plan
    task = next(t for t in plan.tasks if t.task == "image-to-text")
    return task, asyncio.run(ModelSelector(llm=None).aselect_one(request, task))


def test_reading_the_text_selects_ocr_and_it_reads_the_sign(workspace):
    task, selection = select("Read the text in sign.png")
    assert task.args == {"image": "sign.png"}
    assert selection.model_id == "tesseract-ocr"
    assert all(not c.stand_in for c in selection.candidates)  # a real model fits: no stand-in offered
    out = ExpertTool.for_task(task.task, model=selection.model_id, workspace=workspace).run_expert(task.args)
    assert "NO PARKING TODAY" in out.text


@pytest.mark.parametrize("request_", ["Describe the picture street.jpg", "Write a caption for street.jpg"])
def test_describing_selects_the_caption_stand_in(workspace, request_):
    task, selection = select(request_)
    assert selection.model_id == STAND_IN
    assert [c.id for c in selection.candidates] == [STAND_IN, "tesseract-ocr"]
    assert selection.candidates[0].details == {"fits_request": True}
    assert selection.candidates[1].details == {"fits_request": False}
    assert "stand-in" in selection.reason and "no real model that fits this request" in selection.reason
    out = ExpertTool.for_task(task.task, model=selection.model_id, workspace=workspace).run_expert(task.args)
    assert out.stand_in is True and "motorcycle" in out.text


def test_a_request_that_says_neither_gets_the_real_model():
    task = Task(task="image-to-text", id=0, args={"image": "street.jpg"})
    assert [c.id for c in RegistryCandidates().candidates(task, "Convert street.jpg to text", 5)] == ["tesseract-ocr"]


class AnyImageToText(Engine):
    """A real (not stand-in) engine that declares no request cues; selection only ranks it, never runs it."""

    task = "image-to-text"
    model_id = "test/any-image-to-text"
    description = "Serves any image-to-text request (test engine for ranking)."

    def run(self, inputs, workspace):
        raise NotImplementedError


@pytest.fixture
def any_request_engine():
    register(AnyImageToText)
    yield AnyImageToText.model_id
    unregister(AnyImageToText.task, AnyImageToText.model_id)


def test_a_real_model_for_any_request_beats_a_fitting_stand_in(any_request_engine):
    task = Task(task="image-to-text", id=0, args={"image": "street.jpg"})
    describe = [c.id for c in RegistryCandidates().candidates(task, "Describe street.jpg", 5)]
    assert describe == [any_request_engine, "tesseract-ocr"]  # the stand-in is not offered at all
    read = [c.id for c in RegistryCandidates().candidates(task, "Read the text in street.jpg", 5)]
    assert read == ["tesseract-ocr", any_request_engine]  # the engine made for the request first


def test_tasks_table_shows_the_caption_stand_in_apart_from_the_models(tmp_path):
    env = {**os.environ, "HUGGINGGPT_HOME": str(tmp_path)}
    cli = [sys.executable, "-m", "langchain_hugginggpt.cli.main", "tasks"]
    markdown = subprocess.run([*cli, "--markdown"], capture_output=True, text=True, env=env, timeout=120, check=True)
    row = next(line for line in markdown.stdout.splitlines() if line.startswith("| image-to-text |"))
    cells = [c.strip() for c in row.strip("|").split("|")]
    assert cells[2] == "tesseract-ocr" and cells[3] == STAND_IN
    rows = json.loads(subprocess.run([*cli, "--json"], capture_output=True, text=True, env=env, timeout=120,
                                     check=True).stdout)
    status = next(r for r in rows if r["task"] == "image-to-text")
    assert status["stand_ins"] == [STAND_IN] and STAND_IN not in status["models"]
