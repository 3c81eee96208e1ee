"""Writes plan_fuzz.jsonl: malformed LLM plan replies, each with the outcome it must have.

    python3 tests/agent/data/make_plan_fuzz.py

Deterministic (no randomness), so the file only changes when this script does;
tests/agent/test_plan_fuzz.py checks that the file matches it. Each line is
{"name", "reply", "expect", "ids", "error"}:
  expect "plan":      a valid plan whose task ids are exactly `ids`, in order
  expect "truncated": PlanTruncated, keeping exactly the tasks `ids` (those whose
                      closing brace is in the reply)
  expect "error":     PlanError whose message contains `error`
"""

from __future__ import annotations

import json
from pathlib import Path

HERE = Path(__file__).resolve().parent
CORPUS = HERE / "plan_fuzz.jsonl"

# Valid plans under the task table; P2's text has quotes, brackets and braces inside strings.
P1 = [{"task": "image-to-text", "id": 0, "dep": [-1], "args": {"image": "a.jpg"}},
      {"task": "text-to-speech", "id": 1, "dep": [0], "args": {"text": "<resource>-0"}}]
P2 = [{"task": "text-to-image", "id": 0, "dep": [-1], "args": {"text": 'a "red" fox [in snow] {at night}'}},
      {"task": "image-to-text", "id": 1, "dep": [0], "args": {"image": "<resource>-0"}},
      {"task": "translation", "id": 2, "dep": [1], "args": {"text": "<resource>-1"}}]
P3 = [{"task": "automatic-speech-recognition", "id": 0, "dep": [-1], "args": {"audio": "talk.wav"}},
      {"task": "image-classification", "id": 1, "dep": [-1], "args": {"image": "cat.png"}},
      {"task": "question-answering", "id": 2, "dep": [0, 1],
       "args": {"text": "<resource>-1", "context": "<resource>-0"}}]


def task(name: str, id: object, dep: object = (-1,), **args: object) -> dict:
    return {"task": name, "id": id, "dep": list(dep) if isinstance(dep, tuple) else dep, "args": args}


def python_style(item: dict) -> str:
    """A task as an LLM imitating Python writes it: single quotes, a trailing comma."""
    args = ", ".join(f"'{k}': '{v}'" for k, v in item["args"].items())
    return f"{{'task': '{item['task']}', 'id': {item['id']}, 'dep': {item['dep']}, 'args': {{{args}}},}}"


def layout(items: list[str], before: str, after: str, separator: str) -> tuple[str, list[int]]:
    """The reply text, and where each item ends in it."""
    text, ends = before, []
    for i, item in enumerate(items):
        text += (separator if i else "") + item
        ends.append(len(text))
    return text + after, ends


def truncations(name: str, plan: list[dict], items: list[str], prefix: str, opener: str,
                separator: str, closer: str, suffix: str) -> list[dict]:
    """The reply cut at every position: before the JSON, inside it, and after it."""
    body, ends = layout(items, prefix + opener, closer + suffix, separator)
    json_start, json_end = len(prefix), len(body) - len(suffix)
    ids = [t["id"] for t in plan]
    cases = []
    for cut in range(len(body) + 1):
        reply = body[:cut]
        if cut <= json_start:
            case = {"expect": "error", "ids": [], "error": "not JSON"}
        elif cut < json_end:
            case = {"expect": "truncated", "ids": [i for i, end in zip(ids, ends) if end <= cut], "error": "cut off"}
        else:
            case = {"expect": "plan", "ids": ids, "error": ""}
        cases.append({"name": f"{name}/cut-{cut}", "reply": reply, **case})
    return cases


def plan_case(name: str, reply: object, ids: list[int]) -> dict:
    text = reply if isinstance(reply, str) else json.dumps(reply)
    return {"name": name, "reply": text, "expect": "plan", "ids": ids, "error": ""}


def error_case(name: str, reply: object, error: str) -> dict:
    text = reply if isinstance(reply, str) else json.dumps(reply)
    return {"name": name, "reply": text, "expect": "error", "ids": [], "error": error}


def chain(n: int, closed: bool = False) -> list[dict]:
    """n summarizations, each of the one before; `closed` makes the first depend on the last."""
    tasks = [task("summarization", i, (i - 1,) if i else (-1,), text=f"<resource>-{i - 1}" if i else "long text")
             for i in range(n)]
    if closed:
        tasks[0] = task("summarization", 0, (n - 1,), text=f"<resource>-{n - 1}")
    return tasks


def build() -> list[dict]:
    cases: list[dict] = []
    dumps = [json.dumps(t) for t in P1]
    cases += truncations("cut/compact", P1, dumps, "", "[", ", ", "]", "")
    cases += truncations("cut/wrapped", P2, [json.dumps(t) for t in P2], "", '{"tasks": [\n    ', ",\n    ", "\n]}", "")
    cases += truncations("cut/fenced", P3, [json.dumps(t) for t in P3], "Here is the plan:\n```json\n", "[", ",\n", "]",
                         "\n```")
    cases += truncations("cut/python-style", P1, [python_style(t) for t in P1], "", "[", ", ", ",]", "")

    # Deep nesting: would overflow the recursive parsers; never a plan.
    for n in (33, 100, 1000, 5000):
        cases.append(error_case(f"deep/open-lists-{n}", "[" * n, "nests brackets"))
    cases.append(error_case("deep/closed-lists-40", "[" * 40 + "]" * 40, "nests brackets"))
    cases.append(error_case("deep/objects-1000", '{"a": ' * 1000, "nests brackets"))
    cases.append(error_case("deep/mixed-500", "[{" * 500, "nests brackets"))
    cases.append(error_case("deep/lists-20", "[" * 20 + "]" * 20, "not a task object"))
    cases.append(error_case("deep/argument", [{"task": "summarization", "id": 0, "args": {"text": [[[["x"]]]]}}],
                            "must be a string"))

    # Cycles and order.
    two = [task("summarization", 0, (1,), text="<resource>-1"), task("summarization", 1, (0,), text="<resource>-0")]
    three = [task("summarization", 0, (2,), text="<resource>-2"), task("translation", 1, (0,), text="<resource>-0"),
             task("text-classification", 2, (1,), text="<resource>-1")]
    cases.append(error_case("cycle/two", two, "dependency cycle"))
    cases.append(error_case("cycle/three", three, "dependency cycle"))
    cases.append(error_case("cycle/sixty", chain(60, closed=True), "dependency cycle"))
    cases.append(error_case("cycle/self-dep", [task("summarization", 0, (0,), text="x")], "depends on itself"))
    cases.append(error_case("cycle/self-reference", [task("summarization", 0, text="<resource>-0")], "its own output"))
    cases.append(error_case("order/dep-on-later", [task("text-to-speech", 0, (1,), text="<resource>-1"),
                                                   task("summarization", 1, text="long text")], "come after it"))
    cases.append(plan_case("chain/sixty-four", chain(64), list(range(64))))
    cases.append(error_case("size/sixty-five", chain(65), "at most 64"))
    cases.append(error_case("size/two-hundred", chain(200), "at most 64"))

    # Wrong shapes and types.
    ok_args = {"image": "a.jpg"}
    for name, value in {"empty": "", "prose": "Sure! I will detect things.", "bare-words": "a plan"}.items():
        cases.append(error_case(f"shape/{name}", value, "not JSON"))
    for name, value in {"true": "true", "null": "null", "string": '"a plan"', "number": "7.5"}.items():
        cases.append(error_case(f"shape/json-{name}", value, "expected a list of tasks"))
    cases.append(error_case("shape/empty-object", {}, "no task list"))
    cases.append(error_case("shape/object-without-tasks", {"answer": "hello"}, "no task list"))
    cases.append(error_case("shape/tasks-not-a-list", {"tasks": {"task": "image-to-text"}}, "under 'tasks'"))
    for name, item in {"number": 1, "string": "image-to-text", "null": None, "list": [P1[0]], "bool": False}.items():
        cases.append(error_case(f"item/{name}", [item], "not a task object"))
    bad_tasks = {
        "no-task": {"id": 0, "args": ok_args}, "no-id": {"task": "image-to-text", "args": ok_args},
        "id-minus-one": task("image-to-text", -1, image="a.jpg"), "id-text": task("image-to-text", "first", image="a.jpg"),
        "id-fraction": task("image-to-text", 1.5, image="a.jpg"), "id-true": task("image-to-text", True, image="a.jpg"),
        "id-null": task("image-to-text", None, image="a.jpg"), "id-list": task("image-to-text", [0], image="a.jpg"),
        "dep-text": task("image-to-text", 0, "none", image="a.jpg"), "dep-nested": task("image-to-text", 0, [[0]], image="a.jpg"),
        "dep-object": task("image-to-text", 0, {"a": 1}, image="a.jpg"), "dep-true": task("image-to-text", 0, [True], image="a.jpg"),
        "args-list": {"task": "image-to-text", "id": 0, "args": ["a.jpg"]},
        "args-string": {"task": "image-to-text", "id": 0, "args": "a.jpg"},
        "task-number": {"task": 5, "id": 0, "args": ok_args}, "task-null": {"task": None, "id": 0, "args": ok_args},
        "task-list": {"task": ["image-to-text"], "id": 0, "args": ok_args},
    }
    for name, item in bad_tasks.items():
        cases.append(error_case(f"task/{name}", [item], "not a valid task"))
    for name, value in {"number": 5, "fraction": 0.5, "bool": True, "list": ["a.jpg"], "object": {"path": "a.jpg"},
                        "empty-list": []}.items():
        cases.append(error_case(f"media/image-{name}", [task("image-to-text", 0, image=value)], "must be a string"))
        cases.append(error_case(f"media/text-{name}", [task("summarization", 0, text=value)], "must be a string"))
    cases.append(error_case("media/audio-list", [task("automatic-speech-recognition", 0, audio=["a.wav", "b.wav"])],
                            "must be a string"))
    cases.append(error_case("media/video-number", [task("video-classification", 0, video=3)], "must be a string"))
    cases.append(error_case("media/second-task", [P1[0], task("text-to-speech", 1, (0,), text={"from": 0})],
                            "must be a string"))
    cases.append(error_case("graph/unknown-task", [task("teleportation", 0, text="x")], "unknown task"))
    cases.append(error_case("graph/duplicate-ids", [task("summarization", 1, text="a"), task("summarization", 1, text="b")],
                            "duplicate task id"))
    cases.append(error_case("graph/missing-dep", [task("summarization", 0, (7,), text="a")], "does not exist"))
    cases.append(error_case("graph/negative-dep", [task("summarization", 0, (-5,), text="a")], "does not exist"))
    cases.append(error_case("graph/missing-reference", [task("text-to-speech", 0, text="<resource>-3")], "no task 3"))
    cases.append(error_case("shape/two-plans", json.dumps(P1) + "\n" + json.dumps(P3), "not a task object"))

    # Mendable or already valid: every task must come through.
    compact = json.dumps(P1)
    cases.append(plan_case("valid/chit-chat", "[]", []))
    cases.append(plan_case("valid/chit-chat-wrapped", {"tasks": []}, []))
    cases.append(plan_case("valid/compact", compact, [0, 1]))
    cases.append(plan_case("valid/wrapped-plan", {"plan": P3}, [0, 1, 2]))
    cases.append(plan_case("valid/single-task", P1[0], [0]))
    cases.append(plan_case("valid/brackets-in-strings", P2, [0, 1, 2]))
    cases.append(plan_case("valid/id-as-text", [task("image-to-text", "0", image="a.jpg")], [0]))
    cases.append(plan_case("valid/dep-as-number", [P1[0], task("text-to-speech", 1, 0, text="<resource>-0")], [0, 1]))
    cases.append(plan_case("valid/dep-missing", [P1[0], {"task": "text-to-speech", "id": 1, "args": {"text": "<GENERATED>-0"}}],
                           [0, 1]))
    cases.append(plan_case("valid/big-id", [task("image-to-text", 10**12, image="a.jpg")], [10**12]))
    cases.append(plan_case("mend/trailing-commas", '[{"task": "image-to-text", "id": 0, "dep": [-1,], "args": {"image": '
                           '"a.jpg",},}, {"task": "text-to-speech", "id": 1, "dep": [0], "args": {"text": "<resource>-0"},},]',
                           [0, 1]))
    cases.append(plan_case("mend/single-quotes", compact.replace('"', "'"), [0, 1]))
    cases.append(plan_case("mend/python-style", "[" + ", ".join(python_style(t) for t in P3) + ",]", [0, 1, 2]))
    cases.append(plan_case("mend/plan-written-twice", compact + "\n" + compact, [0, 1]))
    cases.append(plan_case("mend/prose-around", f"Sure, here it is: {compact} Let me know!", [0, 1]))
    cases.append(plan_case("mend/fenced", f"```json\n{json.dumps(P3, indent=2)}\n```", [0, 1, 2]))
    cases.append(plan_case("mend/unquoted-keys", compact.replace('"task"', "task").replace('"id"', "id"), [0, 1]))
    cases.append(plan_case("mend/line-comment", compact.replace("}, {", "}, // then speak it\n{"), [0, 1]))
    return cases


def main() -> None:
    cases = build()
    CORPUS.write_text("".join(json.dumps(case, ensure_ascii=False) + "\n" for case in cases), encoding="utf-8")
    print(f"{len(cases)} replies -> {CORPUS}")


if __name__ == "__main__":
    main()
