"""Load the corpus folders' scripts (prompts/corpus/*.py, prompts/corpus/pool/*.py) as modules: they are
standard-library tools run from the shell, not part of the package, and import their neighbours by name."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

CORPUS = Path(__file__).resolve().parent.parent / "prompts" / "corpus"


def load_script(path: Path, search: Path) -> ModuleType:
    """The script at `path` as a module, with `search` on sys.path while it loads (for its own imports)."""
    sys.path.insert(0, str(search))
    try:
        spec = importlib.util.spec_from_file_location(f"corpus_{path.parent.name}_{path.stem}", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(search))
