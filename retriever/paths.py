"""Where langchain-hugginggpt keeps its data: the catalog, the FAISS index, the run log."""

from __future__ import annotations

import os
from pathlib import Path


def data_dir() -> Path:
    """`$HUGGINGGPT_HOME`, else `$XDG_DATA_HOME/langchain-hugginggpt` (~/.local/share/...). Created on demand."""
    home = os.environ.get("HUGGINGGPT_HOME")
    if home:
        path = Path(home).expanduser()
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
        path = base / "langchain-hugginggpt"
    path.mkdir(parents=True, exist_ok=True)
    return path
