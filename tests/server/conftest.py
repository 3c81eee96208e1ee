"""A real uvicorn server on 127.0.0.1 (in a thread, on a free port) serving HuggingGPT.

The controller LLM is scripted (ScriptedChat: it plans a canny-control task for every
image path in the request and answers "Edge map ready for: <request>"); everything
else is real: the agent, the server, and the expert, OpenCV's Canny.
"""

import json
import os
import re
import threading
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")

import httpx  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
import uvicorn  # noqa: E402
from PIL import Image, ImageDraw  # noqa: E402

from langchain_hugginggpt.agent.hugginggpt import HuggingGPT  # noqa: E402
from langchain_hugginggpt.server import create_app  # noqa: E402

from ..agent.scripted import ScriptedChat  # noqa: E402

IMAGE_RE = re.compile(r"[\w./-]+\.(?:png|jpg)")
API_KEY = "test-key-0123456789"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run", "--disable-sync"]
ARTIFACTS = Path(__file__).parent / "artifacts"  # screenshots (git-ignored)


def plan_reply(messages) -> str:
    """Canny on each image the request names; "again" reuses the last image of the chat log."""
    log, _, request = messages[-1].text.partition("Now I input: ")
    request = request.split("\nReply with")[0]
    images = IMAGE_RE.findall(request) or (IMAGE_RE.findall(log)[-1:] if "again" in request else [])
    return json.dumps([{"task": "canny-control", "id": i, "dep": [-1], "args": {"image": path}}
                       for i, path in enumerate(images)])


def respond_reply(messages) -> str:
    return "Edge map ready for: " + re.search(r"User request: (.*)", messages[-1].text).group(1)


def scripted_agent(workspace, **replies) -> HuggingGPT:
    script = {"plan": plan_reply, "respond": respond_reply, "chat": "Hello! Send me an image for an edge map."}
    script.update(replies)
    return HuggingGPT(llm=ScriptedChat(replies=script, calls=[]), planner="llm", workspace=workspace, log_runs=False)


class LiveServer:
    """uvicorn serving an app on 127.0.0.1:<free port> in a background thread."""

    def __init__(self, app) -> None:
        self.app = app
        self.server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning"))
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> "LiveServer":
        self.thread.start()
        deadline = time.monotonic() + 60
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("uvicorn did not start")
            time.sleep(0.02)
        host, port = self.server.servers[0].sockets[0].getsockname()[:2]
        self.url = f"http://{host}:{port}"
        return self

    def __exit__(self, *exc) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)
        self.state.store.close()

    @property
    def state(self):
        return self.app.state.hugginggpt

    @property
    def workspace(self):
        return self.state.workspace

    @property
    def agent(self):
        return self.state.agent

    def client(self, **kwargs) -> httpx.Client:
        return httpx.Client(base_url=self.url, timeout=120, **kwargs)


@pytest.fixture(scope="session")
def start_server(tmp_path_factory):
    """start_server(**create_app options) -> a running LiveServer with the scripted agent, its own
    workspace and data folder, and auth off (api_key="") unless a key is given."""
    running = []

    def start(agent_factory=scripted_agent, **options) -> LiveServer:
        root = tmp_path_factory.mktemp("server")
        options.setdefault("workspace", root / "workspace")
        options.setdefault("data_dir", root / "data")
        options.setdefault("api_key", "")
        live = LiveServer(create_app(agent_factory, **options)).__enter__()
        running.append(live)
        return live

    yield start
    for live in running:
        live.__exit__(None, None, None)


@pytest.fixture(scope="session")
def server(start_server) -> LiveServer:
    """The shared server: no auth, a 200 kB upload limit."""
    return start_server(max_upload_bytes=200_000)


@pytest.fixture(scope="module")
def browser():
    """Debian's headless Chromium driven by Playwright."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield browser
        browser.close()


@pytest.fixture(scope="session")
def client(server):
    with server.client() as http:
        yield http


def shape_image(path: Path, i: int) -> Path:
    """A distinct picture per i: its own size and a rectangle at its own place."""
    image = Image.new("RGB", (60 + 4 * i, 40 + 2 * i), (250, 250, 250))
    ImageDraw.Draw(image).rectangle((5 + i, 4 + i // 2, 30 + 2 * i, 25 + i), fill=(20, 60, 160))
    image.save(path)
    return path


def canny(path: Path) -> np.ndarray:
    """The edge map the canny-control expert must produce for an image (OpenCV, 100/200)."""
    import cv2

    return cv2.Canny(np.asarray(Image.open(path).convert("RGB")), 100, 200)


def upload(http: httpx.Client, path: Path, name: str | None = None, media_type: str = "image/png") -> dict:
    with path.open("rb") as handle:
        response = http.post("/files", files={"file": (name or path.name, handle, media_type)})
    assert response.status_code == 201, response.text
    return response.json()


def fetch_image(http: httpx.Client, url: str) -> np.ndarray:
    import io

    response = http.get(url)
    assert response.status_code == 200, response.text
    assert response.headers["content-type"] == "image/png"
    return np.asarray(Image.open(io.BytesIO(response.content)).convert("L"))


def sse_events(text: str) -> list[tuple[str, dict]]:
    """(event, data) pairs of a text/event-stream body."""
    events = []
    for block in text.replace("\r\n", "\n").strip().split("\n\n"):
        fields = dict(line.split(": ", 1) for line in block.splitlines() if ": " in line)
        if "event" in fields:
            events.append((fields["event"], json.loads(fields["data"]) if fields.get("data") else None))
    return events
