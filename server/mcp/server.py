"""`hugginggpt mcp`: HuggingGPT as a Model Context Protocol server (the `mcp` SDK's FastMCP).

    server = HuggingGPTMCP(HuggingGPT.from_preset(workspace="."))
    server.run("stdio")                                   # or uvicorn.run(server.guarded_http_app(api_key), ...)

Tools:
  - one per task that a model (or a labelled stand-in) runs here, named by the task with `_` for `-`
    (`object_detection`, `text_to_speech`): its arguments are the task's input slots (a file slot takes a
    workspace path, a `hugginggpt://files/...` URI, an http(s) URL, fetched under the workspace's URL rules, or a
    base64 data: URL, kept as files sent inline are)
    and an optional `model`; it runs through the executor of the pipeline's stage 3 (timeouts, remote experts);
  - `hugginggpt`: the whole pipeline on one request, with a progress notification per stage and task.
A result is the text plus every produced file as content of its kind (content.py). Every failure (a missing
file, an unknown model, a task that fails) is a tool error with its message; nothing the server sends names a
path of its disk.
Resources: the workspace's produced files (`hugginggpt://files/outputs/...`).
"""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import Iterable, Sequence
from io import TextIOWrapper
from pathlib import Path
from typing import Any

import anyio
from mcp.server.fastmcp import Context, FastMCP
from mcp.server.fastmcp.exceptions import ResourceError, ToolError
from mcp.server.fastmcp.tools import Tool
from mcp.server.fastmcp.utilities.func_metadata import ArgModelBase, FuncMetadata
from mcp.server.lowlevel.helper_types import ReadResourceContents
from mcp.server.stdio import stdio_server
from mcp.server.transport_security import TransportSecuritySettings
from mcp.types import ContentBlock, Resource, TextContent, ToolAnnotations
from pydantic import ConfigDict, Field, create_model

from langchain_hugginggpt.agent.executor import TaskExecutor, text_of
from langchain_hugginggpt.server.mcp.content import MAX_RESOURCE_BYTES, RESOURCE_ROOT, WorkspaceFiles, mime_type
from langchain_hugginggpt.agent.progress import progress_line
from langchain_hugginggpt.core.schema import Plan, Selection, Task, TaskResult, request_problem
from langchain_hugginggpt.core.workspace import WorkspaceError
from langchain_hugginggpt.tools import TASKS, task_status
from langchain_hugginggpt.core.tasks import TaskSpec

PIPELINE_TOOL = "hugginggpt"
INSTRUCTIONS = ("HuggingGPT's expert models as tools, one per AI task, and `hugginggpt`, which plans a request as "
                "a graph of tasks, picks a model for each, runs them and answers. Files are workspace paths, "
                f"{RESOURCE_ROOT}/... URIs (as results name them) or http(s) URLs.")


def tool_name(task: str) -> str:
    return task.replace("-", "_")


def runnable_tasks() -> list[str]:
    """The tasks a model or a labelled stand-in runs here (as `hugginggpt tasks` reports them)."""
    return [name for name in TASKS if (status := task_status(name))["models"] or status["stand_ins"]]


def _arguments_model(spec: TaskSpec, models: Sequence[str]) -> type[ArgModelBase]:
    """The tool's arguments: the task's input slots, and `model`."""
    fields: dict[str, Any] = {}
    for slot, kind in spec.inputs.items():
        about = spec.slot_help.get(slot) or ("the input text" if kind == "text" else
                                             f"the {kind}: a path in the workspace, a {RESOURCE_ROOT}/... URI, "
                                             "an http(s) URL or a base64 data: URL")
        required = slot in spec.required
        fields[slot] = (str if required else str | None, Field(... if required else None, description=about))
    fields["model"] = (str | None, Field(None, description="the model to run, one of: " + ", ".join(models)
                                         + " (default: the first that runs here)"))
    name = tool_name(spec.name).title().replace("_", "") + "Arguments"
    return create_model(name, __base__=ArgModelBase, __config__=ConfigDict(extra="forbid"), **fields)


class HuggingGPTMCP(FastMCP):
    """The server (see the module doc). `agent` is a HuggingGPT; `private` are folders never named to a client
    (the data folder); the other keywords are FastMCP's settings (host, port, ...)."""

    def __init__(self, agent: Any, *, private: Iterable[str | Path] = (), tasks: Sequence[str] | None = None,
                 **settings: Any) -> None:
        self.agent = agent
        self.files = WorkspaceFiles(agent.workspace, private)
        names = runnable_tasks() if tasks is None else list(tasks)
        tools = [self._task_tool(name) for name in names] + [self._pipeline_tool()]
        settings.setdefault("log_level", "WARNING")
        super().__init__(name="hugginggpt", instructions=INSTRUCTIONS, tools=tools, **settings)

    # -- tools ----------------------------------------------------------------

    def _task_tool(self, task: str) -> Tool:
        spec = TASKS[task]
        status = task_status(task)
        arguments = _arguments_model(spec, status["models"] or status["stand_ins"])

        async def run(ctx: Context, model: str | None = None, **slots: str | None) -> list[ContentBlock]:
            return await self.run_task(task, slots, model)

        return Tool(fn=run, name=tool_name(task), title=task, description=spec.description,
                    parameters=arguments.model_json_schema(by_alias=True), fn_metadata=FuncMetadata(arg_model=arguments),
                    is_async=True, context_kwarg="ctx", annotations=ToolAnnotations(openWorldHint=True))

    def _pipeline_tool(self) -> Tool:
        arguments = create_model("HugginggptArguments", __base__=ArgModelBase, __config__=ConfigDict(extra="forbid"),
                                 request=(str, Field(description="what to do, in words, naming the files to use")))

        async def run(ctx: Context, request: str) -> list[ContentBlock]:
            return await self.run_pipeline(request, ctx)

        return Tool(fn=run, name=PIPELINE_TOOL, title="HuggingGPT",
                    description="Plans the request as AI tasks, picks a model for each, runs them (in parallel where "
                                "they do not depend on each other) and answers, with every file produced.",
                    parameters=arguments.model_json_schema(by_alias=True), fn_metadata=FuncMetadata(arg_model=arguments),
                    is_async=True, context_kwarg="ctx", annotations=ToolAnnotations(openWorldHint=True))

    async def run_task(self, task: str, slots: dict[str, str | None], model: str | None) -> list[ContentBlock]:
        """One task through the pipeline's executor, with the model named or the first that runs here."""
        try:  # a data: URL is decoded and kept: file I/O, off the event loop
            args = await asyncio.to_thread(self._task_args, task, slots)
        except WorkspaceError as exc:
            raise ToolError(self.files.text(str(exc))) from None
        selections = {0: Selection(task_id=0, model_id=model, reason="named by the MCP client")} if model else {}
        executor = TaskExecutor(self.agent.workspace, 1, self.agent.task_timeout, engines=self.agent.experts)
        result = (await executor.arun(Plan(tasks=[Task(task=task, id=0, args=args)]), selections))[0]
        if not result.ok:
            raise ToolError(self.files.text(result.error or f"{task} failed"))
        return [TextContent(type="text", text=self.files.text(_task_text(result))),
                *await asyncio.to_thread(self.files.blocks, result.files)]

    def _task_args(self, task: str, slots: dict[str, str | None]) -> dict[str, str]:
        """The slots as the executor takes them: resource URIs as workspace paths, and a file sent inline (a data:
        URL, from a client that shares no folder with this server) kept under uploads/ by the rules for files sent
        inline (`Workspace.save_inline`) and named by its path."""
        args = {}
        for slot, value in slots.items():
            if value is None:
                continue
            if TASKS[task].inputs.get(slot, "text") != "text" and value.startswith("data:"):
                args[slot] = self.agent.workspace.save_inline(value)
            else:
                args[slot] = self.files.to_workspace(value)
        return args

    async def run_pipeline(self, request: str, ctx: Context) -> list[ContentBlock]:
        """The four stages on one request; a progress notification per stage and task, then the answer."""
        if problem := request_problem(request):
            raise ToolError(problem)
        result, done, total = None, 0, None
        async for event in self.agent.astream({"request": self.files.to_workspace(request.strip())}):
            if (line := progress_line(event)) is not None:
                done += 1
                if event.kind == "plan":  # plan, selection, each task, answer
                    total = 3 + len(event.plan) if event.plan else 2
                await ctx.report_progress(done, total, self.files.text(line.strip()))
            elif event.kind == "result":
                result = event.result
        assert result is not None  # the stream always ends with the result
        await ctx.report_progress(total or done + 1, total or done + 1, "answered")
        answer = self.files.text(result.answer)
        if result.error or (result.plan and not any(r.ok for r in result.results.values())):
            raise ToolError(answer)  # nothing asked for was done: the caller must see a failure
        return [TextContent(type="text", text=answer), *await asyncio.to_thread(self.files.blocks, result.files)]

    # -- resources: the workspace's outputs ----------------------------------

    async def list_resources(self) -> list[Resource]:
        return await asyncio.to_thread(self.files.resources)

    async def read_resource(self, uri: Any) -> Iterable[ReadResourceContents]:
        try:
            path = self.files.output(str(uri))
        except FileNotFoundError:
            raise ResourceError(f"no produced file {str(uri)[:200]!r} in the workspace") from None
        if path.stat().st_size > MAX_RESOURCE_BYTES:
            raise ResourceError(f"{path.name} is over {MAX_RESOURCE_BYTES // 2**20} MB: too large to send")
        return [ReadResourceContents(content=await asyncio.to_thread(path.read_bytes), mime_type=mime_type(path))]

    # -- transports ----------------------------------------------------------

    async def run_stdio_async(self) -> None:
        """stdio, with the protocol on a copy of stdout and everything else written to stdout (a model's
        library printing, a subprocess) sent to stderr, where it cannot corrupt the protocol."""
        protocol = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
        sys.stdout.flush()
        os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
        out = anyio.wrap_file(TextIOWrapper(protocol, encoding="utf-8"))
        async with stdio_server(stdout=out) as (read_stream, write_stream):
            await self._mcp_server.run(read_stream, write_stream, self._mcp_server.create_initialization_options())

    def guarded_http_app(self, api_key: str | None, allowed_hosts: Sequence[str] = ()) -> Any:
        """Streamable HTTP at /mcp behind the guard of `hugginggpt serve`: the same API key rule (a bearer
        token), the same Host and page-origin checks, bodies of at most 2 MB."""
        from langchain_hugginggpt.server.guard import Guard, origin_rule

        limit = 2 * 2**20
        # The guard checks the Host and the origin as `hugginggpt serve` does (names allowed by --allow-host, any
        # Host with the key); the SDK's own check, on for a loopback bind, would refuse what the guard allows.
        self.settings.transport_security = TransportSecuritySettings(enable_dns_rebinding_protection=False)
        return Guard(self.streamable_http_app(), api_key=api_key, max_body_bytes=limit, max_upload_bytes=limit,
                     origin_allowed=origin_rule(None), allowed_hosts=allowed_hosts)


def _task_text(result: TaskResult) -> str:
    """The task's text (its JSON result where it wrote none), and what ran it."""
    lines = [text_of(result), f"(model: {result.model_id})"]
    if result.output and result.output.stand_in:
        lines.append(f"Stand-in, not a model: {result.output.note or 'a heuristic'}")
    if result.served_by:
        lines.append(f"Served by: {result.served_by}")
    return "\n".join(lines)
