"""The wheel holds every module and data file of the four packages (pip install . must work)."""

import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = ("agent", "tools", "prompts", "retriever")
SUFFIXES = (".py", ".md", ".json", ".jsonl", ".mjs", ".html", ".js", ".css", ".npz")  # .npz: the learned planner's model


def test_wheel_contains_every_source_file(tmp_path):
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
                    "-w", str(tmp_path), str(ROOT)], check=True, timeout=300)
    wheel = next(tmp_path.glob("langchain_hugginggpt-*.whl"))
    names = set(zipfile.ZipFile(wheel).namelist())
    expected = set()
    for folder in FOLDERS:
        for path in (ROOT / folder).rglob("*"):
            shipped = path.suffix in SUFFIXES or path.name == "LICENSE"  # data ships with its licence
            if path.is_file() and "__pycache__" not in path.parts and shipped:
                expected.add(f"langchain_hugginggpt/{folder}/{path.relative_to(ROOT / folder).as_posix()}")
    missing = sorted(expected - names)
    assert not missing, f"not in the wheel: {missing}"
    entry = [n for n in names if n.endswith("entry_points.txt")]
    assert entry and "hugginggpt = langchain_hugginggpt.agent.cli:main" in zipfile.ZipFile(wheel).read(entry[0]).decode()
