"""Every front refuses an empty or overlong request by name, through one check (schema.request_problem)."""

import pytest
from langchain_core.messages import AIMessage, HumanMessage
from pydantic import ValidationError

from langchain_hugginggpt.agent.graph import turn_input
from langchain_hugginggpt.agent.hugginggpt import HuggingGPTInput
from langchain_hugginggpt.core.schema import MAX_REQUEST_CHARS, request_problem


def test_the_limit_is_inclusive_and_names_the_length():
    assert request_problem("x" * MAX_REQUEST_CHARS) is None
    assert request_problem("x" * (MAX_REQUEST_CHARS + 1)).startswith(f"the request is {MAX_REQUEST_CHARS + 1:,} characters")
    assert request_problem(" \n\t") == "the request is empty"


@pytest.mark.parametrize("request_, problem", [("", "is empty"), ("good " * 5000, "at most 20,000 are planned")])
def test_the_runnable_input_and_the_graph_refuse_the_same_requests(request_, problem):
    with pytest.raises(ValidationError, match=problem):
        HuggingGPTInput(request=request_)
    with pytest.raises(ValueError, match=problem):
        turn_input([HumanMessage("caption photo.jpg"), AIMessage("a dog"), HumanMessage(request_)])


def test_a_request_at_the_limit_is_planned():
    from langchain_hugginggpt.planning import default_planner

    # a quote padded across most of the limit: the masked padding once made clause splitting quadratic
    request_ = "Read this aloud: '" + "good " * (MAX_REQUEST_CHARS // 5 - 10) + "'"
    plan = default_planner("retrieval").plan(request_).plan
    assert [t.task for t in plan.tasks] == ["text-to-speech"]


def test_files_sent_inline_are_bounded_in_size_and_in_total(tmp_path, monkeypatch):
    """A file sent inline is written to disk: one is at most MAX_INLINE_BYTES, and none is kept once uploads/
    holds MAX_INLINE_STORAGE, each refused by name before anything is written."""
    import base64
    import io

    from PIL import Image

    from langchain_hugginggpt.core import workspace as ws

    def png(colour: str) -> str:
        buffer = io.BytesIO()
        Image.new("RGB", (64, 64), colour).save(buffer, "PNG")
        return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode()

    space = ws.Workspace(tmp_path)
    first = space.save_inline(png("red"))
    assert first.startswith("uploads/inline-") and (tmp_path / first).is_file()
    assert space.save_inline(png("red")) == first  # the same file sent again
    monkeypatch.setattr(ws, "MAX_INLINE_BYTES", 100)
    with pytest.raises(ws.WorkspaceError, match="larger than"):
        space.save_inline(png("blue"))
    monkeypatch.setattr(ws, "MAX_INLINE_BYTES", 20 * 2**20)
    monkeypatch.setattr(ws, "MAX_INLINE_STORAGE", (tmp_path / first).stat().st_size + 10)
    with pytest.raises(ws.WorkspaceError, match="holds over"):
        space.save_inline(png("blue"))
    assert [p.name for p in (tmp_path / "uploads").iterdir()] == [first.split("/")[1]]
