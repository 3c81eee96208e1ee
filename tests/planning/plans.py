"""Small readers of a planner's output, shared by the planning tests."""


def tasks_of(planner, request: str) -> list[str]:
    """The task names of the plan for `request`, in plan order."""
    return [t.task for t in planner.plan(request).plan.tasks]
