"""Every exception class the package defines is a HuggingGPTError, so an application catches ours with one
`except` (and keeps the standard base callers rely on: a bad plan is still a ValueError). The classes are found
by walking the package's modules, so a new one cannot be left out."""

from __future__ import annotations

import ast
import importlib
import importlib.util
import inspect
import pkgutil
from pathlib import Path

import pytest

from langchain_hugginggpt.core.errors import HuggingGPTError

# The package's folders (pyproject.toml installs each as langchain_hugginggpt.<folder>).
FOLDERS = ("core", "tools", "retriever", "prompts", "planning", "experts", "agent", "server", "cli")


def package_modules() -> list[pkgutil.ModuleInfo]:
    modules = []
    for folder in FOLDERS:
        package = importlib.import_module(f"langchain_hugginggpt.{folder}")
        modules.append(pkgutil.ModuleInfo(None, package.__name__, True))
        modules += [info for info in pkgutil.walk_packages(package.__path__, package.__name__ + ".")
                    if not info.name.endswith("__main__")]  # running a CLI is not importing it
    return modules


def defined_exceptions() -> tuple[dict[str, type], dict[str, Path]]:
    """The exception classes of every module that imports here, and the files of those that need an extra
    that is not installed (read as source instead)."""
    found, unimported = {}, {}
    for info in package_modules():
        try:
            module = importlib.import_module(info.name)
        except ModuleNotFoundError as exc:
            if exc.name and exc.name.startswith("langchain_hugginggpt"):
                raise
            unimported[info.name] = Path(importlib.util.find_spec(info.name).origin)
            continue
        for value in vars(module).values():
            if inspect.isclass(value) and issubclass(value, BaseException) and value.__module__ == info.name:
                found[f"{value.__module__}.{value.__qualname__}"] = value
    return found, unimported


def test_every_exception_class_of_the_package_is_a_hugginggpt_error():
    found, unimported = defined_exceptions()
    assert len(found) >= 10, sorted(found)  # the walk reached the modules (the plan, tools, server errors)
    assert [name for name, cls in found.items() if not issubclass(cls, HuggingGPTError)] == []
    # Modules that need a missing extra: a class whose bases name an error must name one of ours.
    ours = {cls.__name__ for cls in found.values()}
    for name, path in unimported.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                bases = {ast.unparse(base).rpartition(".")[2] for base in node.bases}
                if any(base.endswith(("Error", "Exception")) for base in bases):
                    assert bases & ours, f"{name}.{node.name} derives from {sorted(bases)}, not a HuggingGPTError"


@pytest.mark.parametrize(("error", "standard"), [
    ("langchain_hugginggpt.planning.validation:PlanError", ValueError),
    ("langchain_hugginggpt.core.workspace:WorkspaceError", ValueError),
    ("langchain_hugginggpt.tools.engines.llama_server:LlamaTimeoutError", TimeoutError),
    ("langchain_hugginggpt.server.conversations:ConversationNotFound", KeyError),
])
def test_errors_keep_the_standard_base_callers_rely_on(error, standard):
    module, _, name = error.partition(":")
    cls = getattr(importlib.import_module(module), name)
    assert issubclass(cls, HuggingGPTError) and issubclass(cls, standard)


def test_an_expert_error_is_still_a_tool_exception_for_langchain_agents():
    from langchain_core.tools import ToolException

    from langchain_hugginggpt.tools import ExpertError

    assert issubclass(ExpertError, ToolException) and issubclass(ExpertError, HuggingGPTError)


def test_a_missing_conversation_reads_as_a_key_error_does():
    from langchain_hugginggpt.server.conversations import ConversationNotFound

    assert str(ConversationNotFound("abc")) == "'abc'"  # KeyError's str, as before it was a HuggingGPTError
