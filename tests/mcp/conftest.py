"""MCP tests: `hugginggpt mcp` started as a user's MCP client starts it (a subprocess), on a workspace holding
examples/street.jpg, with a private data folder; the controller is the offline planner (no LLM call)."""

import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage
from langchain_core.outputs import ChatGeneration, ChatResult

ROOT = Path(__file__).resolve().parents[2]
STREET = ROOT / "examples" / "street.jpg"
REQUEST = "Detect the objects in street.jpg and read the result aloud"


@pytest.fixture
def workspace(tmp_path) -> Path:
    folder = tmp_path / "workspace"
    folder.mkdir()
    shutil.copy(STREET, folder / "street.jpg")
    return folder


def server_env(home: Path) -> dict[str, str]:
    return {**os.environ, "HUGGINGGPT_HOME": str(home), "HF_HUB_OFFLINE": "1"}


def mcp_command(workspace: Path, *options: str) -> list[str]:
    """`hugginggpt mcp` (as `python -m ...cli`, so the interpreter running the tests runs it)."""
    return [sys.executable, "-m", "langchain_hugginggpt.cli.main", "mcp", "--workspace", str(workspace), *options]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class ScriptedToolCaller(BaseChatModel):
    """A chat model that answers from a script, `script(messages) -> AIMessage` (tool calls included): the agent
    loop, the tools and the servers are real; only the LLM's choices are pinned."""

    script: object

    @property
    def _llm_type(self) -> str:
        return "scripted-tool-caller"

    def bind_tools(self, tools, **kwargs):  # the script decides which tools it calls
        return self

    def _generate(self, messages, stop=None, run_manager=None, **kwargs) -> ChatResult:
        reply = self.script(messages)
        return ChatResult(generations=[ChatGeneration(message=reply if isinstance(reply, AIMessage) else AIMessage(reply))])


KEY = "mcp-test-key-0123456789"


@pytest.fixture
def http_server(workspace, tmp_path):
    """`hugginggpt mcp --transport http --api-key KEY` on 127.0.0.1: (the process, the /mcp URL)."""
    port = free_port()
    log = (tmp_path / "server.log").open("w")
    process = subprocess.Popen(mcp_command(workspace, "--transport", "http", "--port", str(port), "--api-key", KEY),
                               env=server_env(tmp_path / "home"), stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 120  # a start-up guard, not a timed assertion
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            assert process.poll() is None, (tmp_path / "server.log").read_text()
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.2)
    yield process, f"http://127.0.0.1:{port}/mcp"
    if process.poll() is None:
        process.kill()
        process.wait()
