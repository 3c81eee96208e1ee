"""HuggingGPT as one LangChain Runnable: plan -> select -> execute -> respond.

    agent = HuggingGPT.from_preset()            # embedded defaults, offline
    result = agent.invoke("Detect the objects in examples/street.jpg")
    result.answer, result.plan, result.selections, result.results, result.timings

`stream`/`astream` yield one StageEvent per stage and per finished task, then
the answer; the agent composes in LCEL like any Runnable. Whatever stage
fails, the result keeps what the stages before it computed. Each call runs the
agent's LangGraph graph (agent/graph.py, its nodes in agent/stages.py), the same
graph `build_graph` gives, without a checkpointer.
"""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any, AsyncIterator, Iterator, Literal

from langchain_core.language_models import BaseChatModel
from langchain_core.runnables import RunnableConfig, RunnableSerializable
from langchain_core.runnables.config import patch_config
from pydantic import ConfigDict, Field, PrivateAttr, field_validator

from langchain_hugginggpt.planning import PlannerOutput
from langchain_hugginggpt.planning.validation import PlanError, PlanTruncated
from langchain_hugginggpt.agent.llm_planner import ChatLog, LLMPlanner
from langchain_hugginggpt.agent.stages import as_messages
from langchain_hugginggpt.agent.sync import iterate_sync, run_sync
from langchain_hugginggpt.agent.turn import HuggingGPTInput
from langchain_hugginggpt.agent.workflow import compile_stages
from langchain_hugginggpt.core.schema import HuggingGPTResult, StageEvent, Task
from langchain_hugginggpt.core.workspace import Workspace

PlannerName = Literal["auto", "learned", "retrieval", "llm"]
OFFLINE_PLANNERS = ("learned", "retrieval")


logger = logging.getLogger(__name__)

class HuggingGPT(RunnableSerializable[HuggingGPTInput, HuggingGPTResult]):
    """The four stages of the paper joined into one Runnable."""

    llm: BaseChatModel | None = None
    planner: PlannerName = "auto"
    selection: Literal["llm", "top"] = "llm"
    responder: Literal["llm", "template"] = "llm"
    workspace: Workspace = Field(default_factory=Workspace)
    candidate_source: Any = Field(None, description="A CandidateSource; default: the tools registry.")
    experts: Any = Field(None, description="Experts on Ray Serve: a RemoteExperts, or the URL of `hugginggpt experts "
                                           "serve` ('ray' inside the cluster); default: every engine runs here.")
    # 0 tasks at a time would wait forever; a timeout of 0 or less fails every task
    k: int = Field(5, ge=1, description="Candidate models per task.")
    max_concurrency: int = Field(4, ge=1, description="Tasks run at once.")
    task_timeout: float | None = Field(600.0, gt=0, description="Seconds a task may run; None: no limit.")
    confidence_threshold: float = 0.6
    chit_chat_history: bool = Field(True, description="Show earlier turns to the LLM when a request has no task.")
    log_runs: bool = True
    # a misspelt option ("plannr=") is an error, not silently the default
    model_config = ConfigDict(arbitrary_types_allowed=True, extra="forbid")
    _compiled: tuple["HuggingGPT", Any] | None = PrivateAttr(None)  # (this agent, its graph)

    @field_validator("workspace", mode="before")
    @classmethod
    def _folder_as_workspace(cls, value: Any) -> Any:
        return Workspace(value) if isinstance(value, (str, Path)) else value

    @field_validator("experts", mode="before")
    @classmethod
    def _connect_experts(cls, value: Any) -> Any:
        from langchain_hugginggpt.experts.client import RemoteExperts

        return RemoteExperts(value) if isinstance(value, str) else value

    @classmethod
    def from_preset(cls, llm: str | BaseChatModel | None = None, **kwargs: Any) -> "HuggingGPT":
        """Build with a controller preset (`local`, `openai:MODEL`, `hf:REPO`, `hf-endpoint:REPO`)."""
        from langchain_hugginggpt.agent.llms import load_llm
        from langchain_hugginggpt.agent.local_llm import ChatLlamaCpp

        model = load_llm(llm)
        if isinstance(model, ChatLlamaCpp):
            # The embedded 135M model plans worse than the offline planner (docs/benchmarks.md):
            # a threshold of 0 makes `auto` always take the offline plan (an empty one is
            # chit-chat). `planner="llm"` still makes it plan, for comparison.
            kwargs.setdefault("confidence_threshold", 0.0)
            # It also loops and invents results when asked to summarise them; the template
            # answer is built from the results alone, so it stays true.
            kwargs.setdefault("responder", "template")
            # Its stated reasons for a model choice are invented; the top-ranked candidate
            # with that stated as the reason is the honest choice.
            kwargs.setdefault("selection", "top")
            # Given earlier turns, it copies them line after line instead of replying.
            kwargs.setdefault("chit_chat_history", False)
        return cls(llm=model, **kwargs)

    @property
    def InputType(self) -> type[HuggingGPTInput]:  # noqa: N802 (LangChain's name)
        return HuggingGPTInput

    @property
    def OutputType(self) -> type[HuggingGPTResult]:  # noqa: N802
        return HuggingGPTResult

    # -- Runnable interface: each runs this agent's graph (agent/graph.py) --------------------------------

    def invoke(self, input: Any, config: RunnableConfig | None = None, **kwargs: Any) -> HuggingGPTResult:
        return run_sync(self.ainvoke(input, config, **kwargs))

    async def ainvoke(self, input: Any, config: RunnableConfig | None = None, **kwargs: Any) -> HuggingGPTResult:
        return await self._acall_with_config(self._aresult, input, config, run_type="chain")

    async def astream(self, input: Any, config: RunnableConfig | None = None,
                      **kwargs: Any) -> AsyncIterator[StageEvent]:
        async def the_input() -> AsyncIterator[Any]:
            yield input

        # through LangChain's callbacks, as `ainvoke`: a traced run, and `astream_events` (LangServe's
        # /stream_events) sees this run start, stream each stage event and end
        async for event in self._atransform_stream_with_config(the_input(), self._stage_events, config, run_type="chain"):
            yield event

    def stream(self, input: Any, config: RunnableConfig | None = None, **kwargs: Any) -> Iterator[StageEvent]:
        yield from iterate_sync(self.astream(input, config, **kwargs))

    async def _aresult(self, input: Any, config: RunnableConfig, run_manager: Any = None) -> HuggingGPTResult:
        if run_manager is not None:
            config = patch_config(config, callbacks=run_manager.get_child())
        async for event in self._run_graph(_as_input(input), config):
            if event.kind == "result":  # the last stage builds the result from the final state, once
                return event.result
        raise RuntimeError("HuggingGPT's graph ended without a result")  # respond always ends a turn

    async def _stage_events(self, inputs: AsyncIterator[Any], config: RunnableConfig) -> AsyncIterator[StageEvent]:
        input = [item async for item in inputs][-1]
        async for event in self._run_graph(_as_input(input), config):
            yield event

    def _run_graph(self, input: HuggingGPTInput, config: RunnableConfig) -> AsyncIterator[StageEvent]:
        """The stage events of one request through the graph, a turn of no thread of its own."""
        return self._graph().astream({"messages": as_messages(input)}, config, stream_mode="custom")

    def _graph(self) -> Any:
        """This agent's graph, compiled once; `checkpointer=False`: no thread state, also when the agent runs
        inside another graph (LangGraph would give a nested graph its parent's checkpointer)."""
        if self._compiled is None or self._compiled[0] is not self:  # a `model_copy` is another agent
            self._compiled = (self, compile_stages(self, checkpointer=False))
        return self._compiled[1]

    async def aplan(self, request: str, chat_history: ChatLog | None = None,
                    config: RunnableConfig | None = None) -> PlannerOutput:
        """Stage 1 alone: the plan for a request (validated), and which planner made it.

        `auto` takes the offline plan when it is confident, else asks the LLM
        (helped by the offline planner: likely tasks, nearest examples as demonstrations),
        and falls back to the offline plan when the LLM's plan is invalid.
        """
        # The first call loads the offline planner (its example bank, its model): file I/O, off the event loop.
        offline = await asyncio.to_thread(self._offline_planner) if self.planner != "llm" else None
        planned = None
        if offline is not None:
            planned = await asyncio.to_thread(offline.plan, request, chat_history)
            if self.planner in OFFLINE_PLANNERS or self.llm is None or planned.confidence >= self.confidence_threshold:
                return planned
        if self.llm is None:
            raise ValueError("planner 'llm' needs a controller LLM")
        helper = offline or await asyncio.to_thread(self._offline_planner)
        planner = LLMPlanner(self.llm,
                             select_examples=getattr(helper, "select_examples", None),
                             likely_tasks=getattr(helper, "likely_tasks", None))
        try:
            return await planner.aplan(request, chat_history, config)
        except PlanError as exc:  # an invalid plan, a reply with none in it, or one cut off (PlanTruncated)
            if planned is None or not planned.plan.tasks:
                raise
            # Said, not swallowed: the label names why, the details and the log hold the whole message.
            why = "cut off" if isinstance(exc, PlanTruncated) else "invalid"
            logger.warning("the LLM's plan was %s, using the offline plan: %s", why, exc)
            planned.details["llm_plan_error"] = str(exc)
            planned.planner = f"{planned.planner} (the LLM's plan was {why})"
            return planned

    def _offline_planner(self) -> Any:
        """The offline planner: the one named, or for `auto`/`llm` the default (learned where installed),
        told which tasks this agent's models can run."""
        try:
            from langchain_hugginggpt.planning import default_planner
        except ImportError:
            return None
        planner = default_planner(self.planner if self.planner in OFFLINE_PLANNERS else "auto")
        return planner.for_deployment(self._can_run)

    def active_candidate_source(self) -> Any:
        """Where model selection finds candidates: the one given, the deployed experts, else the tools registry."""
        from langchain_hugginggpt.tools.candidates import RegistryCandidates

        if self.candidate_source is not None:
            return self.candidate_source
        return self.experts.candidates() if self.experts is not None else RegistryCandidates()

    def _can_run(self, task: str) -> bool:
        """Whether a model for the task (not a labelled stand-in) can run for this agent."""
        probe = Task(id=0, task=task, dep=[-1], args={})
        try:
            return any(not c.stand_in for c in self.active_candidate_source().candidates(probe, "", self.k))
        except Exception as exc:  # a source that cannot tell (an expert cluster that is down) changes nothing
            logger.debug("cannot tell whether %s can run: %s", task, exc)
            return True


def _as_input(value: Any) -> HuggingGPTInput:
    if isinstance(value, HuggingGPTInput):
        return value
    if isinstance(value, str):
        return HuggingGPTInput(request=value)
    if isinstance(value, dict):
        if "messages" in value and "request" not in value:  # the original HuggingGPT API shape
            messages = list(value["messages"])
            return HuggingGPTInput(request=str(messages[-1]["content"]), chat_history=messages[:-1])
        return HuggingGPTInput.model_validate(value)
    if hasattr(value, "to_string"):  # a PromptValue from an upstream prompt
        return HuggingGPTInput(request=value.to_string())
    raise TypeError(f"HuggingGPT takes a request string or {{'request', 'chat_history'}}, got {type(value).__name__}")
