"""Turn a reader's drafts of TaskBench requests into labelled pool rows, checking each one.

    python3 prompts/corpus/pool/build.py drafts/shard_00.jsonl --out prompts/corpus/pool/shard_00.jsonl
    python3 prompts/corpus/pool/build.py --check prompts/corpus/pool/shard_*.jsonl

A draft line is what a reader wrote for one request (LABELLING.md):

    {"id": "13951357", "nodes": [["Summarization", "<<Environmental issues|||fragile planet.>>"]]}

Each node is [tool, argument, ...] in the tool list's input order. An argument is
  - a text or file name the request says verbatim (checked, case-insensitive);
  - "<<START|||END>>": the request's own span from START to END (saves copying a long passage);
  - "<node-j>": the output of node j, an earlier node;
  - "~TEXT": the plain form of a question, edit or scene the request says in its own words (not checked).
Links follow from the <node-j> references; type and n_tools from the graph's shape. The row must be a valid
plan over TaskBench's tool graph (`check.plan_errors`). Standard library only.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
import check  # noqa: E402

SPAN = re.compile(r"^<<(.+?)\|\|\|(.+?)>>$", re.S)
ROW_KEYS = {"id", "type", "n_tools", "instruction", "task_nodes", "task_links", "paraphrased", "reader"}


def expand(arg: str, request: str) -> str:
    """A span argument as the request's own words; anything else unchanged."""
    span = SPAN.match(arg)
    if not span:
        return arg
    start, end = span.group(1), span.group(2)
    i = request.find(start)
    if i < 0:
        raise ValueError(f"span start {start!r} is not in the request")
    j = request.find(end, i + len(start) - len(end) if len(end) < len(start) else i)
    if j < 0:
        raise ValueError(f"span end {end!r} does not follow {start!r} in the request")
    return request[i:j + len(end)]


def shape(n_nodes: int, links: list[tuple[str, str]], tasks: list[str]) -> str:
    """TaskBench's types: one tool, one path, or anything else (its "dag"s include a few unconnected ones)."""
    if n_nodes == 1:
        return "single"
    return "chain" if not check.shape_errors("chain", n_nodes, tasks, links) else "dag"


def build_row(draft: dict, request: str, reader: str) -> dict:
    nodes, paraphrased = [], []
    for node in draft["nodes"]:
        if not isinstance(node, list) or not node or not isinstance(node[0], str):
            raise ValueError(f"node {node!r} is not [tool, argument, ...]")
        args = []
        for arg in node[1:]:
            if not isinstance(arg, str):
                raise ValueError(f"argument {arg!r} of {node[0]} is not a string")
            if arg.startswith("~"):
                arg = arg[1:].strip()
                paraphrased.append(arg)
            args.append(expand(arg, request))
        nodes.append({"task": node[0], "arguments": args})
    tasks = [n["task"] for n in nodes]
    links = []
    for i, node in enumerate(nodes):
        for arg in node["arguments"]:
            ref = check.NODE_REF.match(arg)
            if ref and int(ref.group(1)) < len(tasks):
                links.append((tasks[int(ref.group(1))], tasks[i]))
    return {"id": draft["id"], "type": shape(len(nodes), links, tasks), "n_tools": len(nodes),
            "instruction": request, "task_nodes": nodes,
            "task_links": [{"source": s, "target": t} for s, t in links],
            "paraphrased": paraphrased, "reader": reader}


def row_errors(row: dict) -> list[str]:
    if set(row) != ROW_KEYS:
        return [f"keys {sorted(row)} (want {sorted(ROW_KEYS)})"]
    tasks = [n.get("task") for n in row["task_nodes"]]
    links = [(link.get("source"), link.get("target")) for link in row["task_links"]]
    # a "dag" may be unconnected (two unrelated asks in one request), so the shape is checked here
    errors = [e for e in check.plan_errors(row) if not e.startswith("a dag must")]
    if not errors and row["type"] != shape(len(tasks), links, tasks):
        errors.append(f"type {row['type']!r} but the graph is a {shape(len(tasks), links, tasks)}")
    if errors:
        return errors
    said = set(row["paraphrased"])
    text = check._norm(row["instruction"])
    return [f"literal {a!r} is not in the request (mark a paraphrase with ~)" for a in check.literals(row)
            if a not in said and check._norm(a) not in text]


def load_requests(path: Path) -> dict[str, str]:
    return {r["id"]: r.get("user_request") or r["instruction"] for r in check.load(path)}


def build(draft_path: Path, requests: dict[str, str], reader: str) -> tuple[list[dict], list[str]]:
    rows, problems, seen = [], [], set()
    for draft in check.load(draft_path):
        rid = str(draft.get("id"))
        try:
            if rid not in requests:
                raise ValueError("no such request id")
            if rid in seen:
                raise ValueError("id drafted twice")
            row = build_row(draft, requests[rid], reader)
            errors = row_errors(row)
            if errors:
                raise ValueError("; ".join(errors))
        except (ValueError, KeyError, TypeError) as exc:
            problems.append(f"{rid}: {exc}")
            continue
        seen.add(rid)
        rows.append(row)
    return rows, problems


def main() -> int:
    parser = argparse.ArgumentParser(description="Build (or --check) labelled pool rows from a reader's drafts.")
    parser.add_argument("paths", nargs="+", type=Path)
    parser.add_argument("--requests", type=Path, default=HERE / "requests.jsonl",
                        help="the unlabelled requests (id, user_request)")
    parser.add_argument("--reader", default="reader", help="who read these requests")
    parser.add_argument("--out", type=Path, help="where the built rows go (drafts mode)")
    parser.add_argument("--check", action="store_true", help="check built rows instead of building drafts")
    args = parser.parse_args()
    if args.check:
        bad = total = 0
        for path in args.paths:
            for row in check.load(path):
                total += 1
                errors = row_errors(row)
                if errors:
                    bad += 1
                    print(f"{path.name} {row.get('id')}: " + "; ".join(errors))
        print(f"{total} rows, {total - bad} ok, {bad} with errors")
        return 1 if bad else 0
    requests = load_requests(args.requests)
    rows, problems = [], []
    for path in args.paths:
        got, bad = build(path, requests, args.reader)
        rows += got
        problems += bad
    for line in problems:
        print(line)
    if args.out:
        args.out.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows))
    print(f"{len(rows)} rows built, {len(problems)} with problems" + (f" -> {args.out}" if args.out else ""))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
