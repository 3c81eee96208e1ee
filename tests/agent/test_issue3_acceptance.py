"""Issue 3's acceptance request, end to end with the local preset and the models that run here:
detect the objects in examples/street.jpg, describe the picture, read the description aloud."""

import os
import shutil
import wave
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")

from langchain_hugginggpt.agent.hugginggpt import HuggingGPT  # noqa: E402
from langchain_hugginggpt.core.workspace import Workspace  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
REQUEST = "Detect the objects in examples/street.jpg, describe the picture and read the description aloud"


@pytest.fixture(scope="module")
def result(tmp_path_factory):
    root = tmp_path_factory.mktemp("issue3")
    (root / "examples").mkdir()
    shutil.copy(REPO / "examples" / "street.jpg", root / "examples" / "street.jpg")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("HUGGINGGPT_HOME", str(root / "home"))
        agent = HuggingGPT.from_preset("local", workspace=Workspace(root), log_runs=False)
        return agent.invoke(REQUEST)


def test_plan_describes_the_named_picture_not_the_drawing(result):
    assert [t.task for t in result.plan] == ["object-detection", "image-to-text", "text-to-speech"]
    detect, describe, speak = result.plan
    assert detect.args == describe.args == {"image": "examples/street.jpg"}
    assert speak.args == {"text": f"<resource>-{describe.id}"}


def test_every_task_ran_with_the_model_that_fits(result):
    assert all(r.ok for r in result.results.values()), {i: r.error for i, r in result.results.items()}
    models = {t.task: result.selections[t.id].model_id for t in result.plan}
    assert models["object-detection"] == "centernet-mobilenetv3-coco"
    assert models["image-to-text"] == "detection+classification-caption"  # not OCR, which reads text
    caption = result.results[result.plan[1].id].output
    assert caption.stand_in is True and "not a captioning model" in caption.note


def test_answer_has_the_objects_the_description_and_the_speech(result):
    detect, describe, speak = (result.results[t.id] for t in result.plan)
    labels = {d["label"] for d in detect.output.result}
    assert {"person", "cat", "motorcycle"} <= labels
    description = describe.output.text
    assert all(label in description for label in labels)
    assert description in result.answer
    assert all(label in result.answer for label in labels)
    wav = Path(speak.output.audio)
    assert wav.suffix == ".wav" and wav.is_file() and str(wav) in result.answer
    with wave.open(str(wav)) as audio:
        seconds = audio.getnframes() / audio.getframerate()
    assert seconds > 2.0  # a whole sentence was spoken, not an empty file
    assert "stand-in" in result.answer  # the answer says the description came from a stand-in
