"""`hugginggpt eval taskbench [FILE] [--planner auto|learned|retrieval|llm] [--llm PRESET] [--predictions OUT]
[--score PREDICTIONS] [--json]`."""

from __future__ import annotations

import argparse
import json
import os
from typing import Any

from langchain_hugginggpt.core.arguments import positive_int
from langchain_hugginggpt.planning.taskbench import (
    HF_DEV, ToolSet, find_tool_list, load_samples, predict, prediction_row, read_predictions, report)

METRICS = ("node_f1", "edge_f1", "arg_name_f1", "arg_value_f1", "ned")


class _SyncLLMPlanner:
    """The lead's LLM planning chain behind the Planner protocol, helped (or not) by retrieval."""

    def __init__(self, llm: Any, tasks: list[str], retrieval_help: bool) -> None:
        from langchain_hugginggpt.agent.llm_planner import (
            LLMPlanner,  # imported lazily: it needs the chain
        )

        helper = offline_planner("auto", tasks)
        likely = helper.likely_tasks if retrieval_help else (lambda request, n: tasks)
        self.name = "llm+retrieval" if retrieval_help else "llm"
        self.inner = LLMPlanner(llm, select_examples=helper.select_examples if retrieval_help else None,
                                likely_tasks=likely, n_tasks=12 if retrieval_help else len(tasks))

    def plan(self, request: str, chat_history: list[dict] | None = None) -> Any:
        import asyncio

        output = asyncio.run(self.inner.aplan(request, chat_history))
        output.planner = self.name
        return output


class _AutoPlanner:
    """Retrieval when it is confident, else the LLM chain (the agent's default)."""

    def __init__(self, retrieval: Any, llm: Any | None, threshold: float) -> None:
        self.retrieval, self.llm, self.threshold = retrieval, llm, threshold
        self.name = "auto"

    def plan(self, request: str, chat_history: list[dict] | None = None) -> Any:
        output = self.retrieval.plan(request, chat_history)
        if self.llm is None or output.confidence >= self.threshold:
            return output
        return self.llm.plan(request, chat_history)


def offline_planner(name: str, tasks: list[str]) -> Any:
    """`learned`, `retrieval`, or for `auto` the agent's default offline planner, restricted to `tasks`."""
    from langchain_hugginggpt.planning import offline_planner_class

    return offline_planner_class(name)(tasks=tasks)


def make_planner(name: str, tasks: list[str], llm_preset: str | None = None, retrieval_help: bool = True,
                 threshold: float = 0.6) -> Any:
    """A planner restricted to `tasks` (the benchmark's tool list, in our task names)."""

    def llm_planner() -> Any:
        from langchain_hugginggpt.agent.llms import load_llm

        return _SyncLLMPlanner(load_llm(llm_preset or "local"), tasks, retrieval_help)

    if name in ("retrieval", "learned"):
        return offline_planner(name, tasks)
    if name == "llm":
        return llm_planner()
    return _AutoPlanner(offline_planner("auto", tasks), llm_planner() if llm_preset else None, threshold)


def cmd_taskbench(args: argparse.Namespace) -> int:
    from pathlib import Path

    if not Path(args.file).is_file():
        raise FileNotFoundError(f"TaskBench data file {args.file} " + ("is a folder" if Path(args.file).is_dir() else "not found"))
    tool_list = args.tools or find_tool_list(args.file)
    if args.score and args.predictions:
        raise ValueError("--score reads predictions and --predictions writes them: give one of the two")
    if args.predictions:  # before planning, which may take hours with a paid LLM
        check_output(args.predictions, inputs=(args.file, tool_list))
    tools = ToolSet.load(tool_list)
    samples = load_samples(args.file, args.limit)
    if args.score:  # a predictions file scored as it is: no planner runs
        if not Path(args.score).is_file():
            raise FileNotFoundError(f"predictions file {args.score} " + ("is a folder" if Path(args.score).is_dir() else "not found"))
        predictions, source = read_predictions(args.score, samples), Path(args.score).name
    else:
        tasks = [t for t in tools.our_tasks() if t in _known_tasks()]
        planner = make_planner(args.planner, tasks, args.llm, retrieval_help=not args.no_retrieval_help)
        predictions, source = predict(samples, planner, tools), args.planner
    result = report(predictions, tools)
    if args.json:
        print(json.dumps(result, ensure_ascii=False))
    else:
        print(format_table(result, title=f"{Path(args.file).name} ({source})"))
    if args.predictions:  # after the scores are out: a failed write loses only the file
        write_predictions(predictions, args.predictions)
    return 0


def check_output(path: str, inputs: tuple) -> None:
    """Refuse, before any work, an output file that would overwrite an input or cannot be written."""
    from pathlib import Path

    out = Path(path).expanduser()
    if any(Path(i).exists() and out.resolve() == Path(i).resolve() for i in inputs):
        raise ValueError(f"--predictions {path} is an input of this run; give another file name")
    if out.is_dir():
        raise ValueError(f"--predictions {path} is a folder; give a file name")
    if not out.resolve().parent.is_dir():
        raise ValueError(f"--predictions {path}: folder {out.parent} not found")
    existed = out.exists()
    try:  # a folder that exists may still refuse a new file (read-only, /proc): find out now, not after the run
        with open(out, "a", encoding="utf-8"):
            pass
    except OSError as exc:
        raise ValueError(f"--predictions {path} cannot be written: {exc.strerror or exc}") from None
    if not existed:
        out.unlink(missing_ok=True)


def write_predictions(predictions: list, path: str) -> None:
    """One line per sample in TaskBench's format (see `prediction_row`)."""
    from pathlib import Path

    lines = [json.dumps(prediction_row(p), ensure_ascii=False) for p in predictions]
    Path(path).write_text("\n".join(lines) + "\n", encoding="utf-8")


def _known_tasks() -> set[str]:
    from langchain_hugginggpt.core.tasks import TASKS

    return set(TASKS)


def format_table(result: dict[str, Any], title: str = "") -> str:
    """Markdown table: one row overall and one per type."""
    def cell(value: Any) -> str:
        return "-" if value is None else f"{value:.2f}" if isinstance(value, float) else str(value)

    rows = [("all", result)] + list(result.get("by_type", {}).items())
    lines = [f"{title}".strip(), "",
             "| split | n | node F1 | edge F1 | arg-name F1 | arg-value F1 | NED |", "|---|---|---|---|---|---|---|"]
    lines += [f"| {name} | {r['n']} | " + " | ".join(cell(r[m]) for m in METRICS) + " |" for name, r in rows]
    timing = (f"median planning time: {cell(result['latency_ms_median'])} ms" if result["latency_ms_median"] is not None
              else "planning not timed (plans read from a file)")
    lines += ["", f"{timing}; invalid plans: {result['invalid_plans']}"]
    return "\n".join(lines).strip()


def add_commands(subparsers: Any) -> None:
    evaluation = subparsers.add_parser("eval", help="evaluate planning on a benchmark")
    benches = evaluation.add_subparsers(dest="benchmark", required=True)
    tb = benches.add_parser("taskbench", help="TaskBench task planning (node/edge/argument F1, NED)")
    tb.add_argument("file", nargs="?", default=str(HF_DEV),
                    help="TaskBench JSONL (default: the Hugging Face development sample shipped with the package)")
    tb.add_argument("--tools", help="TaskBench tool_desc.json (default: the one beside FILE, else the Hugging Face tool list)")
    tb.add_argument("--planner", choices=["auto", "learned", "retrieval", "llm"], default="auto")
    tb.add_argument("--llm", default=os.environ.get("HUGGINGGPT_LLM"),
                    help="controller preset for --planner llm/auto (e.g. local, openai:gpt-4o-mini)")
    tb.add_argument("--no-retrieval-help", action="store_true",
                    help="LLM path: show all tasks and the fixed demos instead of retrieved ones")
    tb.add_argument("--limit", type=positive_int, help="score only the first N samples")
    tb.add_argument("--predictions", metavar="OUT.jsonl",
                    help="also write each sample's plan in TaskBench's format (id, task_nodes, task_links)")
    tb.add_argument("--score", metavar="PREDICTIONS.jsonl",
                    help="score this file of predictions in TaskBench's format (id, task_nodes) instead of planning")
    tb.add_argument("--json", action="store_true", help="print one JSON object")
    tb.set_defaults(func=cmd_taskbench)

