"""Build a written shard (shard_XX.jsonl) from a writer's plain-text draft.

    python3 prompts/corpus/build_shard.py prompts/corpus/drafts/shard_00.txt

The draft holds, per row, a line `@bi-00000` and then the request; each invented text
is marked once as `[[PASSAGE|the text]]`, which becomes plain text in the request and
fills `{PASSAGE}` in the sampled plan, so the request and the plan agree by construction. In the fourth
and fifth rounds' voices a question, edit or scene the request says in its own words is given on a line of its own as
`[[QUESTION=How many lanes does the road have?]]`: it fills `{QUESTION}` and is left out of the request.
Rows come out in the sampled order; rows not drafted yet are left out.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
MARKER = re.compile(r"\[\[([A-Z][A-Z0-9_]*)\|(.+?)\]\]", re.S)
MEANT = re.compile(r"\s*\[\[([A-Z][A-Z0-9_]*)=(.+?)\]\]", re.S)  # what a paraphrase means; not in the request


def parse_draft(text: str) -> dict[str, str]:
    drafts, current = {}, None
    for line in text.splitlines():
        if line.startswith("@"):
            current = line[1:].strip()
            if current in drafts:
                raise SystemExit(f"draft has {current} twice")
            drafts[current] = []
        elif current is not None:
            drafts[current].append(line.rstrip())
        elif line.strip():
            raise SystemExit(f"text before the first @id line: {line!r}")
    return {k: "\n".join(v).strip() for k, v in drafts.items()}


def build_row(graph: dict, draft: str) -> dict:
    fills = {}
    for name, text in MARKER.findall(draft) + MEANT.findall(draft):
        key = "{" + name + "}"
        if key not in graph["slots"]:
            raise ValueError(f"marker {name} is not a placeholder of this graph ({sorted(graph['slots'])})")
        if fills.setdefault(key, text) != text:
            raise ValueError(f"{key} marked twice with different texts")
    missing = set(graph["slots"]) - set(fills)
    if missing:
        raise ValueError(f"no text for {sorted(missing)}")
    instruction = MARKER.sub(lambda m: m.group(2), MEANT.sub("", draft)).strip()
    nodes = [{"task": n["task"], "arguments": [fills.get(a, a) for a in n["arguments"]]} for n in graph["task_nodes"]]
    return {"id": graph["id"], "type": graph["type"], "n_tools": graph["n_tools"], "instruction": instruction,
            "task_nodes": nodes, "task_links": graph["task_links"], "voice": graph["voice"]}


def main() -> int:
    parser = argparse.ArgumentParser(description="Build shard_XX.jsonl from drafts/shard_XX.txt")
    parser.add_argument("draft", type=Path)
    parser.add_argument("--corpus-dir", type=Path, default=HERE, help="where graphs/ is and the shard goes")
    args = parser.parse_args()
    shard = args.draft.stem
    graphs = [json.loads(line) for line in (args.corpus_dir / "graphs" / f"{shard}.jsonl").read_text().splitlines()]
    drafts = parse_draft(args.draft.read_text())
    unknown = set(drafts) - {g["id"] for g in graphs}
    if unknown:
        raise SystemExit(f"draft ids not in graphs/{shard}.jsonl: {sorted(unknown)}")
    rows, failed = [], 0
    for graph in graphs:
        if graph["id"] in drafts:
            try:
                rows.append(build_row(graph, drafts[graph["id"]]))
            except ValueError as exc:
                failed += 1
                print(f"{graph['id']}: {exc}", file=sys.stderr)
    out = args.corpus_dir / f"{shard}.jsonl"
    out.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows))
    print(f"{out.name}: {len(rows)} rows written, {failed} drafts failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
