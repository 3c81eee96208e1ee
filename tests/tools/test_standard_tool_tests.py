"""LangChain's standard tool tests for every task's ExpertTool.

`ToolsUnitTests` runs for each task in the task table (one generated class per task).
`ToolsIntegrationTests` invokes the tool, so it runs where a model can run offline:
tiny random transformers models saved to a temporary folder and pinned with `model=`.
"""

from __future__ import annotations

import atexit
import functools
import os
import shutil
import tempfile
from pathlib import Path

os.environ["HF_HUB_OFFLINE"] = "1"

import numpy as np
from langchain_tests.integration_tests import ToolsIntegrationTests
from langchain_tests.unit_tests import ToolsUnitTests
from PIL import Image

from langchain_hugginggpt.core.workspace import Workspace
from langchain_hugginggpt.tools import TASKS, ExpertTool
from langchain_hugginggpt.core.tasks import TaskSpec
from tests.tools import _hf_tiny as tiny

EXAMPLE_INPUTS = {"text": "Ada Lovelace lived in London.", "context": "Ada Lovelace lived in London.",
                  "text2": "Ada lived in London.", "labels": "science, sport", "image": "photo.png",
                  "audio": "speech.wav", "video": "clip.mp4", "target_lang": "Spanish", "source_lang": "English"}


def example_args(spec: TaskSpec) -> dict[str, str]:
    return {slot: EXAMPLE_INPUTS[slot] for slot in spec.inputs}


def _class_name(task: str) -> str:
    return "Test" + "".join(part.capitalize() for part in task.replace("2", "-2-").split("-")) + "Tool"


def _unit_class(task: str) -> type:
    spec = TASKS[task]
    return type(_class_name(task), (ToolsUnitTests,), {
        "__module__": __name__,
        "tool_constructor": property(lambda self: ExpertTool.for_task(task)),
        "tool_invoke_params_example": property(lambda self: example_args(spec)),
    })


for _task in TASKS:
    globals()[_class_name(_task)] = _unit_class(_task)


@functools.lru_cache(maxsize=1)
def _tiny_models() -> tuple[Workspace, Path]:
    """A workspace with a photo, and a folder of tiny models (built once per session)."""
    root = Path(tempfile.mkdtemp(prefix="standard-tool-tests-"))
    atexit.register(shutil.rmtree, root, ignore_errors=True)
    Image.fromarray(np.random.default_rng(0).integers(0, 255, (48, 64, 3), dtype=np.uint8)).save(root / "photo.png")
    tiny.save_bert(root / "models" / "sst", "ForSequenceClassification", tiny.SENTIMENT_LABELS)
    tiny.save_vit(root / "models" / "vit")
    return Workspace(root), root / "models"


def _pinned_tool(task: str, model: str) -> ExpertTool:
    workspace, models = _tiny_models()
    return ExpertTool.for_task(task, model=str(models / model), workspace=workspace)


class TestTextClassificationToolInvocation(ToolsIntegrationTests):
    @property
    def tool_constructor(self) -> ExpertTool:
        return _pinned_tool("text-classification", "sst")

    @property
    def tool_invoke_params_example(self) -> dict:
        return example_args(TASKS["text-classification"])


class TestImageClassificationToolInvocation(ToolsIntegrationTests):
    @property
    def tool_constructor(self) -> ExpertTool:
        return _pinned_tool("image-classification", "vit")

    @property
    def tool_invoke_params_example(self) -> dict:
        return example_args(TASKS["image-classification"])


def test_every_task_has_a_standard_test_class():
    generated = {name for name, value in globals().items() if isinstance(value, type) and issubclass(value, ToolsUnitTests) and value is not ToolsUnitTests}
    assert generated == {_class_name(task) for task in TASKS}
