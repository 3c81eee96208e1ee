"""Where derived model files go (ONNX exports, joined weights, node_modules): a cache that can
be deleted at any time and is rebuilt on demand, shared by every data folder."""

from __future__ import annotations

import os
from pathlib import Path

CACHE_ENV = "HUGGINGGPT_CACHE"


def cache_dir() -> Path:
    """`$HUGGINGGPT_CACHE`, else `$XDG_CACHE_HOME/langchain-hugginggpt` (~/.cache/...). Created on demand."""
    env = os.environ.get(CACHE_ENV)
    xdg = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    base = Path(env).expanduser() if env else xdg / "langchain-hugginggpt"
    base.mkdir(parents=True, exist_ok=True)
    return base
