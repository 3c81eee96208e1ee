"""Package exports that import their module on first use (PEP 562), for the agent, tools and retriever
packages: importing one name (the planner's task table) does not import the rest (LangChain's tool
classes, the model catalog), and packages that import each other stay free of import cycles."""

from __future__ import annotations

import importlib
from typing import Any, Callable


def lazy_exports(package: str, exports: dict[str, str]) -> Callable[[str], Any]:
    """The module `__getattr__` of `package`: `name` comes from `package.<exports[name]>`."""

    def __getattr__(name: str) -> Any:
        if name not in exports:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(importlib.import_module(f"{package}.{exports[name]}"), name)

    return __getattr__
