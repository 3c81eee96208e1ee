"""ExpertTool: the LangChain tool for one task type, which runs the engine that model selection chose.

It answers as langchain-core's `content_and_artifact` tools do: the content is a short text for an LLM (what
the expert produced, and the files it wrote by their workspace-relative names), the artifact is the typed
`ExpertOutput` for the program (result, absolute paths, where a remote expert ran).
"""

from __future__ import annotations

import json
import uuid
from pathlib import Path
from typing import Any, Literal

from langchain_core.runnables import RunnableConfig
from langchain_core.tools import BaseTool
from pydantic import BaseModel, ConfigDict, Field, create_model

from langchain_hugginggpt.core.tasks import TASKS, TaskSpec, get_task
from langchain_hugginggpt.core.workspace import Workspace, WorkspaceError, relative_path
from langchain_hugginggpt.tools import registry
from langchain_hugginggpt.tools.base import ExpertError, ExpertOutput

MAX_RESULT_CHARS = 2000  # a result with no text (scores, boxes) is shown as JSON up to this length


def _args_schema(spec: TaskSpec) -> type[BaseModel]:
    fields: dict[str, Any] = {}
    for slot, kind in spec.inputs.items():
        help_text = spec.slot_help.get(slot) or (f"path or URL of the input {kind}" if kind != "text" else "input text")
        default = ... if slot in spec.required else None
        fields[slot] = (str if slot in spec.required else str | None, Field(default, description=help_text))
    name = "".join(part.capitalize() for part in spec.name.replace("2", "-2-").split("-")) + "Input"
    return create_model(name, __config__=ConfigDict(extra="forbid"), **fields)


def content_for_llm(output: ExpertOutput, workspace: Workspace) -> str:
    """What an LLM reads of a task's output: its text (else its result as JSON), then each file it wrote by the
    name a later tool call can use. Never an absolute path (a model's text may name one), a blob, or served_by."""
    names = {path: relative_path(workspace, path) or Path(path).name for path in output.files}

    def shown(text: str) -> str:
        for path, name in names.items():
            text = text.replace(path, name)
        return text

    lines = []
    if output.text:
        lines.append(shown(output.text))
    elif output.result is not None and not output.files:
        result = shown(json.dumps(output.result, ensure_ascii=False, default=str))
        lines.append(result if len(result) <= MAX_RESULT_CHARS else result[:MAX_RESULT_CHARS] + "...")
    for kind in ("image", "audio", "video"):
        if path := getattr(output, kind):
            lines.append(f"{kind} written: {names[path]}")
    written = {output.image, output.audio, output.video}
    if others := [names[path] for path in output.files if path not in written]:
        lines.append("other files written: " + ", ".join(others))
    if output.stand_in:
        lines.append(f"(a heuristic stood in for a missing model{': ' + output.note if output.note else ''})")
    return "\n".join(lines) or "done; it produced no text and no file"


class ExpertTool(BaseTool):
    """The LangChain tool for one Hugging Face task type.

    `ExpertTool.for_task("object-detection")` runs the first model that can run
    here; `model=` pins one (that is what the model selection stage does).
    `run_expert(args)` gives the program the typed output.
    """

    spec: TaskSpec
    model: str | None = None
    workspace: Workspace = Field(default_factory=Workspace)
    engines: Any = Field(None, description="Where engines come from: anything with `resolve_engine(task, model)` "
                                           "(e.g. RemoteExperts); default: the local registry.")
    handle_tool_error: bool | str | Any = False
    response_format: Literal["content", "content_and_artifact"] = "content_and_artifact"
    model_config = ConfigDict(arbitrary_types_allowed=True)

    @classmethod
    def for_task(cls, task: str, *, model: str | None = None, workspace: Workspace | None = None,
                 engines: Any = None) -> "ExpertTool":
        spec = get_task(task)
        return cls(
            name=spec.name.replace("-", "_"),
            description=spec.description,
            args_schema=_args_schema(spec),
            spec=spec,
            model=model,
            workspace=workspace or Workspace(),
            engines=engines,
        )

    def with_model(self, model: str | None) -> "ExpertTool":
        return self.model_copy(update={"model": model})

    def run_expert(self, args: dict[str, Any], config: RunnableConfig | None = None) -> ExpertOutput:
        """The typed output of one run. Invoked as a tool call, as an LLM's would be (same callbacks and
        tracing), to get the artifact: a plain `invoke(args)` returns only the text for an LLM."""
        call = {"type": "tool_call", "name": self.name, "args": args, "id": f"call-{uuid.uuid4().hex[:12]}"}
        message = self.invoke(call, config)
        if message.status == "error":  # handle_tool_error made the failure a message for an LLM: no output
            raise ExpertError(message.content)
        return message.artifact

    def _run(self, run_manager: Any = None, **inputs: Any) -> tuple[str, ExpertOutput]:
        engine = (self.engines or registry).resolve_engine(self.spec.name, self.model)
        resolved: dict[str, Any] = {}
        for slot, value in inputs.items():
            if value is None:
                continue
            kind = self.spec.inputs.get(slot, "text")
            try:
                resolved[slot] = (str(self.workspace.resolve_input(value, kind)) if kind != "text"
                                  else self.workspace.text_input(value) if isinstance(value, str) else value)
            except WorkspaceError as exc:  # a ToolException, so LangChain agents can show it to the LLM
                raise ExpertError(f"{self.spec.name}: {slot} input: {exc}") from exc
        try:
            output = engine.run(resolved, self.workspace)
        except ExpertError:
            raise
        except Exception as exc:  # a model failing must say which task and model failed
            raise ExpertError(f"{self.spec.name} with {engine.model_id} failed: {type(exc).__name__}: {exc}") from exc
        return content_for_llm(output, self.workspace), output


def all_tools(workspace: Workspace | None = None) -> list[ExpertTool]:
    """One LangChain tool per task type."""
    return [ExpertTool.for_task(name, workspace=workspace) for name in TASKS]
