"""The kernel every other layer stands on: the data types of a run (schema.py), the task table (tasks.py),
the workspace and its file handling (workspace.py, media.py, downloads.py), where data and caches go (paths.py),
languages, the one error root (errors.py) and small helpers. It imports nothing else of the package.

    from langchain_hugginggpt.core import TASKS, Plan, Task, Workspace
"""

from langchain_hugginggpt.core.lazy import lazy_exports

_EXPORTS = {
    "HuggingGPTError": "errors",
    "Candidate": "schema", "HuggingGPTResult": "schema", "Plan": "schema", "ResourceType": "schema",
    "Selection": "schema", "StageEvent": "schema", "Task": "schema", "TaskResult": "schema",
    "TASKS": "tasks", "TaskSpec": "tasks", "get_task": "tasks",
    "Workspace": "workspace", "WorkspaceError": "workspace",
    "cache_dir": "paths", "data_dir": "paths",
}
__all__ = sorted(_EXPORTS)


__getattr__ = lazy_exports(__name__, _EXPORTS)
