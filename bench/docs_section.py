"""One section of docs/benchmarks.md, replaced in place by the benchmark that measures it.

    python bench/bench_x.py --write   ->   replace_section(DOC, "## X", text)

Each benchmark owns the section under its heading, up to the next '## ' heading; a section not
there yet is appended. (The bench scripts run as `python bench/NAME.py`, so this imports by name.)
"""

from __future__ import annotations

import re
from pathlib import Path


def replace_section(path: Path, heading: str, text: str) -> None:
    doc = path.read_text(encoding="utf-8") if path.exists() else "# Benchmarks\n"
    pattern = re.compile(rf"^{re.escape(heading)}\n.*?(?=^## |\Z)", re.S | re.M)
    text = text.rstrip("\n") + "\n"
    doc = pattern.sub(lambda _: text + "\n", doc) if pattern.search(doc) else doc.rstrip() + "\n\n" + text
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(doc, encoding="utf-8")
