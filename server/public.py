"""What an HTTP client sees of the server's disk: URLs of served files, and no path.

The agent names files by their local paths (right for the CLI and the Python API:
the user is on that machine). Over HTTP, `PublicPaths` rewrites every outgoing
payload in one place, `PublicPathsMiddleware`:
  - a path inside the workspace becomes the URL that serves it, `/files/outputs/x.png`
    (the original HuggingGPT web client finds media by such `/...png` paths in the
    answer and loads them from the server's base URL);
  - any other absolute path of this machine (the data folder, a model file, a
    library in an error) is cut to its last part, so no folder of the server shows.
Paths that are not on this machine (`/examples/a.jpg` from a client) stay as sent.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Iterable
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import quote, unquote

from langchain_hugginggpt.server.guard import app_path
from langchain_hugginggpt.core.workspace import Workspace

FILES_URL = "/files"
# Routes of this server: text that starts with one is a URL, never a disk path.
ROUTES = ("/files/", "/static/", "/hugginggpt", "/conversations", "/tasks", "/results", "/health",
          "/docs", "/redoc", "/openapi.json", "/favicon.ico")
_PATH_CHAR = r"[^\s\"'`<>|\\(){}\[\],;]"
_TRAILING = ".:!?"  # sentence punctuation after a path is not part of it
_URL_IN_TEXT = re.compile(rf"(?<![\w.~/:-]){FILES_URL}/({_PATH_CHAR}+)")


class PublicPaths:
    """Rewrites server paths in text and JSON-like payloads (see the module doc)."""

    def __init__(self, workspace: Workspace, private: Iterable[str | Path] = (), files_url: str = FILES_URL) -> None:
        """`files_url`: what workspace files are named under (the MCP server names them by resource URIs)."""
        self.workspace = workspace
        self._served = {str(workspace.outputs): files_url + "/outputs", str(workspace.root): files_url}
        private_dirs = {str(Path(p).expanduser()) for p in private} | {str(Path(p).expanduser().resolve()) for p in private}
        self._private = private_dirs - set(self._served)
        known = sorted({*self._served, *self._private}, key=len, reverse=True)
        known_re = "|".join(re.escape(k.rstrip("/")) for k in known if k.rstrip("/"))
        # Known folders first (they may hold spaces), then any other absolute path.
        self._pattern = re.compile(
            rf"(?<![\w.~/-])(?:file://)?(?:(?P<known>{known_re})(?P<rest>/{_PATH_CHAR}*)?(?![\w.-]*\w)"
            rf"|/{_PATH_CHAR}*)")
        self._top_level = set(os.listdir("/"))

    def text(self, value: str) -> str:
        return self._pattern.sub(self._replace, value)

    def payload(self, value: Any) -> Any:
        """`text` applied to every string of a JSON-like value (dict keys included)."""
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, dict):
            return {self.payload(k): self.payload(v) for k, v in value.items()}
        if isinstance(value, list):
            return [self.payload(v) for v in value]
        return value

    def to_workspace(self, value: str) -> str:
        """The other way, for text a client sends back: `/files/x` -> the workspace path `x`."""
        return _URL_IN_TEXT.sub(lambda m: unquote(m.group(1)), value)

    def _replace(self, match: re.Match[str]) -> str:
        whole = match.group(0)
        token = whole.rstrip(_TRAILING)
        tail = whole[len(token):]
        path = token.removeprefix("file://")
        known = match.group("known")
        if known is not None and (path == known or path.startswith(known + "/")):
            if known in self._served:
                return self._served[known] + quote(path[len(known):]) + tail
            return _last_part(path) + tail
        parts = [part for part in path.split("/") if part]
        if path.startswith(ROUTES) or not parts or parts[0] not in self._top_level:
            return whole  # a URL of this server, or not a path of this machine
        return _last_part(path) + tail


def _last_part(path: str) -> str:
    return PurePosixPath(path).name or "/"


class PublicPathsMiddleware:
    """Applies `PublicPaths` to every JSON, event-stream and plain-text response body
    (files served from the workspace and the page's assets, `/files/...` and `/static/...`, pass through untouched)."""

    def __init__(self, app: Any, paths: PublicPaths) -> None:
        self.app, self.paths = app, paths

    async def __call__(self, scope: dict, receive: Callable, send: Callable) -> None:
        if scope["type"] != "http" or scope["method"] == "HEAD":
            return await self.app(scope, receive, send)
        paths = self.paths
        served_file = app_path(scope).startswith((FILES_URL + "/", "/static/"))
        start: dict | None = None
        kind = ""
        buffered: list[bytes] = []

        async def rewriting_send(message: dict) -> None:
            nonlocal start, kind
            if message["type"] == "http.response.start":
                kind = _body_kind(message.get("headers", []))
                if served_file and message["status"] in (200, 206):
                    kind = ""  # a workspace file's own bytes (a .txt, a .json), not a message of the server
                if kind in ("json", "text"):
                    start = message  # held until the whole body is known (its length changes)
                    return
                return await send(message)
            if message["type"] != "http.response.body" or kind not in ("json", "text", "events"):
                return await send(message)
            buffered.append(message.get("body", b""))
            more = message.get("more_body", False)
            if kind == "events":  # rewrite each complete line, as it comes
                data = b"".join(buffered)
                cut = len(data) if not more else data.rfind(b"\n") + 1
                buffered[:] = [data[cut:]]
                if cut or not more:  # the last message always goes: it ends the response
                    await send({**message, "body": _rewrite_events(data[:cut], paths)})
                return None
            if more:
                return None
            body = _rewrite_body(b"".join(buffered), kind, paths)
            headers = [(k, v) for k, v in start["headers"] if k.lower() != b"content-length"]
            await send({**start, "headers": [*headers, (b"content-length", str(len(body)).encode())]})
            await send({"type": "http.response.body", "body": body})

        await self.app(scope, receive, rewriting_send)


def _body_kind(headers: Iterable[tuple[bytes, bytes]]) -> str:
    content_type = next((v for k, v in headers if k.lower() == b"content-type"), b"").decode("latin-1").lower()
    if content_type.startswith("text/event-stream"):
        return "events"
    if content_type.startswith("application/json") or "+json" in content_type.split(";")[0]:
        return "json"
    return "text" if content_type.startswith("text/plain") else ""


def _rewrite_body(body: bytes, kind: str, paths: PublicPaths) -> bytes:
    text = body.decode("utf-8", "replace")
    if kind == "json":
        try:
            return json.dumps(paths.payload(json.loads(text)), ensure_ascii=False, allow_nan=False).encode()
        except ValueError:
            pass  # not JSON after all (or NaN in it): rewrite it as text
    return paths.text(text).encode()


def _rewrite_events(chunk: bytes, paths: PublicPaths) -> bytes:
    """Each `data:` line of an event stream (JSON or text); comments and other fields unchanged."""
    lines = chunk.decode("utf-8", "replace").split("\n")
    for i, line in enumerate(lines):
        if line.startswith("data:"):
            data, end = line[5:].removeprefix(" "), "\r" if line.endswith("\r") else ""
            data = data.removesuffix("\r")
            try:
                rewritten = json.dumps(paths.payload(json.loads(data)), ensure_ascii=False)
            except ValueError:
                rewritten = paths.text(data)
            lines[i] = f"data: {rewritten}{end}"
    return "\n".join(lines).encode()
