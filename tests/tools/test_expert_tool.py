"""ExpertTool as a `content_and_artifact` tool: an LLM reads a short text naming what the expert made by its
workspace-relative name; the program gets the typed ExpertOutput."""

import json
import os
from pathlib import Path

import pytest
from langchain_core.messages import ToolMessage
from PIL import Image, ImageDraw

os.environ.setdefault("HF_HUB_OFFLINE", "1")

from langchain_hugginggpt.core.workspace import Workspace  # noqa: E402
from langchain_hugginggpt.tools import ExpertError, ExpertOutput, ExpertTool  # noqa: E402
from langchain_hugginggpt.tools.expert_tool import MAX_RESULT_CHARS, content_for_llm  # noqa: E402


@pytest.fixture
def workspace(tmp_path) -> Workspace:
    image = Image.new("RGB", (320, 240), (255, 255, 255))
    ImageDraw.Draw(image).rectangle((80, 60, 240, 180), fill=(20, 60, 160))
    image.save(tmp_path / "rect.png")
    return Workspace(tmp_path)


def test_a_tool_call_gives_the_llm_text_with_relative_names_and_the_program_the_output(workspace):
    tool = ExpertTool.for_task("mlsd-control", workspace=workspace)
    message = tool.invoke({"type": "tool_call", "id": "call-1", "name": tool.name, "args": {"image": "rect.png"}})
    assert isinstance(message, ToolMessage) and message.tool_call_id == "call-1"
    output = message.artifact
    assert isinstance(output, ExpertOutput) and output.stand_in and output.result["lines"] >= 4
    drawn = Path(output.image)
    assert drawn.is_absolute() and drawn.is_file() and drawn.parent == workspace.outputs
    # The engine's own text names the absolute path; the LLM reads the name it can pass to the next tool.
    assert str(drawn) in output.text
    name = f"outputs/{drawn.name}"
    assert message.content.splitlines() == [
        f"{output.result['lines']} straight lines drawn to {name}",
        f"image written: {name}",
        f"(a heuristic stood in for a missing model: {output.note})",
    ]
    assert str(workspace.root) not in message.content
    # The name works as the next call's input.
    assert tool.run_expert({"image": name}).result["lines"] >= 4


def test_a_plain_invoke_returns_only_the_text(workspace):
    tool = ExpertTool.for_task("canny-control", workspace=workspace)
    content = tool.invoke({"image": "rect.png"})
    assert isinstance(content, str) and "image written: outputs/" in content and str(workspace.root) not in content


def test_a_failing_task_raises_its_expert_error_through_a_tool_call(workspace):
    tool = ExpertTool.for_task("canny-control", workspace=workspace)
    with pytest.raises(ExpertError, match="canny-control: image input: .*missing.png"):
        tool.run_expert({"image": "missing.png"})


def test_with_handle_tool_error_an_llm_reads_the_failure_and_the_program_still_gets_an_error(workspace):
    tool = ExpertTool.for_task("canny-control", workspace=workspace).model_copy(update={"handle_tool_error": True})
    message = tool.invoke({"type": "tool_call", "id": "call-2", "name": tool.name, "args": {"image": "missing.png"}})
    assert message.status == "error" and "missing.png" in message.content and message.artifact is None
    with pytest.raises(ExpertError, match="canny-control: image input: .*missing.png"):
        tool.run_expert({"image": "missing.png"})


def test_a_result_without_text_is_shown_as_json_and_where_it_ran_is_not(workspace):
    served = {"deployment": "vit", "replica": "vit#abc", "node": "10.0.0.7"}
    output = ExpertOutput(model="m", result=[{"label": "cat", "score": 0.9}], served_by=served)
    assert content_for_llm(output, workspace) == json.dumps([{"label": "cat", "score": 0.9}])
    long = ExpertOutput(model="m", result=["x" * 10_000])
    shown = content_for_llm(long, workspace)
    assert len(shown) == MAX_RESULT_CHARS + 3 and shown.endswith("...")


def test_a_file_outside_the_workspace_is_named_without_its_folder(workspace, tmp_path_factory):
    elsewhere = tmp_path_factory.mktemp("elsewhere") / "speech.wav"
    output = ExpertOutput(model="m", audio=str(elsewhere), files=[str(workspace.outputs / "extra.json")])
    assert content_for_llm(output, workspace).splitlines() == [
        "audio written: speech.wav", "other files written: outputs/extra.json"]
    assert content_for_llm(ExpertOutput(model="m"), workspace) == "done; it produced no text and no file"
