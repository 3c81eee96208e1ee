"""The original HuggingGPT web client's way of talking to the server, in a real browser.

tests/server/jarvis_client.html does what microsoft/JARVIS's web client does: it POSTs
`{"model", "messages"}` to `<server>/hugginggpt` from another origin (so the browser sends a
CORS preflight first), shows `data.message`, and loads every `/...png`, `/...wav` path the
message names from the server's base URL. The page is served from a second 127.0.0.1 port.
The server runs the local preset with its real engines (object detection, speech), offline.
"""

import functools
import shutil
import threading
import wave
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlparse

import pytest
from PIL import Image
from playwright.sync_api import expect

from langchain_hugginggpt.agent.hugginggpt import HuggingGPT

from .conftest import ARTIFACTS

REPO = Path(__file__).resolve().parents[2]
PAGE = Path(__file__).with_name("jarvis_client.html")
REQUEST = "Detect the objects in street.jpg and read the result aloud"


class QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:
        pass


@pytest.fixture(scope="module")
def page_url(tmp_path_factory):
    """The client page on its own origin: another port of 127.0.0.1."""
    folder = tmp_path_factory.mktemp("web-client")
    shutil.copy(PAGE, folder / "index.html")
    http = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(QuietHandler, directory=str(folder)))
    threading.Thread(target=http.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{http.server_address[1]}/index.html"
    http.shutdown()


@pytest.fixture(scope="module")
def local_server(start_server, tmp_path_factory):
    """`hugginggpt serve` with the local preset (retrieval planner, template answer) and the
    default CORS allow-list; street.jpg is in its workspace."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("HUGGINGGPT_HOME", str(tmp_path_factory.mktemp("home")))
        live = start_server(lambda ws: HuggingGPT.from_preset("local", workspace=ws, log_runs=False))
        shutil.copy(REPO / "examples" / "street.jpg", live.workspace.root / "street.jpg")
        yield live


def test_the_web_client_shows_the_answer_the_detection_picture_and_the_audio(browser, local_server, page_url):
    assert urlparse(page_url).port != urlparse(local_server.url).port  # a cross-origin call
    page = browser.new_page(viewport={"width": 1000, "height": 1200})
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{page_url}?server={local_server.url}")
    page.fill("#input", REQUEST)
    page.click("#send")

    answer = page.locator(".turn.assistant .message")
    expect(answer).to_have_count(1, timeout=180_000)
    text = answer.inner_text()
    assert all(label in text for label in ("person", "cat", "motorcycle")), text
    assert "/files/outputs/detection-" in text and str(local_server.workspace.root) not in text

    picture = page.locator(".turn.assistant img")
    expect(picture).to_have_count(1)
    page.wait_for_function("img => img.complete && img.naturalWidth > 0", arg=picture.element_handle())
    src = picture.get_attribute("src")
    assert src.startswith(local_server.url + "/files/outputs/detection-") and src.endswith(".png")
    shown = picture.evaluate("img => [img.naturalWidth, img.naturalHeight]")
    assert shown == list(Image.open(REPO / "examples" / "street.jpg").size)  # the boxes drawn on the photo

    audio = page.locator(".turn.assistant audio")
    expect(audio).to_have_count(1)
    page.wait_for_function("audio => audio.readyState >= 1 && audio.duration > 0", arg=audio.element_handle())
    audio_src = audio.get_attribute("src")
    assert audio_src.startswith(local_server.url + "/files/outputs/speech-") and audio_src.endswith(".wav")
    with wave.open(str(local_server.workspace.root / audio_src.removeprefix(local_server.url + "/files/"))) as wav:
        seconds = wav.getnframes() / wav.getframerate()
    assert seconds > 1 and abs(audio.evaluate("audio => audio.duration") - seconds) < 0.05  # the speech it made

    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "web-client.png"), full_page=True)
    assert errors == []
    page.close()


def test_an_origin_off_the_allow_list_gets_the_network_error(browser, start_server, page_url):
    """The control: with the page's origin not allowed, the preflight fails and the request
    is never sent, which the original client shows as "Network Error"."""
    elsewhere = start_server(cors_origins=["http://client.example"])
    page = browser.new_page()
    page.goto(f"{page_url}?server={elsewhere.url}")
    page.fill("#input", "hello")
    page.click("#send")
    expect(page.locator(".turn.assistant .message")).to_have_text("Network Error", timeout=30_000)
    assert elsewhere.agent.llm.calls == []
    page.close()
