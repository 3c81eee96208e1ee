"""The repository stands alone: nothing in it reads data from beside the checkout.

A user has the repository and nothing next to it, so code, tests, notebooks, benchmarks and docs must use the
copies that ship inside it (planning/data, retriever/data). This fails on any reference to a sibling folder.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SIBLING = "shared"
PATTERNS = re.compile(
    r"\.\./" + SIBLING + r"\b"                                 # ../<sibling>/...
    + r"|parents?(\[\d\])?\s*/\s*\\?[\"']" + SIBLING + r"\\?[\"']"      # Path(...).parents[3] / "<sibling>"
    + r"|\.parent\s*/\s*\\?[\"']" + SIBLING + r"\\?[\"']"        # ROOT.parent / "<sibling>" (also escaped, in JSON)
)


def _tracked_files() -> list[Path]:
    try:
        names = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
        return [ROOT / name for name in names.splitlines()]
    except (OSError, subprocess.CalledProcessError):  # a source tree without git: every file but build outputs
        skip = {".git", "outputs", "build", "dist", "__pycache__", "node_modules"}
        return [p for p in ROOT.rglob("*") if p.is_file() and not skip & set(p.relative_to(ROOT).parts)]


def test_nothing_reads_from_beside_the_repository():
    offenders = []
    for path in _tracked_files():
        if path.suffix not in {".py", ".md", ".ipynb", ".sh", ".toml", ".json", ".cfg", ".txt", ".yaml", ".yml", ""}:
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        for n, line in enumerate(text.splitlines(), 1):
            if PATTERNS.search(line):
                offenders.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()[:120]}")
    assert not offenders, "files that read outside the repository:\n" + "\n".join(offenders)


# The spellings are built from SIBLING, so that this file names no such path itself.
@pytest.mark.parametrize("line", [f'DATA = ROOT.parent / "{SIBLING}" / "data"', f"hugginggpt eval ../{SIBLING}/x.jsonl",
                                  f"P0 = Path(__file__).parents[3] / '{SIBLING}'"])
def test_the_check_catches_the_spellings_seen_before(line):
    assert PATTERNS.search(line)


def test_shipped_data_carries_its_licence():
    for folder in (ROOT / "planning" / "data", ROOT / "retriever" / "data"):
        assert "MIT License" in (folder / "LICENSE").read_text(encoding="utf-8")
        assert "microsoft/JARVIS" in (folder / "README.md").read_text(encoding="utf-8")
