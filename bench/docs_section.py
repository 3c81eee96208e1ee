"""One section of docs/benchmarks.md, replaced in place by the benchmark that measures it.

    python bench/bench_x.py --write   ->   replace_section(DOC, "## X", text)

Each benchmark owns the section under its heading, up to the next '## ' heading; a section not
there yet is appended. (The bench scripts run as `python bench/NAME.py`, so this imports by name.)
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path
from typing import Callable

DOC = Path(__file__).resolve().parent.parent / "docs" / "benchmarks.md"


def replace_section(path: Path, heading: str, text: str) -> None:
    doc = path.read_text(encoding="utf-8") if path.exists() else "# Benchmarks\n"
    pattern = re.compile(rf"^{re.escape(heading)}\n.*?(?=^## |\Z)", re.S | re.M)
    text = text.rstrip("\n") + "\n"
    doc = pattern.sub(lambda _: text + "\n", doc) if pattern.search(doc) else doc.rstrip() + "\n\n" + text
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(doc, encoding="utf-8")


def print_or_write(description: str, heading: str, measure: Callable[[], str], argv: list[str] | None = None) -> int:
    """A benchmark's command line: measure, print the section, and with `--write` replace it in DOC."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--write", action="store_true", help="replace the section in docs/benchmarks.md")
    args = parser.parse_args(argv)
    text = measure()
    print(text)
    if args.write:
        replace_section(DOC, heading, text)
    return 0
