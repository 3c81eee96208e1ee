"""Score the independent blind reading against the rows' plans.

    python3 prompts/corpus/blind_compare.py                      # figures + the rows that differ
    python3 prompts/corpus/blind_compare.py --markdown out.md    # also write the differing rows as a table skeleton

Reads readings/blind.txt (written by `blind_sample.py`'s reader before any plan was seen, in the notation of
`second_reading.py`) and the shards. Reports the per-row exact-match rate (same tool set and same link set) and
micro-averaged precision, recall and F1 over tools and over links.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from second_reading import CODES, parse_reading

HERE = Path(__file__).resolve().parent
NAME_TO_CODE = {name: code for code, name in CODES.items()}


def load_readings(path: Path) -> dict[str, tuple[str, set[str], set[tuple[str, str]]]]:
    readings = {}
    for line in path.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            rid, _, text = line.strip().partition(" ")
            try:
                readings[rid] = (text, *parse_reading(text))
            except KeyError as exc:
                raise SystemExit(f"{path.name}: {rid}: unknown code {exc}") from None
    return readings


def load_plans(ids: set[str]) -> dict[str, dict]:
    rows = {}
    for shard in sorted(HERE.glob("shard_*.jsonl")):
        for line in shard.read_text().splitlines():
            if line.strip():
                row = json.loads(line)
                if row["id"] in ids:
                    rows[row["id"]] = row
    missing = ids - rows.keys()
    if missing:
        raise SystemExit(f"readings name rows not in any shard: {sorted(missing)[:5]}")
    return rows


def plan_notation(row: dict) -> str:
    """The plan in reading notation: each link as A>B, then any tool with no link."""
    links = [f"{NAME_TO_CODE[ln['source']]}>{NAME_TO_CODE[ln['target']]}" for ln in row["task_links"]]
    linked = {ln[k] for ln in row["task_links"] for k in ("source", "target")}
    alone = [NAME_TO_CODE[n["task"]] for n in row["task_nodes"] if n["task"] not in linked]
    return "; ".join(links + alone)


def prf(tp: int, n_read: int, n_plan: int) -> tuple[float, float, float]:
    p = tp / n_read if n_read else 1.0
    r = tp / n_plan if n_plan else 1.0
    return p, r, (2 * p * r / (p + r) if p + r else 0.0)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--readings", type=Path, default=HERE / "readings" / "blind.txt")
    parser.add_argument("--markdown", type=Path, help="write the differing rows here as a table skeleton")
    args = parser.parse_args()
    readings = load_readings(args.readings)
    rows = load_plans(set(readings))
    counts = {"tools": [0, 0, 0], "links": [0, 0, 0]}  # true positives, read, planned
    differ = []
    for rid in sorted(readings):
        text, got_tools, got_links = readings[rid]
        row = rows[rid]
        tools = {n["task"] for n in row["task_nodes"]}
        links = {(ln["source"], ln["target"]) for ln in row["task_links"]}
        for key, got, want in (("tools", got_tools, tools), ("links", got_links, links)):
            counts[key][0] += len(got & want)
            counts[key][1] += len(got)
            counts[key][2] += len(want)
        if (got_tools, got_links) != (tools, links):
            differ.append((rid, row, text))
            print(f"{rid} [{row['type']}]\n   read {text}\n   plan {plan_notation(row)}")
    n = len(readings)
    print(f"\n{n} rows read; exact match (tool set and link set) {n - len(differ)}/{n} = {(n - len(differ)) / n:.1%}")
    for key, (tp, n_read, n_plan) in counts.items():
        p, r, f = prf(tp, n_read, n_plan)
        print(f"{key:5}: precision {p:.3f}  recall {r:.3f}  F1 {f:.3f}  ({tp} shared, {n_read} read, {n_plan} planned)")
    if args.markdown:
        lines = ["| id | request | my reading | plan | judgement |", "|---|---|---|---|---|"]
        for rid, row, text in differ:
            request = " ".join(row["instruction"].split()).replace("|", "\\|")
            lines.append(f"| {rid} | {request} | `{text}` | `{plan_notation(row)}` | |")
        args.markdown.write_text("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
