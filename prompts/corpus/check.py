"""Check written back-instruct shards (or the sampled graphs) before they join the corpus.

    python3 prompts/corpus/check.py prompts/corpus/shard_00.jsonl [more shards]
    python3 prompts/corpus/check.py --sampled prompts/corpus/graphs/shard_00.jsonl

A written row must: have exactly the row keys; keep its sampled graph (same tools,
links and file names; each placeholder replaced by one text, the same everywhere);
be a valid plan (known tools, argument count and types per the tool list, every
"<node-j>" pointing back to an earlier node of the right output type, links equal to
those references and allowed by the tool graph, shape matching single/chain/dag);
leave no placeholder; quote every literal argument in the request verbatim
(case-insensitive, whitespace collapsed); and not copy another request, also after
its file names and quoted texts are blanked out. Standard library only.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import sample_graphs  # noqa: E402
from sample_graphs import load_tools  # noqa: E402

ROW_KEYS = {"id", "type", "n_tools", "instruction", "task_nodes", "task_links", "voice"}
GRAPH_KEYS = {"id", "type", "n_tools", "voice", "task_nodes", "task_links", "slots"}
VOICES = {*sample_graphs.VOICES, *(v for r in sample_graphs.LATER_ROUNDS for v in r["voices"]),
          *sample_graphs.GENERATOR_DEV["voices"]}
PLACEHOLDER = re.compile(r"\{[A-Z][A-Z0-9_]*\}")
NODE_REF = re.compile(r"^<node-(\d+)>$")
EXTENSIONS = {"image": (".jpg", ".jpeg", ".png", ".webp"), "audio": (".wav", ".mp3", ".m4a", ".flac", ".ogg")}

TOOLS, LINKS = load_tools()
OUT_TYPE = {t: (d["output-type"] or [None])[0] for t, d in TOOLS.items()}


def _norm(text: str) -> str:
    return " ".join(text.lower().split())


def plan_errors(row: dict) -> list[str]:
    """Why the plan in `row` is not a valid TaskBench plan over the tool graph (empty when it is)."""
    errors = []
    nodes, links = row.get("task_nodes"), row.get("task_links")
    if not isinstance(nodes, list) or not nodes or not isinstance(links, list):
        return ["task_nodes must be a non-empty list and task_links a list"]
    tasks = [n.get("task") if isinstance(n, dict) else None for n in nodes]
    unknown = [t for t in tasks if t not in TOOLS]
    if unknown:
        return [f"unknown tool(s) {unknown}"]
    if len(set(tasks)) != len(tasks):
        errors.append(f"a tool appears twice: {tasks}")
    expected_links = []
    for i, node in enumerate(nodes):
        if set(node) != {"task", "arguments"}:
            errors.append(f"node {i} keys {sorted(node)} (want task, arguments)")
            continue
        slots, args = TOOLS[node["task"]]["input-type"], node["arguments"]
        if not isinstance(args, list) or len(args) != len(slots):
            errors.append(f"node {i} ({node['task']}) has {args!r}; it takes {len(slots)} argument(s) {slots}")
            continue
        for k, (kind, arg) in enumerate(zip(slots, args)):
            if not isinstance(arg, str) or not arg.strip():
                errors.append(f"node {i} argument {k} is empty or not a string")
                continue
            ref = NODE_REF.match(arg)
            if ref:
                j = int(ref.group(1))
                if j >= i:
                    errors.append(f"node {i} reads <node-{j}>, which is not an earlier node")
                elif OUT_TYPE[tasks[j]] != kind:
                    errors.append(f"node {i} slot {k} wants {kind} but <node-{j}> ({tasks[j]}) gives {OUT_TYPE[tasks[j]]}")
                else:
                    expected_links.append((tasks[j], tasks[i]))
            elif kind in EXTENSIONS and not arg.lower().endswith(EXTENSIONS[kind]):
                errors.append(f"node {i} slot {k} wants an {kind} file, got {arg!r}")
    got_links = []
    for link in links:
        if not isinstance(link, dict) or set(link) != {"source", "target"}:
            errors.append(f"bad link {link!r}")
            continue
        got_links.append((link["source"], link["target"]))
        if (link["source"], link["target"]) not in LINKS:
            errors.append(f"link {link['source']} -> {link['target']} is not in the tool graph")
    if Counter(got_links) != Counter(expected_links):
        errors.append(f"links {sorted(got_links)} differ from the <node-j> references {sorted(expected_links)}")
    errors += shape_errors(row.get("type"), row.get("n_tools"), tasks, expected_links)
    return errors


def shape_errors(kind, n_tools, tasks, links) -> list[str]:
    n = len(tasks)
    if n_tools != n:
        return [f"n_tools {n_tools} but {n} nodes"]
    indeg, outdeg = Counter(t for _, t in links), Counter(s for s, _ in links)
    parent = {t: t for t in tasks}

    def root(t):
        while parent[t] != t:
            t = parent[t]
        return t

    for s, t in links:
        parent[root(s)] = root(t)
    connected = len({root(t) for t in tasks}) == 1
    is_path = connected and len(links) == n - 1 and max([*indeg.values(), *outdeg.values(), 0]) <= 1
    if kind == "single":
        return [] if n == 1 and not links else ["a single has one node and no links"]
    if kind == "chain":
        return [] if n >= 2 and is_path else ["a chain must be one connected path of 2+ tools"]
    if kind == "dag":
        return [] if n >= 3 and connected and not is_path else ["a dag must be connected, 3+ tools, and not a path"]
    return [f"type {kind!r} is not single, chain or dag"]


def literals(row: dict) -> list[str]:
    return [a for n in row["task_nodes"] for a in n["arguments"] if isinstance(a, str) and not NODE_REF.match(a)]


def paraphrased(row: dict, graph: dict) -> list[str]:
    """The texts this row may say in its own words: in the fourth and fifth rounds' voices, the plain question,
    edit or scene the user means ("work out how many lanes the road has" -> "How many lanes does the road have?")."""
    if not any(row["voice"] in r["voices"] for r in sample_graphs.PARAPHRASING_ROUNDS):
        return []
    return [arg for node, gnode in zip(row["task_nodes"], graph["task_nodes"])
            for arg, garg in zip(node["arguments"], gnode["arguments"])
            if PLACEHOLDER.fullmatch(garg) and garg.strip("{}").split("_")[0] in sample_graphs.PARAPHRASED_ROLES]


def graph_match_errors(row: dict, graph: dict) -> list[str]:
    """The written row must be its sampled graph with each placeholder filled by one text."""
    for key in ("type", "n_tools", "voice", "task_links"):
        if row[key] != graph[key]:
            return [f"{key} differs from the sampled graph"]
    if [n["task"] for n in row["task_nodes"]] != [n["task"] for n in graph["task_nodes"]]:
        return ["tools differ from the sampled graph"]
    fills, errors = {}, []
    for node, gnode in zip(row["task_nodes"], graph["task_nodes"]):
        if len(node["arguments"]) != len(gnode["arguments"]):
            return [f"{node['task']}: argument count differs from the sampled graph"]
        for arg, garg in zip(node["arguments"], gnode["arguments"]):
            if PLACEHOLDER.fullmatch(garg):
                if fills.setdefault(garg, arg) != arg:
                    errors.append(f"{garg} filled with two different texts")
            elif arg != garg:
                errors.append(f"{node['task']}: argument {arg!r} should stay {garg!r}")
    texts = Counter(_norm(v) for v in fills.values())
    errors += [f"two placeholders filled with the same text {t!r}" for t, c in texts.items() if c > 1]
    return errors


def row_errors(row: dict, graph: dict | None) -> list[str]:
    if not isinstance(row, dict) or set(row) != ROW_KEYS:
        return [f"keys {sorted(row) if isinstance(row, dict) else type(row)} (want {sorted(ROW_KEYS)})"]
    errors = plan_errors(row)
    if errors:
        return errors
    if row["voice"] not in VOICES:
        errors.append(f"voice {row['voice']!r}")
    text = row["instruction"]
    if not isinstance(text, str) or len(text.strip()) < 15:
        return errors + ["instruction missing or too short"]
    if PLACEHOLDER.search(text) or any(PLACEHOLDER.search(a) for a in literals(row)):
        errors.append("a {PLACEHOLDER} is left in the instruction or arguments")
    if "<node-" in text:
        errors.append("the instruction mentions <node-j>")
    norm = _norm(text)
    said = set(paraphrased(row, graph)) if graph else set()
    errors += [f"literal {a!r} is not in the instruction" for a in literals(row) if _norm(a) not in norm and a not in said]
    if graph is None:
        errors.append("no sampled graph with this id")
    else:
        errors += graph_match_errors(row, graph)
    return errors


def skeleton(row: dict) -> str:
    """The request with its literals blanked: two rows with one skeleton are copies."""
    text = _norm(row["instruction"])
    for lit in sorted(literals(row), key=len, reverse=True):
        text = text.replace(_norm(lit), "#")
    return re.sub(r"[^a-z#]+", " ", text).strip()


def load(path: Path) -> list[dict]:
    rows = []
    for lineno, line in enumerate(path.read_text().splitlines(), 1):
        if line.strip():
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError as exc:
                raise SystemExit(f"{path}:{lineno}: not JSON ({exc})") from None
    return rows


def check_written(paths: list[Path], corpus_dir: Path) -> int:
    graphs = {g["id"]: g for p in sorted((corpus_dir / "graphs").glob("shard_*.jsonl")) for g in load(p)}
    others = [p for p in sorted(corpus_dir.glob("shard_*.jsonl")) if p.resolve() not in {q.resolve() for q in paths}]
    seen: dict[str, str] = {}
    for p in others:
        for row in load(p):
            if isinstance(row, dict) and "instruction" in row and "task_nodes" in row:
                seen.setdefault(skeleton(row), row.get("id"))
    bad = total = 0
    stats = Counter()
    multiword_tools = [t.lower() for t in TOOLS if " " in t or "-" in t]
    ids: set[str] = set()
    for path in paths:
        for row in load(path):
            total += 1
            errors = row_errors(row, graphs.get(row.get("id")) if isinstance(row, dict) else None)
            if not errors and row["id"] in ids:
                errors.append("this id appeared earlier")
            if not errors:
                ids.add(row["id"])
                key = skeleton(row)
                if key in seen:
                    errors.append(f"copies {seen[key]} (same words once literals are blanked)")
                seen.setdefault(key, row["id"])
                stats[row["voice"]] += 1
                stats["names a tool verbatim"] += any(t in row["instruction"].lower() for t in multiword_tools)
            if errors:
                bad += 1
                print(f"{path.name} {row.get('id') if isinstance(row, dict) else '?'}: " + "; ".join(errors))
    print(f"{total} rows, {total - bad} ok, {bad} with errors; voices {dict(sorted((k, v) for k, v in stats.items() if k in VOICES))}; "
          f"{stats['names a tool verbatim']} name a tool verbatim")
    return 1 if bad else 0


def check_sampled(paths: list[Path]) -> int:
    bad = total = 0
    for path in paths:
        for row in load(path):
            total += 1
            errors = [] if set(row) == GRAPH_KEYS else [f"keys {sorted(row)}"]
            errors += plan_errors(row)
            placeholders = {a for a in literals(row) if PLACEHOLDER.fullmatch(a)}
            if placeholders != set(row.get("slots", {})):
                errors.append(f"placeholders {sorted(placeholders)} differ from slots {sorted(row.get('slots', {}))}")
            if errors:
                bad += 1
                print(f"{path.name} {row.get('id')}: " + "; ".join(errors))
    print(f"{total} sampled graphs, {total - bad} ok, {bad} with errors")
    return 1 if bad else 0


def main() -> int:
    parser = argparse.ArgumentParser(description="Check back-instruct corpus shards.")
    parser.add_argument("paths", nargs="+", type=Path)
    parser.add_argument("--sampled", action="store_true", help="check sampled graphs (placeholders, no instruction)")
    parser.add_argument("--corpus-dir", type=Path, default=HERE, help="where graphs/ and the other written shards are")
    args = parser.parse_args()
    return check_sampled(args.paths) if args.sampled else check_written(args.paths, args.corpus_dir)


if __name__ == "__main__":
    sys.exit(main())
