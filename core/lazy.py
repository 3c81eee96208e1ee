"""Package exports that import their module on first use (PEP 562): importing one name (the planner's
task table) does not import the rest (LangChain's tool classes, the model catalog, FAISS)."""

from __future__ import annotations

import importlib
from typing import Any, Callable


def lazy_exports(package: str, exports: dict[str, str]) -> Callable[[str], Any]:
    """The module `__getattr__` of `package`: `name` comes from `package.<exports[name]>`, or from
    `exports[name]` itself where that is a full module name (a name a package re-exports from a lower layer)."""

    def __getattr__(name: str) -> Any:
        if name not in exports:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        module = exports[name]
        return getattr(importlib.import_module(module if "." in module else f"{package}.{module}"), name)

    return __getattr__
