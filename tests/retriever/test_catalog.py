"""The catalog's sources (built-in, import, user), how they merge, persist, and how availability
is taken from the tools registry."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from langchain_hugginggpt.retriever import CatalogError, ModelCatalog, builtin_records
from langchain_hugginggpt.tools.base import Engine, ExpertOutput
from langchain_hugginggpt.tools.registry import engines_for, register, unregister
from langchain_hugginggpt.core.tasks import TASKS
from tests.retriever.conftest import P0


def _catalog(tmp_path, **kw):
    return ModelCatalog(tmp_path / "catalog", **kw)


def test_import_p0_reads_every_row(tmp_path):
    catalog = _catalog(tmp_path, include_builtin=False)
    report = catalog.import_file(P0)
    assert (report.added, report.updated, report.skipped) == (673, 0, [])
    assert len(catalog) == 673
    per_task = Counter(r.task for r in catalog)
    assert len(per_task) == 24 and per_task["text-classification"] == 30 and per_task["text-to-video"] == 8
    finbert = catalog.get("text-classification", "ProsusAI/finbert")
    assert finbert.downloads == 1677372 and finbert.likes == 186 and finbert.source == "import"
    assert finbert.languages == ["en"] and "financial-sentiment-analysis" in finbert.tags
    assert finbert.description.startswith("FinBERT is a pre-trained NLP model")
    t5 = catalog.get("translation", "t5-base")
    assert t5.license == "apache-2.0" and t5.languages == ["en", "fr", "ro", "de"]
    # Every record has something to embed, even when its card says nothing usable.
    assert all(r.description for r in catalog)
    # Persisted: a new catalog over the same folder sees the same records; importing again updates.
    again = _catalog(tmp_path, include_builtin=False)
    assert len(again) == 673
    assert again.import_file(P0).updated == 673 and len(again) == 673
    lines = (tmp_path / "catalog" / "import.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(lines) == 673 and "available" not in json.loads(lines[0])  # computed fields are not stored


def test_import_errors_name_the_file_and_line(tmp_path):
    catalog = _catalog(tmp_path, include_builtin=False)
    with pytest.raises(CatalogError, match="no such file"):
        catalog.import_file(tmp_path / "missing.jsonl")
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": "a/b", "task": "text-classification"}\n{not json\n', encoding="utf-8")
    with pytest.raises(CatalogError, match=r"bad.jsonl: line 2 is not JSON"):
        catalog.import_file(bad)
    mixed = tmp_path / "mixed.jsonl"
    mixed.write_text(json.dumps({"id": "a/b", "task": "text-classification", "description": "Good."}) + "\n"
                     + json.dumps({"id": "c/d", "task": "fill-mask"}) + "\n"
                     + json.dumps({"task": "summarization"}) + "\n", encoding="utf-8")
    report = catalog.import_file(mixed)
    assert report.added == 1
    assert any("c/d" in s and "unknown task 'fill-mask'" in s for s in report.skipped)
    assert any("line 3" in s and "'id'" in s for s in report.skipped)


def test_builtin_records_are_derived_from_the_registry():
    expected = {(task, cls.model_id) for task in TASKS for cls in engines_for(task)}
    assert {r.key for r in builtin_records()} == expected
    assert all(r.source == "builtin" for r in builtin_records())


class _Runnable(Engine):
    task = "text-classification"
    model_id = "test/catalog-runnable"
    backend = "local"
    description = "A test engine that labels any text as POSITIVE."

    def run(self, inputs, workspace):
        return ExpertOutput(model=self.model_id, result=[{"label": "POSITIVE", "score": 1.0}], text="POSITIVE")


class _Missing(_Runnable):
    model_id = "test/catalog-missing"
    requires = ("no_such_module_for_catalog_tests",)


class _StandIn(_Runnable):
    model_id = "test/catalog-stand-in"
    backend = "stand-in"
    stand_in = True


@pytest.fixture
def test_engines():
    for cls in (_Runnable, _Missing, _StandIn):
        register(cls)
    yield
    for cls in (_Runnable, _Missing, _StandIn):
        unregister(cls.task, cls.model_id)


def test_availability_backend_and_stand_in_come_from_the_registry(tmp_path, test_engines):
    catalog = _catalog(tmp_path)
    runnable = catalog.get("text-classification", "test/catalog-runnable")
    assert runnable.source == "builtin" and runnable.available and runnable.backend == "local"
    assert runnable.description == _Runnable.description and not runnable.stand_in
    missing = catalog.get("text-classification", "test/catalog-missing")
    assert not missing.available and "no_such_module_for_catalog_tests" in missing.unavailable_reason
    stand_in = catalog.get("text-classification", "test/catalog-stand-in")
    assert stand_in.available and stand_in.stand_in and stand_in.backend == "stand-in"


def test_user_models_persist_and_override_imported_fields(tmp_path):
    catalog = _catalog(tmp_path, include_builtin=False)
    catalog.import_file(P0)
    added = catalog.add("ProsusAI/finbert", "text-classification", "Financial sentiment, my notes.", likes=0)
    # The user's description wins; what the user left empty comes from the imported record.
    assert added.source == "user" and added.description == "Financial sentiment, my notes."
    assert added.downloads == 1677372 and added.languages == ["en"]
    folder = tmp_path / "my-model"
    folder.mkdir()
    local = catalog.add(str(folder), "image-classification", "Classifies bird species in garden photos.")
    assert local.id == str(folder.resolve())
    reopened = _catalog(tmp_path, include_builtin=False)
    assert reopened.get("image-classification", str(folder.resolve())).description.startswith("Classifies bird")
    assert reopened.get("text-classification", "ProsusAI/finbert").source == "user"
    assert reopened.remove("ProsusAI/finbert") == 1
    # Removing the user's entry brings back the imported one.
    assert _catalog(tmp_path, include_builtin=False).get("text-classification", "ProsusAI/finbert").source == "import"


@pytest.mark.parametrize(("model_id", "task", "description", "error"), [
    ("me/model", "no-such-task", "x", "unknown task 'no-such-task'"),
    ("me/model", "summarization", "  ", "a description is required"),
    ("not a model id!", "summarization", "Summarises.", "neither an existing local path nor a Hub id"),
])
def test_add_rejects_bad_input(tmp_path, model_id, task, description, error):
    with pytest.raises(CatalogError, match=error):
        _catalog(tmp_path, include_builtin=False).add(model_id, task, description)


def test_a_corrupt_catalog_file_is_reported(tmp_path):
    (tmp_path / "catalog").mkdir()
    (tmp_path / "catalog" / "user.jsonl").write_text('{"id": 3}\n', encoding="utf-8")
    with pytest.raises(CatalogError, match=r"user.jsonl line 1 is not a valid record"):
        _catalog(tmp_path, include_builtin=False)
