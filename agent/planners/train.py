"""`hugginggpt train planner`: the learned planner's task-set model, trained from the back-instruct corpus.

Reads every `shard_*.jsonl` in the corpus folder (prompts/corpus/ by default: whatever shards exist),
trains `TaskSetClassifier` on the masked requests and their plans' task names, and writes
agent/planners/models/taskset.joblib (package data). Deterministic: the same shards give the same model.
"""

from __future__ import annotations

import argparse
import logging
import time
from pathlib import Path
from typing import Any, Sequence

from langchain_hugginggpt.agent.eval.taskbench import HF_TOOLS, Sample, ToolSet, load_samples
from langchain_hugginggpt.agent.planners.taskset import TASKSET_MODEL, TaskSetClassifier, model_text
from langchain_hugginggpt.agent.planners.text import parse

log = logging.getLogger(__name__)

CORPUS = Path(__file__).resolve().parents[2] / "prompts" / "corpus"
# Chosen by cross-validation on the corpus (bench/planning_cv.py): the threshold at which the
# classifier adds a task next to the rules' tasks.
DEFAULT_C = 10.0
DEFAULT_THRESHOLD = 0.9


def corpus_dir() -> Path:
    """prompts/corpus/ of this checkout, else of the installed package."""
    if CORPUS.is_dir():
        return CORPUS
    from importlib import resources

    return Path(str(resources.files("langchain_hugginggpt.prompts") / "corpus"))


def load_corpus(folder: str | Path | None = None) -> list[Sample]:
    """Every written shard's rows, in shard order."""
    folder = Path(folder) if folder else corpus_dir()
    files = sorted(folder.glob("shard_*.jsonl"))
    if not files:
        raise FileNotFoundError(f"no corpus shards (shard_*.jsonl) in {folder}")
    samples = [s for f in files for s in load_samples(f)]
    log.info("corpus: %d rows from %s", len(samples), ", ".join(f.name for f in files))
    return samples


def corpus_examples(folder: str | Path | None = None) -> list[tuple[str, Any]]:
    """The corpus as (request, Plan) pairs in our task names: demonstrations for the LLM chain."""
    from langchain_hugginggpt.agent.eval.taskbench import nodes_to_plan

    tools = ToolSet.load(HF_TOOLS)
    return [(s.request, nodes_to_plan(s.nodes, tools)) for s in load_corpus(folder)]


def task_labels(samples: Sequence[Sample], tools: ToolSet | None = None) -> list[list[str]]:
    """Each sample's plan as our task names (TaskBench's, lower-cased and hyphenated)."""
    tools = tools or ToolSet.load(HF_TOOLS)
    return [sorted({tools.our_name(n.task) for n in s.nodes}) for s in samples]


def train_taskset(samples: Sequence[Sample], c: float = DEFAULT_C, threshold: float = DEFAULT_THRESHOLD) -> TaskSetClassifier:
    return TaskSetClassifier.fit([model_text(parse(s.request)) for s in samples], task_labels(samples), c, threshold)


def train_planner(corpus: str | Path | None = None, out: str | Path = TASKSET_MODEL, c: float = DEFAULT_C,
                  threshold: float = DEFAULT_THRESHOLD) -> dict[str, Any]:
    """Train on the corpus and save; returns what was done (rows, seconds, file and size)."""
    start = time.perf_counter()
    samples = load_corpus(corpus)
    path = train_taskset(samples, c, threshold).save(out)
    return {"rows": len(samples), "seconds": round(time.perf_counter() - start, 1), "model": str(path),
            "bytes": path.stat().st_size}


def cmd_train_planner(args: argparse.Namespace) -> int:
    result = train_planner(args.corpus, args.out, args.c, args.threshold)
    print(f"trained the task-set model on {result['rows']} corpus rows in {result['seconds']} s: "
          f"{result['model']} ({result['bytes'] / 1e6:.1f} MB)")
    return 0


def add_commands(subparsers: Any) -> None:
    train = subparsers.add_parser("train", help="train a learned component from the shipped corpus")
    what = train.add_subparsers(dest="component", required=True)
    planner = what.add_parser("planner", help="the learned planner's task-set model (prompts/corpus/shard_*.jsonl)")
    planner.add_argument("--corpus", help="folder of shard_*.jsonl (default: prompts/corpus)")
    planner.add_argument("--out", default=str(TASKSET_MODEL), help="where to write the model (default: the shipped one)")
    planner.add_argument("--c", type=float, default=DEFAULT_C, help="inverse regularisation of the logistic regressions")
    planner.add_argument("--threshold", type=float, default=DEFAULT_THRESHOLD, help="probability at which a task is planned")
    planner.set_defaults(func=cmd_train_planner)
