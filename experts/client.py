"""The controller's side: `RemoteExperts` sends each task to the deployment of its model.

    experts = RemoteExperts("http://127.0.0.1:8000")   # over HTTP, from anywhere
    experts = RemoteExperts("ray")                     # through DeploymentHandles, inside the cluster
    HuggingGPT(..., experts=experts)

A URL is used through DeploymentHandles when this process is itself connected to the Ray
cluster that serves the experts. `resolve_engine` hands the executor a `RemoteEngine`, an
`Engine` like any local one: the stage code has one implementation, and a result looks
exactly like a local one (its files are written into the controller's workspace), plus
`served_by`.
"""

from __future__ import annotations

import logging
import sys
import threading
import time
from pathlib import Path
from typing import Any, Protocol

import httpx

from langchain_hugginggpt.experts.config import APP_NAME
from langchain_hugginggpt.experts.protocol import (
    CapacityError,
    ExpertInfo,
    ExpertReply,
    ExpertRequest,
    ExpertUnavailable,
    MediaFile,
)
from langchain_hugginggpt.experts.readiness import UNSCHEDULABLE_MARK, Readiness
from langchain_hugginggpt.core.schema import Candidate, Task
from langchain_hugginggpt.core.workspace import Workspace
from langchain_hugginggpt.tools.base import Engine, ExpertError, ExpertOutput, cues_fit
from langchain_hugginggpt.core.tasks import get_task
from langchain_hugginggpt.tools.candidates import rank_engines

log = logging.getLogger(__name__)


class Transport(Protocol):
    where: str

    def catalog(self) -> list[ExpertInfo]: ...

    def readiness(self) -> Readiness: ...

    def run(self, info: ExpertInfo, request: ExpertRequest) -> ExpertReply: ...


class HttpTransport:
    """The gateway's HTTP routes, through httpx."""

    def __init__(self, url: str, timeout: float = 900.0) -> None:
        self.where = url.rstrip("/")
        self.client = httpx.Client(base_url=self.where, timeout=httpx.Timeout(timeout, connect=10.0))

    def catalog(self) -> list[ExpertInfo]:
        reply = self._send("GET", "/experts", "list the experts")
        return [ExpertInfo.model_validate(item) for item in reply.json()]

    def readiness(self) -> Readiness:
        try:  # 503 (not ready) carries the same body as 200
            reply = self.client.get("/health")
            return Readiness.model_validate(reply.json())
        except (httpx.HTTPError, ValueError) as exc:
            raise ExpertUnavailable(f"could not read the experts' readiness at {self.where}/health: "
                                    f"{type(exc).__name__}: {exc}") from None

    def run(self, info: ExpertInfo, request: ExpertRequest) -> ExpertReply:
        name = info.name
        reply = self._send("POST", f"/experts/{name}", f"reach expert deployment {name!r}",
                           content=request.model_dump_json(), headers={"content-type": "application/json"})
        return ExpertReply.model_validate_json(reply.content)

    def _send(self, method: str, path: str, doing: str, **kwargs: Any) -> httpx.Response:
        try:
            reply = self.client.request(method, path, **kwargs)
        except httpx.HTTPError as exc:
            raise ExpertUnavailable(f"could not {doing} at {self.where}: {type(exc).__name__}: {exc}") from None
        if reply.status_code < 400:
            return reply
        try:
            detail = reply.json().get("detail", reply.text)
        except ValueError:
            detail = reply.text[:500]
        if reply.status_code == 422:
            raise ExpertError(detail)
        if reply.status_code == 503 and "at capacity" in detail:
            raise CapacityError(detail)
        raise ExpertUnavailable(f"could not {doing} at {self.where}: HTTP {reply.status_code}: {detail}")


class HandleTransport:
    """Ray Serve DeploymentHandles: for a controller that runs inside the Ray cluster."""

    def __init__(self, app_name: str = APP_NAME) -> None:
        from ray import serve

        self.where = f"Ray Serve application {app_name!r}"
        self.app_name = app_name
        self.gateway = serve.get_app_handle(app_name)  # raises when the application does not exist
        self.handles: dict[str, Any] = {}

    def catalog(self) -> list[ExpertInfo]:
        return list(self.gateway.catalog.remote().result())

    def readiness(self) -> Readiness:
        from langchain_hugginggpt.experts.readiness import readiness

        return readiness(self.app_name)

    def run(self, info: ExpertInfo, request: ExpertRequest) -> ExpertReply:
        from ray import serve

        from langchain_hugginggpt.experts.deployment import call_expert

        deployment = info.serve_deployment  # a group's, for a grouped engine: `request.engine` picks it there
        if deployment not in self.handles:
            self.handles[deployment] = serve.get_deployment_handle(deployment, self.app_name)
        return call_expert(self.handles[deployment], info.name, request.model_copy(update={"engine": info.name}))


def connect(target: str, app_name: str = APP_NAME) -> Transport:
    """`ray` (or `ray:APP`): DeploymentHandles. A URL: handles when this process is connected to
    the Ray cluster that runs the application behind it, else HTTP."""
    if target == "ray" or target.startswith("ray:"):
        return HandleTransport(target.partition(":")[2] or app_name)
    if not target.startswith(("http://", "https://")):
        raise ValueError(f"experts: expected an http(s) URL of `hugginggpt experts serve` or 'ray', got {target!r}")
    http = HttpTransport(target)
    if "ray" in sys.modules and sys.modules["ray"].is_initialized():
        try:  # the gateway names its application; that application in our cluster is the same one
            return HandleTransport(http.client.get("/health").json()["app"])
        except Exception:  # unreachable, or not an application of this cluster: go over HTTP
            pass
    return http


START_TIMEOUT_S = 120.0  # a replica's start: Ray placing it, the engine's import and checks
START_POLL_S = 1.0


def starting_up(info: ExpertInfo) -> bool:
    """UPDATING with replicas on their way; not one Ray says it cannot place (that would wait in vain)."""
    return info.status == "UPDATING" and UNSCHEDULABLE_MARK not in info.message


class RemoteExperts:
    """The engines deployed on Ray Serve, as the executor and model selection use them.

    `fallback_local=True` runs a task on a local engine when the deployment of its model is
    missing or unhealthy; by default that is an error naming the deployment. A deployment that is
    still starting (UPDATING, its replicas being placed or constructed) is waited for, up to
    `start_timeout_s`, before a task gives up on it; one that Ray reports it cannot schedule is not.
    """

    def __init__(self, target: str | Transport = "ray", *, fallback_local: bool = False,
                 app_name: str = APP_NAME, catalog_ttl_s: float = 2.0,
                 start_timeout_s: float = START_TIMEOUT_S) -> None:
        self.transport = connect(target, app_name) if isinstance(target, str) else target
        self.fallback_local = fallback_local
        self.catalog_ttl_s = catalog_ttl_s
        self.start_timeout_s = start_timeout_s
        self._catalog: tuple[float, list[ExpertInfo]] = (0.0, [])
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"RemoteExperts({self.transport.where!r}, fallback_local={self.fallback_local})"

    def catalog(self, fresh: bool = False) -> list[ExpertInfo]:
        """Every deployed engine with its status (cached briefly: one selection asks once)."""
        with self._lock:
            checked, infos = self._catalog
            if fresh or time.monotonic() - checked > self.catalog_ttl_s:
                infos = self.transport.catalog()
                self._catalog = (time.monotonic(), infos)
            return infos

    def readiness(self) -> Readiness:
        """Whether every deployment serves (the gateway's `GET /health`), with Ray's reasons for those that do not."""
        return self.transport.readiness()

    def deployment_for(self, task: str, model_id: str | None) -> ExpertInfo | None:
        """The deployment of a task's model (any model when None), a healthy one first; while none is
        healthy and one is still starting, waits for it (up to `start_timeout_s`)."""
        matching = self.deployments_for(task, model_id)
        return next((i for i in matching if i.healthy), matching[0] if matching else None)

    def deployments_for(self, task: str, model_id: str | None = None) -> list[ExpertInfo]:
        """The deployments of a task (of one model, if given), once one serves, or none is starting, or
        `start_timeout_s` has passed: a request sent just after `experts serve` started waits, not fails."""
        deadline = time.monotonic() + self.start_timeout_s
        fresh, told = False, False
        while True:
            matching = [i for i in self.catalog(fresh=fresh)
                        if i.task == task and (model_id is None or i.model == model_id)]
            starting = [i for i in matching if starting_up(i)]
            if any(i.healthy for i in matching) or not starting or time.monotonic() >= deadline:
                return matching
            if not told:
                log.warning("waiting up to %.0f s for %s to start (%s)", self.start_timeout_s,
                            ", ".join(i.name for i in starting), starting[0].status)
                told = True
            time.sleep(min(START_POLL_S, max(0.0, deadline - time.monotonic())))
            fresh = True

    def candidates(self) -> DeployedCandidates:
        """The model-selection source that offers only the healthy deployments."""
        return DeployedCandidates(self)

    def resolve_engine(self, task: str, model_id: str | None = None) -> Engine:
        """The engine the executor runs: the deployment's `RemoteEngine` (what `tools.registry` is for local ones)."""
        info = self.deployment_for(task, model_id)
        if info is not None and info.healthy:
            return RemoteEngine(self, info)
        if info is None:
            deployed = ", ".join(i.name for i in self.catalog() if i.task == task) or "none"
            problem = (f"no expert deployment at {self.transport.where} serves {task} with {model_id}; "
                       f"deployed for {task}: {deployed}")
        else:
            problem = f"expert deployment {info.name!r} ({task} with {info.model}) is {info.status}" + (
                f": {info.message}" if info.message else "") + (
                f" (still starting after {self.start_timeout_s:.0f} s)" if starting_up(info) else "")
        if not self.fallback_local:
            raise ExpertUnavailable(problem + " (local fallback is off)")
        from langchain_hugginggpt.tools.registry import resolve_engine

        log.warning("running %s with %s in this process: %s", task, model_id, problem)
        return resolve_engine(task, model_id)

    def run(self, info: ExpertInfo, inputs: dict[str, Any], workspace: Workspace) -> ExpertOutput:
        """Send the inputs' media as bytes, run, and write the outputs into `workspace`."""
        request = ExpertRequest()
        kinds = get_task(info.task).inputs
        for slot, value in inputs.items():
            if kinds.get(slot, "text") == "text":
                request.inputs[slot] = value
            else:
                path = Path(value)
                request.files[slot] = MediaFile(name=path.name, data=path.read_bytes())
        return materialize(self.transport.run(info, request), workspace)


def materialize(reply: ExpertReply, workspace: Workspace) -> ExpertOutput:
    """The reply as a local `ExpertOutput`: each file written to a new output of the workspace,
    and every mention of its worker path (in `files`, `image`, `text`, `result`) made the local one."""
    moved: dict[str, str] = {}
    for worker_path, media in reply.files.items():
        name = Path(media.name)
        stem = name.stem.rsplit("-", 1)[0] if "-" in name.stem else ""  # "speech-<id>.wav" stays "speech-..."
        local = workspace.new_output(name.suffix or ".bin", stem=stem)
        local.write_bytes(media.data)
        moved[worker_path] = str(local)
    # Then the bare names ("written to speech-<id>.wav"): unique, so replacing them is safe.
    moved.update({Path(worker).name: Path(local).name for worker, local in list(moved.items())})
    output = _replace_paths(reply.output, moved)
    output["served_by"] = reply.served_by.model_dump()
    return ExpertOutput.model_validate(output)


def _replace_paths(value: Any, moved: dict[str, str]) -> Any:
    if isinstance(value, str):
        for worker_path, local in moved.items():
            value = value.replace(worker_path, local)
        return value
    if isinstance(value, dict):
        return {key: _replace_paths(item, moved) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_replace_paths(item, moved) for item in value]
    return value


class RemoteEngine(Engine):
    """A deployed engine, run through `RemoteExperts`; to the executor, an engine like any other."""

    def __init__(self, experts: RemoteExperts, info: ExpertInfo) -> None:
        self.experts, self.info = experts, info
        self.task, self.model_id = info.task, info.model
        self.backend, self.description, self.stand_in = info.backend, info.description, info.stand_in
        self.request_cues = info.request_cues

    def unavailable_reason(self) -> str | None:
        info = self.experts.deployment_for(self.task, self.model_id)
        if info is None:
            return f"expert deployment {self.info.name!r} no longer exists"
        return None if info.healthy else f"expert deployment {info.name!r} is {info.status}"

    def fits(self, context: str) -> bool | None:  # the deployment's cues (an instance's, not the class's)
        return cues_fit(self.request_cues, context)

    def run(self, inputs: dict[str, Any], workspace: Workspace) -> ExpertOutput:
        return self.experts.run(self.info, inputs, workspace)


class DeployedCandidates:
    """A `CandidateSource`: the healthy deployments of a task, ranked like local engines."""

    def __init__(self, experts: RemoteExperts) -> None:
        self.experts = experts

    def candidates(self, task: Task, request: str, k: int) -> list[Candidate]:
        engines = [RemoteEngine(self.experts, info) for info in self.experts.deployments_for(task.task)
                   if info.healthy]
        return rank_engines(engines, task, request, k)

    def unavailable_reason(self, task: Task) -> str:
        deployed = [info for info in self.experts.catalog() if info.task == task.task]
        where = self.experts.transport.where
        if not deployed:
            return f"no expert deployment at {where} serves {task.task}"
        states = "; ".join(f"{i.name} is {i.status}" + (f" ({i.message})" if i.message else "") for i in deployed)
        return f"no healthy expert deployment at {where} serves {task.task}: {states}"
