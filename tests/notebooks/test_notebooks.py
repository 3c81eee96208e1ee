"""The notebooks in notebooks/ run top to bottom offline on the embedded defaults, show
what they promise (images, audio, plots), and are committed without outputs.

Each notebook runs in its own Jupyter kernel with a private HUGGINGGPT_HOME, so the
catalog, index and run log it writes never touch the user's data. The notebooks hold
their own checks (asserts on what the embedded defaults give), so a notebook that runs
but computes the wrong thing fails here too.
"""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
NAMES = [
    "01_quickstart.ipynb",
    "02_compose_with_langchain.ipynb",
    "03_models_and_retrieval.ipynb",
    "04_evaluate_planning.ipynb",
    "05_langgraph.ipynb",
    "06_mcp.ipynb",
]
# What each notebook must display when run: inline images (PNG: a picture or a plot) and playable audio.
SHOWS = {
    "01_quickstart.ipynb": {"image", "audio", "markdown"},
    "02_compose_with_langchain.ipynb": {"image", "audio", "markdown"},
    "03_models_and_retrieval.ipynb": {"image", "markdown"},
    "04_evaluate_planning.ipynb": {"image", "markdown"},
    "05_langgraph.ipynb": {"image", "audio", "markdown"},
    "06_mcp.ipynb": {"image", "audio", "markdown"},
}


def read(name: str) -> nbformat.NotebookNode:
    return nbformat.read(NOTEBOOKS / name, as_version=4)


def test_the_notebooks_are_these_six():
    assert sorted(p.name for p in NOTEBOOKS.glob("*.ipynb")) == NAMES


@pytest.mark.parametrize("name", NAMES)
def test_committed_without_outputs(name):
    notebook = read(name)
    nbformat.validate(notebook)
    for number, cell in enumerate(notebook.cells, 1):
        if cell.cell_type != "code":
            continue
        where = f"{name} cell {number}: run `nbstripout notebooks/*.ipynb` before committing"
        assert cell.outputs == [], where
        assert cell.execution_count is None, where
        assert "execution" not in cell.metadata, where  # nbclient's timing metadata


@pytest.mark.parametrize("name", NAMES)
def test_opens_with_what_it_shows_and_how_to_use_a_stronger_llm(name):
    first = read(name).cells[0]
    assert first.cell_type == "markdown" and first.source.startswith("# ")
    assert "shows" in first.source
    for needle in ("openai:", "OPENAI_API_KEY", "OPENAI_BASE_URL", "hf:", "HUGGINGGPT_LLM"):
        assert needle in first.source, f"{name}: the first cell does not mention {needle}"


def displayed(notebook: nbformat.NotebookNode) -> set[str]:
    kinds = set()
    for cell in notebook.cells:
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            if "image/png" in data:
                kinds.add("image")
            if "<audio" in data.get("text/html", ""):
                kinds.add("audio")
            if "text/markdown" in data:
                kinds.add("markdown")
    return kinds


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_runs_top_to_bottom_offline(name, tmp_path, monkeypatch):
    from nbclient import NotebookClient

    monkeypatch.setenv("HUGGINGGPT_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("MPLBACKEND", "module://matplotlib_inline.backend_inline")
    for variable in ("HUGGINGGPT_LLM", "HUGGINGGPT_EVAL_LLM", "HUGGINGGPT_ALLOW_DOWNLOADS"):
        monkeypatch.delenv(variable, raising=False)  # the embedded defaults, whatever the shell has set

    notebook = read(name)
    # Runs in notebooks/, as Jupyter would; a failing cell raises CellExecutionError with its traceback.
    NotebookClient(notebook, timeout=600, kernel_name="python3",
                   resources={"metadata": {"path": str(NOTEBOOKS)}}).execute()

    assert SHOWS[name] <= displayed(notebook), f"{name} displayed only {displayed(notebook)}"
    log = tmp_path / "home" / "runs.jsonl"
    if name in ("01_quickstart.ipynb", "02_compose_with_langchain.ipynb", "05_langgraph.ipynb"):
        assert log.is_file(), "the agent's runs were not logged in the private HUGGINGGPT_HOME"
