"""Where langchain-hugginggpt keeps its data: the model catalog, the FAISS index, the run log."""

from __future__ import annotations

import os
from pathlib import Path

HOME_ENV = "HUGGINGGPT_HOME"


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
