"""`hugginggpt mcp` over stdio, driven by the `mcp` SDK's own stdio client: the tools it lists, a task tool on a
picture, the whole pipeline on a two-task request (with its progress), bad inputs as tool errors, and the
workspace's outputs as resources."""

import base64
import io

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from PIL import Image

from langchain_hugginggpt.server.mcp.server import runnable_tasks

from .conftest import REQUEST, STREET, mcp_command, server_env


def texts(result) -> str:
    return "\n".join(c.text for c in result.content if c.type == "text")


async def test_stdio_server_tools_errors_pipeline_and_resources(workspace, tmp_path):
    command, *args = mcp_command(workspace)
    params = StdioServerParameters(command=command, args=args, env=server_env(tmp_path / "home"))
    log = (tmp_path / "server.log").open("w")  # the server's stderr (pytest's capture has no file descriptor)
    async with stdio_client(params, errlog=log) as (read, write), ClientSession(read, write) as session:
        await session.initialize()

        # one tool per task that runs here, then the pipeline
        tools = {tool.name: tool for tool in (await session.list_tools()).tools}
        assert list(tools) == [task.replace("-", "_") for task in runnable_tasks()] + ["hugginggpt"]
        assert {"object_detection", "text_to_speech", "canny_control"} <= set(tools)
        assert "text_to_image" not in tools  # needs a download or a GPU here
        detection_schema = tools["object_detection"].inputSchema
        assert detection_schema["required"] == ["image"] and set(detection_schema["properties"]) == {"image", "model"}
        assert tools["hugginggpt"].inputSchema["required"] == ["request"]

        # a task tool on a picture: its text, and the picture it drew as image content
        detection = await session.call_tool("object_detection", {"image": "street.jpg"})
        assert not detection.isError, texts(detection)
        assert texts(detection).startswith("1 motorcycle, 1 cat, 1 person")
        [drawn] = [c for c in detection.content if c.type == "image"]
        assert drawn.mimeType == "image/png"
        assert Image.open(io.BytesIO(base64.b64decode(drawn.data))).size == Image.open(STREET).size

        # bad inputs are tool errors with the message; the server goes on
        missing = await session.call_tool("object_detection", {"image": "ghost.jpg"})
        assert missing.isError and "'ghost.jpg' not found in the workspace" in texts(missing)
        unknown = await session.call_tool("object_detection", {"image": "street.jpg", "model": "no-such-model"})
        assert unknown.isError and "no-such-model" in texts(unknown)
        wrong_slot = await session.call_tool("object_detection", {"picture": "street.jpg"})
        assert wrong_slot.isError and "image" in texts(wrong_slot)
        private = await session.call_tool("object_detection", {"image": "http://127.0.0.1:9/cat.jpg"})
        assert private.isError and "loopback" in texts(private)  # the server's fetch rule
        empty = await session.call_tool("hugginggpt", {"request": "  "})
        assert empty.isError and "the request is empty" in texts(empty)
        nothing_done = await session.call_tool("hugginggpt", {"request": "Detect the objects in ghost.jpg"})
        assert nothing_done.isError and "'ghost.jpg' not found in the workspace" in texts(nothing_done)
        for failed in (missing, unknown, private, nothing_done):
            assert str(workspace) not in texts(failed) and str(tmp_path) not in texts(failed)

        # the whole pipeline: the answer, the picture and the speech, with progress per stage and task
        progress = []

        async def on_progress(done, total, message):
            progress.append((done, total, message))

        whole = await session.call_tool("hugginggpt", {"request": REQUEST}, progress_callback=on_progress)
        assert not whole.isError, texts(whole)
        assert [c.type for c in whole.content] == ["text", "image", "audio"]
        answer = texts(whole)
        assert answer.startswith("1 motorcycle, 1 cat, 1 person\n") and str(workspace) not in answer
        picture, speech = whole.content[1:]
        assert Image.open(io.BytesIO(base64.b64decode(picture.data))).size == Image.open(STREET).size
        assert speech.mimeType == "audio/wav" and base64.b64decode(speech.data)[:4] == b"RIFF"
        assert [message.split(":")[0] for _, _, message in progress] == [
            "Plan (learned)", "Model for task 0", "Task 0 object-detection", "Task 1 text-to-speech", "answered"]
        assert [(done, total) for done, total, _ in progress] == [(1, 5), (2, 5), (3, 5), (4, 5), (5, 5)]

        # the outputs as resources, named in the answer by the same URIs
        listed = {str(r.uri): r for r in (await session.list_resources()).resources}
        named = [uri for uri in listed if uri in answer]
        assert len(named) == 2 and {listed[uri].mimeType for uri in named} == {"image/png", "audio/wav"}
        [picture_uri] = [uri for uri in named if uri.endswith(".png")]
        read = await session.read_resource(picture_uri)
        assert base64.b64decode(read.contents[0].blob) == base64.b64decode(picture.data)

        # a produced file's URI is an input of the next call
        edges = await session.call_tool("canny_control", {"image": picture_uri})
        assert not edges.isError, texts(edges)
        assert [c.type for c in edges.content] == ["text", "image"]
