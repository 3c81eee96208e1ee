"""Where langchain-hugginggpt keeps things: the user's data (model catalog, FAISS index, run log,
conversations) and a cache of derived model files (ONNX exports, joined weights, node_modules) that
can be deleted at any time and is rebuilt on demand."""

from __future__ import annotations

import os
from pathlib import Path

HOME_ENV = "HUGGINGGPT_HOME"
CACHE_ENV = "HUGGINGGPT_CACHE"


def data_dir() -> Path:
    """The user data folder: `$HUGGINGGPT_HOME`, else `$XDG_DATA_HOME/langchain-hugginggpt`
    (`~/.local/share/langchain-hugginggpt`). Created on first use."""
    if os.environ.get(HOME_ENV):
        path = Path(os.environ[HOME_ENV]).expanduser()
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
        path = base / "langchain-hugginggpt"
    path.mkdir(parents=True, exist_ok=True)
    return path


def cache_dir() -> Path:
    """`$HUGGINGGPT_CACHE`, else `$XDG_CACHE_HOME/langchain-hugginggpt` (~/.cache/...). Created on demand."""
    env = os.environ.get(CACHE_ENV)
    xdg = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    base = Path(env).expanduser() if env else xdg / "langchain-hugginggpt"
    base.mkdir(parents=True, exist_ok=True)
    return base
