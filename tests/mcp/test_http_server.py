"""`hugginggpt mcp --transport http` on 127.0.0.1, driven by the `mcp` SDK's streamable-HTTP client: the API key
rule of `hugginggpt serve`, a task tool, the whole pipeline, and a stop on SIGTERM."""

import base64
import signal

import httpx
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

from .conftest import KEY, REQUEST


def texts(result) -> str:
    return "\n".join(c.text for c in result.content if c.type == "text")


async def test_http_needs_the_key_runs_tools_and_stops_on_sigterm(http_server, tmp_path):
    process, url = http_server
    hello = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
             "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}
    accept = {"Accept": "application/json, text/event-stream"}
    async with httpx.AsyncClient() as raw:
        for headers in ({}, {"Authorization": "Bearer wrong"}):
            refused = await raw.post(url, json=hello, headers={**accept, **headers})
            assert refused.status_code == 401 and refused.headers["www-authenticate"] == "Bearer"
        # with the key, any Host name (a reverse proxy's) is answered, as by `hugginggpt serve`
        proxied = await raw.post(url, json=hello, headers={**accept, "Authorization": f"Bearer {KEY}",
                                                           "Host": "mcp.example.org"})
        assert proxied.status_code == 200 and "hugginggpt" in proxied.text

    async with create_mcp_http_client(headers={"Authorization": f"Bearer {KEY}"}) as http, \
            streamable_http_client(url, http_client=http) as (read, write, _), ClientSession(read, write) as session:
        await session.initialize()
        names = [tool.name for tool in (await session.list_tools()).tools]
        assert "object_detection" in names and names[-1] == "hugginggpt"
        detection = await session.call_tool("object_detection", {"image": "street.jpg"})
        assert not detection.isError and texts(detection).startswith("1 motorcycle, 1 cat, 1 person")
        assert [c.type for c in detection.content] == ["text", "image"]
        progress = []

        async def on_progress(done, total, message):
            progress.append(message)

        whole = await session.call_tool("hugginggpt", {"request": REQUEST}, progress_callback=on_progress)
        assert not whole.isError, texts(whole)
        assert [c.type for c in whole.content] == ["text", "image", "audio"]
        assert base64.b64decode(whole.content[2].data)[:4] == b"RIFF"
        assert len(progress) == 5 and progress[0].startswith("Plan (learned): 0: object-detection, 1: text-to-speech")
        missing = await session.call_tool("text_to_speech", {"text": "notes.txt"})
        assert missing.isError and "'notes.txt' not found in the workspace" in texts(missing)

    process.send_signal(signal.SIGTERM)
    # uvicorn stops gracefully, then re-raises the signal it caught (exit status -15); the timeout guards a hang
    assert process.wait(timeout=30) in (0, -signal.SIGTERM)
