"""Client sessions to other MCP servers, kept open and shared by the expert threads that call their tools.

Engines run in worker threads (the executor's pool); an MCP session lives on an event loop. One daemon thread runs
a loop for the process, and each server gets one session there, opened on first use and kept: a stdio server
starts once, not once per call. A session is opened and closed inside one task (the SDK's sessions are anyio task
groups, which must end in the task that began them), so each server has a holder task that opens it, hands it
out, and closes it when told. A call that fails at the transport level (the server process died, the URL stopped
answering) closes the session, so the next call opens a new one.
"""

from __future__ import annotations

import asyncio
import sys
import threading
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import IO, Any

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from mcp.types import CallToolResult


@dataclass(frozen=True)
class ServerSpec:
    """How to reach one MCP server: a stdio command, or the URL of its streamable-HTTP endpoint."""

    name: str
    command: tuple[str, ...] = ()
    env: tuple[tuple[str, str], ...] = ()
    url: str | None = None
    headers: tuple[tuple[str, str], ...] = ()


class _Held:
    """One open session and the event that closes it."""

    def __init__(self) -> None:
        self.ready: asyncio.Future[ClientSession] = asyncio.get_running_loop().create_future()
        self.close = asyncio.Event()


class McpConnections:
    """Sessions to MCP servers on a loop of their own (see the module doc)."""

    def __init__(self) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None
        self._lock = threading.Lock()
        self._held: dict[ServerSpec, _Held] = {}

    def call_tool(self, server: ServerSpec, tool: str, arguments: dict[str, Any], timeout_s: float) -> CallToolResult:
        """Call a tool from any thread but the loop's own; the result as the server sent it (`isError` included)."""
        return self._run(lambda: self._call(server, tool, arguments, timeout_s), timeout_s + 30)

    def close(self) -> None:
        """Close every session (a stdio server ends with its session)."""
        if self._loop is not None:
            self._run(self._close_all, 30)

    def _run(self, make: Callable[[], Awaitable[Any]], wait_s: float) -> Any:
        with self._lock:
            if self._loop is None:
                self._loop = asyncio.new_event_loop()
                threading.Thread(target=self._loop.run_forever, name="hugginggpt-mcp-clients", daemon=True).start()
        future = asyncio.run_coroutine_threadsafe(make(), self._loop)
        try:
            return future.result(wait_s)
        except BaseException:
            future.cancel()  # the caller gave up (a timeout, an abandoned task): so does the call
            raise

    async def _call(self, server: ServerSpec, tool: str, arguments: dict[str, Any], timeout_s: float) -> CallToolResult:
        session = await self._session(server)
        try:
            return await session.call_tool(tool, arguments, read_timeout_seconds=timedelta(seconds=timeout_s))
        except Exception as exc:
            self._drop(server)  # the session may be broken: the next call opens a new one
            raise _leaf(exc) from None

    async def _session(self, server: ServerSpec) -> ClientSession:
        held = self._held.get(server)
        if held is None or (held.ready.done() and held.ready.exception() is not None):
            held = self._held[server] = _Held()
            asyncio.get_running_loop().create_task(self._hold(server, held))
        return await asyncio.shield(held.ready)

    async def _hold(self, server: ServerSpec, held: _Held) -> None:
        try:
            async with _transport(server) as streams, ClientSession(streams[0], streams[1]) as session:
                await session.initialize()
                held.ready.set_result(session)
                await held.close.wait()
        except BaseException as exc:  # could not connect, or the server went away
            if not held.ready.done():
                cause = _leaf(exc)
                held.ready.set_exception(cause if isinstance(cause, Exception) else ConnectionError(str(cause)))
            if self._held.get(server) is held:
                del self._held[server]
            if not isinstance(exc, Exception):
                raise

    def _drop(self, server: ServerSpec) -> None:
        held = self._held.pop(server, None)
        if held is not None:
            held.close.set()

    async def _close_all(self) -> None:
        for server in list(self._held):
            self._drop(server)
        await asyncio.sleep(0)


def _leaf(exc: BaseException) -> BaseException:
    """The error inside the task groups' exception groups (an HTTP 401, a process that exited), which says what
    went wrong where the group says only that a task failed."""
    while isinstance(getattr(exc, "exceptions", None), tuple) and exc.exceptions:  # an (anyio) exception group
        exc = exc.exceptions[0]
    return exc


def _transport(server: ServerSpec) -> Any:
    if server.url:
        return _http(server)
    command, *args = server.command
    params = StdioServerParameters(command=command, args=args, env=dict(server.env) or None)
    return stdio_client(params, errlog=_stderr())


def _stderr() -> IO[str]:
    """Where a stdio server's stderr goes: ours, or the process's own where ours is not a file (pytest's capture,
    a notebook's stream), which a subprocess cannot write to."""
    try:
        sys.stderr.fileno()
        return sys.stderr
    except (AttributeError, OSError, ValueError):
        return sys.__stderr__


class _http:
    """streamable HTTP with the server's headers (an API key), as one async context manager."""

    def __init__(self, server: ServerSpec) -> None:
        self.server = server

    async def __aenter__(self) -> Any:
        self._client = create_mcp_http_client(headers=dict(self.server.headers))
        await self._client.__aenter__()
        self._streams = streamable_http_client(self.server.url, http_client=self._client)
        read, write, _ = await self._streams.__aenter__()
        return read, write

    async def __aexit__(self, *exc: Any) -> None:
        try:
            await self._streams.__aexit__(*exc)
        finally:
            await self._client.__aexit__(*exc)


CONNECTIONS = McpConnections()
