"""How far two independent readings of the same requests agree: the pool's second reading against its shards.

    python3 prompts/corpus/pool/agree.py                  # every second/second_XX.jsonl against the shards
    python3 prompts/corpus/pool/agree.py --show 20        # and the first 20 rows whose tools differ

Per row: the same tool set, the same links. Micro-averaged F1 over tools (nodes), links (edges) and argument
values ((tool, argument) pairs, <node-j> read as the tool it names), as TaskBench scores a plan. Standard library only.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
import check  # noqa: E402


def parts(row: dict) -> tuple[set, set, set]:
    tasks = [n["task"] for n in row["task_nodes"]]
    nodes = set(tasks)
    links = {(link["source"], link["target"]) for link in row["task_links"]}
    args = set()
    for node in row["task_nodes"]:
        for arg in node["arguments"]:
            ref = check.NODE_REF.match(arg)
            args.add((node["task"], f"<{tasks[int(ref.group(1))]}>" if ref else " ".join(arg.lower().split())))
    return nodes, links, args


def f1(tp: int, got: int, want: int) -> float:
    return 200 * tp / (got + want) if got + want else 100.0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--show", type=int, default=0, help="print this many rows whose tools differ")
    args = parser.parse_args()
    first = {r["id"]: r for p in sorted(HERE.glob("shard_*.jsonl")) for r in check.load(p)}
    second = [r for p in sorted((HERE / "second").glob("second_*.jsonl")) for r in check.load(p)]
    counts, shown = Counter(), 0
    for row in second:
        other = first.get(row["id"])
        if other is None:
            counts["unread"] += 1
            continue
        counts["rows"] += 1
        for name, a, b in zip(("node", "edge", "arg"), parts(row), parts(other)):
            counts[f"{name} tp"] += len(a & b)
            counts[f"{name} got"] += len(a)
            counts[f"{name} want"] += len(b)
        same_nodes = parts(row)[0] == parts(other)[0]
        counts["same tools"] += same_nodes
        counts["same tools and links"] += same_nodes and parts(row)[1] == parts(other)[1]
        if not same_nodes and shown < args.show:
            shown += 1
            print(f"{row['id']}: {row['instruction'][:300]}\n  second: {[n['task'] for n in row['task_nodes']]}"
                  f"\n  first:  {[n['task'] for n in other['task_nodes']]}\n")
    n = counts["rows"]
    print(f"{n} rows read twice ({counts['unread']} not yet in a shard): same tools {counts['same tools']} "
          f"({100 * counts['same tools'] / max(n, 1):.1f}%), same tools and links {counts['same tools and links']} "
          f"({100 * counts['same tools and links'] / max(n, 1):.1f}%)")
    print("F1 of one reading against the other: " + ", ".join(
        f"{name} {f1(counts[f'{name} tp'], counts[f'{name} got'], counts[f'{name} want']):.1f}"
        for name in ("node", "edge", "arg")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
