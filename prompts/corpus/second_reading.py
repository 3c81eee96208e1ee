"""The second reading: show requests without their plans, then compare a fresh reading with the plans.

    python3 prompts/corpus/second_reading.py codes
    python3 prompts/corpus/second_reading.py show prompts/corpus/shard_00.jsonl bi-00000 bi-00049
    python3 prompts/corpus/second_reading.py compare prompts/corpus/shard_00.jsonl

A reading line is `<id> <paths>`: paths separated by ";", each a tool code or codes joined by
">" (a link), e.g. `bi-00009 IC>SS; OD>SS`. The readings live in readings/<shard>.txt.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
CODES = {
    "TOK": "Token Classification", "TR": "Translation", "SUM": "Summarization", "QA": "Question Answering",
    "CHAT": "Conversational", "GEN": "Text Generation", "SIM": "Sentence Similarity",
    "TAB": "Tabular Classification", "OD": "Object Detection", "IC": "Image Classification",
    "I2I": "Image-to-Image", "I2T": "Image-to-Text", "T2I": "Text-to-Image", "T2V": "Text-to-Video",
    "VQA": "Visual Question Answering", "DQA": "Document Question Answering", "SEG": "Image Segmentation",
    "DEP": "Depth Estimation", "TTS": "Text-to-Speech", "ASR": "Automatic Speech Recognition",
    "A2A": "Audio-to-Audio", "AC": "Audio Classification", "EDIT": "Image Editing",
}


def parse_reading(text: str) -> tuple[set[str], set[tuple[str, str]]]:
    tools, links = set(), set()
    for path in text.split(";"):
        names = [CODES[c.strip().upper()] for c in path.split(">") if c.strip()]
        tools.update(names)
        links.update(zip(names, names[1:]))
    return tools, links


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    sub.add_parser("codes")
    show = sub.add_parser("show")
    show.add_argument("shard", type=Path)
    show.add_argument("first", nargs="?")
    show.add_argument("last", nargs="?")
    cmp_ = sub.add_parser("compare")
    cmp_.add_argument("shard", type=Path)
    cmp_.add_argument("--readings", type=Path)
    args = parser.parse_args()
    if args.cmd == "codes":
        print("\n".join(f"{c:5} {t}" for c, t in CODES.items()))
        return 0
    rows = [json.loads(line) for line in args.shard.read_text().splitlines() if line.strip()]
    if args.cmd == "show":
        for r in rows:
            if (args.first is None or r["id"] >= args.first) and (args.last is None or r["id"] <= args.last):
                print(f"{r['id']}: {r['instruction']}\n")
        return 0
    readings_path = args.readings or HERE / "readings" / f"{args.shard.stem}.txt"
    readings = {}
    for line in readings_path.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            rid, _, text = line.strip().partition(" ")
            try:
                readings[rid] = parse_reading(text)
            except KeyError as exc:
                raise SystemExit(f"{readings_path.name}: {rid}: unknown code {exc}") from None
    differ = read = 0
    for r in rows:
        if r["id"] not in readings:
            continue
        read += 1
        tools = {n["task"] for n in r["task_nodes"]}
        links = {(ln["source"], ln["target"]) for ln in r["task_links"]}
        got_tools, got_links = readings[r["id"]]
        if (tools, links) != (got_tools, got_links):
            differ += 1
            print(f"{r['id']}: plan {sorted(tools)} {sorted(links)}\n   read {sorted(got_tools)} {sorted(got_links)}")
    print(f"{read} rows read, {differ} differ from the plan, {len(rows) - read} not read yet")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
