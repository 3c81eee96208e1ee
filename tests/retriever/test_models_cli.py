"""`hugginggpt models import|list|search|add|remove`, run in-process through the console script's `main(argv)`."""

from __future__ import annotations

import json

from langchain_hugginggpt.cli.main import main
from tests.retriever.conftest import P0
from tests.retriever.test_retrieval import DOMAIN, GENERIC_ENGLISH, SPANISH_FINANCE


def _run(capsys, *argv):
    code = main(["models", *argv])
    out, err = capsys.readouterr()
    return code, out, " ".join(err.split())  # the console may wrap long error lines


def test_import_then_list(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("HUGGINGGPT_HOME", str(tmp_path))
    code, out, _ = _run(capsys, "import", str(P0))
    assert code == 0 and "673 added, 0 updated, 0 skipped" in out
    code, out, _ = _run(capsys, "list", "--task", "text-to-video", "--json")
    rows = json.loads(out)
    imported = [r for r in rows if r["source"] == "import"]
    assert code == 0 and len(imported) == 8 and all(r["task"] == "text-to-video" for r in rows)
    assert {"id", "downloads", "likes", "available", "backend", "description"} <= set(rows[0])
    code, out, err = _run(capsys, "list", "--task", "translation")
    assert code == 0 and "Helsinki-NLP/opus-mt-de-en" in out and "models" in err


def test_import_with_no_file_takes_the_shipped_model_list(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("HUGGINGGPT_HOME", str(tmp_path))
    code, out, _ = _run(capsys, "import")
    assert code == 0 and "p0_models.jsonl" in out and "673 added, 0 updated, 0 skipped" in out


def test_search_json_is_best_first(home, capsys):
    code, out, _ = _run(capsys, "search", SPANISH_FINANCE, "--task", "text-classification", "--k", "6", "--all",
                        "--json")
    assert code == 0
    rows = json.loads(out)
    assert len(rows) == 6
    assert {"id", "task", "score", "downloads", "available", "similarity", "popularity"} <= set(rows[0])
    assert [r["score"] for r in rows] == sorted((r["score"] for r in rows), reverse=True)
    ids = [r["id"] for r in rows]
    assert ids[0] in DOMAIN
    assert min(ids.index(i) for i in DOMAIN if i in ids) < min((ids.index(i) for i in GENERIC_ENGLISH if i in ids),
                                                               default=len(ids))
    code, out, _ = _run(capsys, "search", SPANISH_FINANCE, "--task", "text-classification", "--all")
    assert code == 0 and out.startswith("1. ") and "similarity" in out


def test_add_search_and_remove_a_user_model(home, capsys):
    code, out, _ = _run(capsys, "add", "acme/bolsa-sentimiento", "--task", "text-classification", "--description",
                        "Sentiment of Spanish stock market and financial news headlines.", "--language", "es")
    assert code == 0 and "added acme/bolsa-sentimiento for text-classification" in out
    code, out, _ = _run(capsys, "search", SPANISH_FINANCE, "--task", "text-classification", "--all", "--json", "--k", "1")
    assert json.loads(out)[0]["id"] == "acme/bolsa-sentimiento"
    code, out, _ = _run(capsys, "remove", "acme/bolsa-sentimiento")
    assert code == 0 and "removed acme/bolsa-sentimiento" in out


def test_errors_are_one_line_messages(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("HUGGINGGPT_HOME", str(tmp_path))
    code, _, err = _run(capsys, "import", str(tmp_path / "nope.jsonl"))
    assert code == 2 and err.startswith("error: CatalogError: cannot import") and "no such file" in err
    code, _, err = _run(capsys, "list", "--task", "not-a-task")
    assert code == 2 and "unknown task 'not-a-task'" in err
    code, _, err = _run(capsys, "add", "me/x", "--task", "summarization", "--description", " ")
    assert code == 2 and "a description is required" in err
    code, _, err = _run(capsys, "remove", "me/never-added")
    assert code == 2 and "no user-added model 'me/never-added'" in err
