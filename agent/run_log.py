"""Every request is appended to a JSONL log, so a run can be inspected and replayed.

One line per request: the request, the chat history, the plan, selections,
results, answer, timings, and the controller LLM. `replay` runs a logged plan
again with the logged model choices, without calling the LLM for planning or
selection.
"""

from __future__ import annotations

import json
import logging
import time
import uuid
from pathlib import Path
from typing import Any, Iterator

from langchain_hugginggpt.core.schema import HuggingGPTResult

LOG_NAME = "runs.jsonl"
log = logging.getLogger(__name__)


def log_path() -> Path:
    from langchain_hugginggpt.core.paths import data_dir

    return data_dir() / LOG_NAME


LOGGED_TURNS = 6


def append_run(result: HuggingGPTResult, llm: Any = None, chat_history: list | None = None,
               path: Path | None = None, workspace: Path | None = None) -> str:
    """Append one run (with the workspace its inputs were read in, so a replay reads the same files); returns
    its id."""
    from langchain_hugginggpt.agent.llms import llm_name

    run_id = uuid.uuid4().hex[:12]
    record = {
        "id": run_id,
        "time": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "llm": llm_name(llm) if llm is not None else None,
        # the turns just before, not the whole conversation: a line each turn holding every earlier one made
        # a 60-turn chat's log 52 MB (the planner reads the recent turns too)
        "chat_history": (chat_history or [])[-LOGGED_TURNS:],
        "chat_history_length": len(chat_history or []),
        "workspace": str(workspace) if workspace is not None else None,
        **result.model_dump(mode="json"),
    }
    target = path or log_path()
    # a request read from a terminal may hold bytes that are not UTF-8 (lone surrogates): logged as '?'
    with target.open("a", encoding="utf-8", errors="replace") as handle:
        # a process killed mid-write leaves a line without its end: start on a fresh line, not inside it
        start = "\n" if handle.tell() and not _ends_with_newline(target) else ""
        handle.write(start + json.dumps(record, ensure_ascii=False) + "\n")
    return run_id


def _ends_with_newline(path: Path) -> bool:
    with path.open("rb") as raw:
        raw.seek(-1, 2)
        return raw.read(1) == b"\n"


def read_runs(path: Path | None = None) -> Iterator[dict[str, Any]]:
    """Every logged run; a line that is no run (cut short by a killed process, edited by hand) is skipped
    with a warning naming it, so one bad line does not hide the others."""
    target = path or log_path()
    if not target.exists():
        return
    with target.open(encoding="utf-8", errors="replace") as handle:
        for number, line in enumerate(handle, 1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except ValueError as exc:
                log.warning("%s line %d skipped: not a JSON record (%s)", target, number, exc.msg)
                continue
            if not isinstance(record, dict) or not isinstance(record.get("id"), str):
                log.warning("%s line %d skipped: not a run record (no id)", target, number)
                continue
            yield record


def find_run(run_id: str, path: Path | None = None) -> dict[str, Any]:
    if not run_id.strip():
        raise LookupError("no run id given: `hugginggpt logs` lists the logged runs with their ids")
    matches = [r for r in read_runs(path) if r["id"].startswith(run_id)]
    if not matches:
        raise LookupError(f"no logged run with id {run_id!r} in {path or log_path()}")  # KeyError would quote it
    if len(ids := {r["id"] for r in matches}) > 1:
        raise LookupError(f"{run_id!r} begins {len(ids)} logged run ids: give more of the id")
    return matches[-1]


async def areplay(record: dict[str, Any], agent: Any) -> HuggingGPTResult:
    """Execute a logged plan again with its logged model choices, then respond."""
    from langchain_hugginggpt.agent.executor import TaskExecutor
    from langchain_hugginggpt.agent.response import Responder
    from langchain_hugginggpt.core.schema import Plan, Selection
    from langchain_hugginggpt.planning.validation import validate_plan

    if not isinstance(record.get("request"), str):
        raise ValueError(f"logged run {record.get('id')} has no request: it cannot be replayed")
    if not record.get("plan"):
        raise ValueError(f"logged run {record.get('id')} planned no task (a chat reply): there is no plan to replay")
    result = HuggingGPTResult(request=record["request"], planner="replay")
    plan = validate_plan(Plan.model_validate({"tasks": record.get("plan", [])})).plan
    result.plan = plan.tasks
    result.selections = {int(k): Selection.model_validate(v) for k, v in record.get("selections", {}).items()}
    started = time.perf_counter()
    result.results = await TaskExecutor(agent.workspace, agent.max_concurrency, agent.task_timeout).arun(
        plan, result.selections)
    result.timings["execution"] = round(time.perf_counter() - started, 4)
    result.answer = await Responder(agent.llm, agent.responder).arespond(result)
    return result
