"""HuggingGPT's MCP tools loaded by langchain-mcp-adapters into a LangGraph agent (`create_agent`): the agent loop,
the adapter, the server and the engines are real; a scripted chat model makes the LLM's choices, reading each
tool's result to make the next call."""

import functools

import langchain_mcp_adapters.sessions
from langchain.agents import create_agent
from langchain_core.messages import AIMessage, ToolMessage
from langchain_mcp_adapters.client import MultiServerMCPClient
from langchain_mcp_adapters.tools import load_mcp_tools
from mcp.client.stdio import stdio_client

from langchain_hugginggpt.server.mcp.content import audio_as_file

from .conftest import ScriptedToolCaller, mcp_command, server_env


def script(messages) -> AIMessage:
    """Detect the objects in street.jpg, then read what the detector said aloud, then answer."""
    tool_results = [m for m in messages if isinstance(m, ToolMessage)]
    if not tool_results:
        return AIMessage("", tool_calls=[{"name": "object_detection", "args": {"image": "street.jpg"}, "id": "call-1"}])
    if len(tool_results) == 1:
        said = next(block["text"] for block in tool_results[0].content if block["type"] == "text").splitlines()[0]
        return AIMessage("", tool_calls=[{"name": "text_to_speech", "args": {"text": said}, "id": "call-2"}])
    return AIMessage("I found the objects and read them aloud.")


async def test_a_langgraph_agent_calls_hugginggpts_mcp_tools(workspace, tmp_path, monkeypatch):
    # The SDK's stdio client hands the server its `sys.stderr` as bound at import, which under pytest's capture
    # has no file descriptor: the server's stderr goes to a file here instead.
    log = (tmp_path / "server.log").open("w")
    monkeypatch.setattr(langchain_mcp_adapters.sessions, "stdio_client", functools.partial(stdio_client, errlog=log))
    command, *args = mcp_command(workspace)
    client = MultiServerMCPClient({"hugginggpt": {"transport": "stdio", "command": command, "args": args,
                                                  "env": server_env(tmp_path / "home")}},
                                  tool_interceptors=[audio_as_file])
    async with client.session("hugginggpt") as session:  # one server process for the whole conversation
        tools = await load_mcp_tools(session, tool_interceptors=[audio_as_file], server_name="hugginggpt")
        assert {"object_detection", "text_to_speech", "hugginggpt"} <= {tool.name for tool in tools}
        agent = create_agent(ScriptedToolCaller(script=script), tools)
        state = await agent.ainvoke({"messages": [("user", "What is in street.jpg? Read it out to me.")]})
    detection, speech = [m for m in state["messages"] if isinstance(m, ToolMessage)]
    assert detection.name == "object_detection" and detection.status == "success"
    assert [block["type"] for block in detection.content] == ["text", "image"]
    assert detection.content[0]["text"].startswith("1 motorcycle, 1 cat, 1 person")
    assert detection.content[1]["mime_type"] == "image/png"
    assert speech.name == "text_to_speech" and speech.status == "success"
    [sound] = [block for block in speech.content if block["type"] == "file"]
    assert sound["mime_type"] == "audio/wav" and len(sound["base64"]) > 10_000
    assert state["messages"][-1].content == "I found the objects and read them aloud."
