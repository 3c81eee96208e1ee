"""Guard: what the server checks of every request before any route runs.

The API key (a bearer token, or the cookie the chat page writes), the page origin a browser names (a form post or
an upload needs no CORS preflight, so CORS alone never stops one), the Host it names (DNS rebinding), the declared
body type and the body's size and text. Pure ASGI, so streamed responses pass through untouched.
"""

from __future__ import annotations

import hmac
import ipaddress
import json
import re
from collections.abc import Callable, Sequence
from typing import Any
from urllib.parse import unquote

from fastapi import HTTPException
from fastapi.responses import JSONResponse
from starlette.requests import cookie_parser

COOKIE = "hugginggpt_key"  # the page stores the key here so <img src="/files/..."> is authorised too
PUBLIC = {("GET", "/health"), ("GET", "/"), ("GET", "/favicon.ico")}
# Pages served from this machine on any port (a dev server of the web client, this server itself).
LOOPBACK_ORIGIN = r"https?://(localhost|127\.0\.0\.1|\[::1\])(:\d+)?\Z"


def origin_rule(origins: Sequence[str] | None) -> Callable[[str], bool]:
    """The browser origins CORS lets call the API (`_add_cors`), as a test of one origin."""
    if origins is None:
        return lambda origin: re.match(LOOPBACK_ORIGIN, origin) is not None
    if "*" in origins:
        return lambda origin: True
    listed = {o.rstrip("/") for o in origins}
    return lambda origin: origin in listed


def _host_name(host: str) -> str:
    """The name in a Host header, without its port ("[::1]:80" -> "::1")."""
    if host.startswith("["):
        return host[1:host.find("]")] if "]" in host else host
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


def _loopback_or_address(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
        return True
    except ValueError:
        return name.lower().rstrip(".") == "localhost"


class Guard:
    """Bearer-token auth, the browser's origin and the Host a request names, and body-size limits,
    checked before any route runs (pure ASGI, so streamed responses pass through untouched)."""

    def __init__(self, app: Any, api_key: str | None, max_body_bytes: int, max_upload_bytes: int,
                 origin_allowed: Callable[[str], bool] = lambda origin: False, allowed_hosts: Sequence[str] = ()) -> None:
        self.app, self.api_key = app, api_key
        self.max_body_bytes, self.max_upload_bytes = max_body_bytes, max_upload_bytes
        self.origin_allowed, self.allowed_hosts = origin_allowed, {h.lower() for h in allowed_hosts}

    async def __call__(self, scope: dict, receive: Callable, send: Callable) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        method, path = scope["method"], app_path(scope)
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        host = headers.get("host", "")
        # Without a key, a page whose own name resolves to this machine (DNS rebinding) could drive the API:
        # only loopback names, IP addresses and the names allowed are answered.
        # (A request with no Host at all comes from no browser.)
        name = _host_name(host)
        if not self.api_key and name and not _loopback_or_address(name) and name.lower() not in self.allowed_hosts:
            return await json_error(403, f"this server does not answer to the host name {name!r} without an API key "
                                     "(serve with --allow-host NAME, or set an API key)")(scope, receive, send)
        origin = headers.get("origin")
        # A form or fetch from another site is sent without asking first (no CORS preflight for a form post):
        # refused here unless CORS allows that origin.
        if (method in ("POST", "PUT", "PATCH", "DELETE") and origin and origin.rstrip("/") not in
                (f"http://{host}", f"https://{host}") and not self.origin_allowed(origin.rstrip("/"))):
            return await json_error(403, f"a {method} from the page origin {origin!r} is refused: that origin is not "
                                     "allowed to call this server (see --cors-origin)")(scope, receive, send)
        if self.api_key and not _public(method, path) and not self._authorised(headers):
            problem = ("the API key sent is not this server's" if headers.get("authorization")
                       else "this server needs an API key: send 'Authorization: Bearer <key>'")
            response = json_error(401, problem, headers={"WWW-Authenticate": "Bearer"})
            return await response(scope, receive, send)
        has_body = headers.get("content-length", "0") not in ("", "0") or "transfer-encoding" in headers
        if method in ("POST", "PUT", "PATCH") and (problem := _wrong_type(path, headers.get("content-type"), has_body)):
            return await json_error(415, problem)(scope, receive, send)
        limit = self.max_upload_bytes if path == "/files" else self.max_body_bytes
        declared = headers.get("content-length", "")
        if declared.isdigit() and int(declared) > limit:
            return await json_error(413, f"the request body is larger than the limit of {limit} bytes")(scope, receive, send)
        received = 0
        check_text = path != "/files" and method in ("POST", "PUT", "PATCH")
        body = bytearray()

        async def limited_receive() -> dict:
            nonlocal received
            message = await receive()
            received += len(message.get("body", b""))
            if received > limit:  # a chunked body with no Content-Length
                raise HTTPException(413, f"the request body is larger than the limit of {limit} bytes")
            if check_text and message["type"] == "http.request":
                body.extend(message.get("body", b""))
                if not message.get("more_body") and (problem := lone_surrogate(bytes(body))):
                    raise HTTPException(422, problem)
            return message

        await self.app(scope, limited_receive, send)

    def _authorised(self, headers: dict[str, str]) -> bool:
        scheme, _, token = headers.get("authorization", "").partition(" ")
        if scheme.lower() != "bearer" or not token:
            # The page writes the cookie with encodeURIComponent (a key may hold '+', '/', '=').
            token = unquote(cookie_parser(headers.get("cookie", "")).get(COOKIE, ""))
        return bool(token) and hmac.compare_digest(token.strip().encode(), self.api_key.encode())


def app_path(scope: dict) -> str:
    """The request's path within this app: ASGI's `path` includes the `root_path` the app is mounted under (a
    Ray Serve route prefix, a proxy's sub-path), which the routes do not see; "/ctl/files" is "/files" here."""
    path, root = scope["path"], scope.get("root_path", "").rstrip("/")
    return (path[len(root):] or "/") if root and (path == root or path.startswith(root + "/")) else path


def lone_surrogate(body: bytes) -> str | None:
    """Why a JSON body's text is not Unicode: a `\\udXXX` escape with no partner (JSON allows
    it, UTF-8 cannot hold it, so it would fail deep in the pipeline or the store)."""
    if not re.search(rb"\\u[dD][89a-fA-F]", body):
        return None
    try:
        value = json.loads(body)
    except ValueError:
        return None  # not JSON: the route says so
    for where, text in _strings(value, ()):
        if (found := _SURROGATE.search(text)) is not None:
            field = ".".join(("body", *map(str, where)))
            return (f"invalid request: {field}: the text holds a lone UTF-16 surrogate "
                    f"(\\u{ord(found.group()):04x}) at character {found.start()}, which is not valid Unicode")
    return None


_SURROGATE = re.compile("[\ud800-\udfff]")


def _strings(value: Any, where: tuple) -> Any:
    """(location, string) for every string in a JSON value, keys included."""
    if isinstance(value, str):
        yield where, value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _strings(key, where)
            yield from _strings(item, (*where, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _strings(item, (*where, i))


def _public(method: str, path: str) -> bool:
    """The health check and the page's static shell (no data in them; the page asks for the key)."""
    return (method, path) in PUBLIC or (method == "GET" and path.startswith("/static/"))


def _wrong_type(path: str, content_type: str | None, has_body: bool = True) -> str | None:
    """Why a body's declared type does not fit the route (uploads are multipart, the rest JSON); a body sent
    with no type at all is not read as JSON either (only an empty one, as `POST /conversations` sends, passes)."""
    kind = (content_type or "").split(";")[0].strip().lower()
    if path == "/files":
        return None if kind == "multipart/form-data" else f"upload files as multipart/form-data, not {kind or 'no type'!r}"
    if not kind and has_body:
        return "send the body as JSON (Content-Type: application/json); it came with no Content-Type"
    if kind and kind != "application/json" and not kind.endswith("+json"):
        return f"send the body as JSON (Content-Type: application/json), not {kind!r}"
    return None


def json_error(status: int, message: str, headers: dict[str, str] | None = None, **extra: Any) -> JSONResponse:
    return JSONResponse({"error": message, "status": status, **extra}, status_code=status, headers=headers)
