"""Tools of other MCP servers as experts: a model for a task like any other.

A YAML file names the servers and maps a server's tool to a task:

    servers:
      edges-box:                                  # a stdio server: the command that starts it
        command: [python, edges_server.py]
        env: {OMP_NUM_THREADS: "1"}
      gpu-box:                                    # a streamable-HTTP server
        url: http://gpu-box.lan:8005/mcp
        headers: {Authorization: "Bearer ${GPU_BOX_KEY}"}   # ${VAR}: from the environment
    models:
      - id: edges-box/canny                       # the model id selection shows and `model=` names
        task: canny-control
        server: edges-box
        tool: edges                               # the server's tool
        arguments: {image: picture}               # task slot -> the tool's argument
        output: image                             # what of the result is the task's output (default: the task's)
        description: Canny edges on the edges box

The file is read where `HUGGINGGPT_MCP_EXPERTS` names it, when the engine registry loads (so `hugginggpt tasks`,
selection, the executor, `serve` and `mcp` all see the models), or by `registry.register_mcp_experts(path)`. A file input
reaches the tool as the path of the workspace file (a stdio server runs on this machine), or with `encoding:
base64` / `data_url` as its bytes (`arguments: {image: {name: picture, encoding: base64}}`), for a server elsewhere.
The tool's text is the task's text; its image, audio or embedded file of the output's kind is saved in the
workspace's outputs. A tool error is the task's error; `served_by` names the server and the tool.
"""

from __future__ import annotations

import base64
import mimetypes
import os
import re
import shutil
from pathlib import Path
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from langchain_hugginggpt.core.media import ALLOWED, SNIFF_BYTES, sniff
from langchain_hugginggpt.tools.mcp.connections import CONNECTIONS, ServerSpec
from langchain_hugginggpt.core.workspace import Workspace
from langchain_hugginggpt.tools.base import Engine, ExpertError, ExpertOutput
from langchain_hugginggpt.core.tasks import TASKS

CONFIG_ENV = "HUGGINGGPT_MCP_EXPERTS"
MAX_OUTPUT_BYTES = 50 * 2**20  # the largest file a tool may hand back (decoded)
_VARIABLE = re.compile(r"\$\{(\w+)\}")


def _expand(value: str) -> str:
    """`${VAR}` from the environment (a key stays out of the file); a variable not set is an error."""
    def lookup(match: re.Match[str]) -> str:
        if match.group(1) not in os.environ:
            raise ValueError(f"the environment variable {match.group(1)} is not set")
        return os.environ[match.group(1)]

    return _VARIABLE.sub(lookup, value)


class ServerConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")
    command: list[str] = Field(default_factory=list, description="a stdio server: the command that starts it")
    env: dict[str, str] = Field(default_factory=dict)
    url: str | None = Field(None, description="a streamable-HTTP server: its endpoint")
    headers: dict[str, str] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _one_transport(self) -> "ServerConfig":
        if bool(self.command) == bool(self.url):
            raise ValueError("a server has either `command` (stdio) or `url` (streamable HTTP)")
        return self


class Argument(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str
    encoding: Literal["path", "base64", "data_url"] = "path"


class ModelConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")
    id: str
    task: str
    server: str
    tool: str
    arguments: dict[str, Argument] = Field(default_factory=dict, description="task slot -> tool argument")
    output: Literal["text", "image", "audio", "video"] | None = None
    description: str = ""
    timeout_s: float = Field(600.0, gt=0)

    @field_validator("arguments", mode="before")
    @classmethod
    def _names_as_arguments(cls, value: Any) -> Any:
        if isinstance(value, dict):
            return {slot: {"name": arg} if isinstance(arg, str) else arg for slot, arg in value.items()}
        return value

    @model_validator(mode="after")
    def _known_task_and_slots(self) -> "ModelConfig":
        if self.task not in TASKS:
            raise ValueError(f"{self.id}: unknown task {self.task!r}")
        unknown = set(self.arguments) - set(TASKS[self.task].inputs)
        if unknown:
            raise ValueError(f"{self.id}: {self.task} has no input slot {', '.join(sorted(unknown))} "
                             f"(its slots: {', '.join(TASKS[self.task].inputs)})")
        return self


class McpExpertsConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")
    servers: dict[str, ServerConfig]
    models: list[ModelConfig]

    @model_validator(mode="after")
    def _servers_named(self) -> "McpExpertsConfig":
        for model in self.models:
            if model.server not in self.servers:
                raise ValueError(f"{model.id}: no server {model.server!r} in `servers`")
        return self

    @classmethod
    def load(cls, path: str | Path) -> "McpExpertsConfig":
        import yaml

        return cls.model_validate(yaml.safe_load(Path(path).read_text(encoding="utf-8")) or {})

    def spec(self, name: str) -> ServerSpec:
        server = self.servers[name]
        return ServerSpec(name=name, command=tuple(server.command), url=server.url and _expand(server.url),
                          env=tuple((k, _expand(v)) for k, v in server.env.items()),
                          headers=tuple((k, _expand(v)) for k, v in server.headers.items()))


class McpToolEngine(Engine):
    """Runs a task by calling a tool of an MCP server (subclassed per configured model, as the registry keeps
    engine classes)."""

    backend: ClassVar[str] = "mcp"
    server: ClassVar[ServerSpec]
    config: ClassVar[ModelConfig]

    def check_resources(self) -> str | None:
        """Cheap: a stdio server's command must exist here (a URL server is only known by calling it)."""
        if self.server.command and shutil.which(self.server.command[0]) is None:
            return f"the MCP server {self.server.name!r}'s command {self.server.command[0]!r} is not found"
        return None

    def run(self, inputs: dict[str, Any], workspace: Workspace) -> ExpertOutput:
        spec = TASKS[self.task]
        arguments = {}
        for slot, value in inputs.items():
            argument = self.config.arguments.get(slot, Argument(name=slot))
            arguments[argument.name] = value if spec.inputs.get(slot, "text") == "text" else _encoded(value, argument)
        where = f"the MCP server {self.server.name!r}'s tool {self.config.tool!r}"
        try:
            result = CONNECTIONS.call_tool(self.server, self.config.tool, arguments, self.config.timeout_s)
        except Exception as exc:
            raise ExpertError(f"{where} could not be called: {type(exc).__name__}: {exc}") from exc
        texts = [c.text for c in result.content if c.type == "text"]
        if result.isError:
            raise ExpertError(f"{where} failed: {' '.join(texts) or 'no message'}")
        kind = self.config.output or spec.output
        output: dict[str, Any] = {"text": "\n".join(texts) or None}
        if kind != "text":
            output[kind] = str(_save(result.content, kind, workspace, where))
        return ExpertOutput(model=self.model_id, result={"content": texts}, **output,
                            served_by={"mcp_server": self.server.name, "tool": self.config.tool})


def _encoded(path: str, argument: Argument) -> str:
    if argument.encoding == "path":
        return path
    data = Path(path).read_bytes()
    encoded = base64.b64encode(data).decode()
    if argument.encoding == "base64":
        return encoded
    return f"data:{sniff(data[:SNIFF_BYTES]) or mimetypes.guess_type(path)[0] or 'application/octet-stream'};base64,{encoded}"


def _save(content: list[Any], kind: str, workspace: Workspace, where: str) -> Path:
    """The first file of the output's kind in a tool result, checked (its bytes are that kind) and kept."""
    for block in content:
        if block.type in ("image", "audio"):
            data = block.data
        elif block.type == "resource" and getattr(block.resource, "blob", None):
            data = block.resource.blob
        else:
            continue
        if len(data) * 3 // 4 > MAX_OUTPUT_BYTES:
            raise ExpertError(f"{where} returned a file over {MAX_OUTPUT_BYTES // 2**20} MB")
        raw = base64.b64decode(data)
        media = sniff(raw[:SNIFF_BYTES])
        if media is not None and ALLOWED[media][0] == kind:
            path = workspace.new_output(ALLOWED[media][1], stem="mcp")
            path.write_bytes(raw)
            return path
    raise ExpertError(f"{where} returned no {kind} (the task's output)")


def mcp_engines(source: str | Path | McpExpertsConfig) -> list[type[Engine]]:
    """An engine class for every model of an MCP experts config (`registry.register_mcp_experts` registers them)."""
    config = source if isinstance(source, McpExpertsConfig) else McpExpertsConfig.load(source)
    engines = []
    for model in config.models:
        attributes = {"task": model.task, "model_id": model.id, "server": config.spec(model.server), "config": model,
                      "description": model.description or f"the tool {model.tool!r} of the MCP server {model.server!r}"}
        name = "McpTool_" + re.sub(r"\W", "_", model.id)
        engines.append(type(name, (McpToolEngine,), attributes))
    return engines


def configured_engines() -> list[type[Engine]]:
    """The registry's hook: the engines of the models the file `HUGGINGGPT_MCP_EXPERTS` names, if any."""
    if not (path := os.environ.get(CONFIG_ENV)):
        return []
    try:
        return mcp_engines(path)
    except ValidationError as exc:  # a config that cannot be used says which file, and why, in one line
        problems = "; ".join(".".join(map(str, e["loc"])) + ": " + e["msg"].removeprefix("Value error, ")
                             for e in exc.errors())
        raise ValueError(f"{CONFIG_ENV}={path}: {problems}") from None
    except (OSError, ValueError) as exc:  # not there, not YAML
        raise ValueError(f"{CONFIG_ENV}={path}: {exc}") from exc
