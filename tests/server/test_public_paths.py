"""The one rewrite at the HTTP boundary: its rules on text, and the middleware on bodies that
arrive in pieces (an event stream cut mid-line, mid-character)."""

import threading
import time

import httpx
import uvicorn
from starlette.applications import Starlette
from starlette.responses import JSONResponse, StreamingResponse
from starlette.routing import Route

from langchain_hugginggpt.server.public import PublicPaths, PublicPathsMiddleware
from langchain_hugginggpt.core.workspace import Workspace


def test_rules(tmp_path):
    root = tmp_path / "my workspace"  # a space in the folder name
    paths = PublicPaths(Workspace(root), private=[tmp_path / "data"])
    ws = str(root)
    cases = {
        f"Files produced: {ws}/outputs/a.png, {ws}/outputs/b c.wav.": "Files produced: /files/outputs/a.png, /files/outputs/b",
        f"saved to file://{ws}/uploads/x.jpg!": "saved to /files/uploads/x.jpg!",
        f"not found in the workspace {ws}": "not found in the workspace /files",
        f"db {tmp_path}/data/conversations.sqlite3 is locked": "db conversations.sqlite3 is locked",
        "'/etc/passwd' is outside": "'passwd' is outside",
        f'File "{tmp_path}/lib/x.py", line 3': 'File "x.py", line 3',
        "/examples/a.jpg, /images/b.png and /files/outputs/c.png": "/examples/a.jpg, /images/b.png and /files/outputs/c.png",
        "POST /conversations and https://huggingface.co/facebook/detr-resnet-50": "POST /conversations and https://huggingface.co/facebook/detr-resnet-50",
        "and/or 1/2": "and/or 1/2",
        f"{ws}2/other.png": "my workspace2/other.png",  # a sibling folder is not the workspace
    }
    for text, public in cases.items():
        assert paths.text(text).startswith(public), (text, paths.text(text))
    assert paths.payload({f"{ws}/k": [f"{ws}/outputs/a.png", 3, None]}) == {"/files/k": ["/files/outputs/a.png", 3, None]}
    assert paths.to_workspace("again on /files/outputs/a%20b.png, not http://x/files/c.png") == \
        "again on outputs/a b.png, not http://x/files/c.png"


def test_middleware_rewrites_bodies_that_arrive_in_pieces(tmp_path):
    workspace = Workspace(tmp_path / "ws")
    secret = f"{workspace.outputs}/é.png"
    event = f'event: data\r\ndata: {{"file": "{secret}", "note": "naïve"}}\r\n\r\n'.encode()
    cut_in_character = event.index("ï".encode()) + 1

    async def stream(request):
        async def pieces():
            for piece in (event[:20], event[20:cut_in_character], event[cut_in_character:], b": ping\r\n\r\n"):
                yield piece

        return StreamingResponse(pieces(), media_type="text/event-stream")

    async def error(request):
        return JSONResponse({"error": f"cannot read {secret}", "status": 400}, status_code=400)

    app = PublicPathsMiddleware(Starlette(routes=[Route("/stream", stream), Route("/error", error)]),
                                PublicPaths(workspace))
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        assert thread.is_alive()
        time.sleep(0.02)
    port = server.servers[0].sockets[0].getsockname()[1]
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}") as http:
            streamed = http.get("/stream")
            assert streamed.text == ('event: data\r\ndata: {"file": "/files/outputs/%C3%A9.png", "note": "naïve"}\r\n\r\n'
                                     ": ping\r\n\r\n")
            failed = http.get("/error")
            assert failed.status_code == 400 and failed.json() == {"error": "cannot read /files/outputs/%C3%A9.png", "status": 400}
            assert int(failed.headers["content-length"]) == len(failed.content)
    finally:
        server.should_exit = True
        thread.join(timeout=10)
