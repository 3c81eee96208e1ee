"""The agent as a LangGraph graph, on the embedded defaults (`HuggingGPT.from_preset()`: the
offline retrieval planner, the top-ranked model, template answers) with real experts (OpenCV's
Canny, CenterNet) and real LangGraph checkpointers on SQLite files in a temporary folder."""

import os
import sqlite3
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")

import numpy as np  # noqa: E402
import pytest  # noqa: E402
from langgraph.checkpoint.sqlite import SqliteSaver  # noqa: E402
from PIL import Image, ImageDraw  # noqa: E402

from langchain_hugginggpt.agent.hugginggpt import HuggingGPT  # noqa: E402
from langchain_hugginggpt.core.workspace import Workspace  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
EDGES_REQUEST = "Give me the canny edge map of square.png"


def draw_square(path: Path) -> Path:
    image = Image.new("RGB", (96, 96), "white")
    ImageDraw.Draw(image).rectangle([24, 24, 72, 72], fill="black")
    image.save(path)
    return path


def canny(path: str | Path) -> np.ndarray:
    """The edge map the canny-control expert must produce for an image (OpenCV, 100/200)."""
    import cv2

    return cv2.Canny(np.asarray(Image.open(path).convert("RGB")), 100, 200)


def pixels(path: str | Path) -> np.ndarray:
    return np.asarray(Image.open(path).convert("L"))


@pytest.fixture
def home(tmp_path, monkeypatch) -> Path:
    """A private data folder: the run log goes there."""
    monkeypatch.setenv("HUGGINGGPT_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


@pytest.fixture
def workspace(tmp_path) -> Workspace:
    root = tmp_path / "workspace"
    root.mkdir()
    draw_square(root / "square.png")
    return Workspace(root)


def agent_for(workspace: Workspace) -> HuggingGPT:
    """The agent on the embedded defaults, as `hugginggpt chat` builds it."""
    return HuggingGPT.from_preset(workspace=workspace)


@pytest.fixture
def agent(home, workspace) -> HuggingGPT:
    return agent_for(workspace)


@pytest.fixture
def sqlite_file(tmp_path) -> Path:
    return tmp_path / "checkpoints.sqlite3"


@pytest.fixture
def saver(sqlite_file):
    """LangGraph's own SqliteSaver on a file, as a LangGraph user would make it."""
    connection = sqlite3.connect(sqlite_file, check_same_thread=False)
    yield SqliteSaver(connection)
    connection.close()


def thread(thread_id: str) -> dict:
    return {"configurable": {"thread_id": thread_id}}
