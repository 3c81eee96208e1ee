"""Imports go one way, bottom to top: core <- tools <- retriever / experts <- planning <- agent <- server <- cli
(tests/import_layers.py: LAYERS), with no cycle between modules, counting imports inside functions."""

import ast

from tests.import_layers import BEGIN, DOC, END, LAYERS, _imported_names, cycles, folder_edges, folders, import_graph, mermaid


def test_the_reader_counts_imports_inside_functions_and_skips_type_checking():
    source = """
from typing import TYPE_CHECKING
import langchain_hugginggpt.core.schema
if TYPE_CHECKING:
    from langchain_hugginggpt.agent.hugginggpt import HuggingGPT
def later():
    from langchain_hugginggpt.tools import registry
    from . import sibling
"""
    names = _imported_names(ast.parse(source), "langchain_hugginggpt.planning")
    assert "langchain_hugginggpt.core.schema" in names
    assert "langchain_hugginggpt.tools.registry" in names
    assert "langchain_hugginggpt.planning.sibling" in names
    assert not any("hugginggpt.agent" in name for name in names)


def test_every_installed_folder_has_a_layer():
    assert set(folders()) <= set(LAYERS)


def test_folders_import_only_the_layers_below_them():
    upward = {edge: n for edge, n in folder_edges(import_graph()).items() if edge[1] not in LAYERS[edge[0]]}
    assert not upward, f"imports against the layers (folder -> folder: module imports): {upward}"


def test_no_module_import_cycle():
    found = cycles(import_graph())
    assert not found, "module import cycles:\n" + "\n".join(" <-> ".join(c) for c in found)


def test_the_architecture_doc_shows_the_current_graph():
    text = DOC.read_text()
    assert BEGIN in text and END in text
    shown = text.split(BEGIN, 1)[1].split(END, 1)[0].strip()
    assert shown == mermaid(import_graph()), "docs/architecture.md is stale: python tests/import_layers.py --write-doc"
