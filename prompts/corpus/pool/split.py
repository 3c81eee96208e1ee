"""Deal the pool's requests to readers: todo/shard_XX.jsonl (what each reader labels) and todo/second_XX.jsonl
(the 40 requests of a neighbouring shard each reader also reads blind, for the agreement figures).

    python3 prompts/corpus/pool/split.py

requests.jsonl holds all 7,284 of TaskBench's Hugging Face requests in its own wording; the 146 of
agent/eval/data/hf_dev.jsonl are left out (they are measured, in both wordings, never labelled here). The rest
are shuffled with seed 33: shards 00-05 take 900 each, shards 06-07 split what is left
(868 and 869: an id TaskBench's file holds twice is dealt once). Reader k reads the first
40 of shard k+1 blind (00-05 in a ring; 06 and 07 read each other's). The same seed gives the same files.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEV = HERE.parents[2] / "planning" / "data" / "hf_dev.jsonl"
SEED, FIRST_SHARDS, FIRST_SIZE, SECOND = 33, 6, 900, 40


def shards() -> list[list[dict]]:
    dev = {json.loads(line)["id"] for line in DEV.read_text().splitlines() if line.strip()}
    rows = [json.loads(line) for line in (HERE / "requests.jsonl").read_text().splitlines() if line.strip()]
    rest = [r for r in rows if r["id"] not in dev]
    random.Random(SEED).shuffle(rest)
    out = [rest[i * FIRST_SIZE:(i + 1) * FIRST_SIZE] for i in range(FIRST_SHARDS)]
    left = rest[FIRST_SHARDS * FIRST_SIZE:]
    half = (len(left) + 1) // 2
    out += [left[:half], left[half:]]
    # TaskBench's file holds one id twice (32742251, the same request): it is dealt once, where it first comes
    seen: set[str] = set()
    deduped = []
    for shard in out:
        deduped.append([r for r in shard if r["id"] not in seen])
        seen.update(r["id"] for r in shard)
    return deduped


def second_source(k: int) -> int:
    """Whose shard reader k reads blind."""
    return (k + 1) % FIRST_SHARDS if k < FIRST_SHARDS else (FIRST_SHARDS * 2 + 1 - k)


def write(rows: list[dict], path: Path) -> None:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows))


def main() -> None:
    todo = HERE / "todo"
    todo.mkdir(exist_ok=True)
    dealt = shards()
    for k, rows in enumerate(dealt):
        write(rows, todo / f"shard_{k:02d}.jsonl")
        write(dealt[second_source(k)][:SECOND], todo / f"second_{k:02d}.jsonl")
    print(f"{sum(map(len, dealt))} requests in {len(dealt)} shards: {[len(s) for s in dealt]}")


if __name__ == "__main__":
    main()
