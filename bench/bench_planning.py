"""Planning quality and speed on TaskBench (Hugging Face tools domain), written to docs/benchmarks.md.

    python bench/bench_planning.py                      # retrieval planner on ../shared/data/taskbench/hf_dev.jsonl
    python bench/bench_planning.py --llm local          # also SmolLM2 through the LLM chain, with and without retrieval help
    python bench/bench_planning.py --no-write           # print only

Only the "Planning (TaskBench)" section of docs/benchmarks.md is replaced; other sections stay.
"""

from __future__ import annotations

import argparse
import platform
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data" / "taskbench" / "hf_dev.jsonl"
DOC = ROOT / "docs" / "benchmarks.md"
HEADING = "## Planning (TaskBench)"

PUBLISHED = """Published on the same domain (TaskBench paper/README, full test set, node / edge / arg-name / arg-value F1):
GPT-4 81.54 / 54.70 / 77.31 / 60.86; GPT-3.5-turbo 69.49 / 33.36 / 55.88 / 36.32; Claude-2 79.00 / 43.51 / 63.00 / 43.08;
CodeLlama-13b 53.16 / 14.64 / 32.06 / 18.87."""


def run(planner_name: str, llm: str | None, retrieval_help: bool, data: Path) -> dict:
    from langchain_hugginggpt.agent.eval.cli import make_planner
    from langchain_hugginggpt.agent.eval.taskbench import ToolSet, evaluate, find_tool_list

    tools = ToolSet.load(find_tool_list(data))
    planner = make_planner(planner_name, tools.our_tasks(), llm, retrieval_help=retrieval_help)
    return evaluate(data, planner, tools)


def rows(label: str, result: dict) -> list[str]:
    from langchain_hugginggpt.agent.eval.cli import METRICS

    def cell(value) -> str:
        return "-" if value is None else f"{value:.2f}"

    out = []
    for split, r in [("all", result)] + sorted(result["by_type"].items()):
        latency = cell(result["latency_ms_median"]) if split == "all" else ""
        invalid = str(result["invalid_plans"]) if split == "all" else ""
        out.append(f"| {label} | {split} | {r['n']} | " + " | ".join(cell(r[m]) for m in METRICS) + f" | {latency} | {invalid} |")
    return out


def section(results: list[tuple[str, str, dict]], rel: str) -> str:
    lines = [
        HEADING, "",
        f"Development sample `{rel}` "
        f"(146 requests: 65 single, 67 chain, 14 DAG), metrics as TaskBench's evaluate.py computes them "
        "(percent; NED = 1 - mean Levenshtein ratio of the tool sequences, lower is better). "
        f"Measured {time.strftime('%Y-%m-%d')} on {platform.machine()} with {_cores()} CPU cores shared with other work.",
        "",
        "| planner | split | n | node F1 | edge F1 | arg-name F1 | arg-value F1 | NED | median ms | invalid |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    commands = []
    for label, command, result in results:
        lines += rows(label, result)
        commands.append(f"    {command}")
    lines += ["", "Commands:", "", *commands, "", PUBLISHED, ""]
    if not any(label.startswith("SmolLM2") for label, _, _ in results):
        lines += ["<!-- LLM rows: `python bench/bench_planning.py --llm local` adds SmolLM2-135M through the LLM chain,",
                  "     with and without retrieval help (dynamic few-shot + narrowed task list). -->", ""]
    return "\n".join(lines)


def _cores() -> int:
    import os

    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 0


def write_section(text: str) -> None:
    """Replace our section of docs/benchmarks.md (up to the next '## ' heading), or append it."""
    doc = DOC.read_text(encoding="utf-8") if DOC.exists() else "# Benchmarks\n"
    pattern = re.compile(rf"^{re.escape(HEADING)}\n.*?(?=^## |\Z)", re.S | re.M)
    doc = pattern.sub(lambda _: text + "\n", doc) if pattern.search(doc) else doc.rstrip() + "\n\n" + text + "\n"
    DOC.parent.mkdir(parents=True, exist_ok=True)
    DOC.write_text(doc, encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--llm", help="also run the LLM chain with this preset (e.g. local)")
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args(argv)

    data = args.data.resolve()
    rel = "../shared/data/taskbench/hf_dev.jsonl" if data == DATA.resolve() else str(data)
    results = [("retrieval (offline)", f"hugginggpt eval taskbench {rel} --planner retrieval",
                run("retrieval", None, True, data))]
    if args.llm:
        results.append((f"SmolLM2 ({args.llm}) + retrieval help",
                        f"hugginggpt eval taskbench {rel} --planner llm --llm {args.llm}",
                        run("llm", args.llm, True, data)))
        results.append((f"SmolLM2 ({args.llm}), no retrieval help",
                        f"hugginggpt eval taskbench {rel} --planner llm --llm {args.llm} --no-retrieval-help",
                        run("llm", args.llm, False, data)))
    text = section(results, rel)
    print(text)
    if not args.no_write:
        write_section(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
