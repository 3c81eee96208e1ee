"""The package's import graph, read from the source with `ast`: every `import` counts, also those inside functions,
except under `if TYPE_CHECKING:` (annotations only, never run). tests/test_layers.py checks it against LAYERS;
docs/architecture.md shows it, written by

    python tests/import_layers.py --write-doc
"""

from __future__ import annotations

import ast
import sys
import tomllib
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = "langchain_hugginggpt"
DOC = ROOT / "docs" / "architecture.md"
BEGIN, END = "<!-- import graph: begin (python tests/import_layers.py --write-doc) -->", "<!-- import graph: end -->"

# Which folders each folder may import, bottom to top. prompts holds templates and data.
LAYERS: dict[str, set[str]] = {
    "core": set(),
    "prompts": set(),
    "tools": {"core"},
    "retriever": {"core", "tools"},
    "experts": {"core", "tools"},
    "planning": {"core", "tools", "retriever", "prompts"},
    "agent": {"core", "tools", "retriever", "prompts", "planning", "experts"},
    "server": {"core", "tools", "retriever", "prompts", "planning", "experts", "agent"},
    "cli": {"core", "tools", "retriever", "prompts", "planning", "experts", "agent", "server"},
}


def folders() -> list[str]:
    """The code folders pyproject.toml installs, as `langchain_hugginggpt.<folder>`."""
    package_dir = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-dir"]
    return list(package_dir.values())


def modules() -> dict[str, Path]:
    """Module name -> source file, for every module the wheel installs (the corpus scripts are not modules)."""
    found = {}
    for folder in folders():
        for path in (ROOT / folder).rglob("*.py"):
            if "corpus" in path.parts or "__pycache__" in path.parts:
                continue
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join([PACKAGE, *parts])] = path
    return found


def _imported_names(tree: ast.AST, package: str) -> list[str]:
    """The dotted names a module's imports name (`from a import b` names both `a` and `a.b`)."""
    names: list[str] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parent + ([base] if base else []))
            names.append(base)
            names.extend(f"{base}.{alias.name}" for alias in node.names)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return names


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def import_graph() -> dict[str, set[str]]:
    """Module -> the package's modules it imports (the longest module name each import names)."""
    found = modules()
    graph: dict[str, set[str]] = defaultdict(set)
    for name, path in found.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for imported in _imported_names(ast.parse(path.read_text()), package):
            while imported and imported not in found:
                imported = imported.rpartition(".")[0]
            if imported and imported != name:
                graph[name].add(imported)
        graph.setdefault(name, set())
    return dict(graph)


def folder_of(module: str) -> str:
    return module.split(".")[1]


def folder_edges(graph: dict[str, set[str]]) -> Counter:
    """(folder, imported folder) -> how many module imports cross between them."""
    return Counter((folder_of(a), folder_of(b)) for a, targets in graph.items() for b in targets
                   if folder_of(a) != folder_of(b))


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def mermaid(graph: dict[str, set[str]]) -> str:
    """The folders as a Mermaid flowchart, each arrow labelled with how many module imports it stands for."""
    counts = Counter(folder_of(m) for m in graph)
    lines = ["```mermaid", "flowchart BT"]
    lines += [f"  {folder}[\"{folder}/ ({counts[folder]} modules)\"]" for folder in LAYERS if counts[folder]]
    for (source, target), n in sorted(folder_edges(graph).items(), key=lambda item: (list(LAYERS).index(item[0][0]),
                                                                                     list(LAYERS).index(item[0][1]))):
        lines.append(f"  {source} -->|{n}| {target}")
    lines.append("```")
    return "\n".join(lines)


def write_doc() -> None:
    text = DOC.read_text()
    head, _, rest = text.partition(BEGIN)
    _, _, tail = rest.partition(END)
    DOC.write_text(f"{head}{BEGIN}\n{mermaid(import_graph())}\n{END}{tail}")


if __name__ == "__main__":
    if sys.argv[1:] == ["--write-doc"]:
        write_doc()
    else:
        print(mermaid(import_graph()))
        for component in cycles(import_graph()):
            print("cycle:", " ".join(component))
