"""The Inference Providers backend against a real HTTP server on 127.0.0.1 that this test
starts and that speaks the hf-inference routes (`POST <base>/models/<id>`), through the
real `huggingface_hub.InferenceClient`: success, a 503, and a refused connection.

huggingface_hub blocks every request, local ones included, while HF_HUB_OFFLINE is on,
so the tests that talk to the local server switch it off; nothing else is contacted.
"""

from __future__ import annotations

import os

os.environ["HF_HUB_OFFLINE"] = "1"

import io
import json
import socket
import threading
import wave
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import ClassVar

import numpy as np
import pytest
from PIL import Image

from langchain_hugginggpt.core.workspace import Workspace
from langchain_hugginggpt.tools import ExpertError, ExpertTool, resolve_engine
from langchain_hugginggpt.tools.engines.hf_transformers import engine_for_hub_model

DETECTIONS = [{"label": "cat", "score": 0.98, "box": {"xmin": 4, "ymin": 6, "xmax": 40, "ymax": 30}},
              {"label": "cat", "score": 0.91, "box": {"xmin": 30, "ymin": 2, "xmax": 63, "ymax": 47}},
              {"label": "remote", "score": 0.88, "box": {"xmin": 10, "ymin": 10, "xmax": 20, "ymax": 16}}]


class FakeProvider(BaseHTTPRequestHandler):
    """`POST /models/<id>`: detections for a detector, a PNG for a diffusion model, a WAV for a
    TTS model, 503 for a model that is down. Every request is recorded."""

    requests: ClassVar[list[dict]] = []

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        self.requests.append({"path": self.path, "auth": self.headers.get("authorization"),
                              "type": self.headers.get("content-type"), "body": body})
        model = self.path.removeprefix("/models/")
        if model.startswith("down/"):
            return self._send(503, "application/json", b'{"error": "Model down/model is currently loading"}')
        if model == "facebook/detr-resnet-50":
            return self._send(200, "application/json", json.dumps(DETECTIONS).encode())
        if model == "facebook/nllb-200-distilled-600M":
            return self._send(200, "application/json", json.dumps([{"translation_text": "Bonjour à tous"}]).encode())
        if model == "tiny/sd":
            buffer = io.BytesIO()
            Image.new("RGB", (24, 16), (200, 30, 30)).save(buffer, "PNG")
            return self._send(200, "image/png", buffer.getvalue())
        if model == "tiny/tts":
            buffer = io.BytesIO()
            with wave.open(buffer, "wb") as out:
                out.setnchannels(1), out.setsampwidth(2), out.setframerate(16000)
                out.writeframes(np.zeros(1600, dtype="<i2").tobytes())
            return self._send(200, "audio/wav", buffer.getvalue())
        return self._send(404, "application/json", b'{"error": "Model not found"}')

    def _send(self, status: int, content_type: str, payload: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, *args) -> None:  # keep test output clean
        pass


@pytest.fixture(scope="module")
def server():
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), FakeProvider)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture(scope="module")
def ws(tmp_path_factory) -> Workspace:
    root = tmp_path_factory.mktemp("hf-inference")
    Image.fromarray(np.random.default_rng(0).integers(0, 255, (48, 64, 3), dtype=np.uint8)).save(root / "photo.png")
    return Workspace(root)


@pytest.fixture
def online(monkeypatch, server):
    """A token, the local server as the base URL, and huggingface_hub's offline switch off."""
    from huggingface_hub import constants

    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", False)
    monkeypatch.setenv("HF_TOKEN", "hf_test_token")
    monkeypatch.setenv("HUGGINGGPT_INFERENCE_BASE_URL", server)
    FakeProvider.requests.clear()
    return server


def remote(task: str, model: str):
    engine = engine_for_hub_model(task, f"inference-api:{model}")()
    assert engine.backend == "inference-api" and engine.model_id == f"inference-api:{model}"
    return engine


def test_unavailable_without_a_token_or_while_offline(monkeypatch):
    for var in ("HF_TOKEN", "HUGGINGFACEHUB_API_TOKEN", "HUGGINGGPT_INFERENCE_BASE_URL"):
        monkeypatch.delenv(var, raising=False)
    engine = remote("object-detection", "facebook/detr-resnet-50")
    assert "HF_HUB_OFFLINE" in engine.unavailable_reason()
    monkeypatch.delenv("HF_HUB_OFFLINE")
    from huggingface_hub import constants

    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", False)
    assert "set HF_TOKEN" in engine.unavailable_reason()
    with pytest.raises(ExpertError, match=r"object-detection with inference-api:facebook/detr-resnet-50: .*set HF_TOKEN"):
        engine.run({"image": "photo.png"}, Workspace("."))
    monkeypatch.setenv("HUGGINGFACEHUB_API_TOKEN", "hf_x")
    assert engine.unavailable_reason() is None


def test_object_detection_through_the_inference_client(online, ws):
    photo = str(ws.resolve_input("photo.png"))
    out = remote("object-detection", "facebook/detr-resnet-50").run({"image": photo}, ws)
    assert out.result == DETECTIONS and out.text == "2 cats, 1 remote"
    with Image.open(out.image) as drawn:
        assert drawn.size == (64, 48)
    [request] = FakeProvider.requests
    assert request["path"] == "/models/facebook/detr-resnet-50" and request["auth"] == "Bearer hf_test_token"
    assert request["body"] == Path(photo).read_bytes()  # the image itself went over the wire


def test_generated_media_is_saved_with_the_right_type(online, ws):
    image = remote("text-to-image", "tiny/sd").run({"text": "a red cat"}, ws)
    with Image.open(image.image) as png:
        assert png.format == "PNG" and png.size == (24, 16)
    assert json.loads(FakeProvider.requests[-1]["body"])["inputs"] == "a red cat"
    speech = remote("text-to-speech", "tiny/tts").run({"text": "hello"}, ws)
    assert speech.audio.endswith(".wav")  # recognised from the RIFF header
    with wave.open(speech.audio) as clip:
        assert clip.getframerate() == 16000 and clip.getnframes() == 1600


def test_a_fixed_pair_model_is_not_asked_for_another_language(online, ws):
    engine = remote("translation", "Helsinki-NLP/opus-mt-en-es")
    with pytest.raises(ExpertError, match="translates English into Spanish only, not into French"):
        engine.run({"text": "good morning", "target_lang": "French"}, ws)
    assert not FakeProvider.requests  # refused before any call


def test_a_many_language_model_is_told_both_languages_in_its_own_codes(online, ws):
    engine = remote("translation", "facebook/nllb-200-distilled-600M")
    out = engine.run({"text": "hello everyone", "target_lang": "French"}, ws)
    assert out.text == "Bonjour à tous"
    body = json.loads(FakeProvider.requests[-1]["body"])
    assert body["inputs"] == "hello everyone"
    assert body["parameters"]["src_lang"] == "eng_Latn" and body["parameters"]["tgt_lang"] == "fra_Latn"
    engine.run({"text": "Guten Morgen", "source_lang": "German", "target_lang": "en"}, ws)
    parameters = json.loads(FakeProvider.requests[-1]["body"])["parameters"]
    assert (parameters["src_lang"], parameters["tgt_lang"]) == ("deu_Latn", "eng_Latn")
    calls = len(FakeProvider.requests)
    with pytest.raises(ExpertError, match="translates between many languages: name the one to translate into"):
        engine.run({"text": "hello"}, ws)
    with pytest.raises(ExpertError, match="needs the language of the text to translate it into English"):
        engine.run({"text": "Guten Morgen", "target_lang": "English"}, ws)
    assert len(FakeProvider.requests) == calls  # refused before any call


def test_a_down_endpoint_names_model_url_and_status(online, ws):
    with pytest.raises(ExpertError) as failure:
        remote("text-to-image", "down/model").run({"text": "a cat"}, ws)
    message = str(failure.value)
    assert "inference-api:down/model" in message and "HTTP 503" in message
    assert f"{online}/models/down/model" in message and "currently loading" in message


def test_a_refused_connection_names_the_url(online, ws, monkeypatch):
    with socket.socket() as probe:  # a port that nothing listens on once the probe closes
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    monkeypatch.setenv("HUGGINGGPT_INFERENCE_BASE_URL", f"http://127.0.0.1:{port}")
    with pytest.raises(ExpertError, match=rf"text-to-image with inference-api:tiny/sd: cannot reach the inference "
                                          rf"endpoint http://127.0.0.1:{port}/models/tiny/sd: ConnectError"):
        remote("text-to-image", "tiny/sd").run({"text": "a cat"}, ws)


def test_routing_a_plain_hub_id(online, ws, monkeypatch, tmp_path):
    """An id whose weights are not here runs remotely when a token is set, else stays local (and says why)."""
    from huggingface_hub import constants

    monkeypatch.setattr(constants, "HF_HUB_CACHE", str(tmp_path / "empty-cache"))
    assert engine_for_hub_model("object-detection", "facebook/detr-resnet-50").backend == "inference-api"
    tool = ExpertTool.for_task("object-detection", model="inference-api:facebook/detr-resnet-50", workspace=ws)
    assert tool.run_expert({"image": "photo.png"}).text == "2 cats, 1 remote"
    for var in ("HF_TOKEN", "HUGGINGGPT_INFERENCE_BASE_URL"):
        monkeypatch.delenv(var)
    local = engine_for_hub_model("object-detection", "facebook/detr-resnet-50")
    assert local.backend == "transformers" and "would download" in local().check_resources()
    assert engine_for_hub_model("depth-estimation", "inference-api:Intel/dpt-large") is None  # no client method
    with pytest.raises(ExpertError, match="unknown model 'inference-api:Intel/dpt-large'"):
        resolve_engine("depth-estimation", "inference-api:Intel/dpt-large")
