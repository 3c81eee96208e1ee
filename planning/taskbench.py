"""TaskBench task-planning evaluation: data loading, the plan adapter, and the metrics.

Metrics follow TaskBench's `evaluate.py` for resource domains (Hugging Face tools,
multimedia), in percent:

- node F1: per sample, the *set* of tool names; micro F1 over the tool types of the
  tool list (names outside the list are ignored, as sklearn's `labels=` does there);
- edge F1: binary F1 over per-sample sets of (source name, target name), edges derived
  from `<node-j>` references in arguments (`task_links` are not used);
- argument-name F1: binary F1 over `"{tool}-{argname}"`, the name derived as TaskBench
  does: a `<node-j>` reference takes the source tool's output type, anything else the
  type of its file extension, else `text`;
- argument-value F1: binary F1 over `"{tool}-{argname}-{value}"` (a reference's value
  is the source tool's name);
- NED: 1 - mean Levenshtein ratio of the tool-name sequences (lower is better). The
  ratio is python-Levenshtein's `ratio` (indel distance normalised by the summed
  lengths), implemented here over sequences of names, so no extra dependency.

A metric with no positives at all (e.g. edge F1 over single-tool samples) is None
rather than sklearn's 0.0 with a warning.
"""

from __future__ import annotations

import json
import logging
import re
import statistics
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from langchain_hugginggpt.core.schema import REFERENCE_RE, Plan, Task

log = logging.getLogger(__name__)

NODE_REF_RE = re.compile(r"<node-(\d+)>")

# TaskBench's get_content_type: the first extension found as a substring wins.
_EXTENSIONS = {
    "image": ("jpg", "png", "jpeg", "gif", "bmp", "tiff", "svg", "ico"),
    "audio": ("mp3", "wav", "wma", "ogg", "aac", "flac", "aiff", "au"),
    "video": ("mp4", "avi", "mov", "flv", "wmv", "mkv", "webm", "m4v", "mpg", "mpeg"),
}


def content_type(value: str) -> str:
    value = value.strip("'")
    for kind, extensions in _EXTENSIONS.items():
        if any("." + ext in value for ext in extensions):
            return kind
    return "text"


# ---------------------------------------------------------------- tools and data


@dataclass(frozen=True)
class ToolSet:
    """A TaskBench tool list: names in order and each tool's (first) output type."""

    names: tuple[str, ...]
    output_types: dict[str, str]
    input_types: dict[str, tuple[str, ...]] = field(default_factory=dict)

    @classmethod
    def load(cls, path: str | Path) -> "ToolSet":
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:  # ValueError: not JSON, or not UTF-8 text
            raise ValueError(f"cannot read TaskBench tool list {path}: {exc}") from exc
        nodes = data.get("nodes") if isinstance(data, dict) else data
        try:
            return cls(
                names=tuple(n["id"] for n in nodes),
                output_types={n["id"]: (n.get("output-type") or ["none"])[0] for n in nodes},
                input_types={n["id"]: tuple(n.get("input-type") or ()) for n in nodes},
            )
        except (TypeError, KeyError, AttributeError, IndexError):
            raise ValueError(f"{path} is not a TaskBench tool list: expected a list of tools (or {{\"nodes\": [...]}}), "
                             "each an object with an \"id\"") from None

    def our_name(self, tool: str) -> str:
        """`Image-to-Text` -> `image-to-text` (our task names are TaskBench's, lower-cased and hyphenated)."""
        return re.sub(r"[\s_]+", "-", tool.strip().lower())

    def tool_name(self, task: str) -> str:
        """Our task name as this tool list spells it; title-cased when the list lacks it."""
        by_key = {self.our_name(n): n for n in self.names}
        return by_key.get(task, " ".join(p.capitalize() for p in task.replace("-", " ").split()))

    def our_tasks(self) -> list[str]:
        return [self.our_name(n) for n in self.names]


# TaskBench's Hugging Face domain ships with the package (MIT, data/LICENSE): the tool list, the tool
# graph and the development sample. The full benchmark lives in microsoft/JARVIS under taskbench/.
BUILTIN_DATA = Path(__file__).parent / "data"
HF_DEV = BUILTIN_DATA / "hf_dev.jsonl"
HF_TOOLS = BUILTIN_DATA / "hf_tool_desc.json"
HF_GRAPH = BUILTIN_DATA / "hf_graph_desc.json"


def find_tool_list(data_file: str | Path) -> Path:
    """The tool list beside a TaskBench data file (`hf_tool_desc.json` or `tool_desc.json`); for a file
    with none beside it, the Hugging Face tool list that ships with the package."""
    folder = Path(data_file).parent
    stem = Path(data_file).name.split("_")[0]
    for name in (f"{stem}_tool_desc.json", "tool_desc.json"):
        if (folder / name).is_file():
            return folder / name
    return HF_TOOLS


@dataclass
class Node:
    task: str
    arguments: list[str]


@dataclass
class Sample:
    id: str
    type: str
    request: str
    nodes: list[Node]


def normalize_nodes(raw: Any) -> list[Node]:
    """TaskBench nodes as found in the wild: a JSON string, arguments as a list, a bare
    string, numbers, or `{"name", "value"}` dicts; `_` in tool names read as spaces."""
    if isinstance(raw, str):
        try:
            raw = json.loads(raw)
        except json.JSONDecodeError:
            return []
    if isinstance(raw, dict):
        raw = raw.get("task_nodes", [raw] if "task" in raw else [])
    nodes = []
    for item in raw or []:
        if isinstance(item, str):
            item = {"task": item}
        if not isinstance(item, dict) or not isinstance(item.get("task"), str):
            continue
        args = item.get("arguments", item.get("args", []))
        if isinstance(args, dict):
            args = list(args.values())
        elif not isinstance(args, list):
            args = [args]
        values = []
        for arg in args:
            if isinstance(arg, dict):
                arg = arg.get("value", json.dumps(arg, ensure_ascii=False))
            if arg is None:
                continue
            values.append(arg if isinstance(arg, str) else json.dumps(arg, ensure_ascii=False))
        nodes.append(Node(task=item["task"].replace("_", " ").strip(), arguments=values))
    return nodes


def one_based_refs_fixed(nodes: list[Node]) -> list[Node]:
    """Some TaskBench labels number `<node-j>` from 1: a node refers to itself or to a later
    node, and reading every reference as j-1 gives a graph that agrees with the sample's
    `task_links`. Such a sample is read as 1-based; any other is left as it is."""
    refs = [(j, int(r)) for j, node in enumerate(nodes) for a in node.arguments for r in NODE_REF_RE.findall(a)]
    if not any(r >= j for j, r in refs) or not all(0 <= r - 1 < j for j, r in refs):
        return nodes
    shift = lambda m: f"<node-{int(m.group(1)) - 1}>"  # noqa: E731
    return [Node(task=n.task, arguments=[NODE_REF_RE.sub(shift, a) for a in n.arguments]) for n in nodes]


MAX_SKIPS_SHOWN = 5


def load_samples(path: str | Path, limit: int | None = None) -> list[Sample]:
    """TaskBench JSONL: the request in `instruction` or `user_request`, gold in `task_nodes`
    (or the upstream `tool_nodes`, possibly JSON-encoded). Unreadable lines are skipped and logged."""
    samples, skipped = [], 0
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise ValueError(f"cannot read TaskBench data {path}: {exc}") from exc

    def skip(number: int, why: Any) -> None:
        nonlocal skipped
        skipped += 1
        if skipped <= MAX_SKIPS_SHOWN:  # a file that is no TaskBench data at all would print a line per line
            log.warning("%s:%d skipped: %s", path, number, why)

    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            request = row.get("instruction") or row.get("user_request")
            nodes = normalize_nodes(row.get("task_nodes", row.get("tool_nodes", [])))
        except (json.JSONDecodeError, AttributeError) as exc:
            skip(number, exc)
            continue
        if not request:
            skip(number, "no instruction/user_request")
            continue
        samples.append(Sample(id=str(row.get("id", number)), type=str(row.get("type", "unknown")),
                              request=request, nodes=one_based_refs_fixed(nodes)))
        if limit and len(samples) >= limit:
            break
    if skipped > MAX_SKIPS_SHOWN:
        log.warning("%s: %d more lines skipped (%d in all)", path, skipped - MAX_SKIPS_SHOWN, skipped)
    if not samples:  # a report over nothing would read as a result
        raise ValueError(f"no TaskBench records in {path} (JSON lines with an instruction and task_nodes)")
    return samples


# ---------------------------------------------------------------- the adapter


def plan_to_nodes(plan: Plan | list, tools: ToolSet) -> list[Node]:
    """Our plan as TaskBench nodes: task names re-spelled, `<resource>-N` -> `<node-j>` where
    j is the position of task N in the plan; arguments in the order of the task's slots."""
    if not isinstance(plan, Plan):
        plan = Plan(tasks=[t if isinstance(t, Task) else Task.model_validate(t) for t in plan])
    tasks = plan.tasks
    position = {t.id: j for j, t in enumerate(tasks)}

    def ref(match: re.Match) -> str:
        j = position.get(int(match.group(1)))
        return f"<node-{j}>" if j is not None else match.group(0)

    nodes = []
    for task in tasks:
        args = [REFERENCE_RE.sub(ref, v) if isinstance(v, str) else json.dumps(v) for v in task.args.values()
                if v not in (None, "")]
        nodes.append(Node(task=tools.tool_name(task.task), arguments=args))
    return nodes


def nodes_to_plan(nodes: list[Node], tools: ToolSet) -> Plan:
    """TaskBench nodes as our plan (ids = positions); slots from the value's type, in order."""
    from langchain_hugginggpt.core.tasks import TASKS

    tasks = []
    for j, node in enumerate(nodes):
        name = tools.our_name(node.task)
        spec = TASKS.get(name)
        free = list(spec.inputs.items()) if spec else []
        args: dict[str, str] = {}
        deps = []
        for value in node.arguments:
            refs = [int(r) for r in NODE_REF_RE.findall(value)]
            deps += refs
            value = NODE_REF_RE.sub(lambda m: f"<resource>-{m.group(1)}", value)
            if refs and refs[0] < len(nodes):
                kind = tools.output_types.get(nodes[refs[0]].task, "text")
            else:
                kind = content_type(value)
            slot = next((s for s, k in free if k == kind), None) or next((s for s, _ in free), f"arg{len(args)}")
            free = [(s, k) for s, k in free if s != slot]
            args[slot] = value
        tasks.append(Task(task=name, id=j, dep=sorted(set(deps)) or [-1], args=args))
    return Plan(tasks=tasks)


# ---------------------------------------------------------------- metrics


@dataclass
class Graph:
    """What the metrics compare, extracted from one sample's nodes."""

    names: list[str]
    edges: set[tuple[str, str]]
    arg_names: set[str]
    arg_values: set[str]


def graph_of(nodes: list[Node], tools: ToolSet) -> Graph:
    names = [n.task for n in nodes]
    edges: set[tuple[str, str]] = set()
    arg_names: set[str] = set()
    arg_values: set[str] = set()
    for j, node in enumerate(nodes):
        for value in node.arguments:
            match = NODE_REF_RE.search(value)
            source = int(match.group(1)) if match else None
            if source is not None and source < len(nodes) and source != j:
                source_name = nodes[source].task
                edges.add((source_name, node.task))
                kind = tools.output_types.get(source_name, "other")
                arg_names.add(f"{node.task}-{kind}")
                arg_values.add(f"{node.task}-{kind}-{source_name}")
            else:
                kind = content_type(value)
                arg_names.add(f"{node.task}-{kind}")
                arg_values.add(f"{node.task}-{kind}-{value}")
    return Graph(names=names, edges=edges, arg_names=arg_names, arg_values=arg_values)


@dataclass
class Counts:
    tp: int = 0
    fp: int = 0
    fn: int = 0

    def add(self, gold: Iterable, pred: Iterable) -> None:
        gold, pred = set(gold), set(pred)
        self.tp += len(gold & pred)
        self.fp += len(pred - gold)
        self.fn += len(gold - pred)

    @property
    def f1(self) -> float | None:
        """Percent; None when there is nothing to score (no gold and no predicted item)."""
        denominator = 2 * self.tp + self.fp + self.fn
        return round(100 * 2 * self.tp / denominator, 2) if denominator else None


def levenshtein_ratio(a: list[str], b: list[str]) -> float:
    """python-Levenshtein's `ratio` on sequences: 1 - indel_distance / (len(a) + len(b)),
    where the indel distance (insertions and deletions only) is len(a) + len(b) - 2 * LCS."""
    if not a and not b:
        return 1.0
    previous = [0] * (len(b) + 1)
    for x in a:
        current = [0]
        for k, y in enumerate(b):
            current.append(previous[k] + 1 if x == y else max(previous[k + 1], current[k]))
        previous = current
    return 2 * previous[-1] / (len(a) + len(b))


def score(golds: list[list[Node]], preds: list[list[Node]], tools: ToolSet) -> dict[str, Any]:
    """The TaskBench graph metrics over paired gold and predicted node lists."""
    known = set(tools.names)
    nodes, edges, arg_names, arg_values = Counts(), Counts(), Counts(), Counts()
    ratios = []
    for gold_nodes, pred_nodes in zip(golds, preds, strict=True):
        gold, pred = graph_of(gold_nodes, tools), graph_of(pred_nodes, tools)
        nodes.add(set(gold.names) & known, set(pred.names) & known)
        edges.add(gold.edges, pred.edges)
        arg_names.add(gold.arg_names, pred.arg_names)
        arg_values.add(gold.arg_values, pred.arg_values)
        ratios.append(levenshtein_ratio(pred.names, gold.names))
    return {
        "n": len(golds),
        "node_f1": nodes.f1,
        "edge_f1": edges.f1,
        "arg_name_f1": arg_names.f1,
        "arg_value_f1": arg_values.f1,
        "ned": round(1 - sum(ratios) / len(ratios), 4) if ratios else None,
    }


# ---------------------------------------------------------------- the harness


@dataclass
class Prediction:
    sample: Sample
    nodes: list[Node]
    latency_ms: float | None  # None: read from a file, not timed here
    planner: str = ""
    error: str | None = None


def predict(samples: list[Sample], planner: Any, tools: ToolSet) -> list[Prediction]:
    """Run a planner (anything with `plan(request, chat_history)`, or an async `aplan`) on
    every sample. A plan that fails or does not validate counts as invalid and scores empty."""
    import asyncio

    from langchain_hugginggpt.planning.validation import PlanError, validate_plan

    predictions = []
    for sample in samples:
        start = time.perf_counter()
        error, nodes, name = None, [], ""
        try:
            if hasattr(planner, "plan"):
                output = planner.plan(sample.request, None)
            else:
                output = asyncio.run(planner.aplan(sample.request, None))
            latency = (time.perf_counter() - start) * 1000
            plan = getattr(output, "plan", output)
            name = getattr(output, "planner", "")
            nodes = plan_to_nodes(validate_plan(plan).plan, tools)
        except PlanError as exc:
            latency, error = (time.perf_counter() - start) * 1000, str(exc)
        except Exception as exc:  # a planner crash is an invalid plan, not the end of the run
            latency, error = (time.perf_counter() - start) * 1000, f"{type(exc).__name__}: {exc}"
        if error:
            log.info("sample %s: invalid plan: %s", sample.id, error)
        predictions.append(Prediction(sample=sample, nodes=nodes, latency_ms=latency, planner=name, error=error))
    return predictions


def read_predictions(path: str | Path, samples: list[Sample]) -> list[Prediction]:
    """Predictions from a file in TaskBench's format (one JSON object a line with `id` and `task_nodes`), matched to
    `samples` by id: any planner's, or a person's reading, scored by the same harness. A sample with no line scores
    as an invalid, empty plan; a line that is not JSON, or that names no sample, is an error naming its line."""
    known = {s.id for s in samples}
    rows: dict[str, Any] = {}
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError as exc:
                raise ValueError(f"{path}, line {number}: not JSON ({exc.msg})") from None
            if not isinstance(row, dict) or str(row.get("id")) not in known:
                raise ValueError(f"{path}, line {number}: no sample has the id {row.get('id') if isinstance(row, dict) else row!r}")
            rows[str(row["id"])] = row
    return [Prediction(sample=s, nodes=normalize_nodes(rows[s.id].get("task_nodes")) if s.id in rows else [],
                       latency_ms=None, error=None if s.id in rows else "no prediction for this sample")
            for s in samples]


def prediction_row(prediction: Prediction) -> dict[str, Any]:
    """A prediction in TaskBench's format: `id`, `task_nodes` (tool names, `<node-j>` arguments) and
    `task_links` read from the references, so any TaskBench scorer can check it."""
    nodes = prediction.nodes
    links = [{"source": nodes[int(r)].task, "target": node.task} for j, node in enumerate(nodes)
             for value in node.arguments for r in NODE_REF_RE.findall(value) if int(r) < len(nodes) and int(r) != j]
    row: dict[str, Any] = {"id": prediction.sample.id,
                           "task_nodes": [{"task": n.task, "arguments": n.arguments} for n in nodes],
                           "task_links": [dict(t) for t in dict.fromkeys(tuple(link.items()) for link in links)]}
    if prediction.error:
        row["error"] = prediction.error
    return row


def report(predictions: list[Prediction], tools: ToolSet) -> dict[str, Any]:
    """The JSON report: overall metrics, `by_type`, median latency and the invalid-plan count."""
    def metrics(subset: list[Prediction]) -> dict[str, Any]:
        return score([p.sample.nodes for p in subset], [p.nodes for p in subset], tools)

    result = metrics(predictions)
    types = sorted({p.sample.type for p in predictions})
    result["by_type"] = {t: metrics([p for p in predictions if p.sample.type == t]) for t in types}
    latencies = [p.latency_ms for p in predictions if p.latency_ms is not None]
    result["latency_ms_median"] = round(statistics.median(latencies), 2) if latencies else None
    result["invalid_plans"] = sum(p.error is not None for p in predictions)
    paths = sorted({p.planner for p in predictions if p.planner})
    if paths:
        result["planners"] = {name: sum(p.planner == name for p in predictions) for name in paths}
    return result


def evaluate(data_file: str | Path, planner: Any, tools: ToolSet | None = None,
             limit: int | None = None) -> dict[str, Any]:
    tools = tools or ToolSet.load(find_tool_list(data_file))
    return report(predict(load_samples(data_file, limit), planner, tools), tools)
