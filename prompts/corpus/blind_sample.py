"""Draw the blind sample for the independent reading: requests only, never their plans.

    python3 prompts/corpus/blind_sample.py            # writes readings/blind_sample.txt
    python3 prompts/corpus/blind_sample.py --round 2 --per-shard 50 --out prompts/corpus/readings/blind_sample_2.txt

A seeded stratified draw (60 rows from each of the eight shards, seed 2026). Only `id<TAB>instruction` is written,
so the reader can write down the tools and links each request asks for without seeing the plan; the plans are
compared afterwards (`blind_compare.py`).
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

HERE = Path(__file__).resolve().parent
# Each writing round's shards, from writers.json.
ROUNDS: dict[int, list[str]] = {}
for _shard, _info in sorted(json.loads((HERE / "writers.json").read_text(encoding="utf-8")).items()):
    ROUNDS.setdefault(_info["round"], []).append(_shard)


def draw(per_shard: int = 60, seed: int = 2026, round_: int = 1) -> list[tuple[str, str]]:
    """Return (id, instruction) pairs, `per_shard` from each shard of a writing round, in id order."""
    rng = random.Random(seed)
    picked = []
    for shard in (HERE / name for name in ROUNDS[round_]):
        rows = [json.loads(line) for line in shard.read_text().splitlines() if line.strip()]
        if len(rows) < per_shard:
            raise SystemExit(f"{shard.name}: {len(rows)} rows, fewer than the {per_shard} to draw")
        picked += [(r["id"], r["instruction"]) for r in rng.sample(rows, per_shard)]
    return sorted(picked)


def sample_ids(per_shard: int = 60, seed: int = 2026) -> list[str]:
    return [rid for rid, _ in draw(per_shard, seed)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--per-shard", type=int, default=60)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--round", type=int, default=1, choices=sorted(ROUNDS), help="which writing round's shards")
    parser.add_argument("--out", type=Path, default=HERE / "readings" / "blind_sample.txt")
    args = parser.parse_args()
    lines = [f"{rid}\t{' '.join(text.split())}" for rid, text in draw(args.per_shard, args.seed, args.round)]
    args.out.write_text("\n".join(lines) + "\n")
    print(f"{len(lines)} requests written to {args.out}")


if __name__ == "__main__":
    main()
