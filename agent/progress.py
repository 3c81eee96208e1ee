"""One line of text per stage or task event, for fronts that show progress as text (the OpenAI-compatible
stream, MCP progress notifications)."""

from __future__ import annotations

from langchain_hugginggpt.core.schema import StageEvent


def progress_line(event: StageEvent) -> str | None:
    """What a stage or task event says, ending in a newline; None for events that are not progress (the
    answer and its chunks, the whole result)."""
    data = event.data
    if event.kind == "plan":
        tasks = ", ".join(f"{t['id']}: {t['task']}" for t in data["plan"]) or "no task (chit-chat)"
        return f"Plan ({data['planner']}): {tasks}\n"
    if event.kind == "selection":
        return "".join(f"Model for task {k}: {s['model_id'] or '-'} ({s['reason']})\n" for k, s in data.items())
    if event.kind == "task":
        detail = data.get("error") or ((data.get("output") or {}).get("text") or "")[:200]
        return f"Task {data['task_id']} {data['task']}: {data['status']}{': ' + detail if detail else ''}\n"
    if event.kind == "error":
        return f"Error: {data['error']}\n"
    return None
