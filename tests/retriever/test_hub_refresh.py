"""`hugginggpt models refresh` against a real local HTTP server that speaks the two Hub routes
we use (`GET /api/models` and `GET /{repo}/resolve/main/README.md`), reached through
HF_ENDPOINT as huggingface_hub would reach the real Hub."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse

import pytest

from langchain_hugginggpt.retriever import ModelCatalog

MODELS = [
    {"id": "acme/sentiment-es", "downloads": 5000, "likes": 12, "pipeline_tag": "text-classification",
     "tags": ["transformers", "pytorch", "text-classification", "es", "license:mit"],
     "cardData": {"license": "mit", "language": ["es"], "tags": ["sentiment-analysis"]},
     "safetensors": {"parameters": {"F32": 110000000}, "total": 110000000}},
    {"id": "acme/no-card", "downloads": 900, "likes": 1, "pipeline_tag": "text-classification",
     "tags": ["transformers", "text-classification", "toxicity"]},
    {"id": "acme/third", "downloads": 10, "likes": 0, "pipeline_tag": "text-classification", "tags": []},
]
CARDS = {
    "acme/sentiment-es": "---\nlicense: mit\nlanguage: es\n---\n# Spanish sentiment\n\n"
                         "[![badge](https://img.shields.io/x.svg)](https://x)\n\n"
                         "Classifies the sentiment of Spanish tweets as positive, negative or neutral. "
                         "Trained on TASS 2020.\n\n## Usage\n\n```python\npipeline('text-classification')\n```\n",
}


class _Hub(BaseHTTPRequestHandler):
    requests: list[str] = []

    def log_message(self, *args):  # keep test output clean
        pass

    def _send(self, status: int, body: bytes, content_type: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        url = urlparse(self.path)
        type(self).requests.append(self.path)
        if url.path == "/api/models":
            query = parse_qs(url.query)
            models = [m for m in MODELS if m["pipeline_tag"] == query.get("pipeline_tag", [""])[0]]
            if query.get("sort") == ["downloads"]:
                models.sort(key=lambda m: -m["downloads"])
            models = models[: int(query.get("limit", ["1000"])[0])]
            return self._send(200, json.dumps(models).encode(), "application/json")
        repo, sep, rest = url.path.lstrip("/").partition("/resolve/")
        if sep and rest == "main/README.md" and repo in CARDS:
            return self._send(200, CARDS[repo].encode(), "text/plain; charset=utf-8")
        return self._send(404, b'{"error": "Entry not found"}', "application/json")


@pytest.fixture
def hub():
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Hub)
    _Hub.requests = []
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def _cli(tmp_path, *args, **env):
    environ = {**os.environ, "HUGGINGGPT_HOME": str(tmp_path), **env}
    done = subprocess.run([sys.executable, "-m", "langchain_hugginggpt.cli.main", "models", *args],
                          capture_output=True, text=True, env={**environ, "COLUMNS": "400"}, timeout=120)
    done.stderr = " ".join(done.stderr.split())  # the console may wrap a long error line
    return done


def test_refresh_lists_models_by_downloads_with_their_cards(tmp_path, hub):
    done = _cli(tmp_path, "refresh", "--task", "text-classification", "--limit", "2",
                HF_ENDPOINT=hub, HF_HUB_OFFLINE="0")
    assert done.returncode == 0, done.stderr
    assert "2 added" in done.stdout
    listing = next(r for r in _Hub.requests if r.startswith("/api/models"))
    query = parse_qs(urlparse(listing).query)
    assert query["pipeline_tag"] == ["text-classification"] and query["sort"] == ["downloads"]
    assert query["limit"] == ["2"]
    catalog = ModelCatalog(tmp_path / "catalog", include_builtin=False)
    assert [r.id for r in catalog.records()] == ["acme/sentiment-es", "acme/no-card"]
    es = catalog.get("text-classification", "acme/sentiment-es")
    assert es.source == "hub" and es.downloads == 5000 and es.likes == 12
    assert es.license == "mit" and es.languages == ["es"] and es.tags == ["sentiment-analysis"]
    assert es.size == 110_000_000
    assert es.description == ("Spanish sentiment. Classifies the sentiment of Spanish tweets as positive, "
                              "negative or neutral. Trained on TASS 2020.")
    # A model without a card still gets a record, described from its metadata.
    no_card = catalog.get("text-classification", "acme/no-card")
    assert no_card.description == "A text-classification model (toxicity)."


def test_refresh_offline_or_unreachable_fails_clearly(tmp_path):
    offline = _cli(tmp_path, "refresh", "--task", "summarization", HF_HUB_OFFLINE="1")
    assert offline.returncode == 2 and "offline mode is on (HF_HUB_OFFLINE=1)" in offline.stderr
    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    unreachable = _cli(tmp_path, "refresh", "--task", "summarization",
                       HF_ENDPOINT=f"http://127.0.0.1:{port}", HF_HUB_OFFLINE="0")
    assert unreachable.returncode == 2
    assert f"cannot list summarization models on the Hub at http://127.0.0.1:{port}" in unreachable.stderr
    not_on_hub = _cli(tmp_path, "refresh", "--task", "canny-control", HF_HUB_OFFLINE="1")
    assert not_on_hub.returncode == 2 and "not a Hub pipeline tag" in not_on_hub.stderr
