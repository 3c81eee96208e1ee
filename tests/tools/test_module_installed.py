"""Engine availability checks while another thread is importing the module they need."""

import sys
import types

from langchain_hugginggpt.tools.base import module_installed


def test_a_module_being_imported_counts_as_installed(monkeypatch):
    # cv2's loader leaves a spec-less module in sys.modules while it imports; find_spec then
    # raises ValueError, and 20 concurrent first requests saw 'cv2.__spec__ is None' errors.
    half_imported = types.ModuleType("half_imported_module")
    half_imported.__spec__ = None
    monkeypatch.setitem(sys.modules, "half_imported_module", half_imported)
    assert module_installed("half_imported_module")
    assert module_installed("json") and not module_installed("no_such_module_anywhere")
