"""The back-instruct corpus as data: its written shards (prompts/corpus/shard_*.jsonl), who wrote them, the
labelled pool of TaskBench's own requests, and the corpus as (request, plan) demonstrations. The learned planner
reads its demonstrations from here at run time; training.py reads its rows from here too, and nothing here
imports the trainer."""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

from langchain_hugginggpt.planning.taskbench import HF_TOOLS, Sample, ToolSet, load_samples, nodes_to_plan

log = logging.getLogger(__name__)

CORPUS = Path(__file__).resolve().parents[1] / "prompts" / "corpus"


def corpus_dir() -> Path:
    """prompts/corpus/ of this checkout, else of the installed package."""
    if CORPUS.is_dir():
        return CORPUS
    from importlib import resources

    return Path(str(resources.files("langchain_hugginggpt.prompts") / "corpus"))


def load_corpus(folder: str | Path | None = None) -> list[Sample]:
    """Every written shard's rows, in shard order."""
    return [s for _, s in load_corpus_by_writer(folder)]


def load_corpus_by_writer(folder: str | Path | None = None) -> list[tuple[str, Sample]]:
    """(writer, row) for every written row."""
    return [(info["writer"], s) for info, s in corpus_rows(folder)]


def corpus_rows(folder: str | Path | None = None) -> list[tuple[dict[str, Any], Sample]]:
    """Every written row with its shard's `writers.json` entry: `writer` (the shard's name where the file
    does not say) and writing `round` (0 where it does not say)."""
    folder = Path(folder) if folder else corpus_dir()
    files = sorted(folder.glob("shard_*.jsonl"))
    if not files:
        raise FileNotFoundError(f"no corpus shards (shard_*.jsonl) in {folder}")
    path = folder / "writers.json"
    known = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
    rows = [({"writer": f.name, "round": 0, **known.get(f.name, {})}, s) for f in files for s in load_samples(f)]
    log.info("corpus: %d rows from %s", len(rows), ", ".join(f.name for f in files))
    return rows


def pool_dir(corpus: str | Path | None = None) -> Path:
    """The labelled pool of TaskBench's own requests: pool/ in the corpus folder."""
    return (Path(corpus) if corpus else corpus_dir()) / "pool"


def pool_rows(folder: str | Path | None = None) -> list[tuple[str, Sample]]:
    """(reader, row) for every labelled pool row (pool/shard_*.jsonl: whatever shards exist; none is no error).
    A reader plays a writer's part in the cross-fitting: `pool-<reader>`."""
    folder = Path(folder) if folder else pool_dir()
    out = []
    for path in sorted(folder.glob("shard_*.jsonl")):
        readers = [json.loads(line).get("reader", path.stem) for line in path.read_text(encoding="utf-8").splitlines()
                   if line.strip()]
        samples = load_samples(path)
        if len(samples) != len(readers):
            raise ValueError(f"{path}: unreadable rows")
        out += [(f"pool-{r}", s) for r, s in zip(readers, samples)]
    log.info("pool: %d rows from %s", len(out), folder)
    return out


def corpus_examples(folder: str | Path | None = None) -> list[tuple[str, Any]]:
    """The corpus as (request, Plan) pairs in our task names: demonstrations for the LLM chain."""
    tools = ToolSet.load(HF_TOOLS)
    return [(s.request, nodes_to_plan(s.nodes, tools)) for s in load_corpus(folder)]
