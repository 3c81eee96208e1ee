"""One line of text per stage or task event, for fronts that show progress as text (the OpenAI-compatible
stream, MCP progress notifications)."""

from __future__ import annotations

from langchain_hugginggpt.core.schema import StageEvent


def progress_line(event: StageEvent) -> str | None:
    """What a stage or task event says, ending in a newline; None for events that are not progress (the
    answer and its chunks, the whole result)."""
    if event.kind == "plan":
        tasks = ", ".join(f"{t.id}: {t.task}" for t in event.plan or []) or "no task (chit-chat)"
        return f"Plan ({event.planner}): {tasks}\n"
    if event.kind == "selection":
        return "".join(f"Model for task {k}: {s.model_id or '-'} ({s.reason})\n"
                       for k, s in (event.selections or {}).items())
    if event.kind == "task" and (task := event.task) is not None:
        detail = task.error or ((task.output.text if task.output else None) or "")[:200]
        return f"Task {task.task_id} {task.task}: {task.status}{': ' + detail if detail else ''}\n"
    if event.kind == "error":
        return f"Error: {event.error}\n"
    return None
