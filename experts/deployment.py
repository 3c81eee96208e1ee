"""The Ray Serve deployment that serves an engine (or a group of engines), and the call that reaches it.

A replica resolves its engines (`tools.registry.resolve_engine`: cheap, no weights are read until an
engine's first task), takes an `ExpertRequest` (its `engine` names which one, in a group's),
writes its media into a scratch folder (a worker does not share the controller's disk),
runs the engine there, and returns the output with its files as bytes. `call_expert`
and `acall_expert` retry a task once when its replica dies under it, and turn Ray's
errors into ones that name the deployment.
"""

from __future__ import annotations

import asyncio
import importlib
import re
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any, Sequence

from ray import serve

from langchain_hugginggpt.core.downloads import UrlPolicy
from langchain_hugginggpt.experts.protocol import (
    CapacityError,
    ExpertReply,
    ExpertRequest,
    ExpertUnavailable,
    MediaFile,
    SERVING_STATUSES,
    ServedBy,
)
from langchain_hugginggpt.core.workspace import Workspace
from langchain_hugginggpt.tools.base import Engine, ExpertError
from langchain_hugginggpt.core.tasks import get_task


def import_engine_modules(modules: Sequence[str]) -> None:
    """Import modules that `@register` engines of their own (an app's, or a test's)."""
    for module in modules:
        importlib.import_module(module)


class ExpertReplica:
    """One replica of a deployment: one engine, or the several of a group, in one process."""

    def __init__(self, engines: Sequence[tuple[str, str, str]], imports: Sequence[str] = ()) -> None:
        from langchain_hugginggpt.tools.registry import resolve_engine

        import_engine_modules(imports)
        # An engine that cannot run on this node fails the replica's start, with the reason:
        # Ray Serve reports the deployment as DEPLOY_FAILED with this message.
        self.engines = {name: resolve_engine(task, model) for name, task, model in engines}
        self.scratch = Path(tempfile.mkdtemp(prefix="hugginggpt-expert-"))
        context = serve.get_replica_context()
        self.served_by = ServedBy(deployment=context.deployment, replica=context.replica_id.unique_id,
                                  app=context.app_name, node=_node_ip(), node_id=_node_id())

    def check_health(self) -> None:
        """Ray Serve calls this periodically; a raise marks the replica unhealthy, and it is replaced."""
        for engine in self.engines.values():
            reason = engine.unavailable_reason()
            if reason is not None:
                raise RuntimeError(f"{engine.task} with {engine.model_id} can no longer run: {reason}")

    def _engine(self, request: ExpertRequest) -> tuple[str, Engine]:
        if request.engine is None and len(self.engines) == 1:
            return next(iter(self.engines.items()))
        if request.engine not in self.engines:
            raise ExpertError(f"deployment {self.served_by.deployment!r} has no engine {request.engine!r}; "
                              f"it runs {', '.join(sorted(self.engines))}")
        return request.engine, self.engines[request.engine]

    @staticmethod
    def _checked_inputs(task: str, request: ExpertRequest) -> dict[str, Any]:
        """Text slots as text, media slots as files: a path in a media slot would read the worker's disk."""
        kinds = get_task(task).inputs
        unknown = sorted((set(request.inputs) | set(request.files)) - set(kinds))
        if unknown:
            raise ExpertError(f"{task} has no input slot {', '.join(unknown)}; its slots: {', '.join(kinds)}")
        as_text = sorted(slot for slot in request.inputs if kinds[slot] != "text")
        as_file = sorted(slot for slot in request.files if kinds[slot] == "text")
        if as_text or as_file:
            raise ExpertError(f"{task}: media slots travel as files and text slots as text; got "
                              f"{', '.join(as_text + as_file)} the other way")
        return dict(request.inputs)

    async def run(self, request: ExpertRequest) -> ExpertReply:
        # In a thread: the replica's event loop keeps answering health checks and other requests.
        return await asyncio.to_thread(self._run, request)

    def _run(self, request: ExpertRequest) -> ExpertReply:
        name, engine = self._engine(request)
        folder = Path(tempfile.mkdtemp(dir=self.scratch))
        try:
            workspace = Workspace(folder, urls=UrlPolicy(enabled=False))  # inputs arrive as bytes, never as URLs
            inputs: dict[str, Any] = self._checked_inputs(engine.task, request)
            for slot, media in request.files.items():
                path = folder / "inputs" / f"{slot}-{_safe_name(media.name)}"
                path.parent.mkdir(exist_ok=True)
                path.write_bytes(media.data)
                inputs[slot] = str(path)
            try:
                output = engine.run(inputs, workspace)
            except ExpertError:
                raise
            except Exception as exc:  # the same wording as a local engine's failure
                raise ExpertError(f"{engine.task} with {engine.model_id} failed: {type(exc).__name__}: {exc}") from None
            files = {path: MediaFile(name=Path(path).name, data=Path(path).read_bytes())
                     for path in output.files if Path(path).is_file()}
            return ExpertReply(output=output.model_dump(exclude={"served_by"}), files=files,
                               served_by=self.served_by.model_copy(update={"engine": name}))
        finally:
            shutil.rmtree(folder, ignore_errors=True)


ExpertDeployment = serve.deployment(ExpertReplica, name="expert")


def _safe_name(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]", "_", Path(name).name)[-80:] or "input"


def _node_ip() -> str | None:
    try:
        import ray

        return ray.util.get_node_ip_address()
    except Exception:  # only informative
        return None


def _node_id() -> str | None:
    try:  # nodes on one machine share an IP: the node id tells them apart
        import ray

        return ray.get_runtime_context().get_node_id()
    except Exception:  # only informative
        return None


# -- calling a deployment ------------------------------------------------------------

# After a replica died, how long the retry may wait while its deployment has no serving replica (the
# node is gone and no other can host it): then it fails naming the deployment, instead of waiting forever
# in Serve's router. A retry on a serving deployment waits as long as its task takes.
RETRY_WAIT_S = 60.0
RETRY_POLL_S = 2.0


def call_expert(handle: Any, name: str, request: ExpertRequest) -> ExpertReply:
    """Run a task on a deployment from sync code; retried once if its replica dies."""
    from ray.exceptions import GetTimeoutError

    for attempt in (1, 2):
        try:
            response = handle.run.remote(request)
            if attempt == 1:
                return response.result()
            not_serving_since: float | None = None
            while True:
                try:
                    return response.result(timeout_s=RETRY_POLL_S)
                except (GetTimeoutError, TimeoutError):
                    not_serving_since = _still_worth_waiting(handle, name, response, not_serving_since)
        except Exception as exc:
            retry_or_raise(exc, name, attempt)
    raise AssertionError("unreachable")


async def acall_expert(handle: Any, name: str, request: ExpertRequest) -> ExpertReply:
    """`call_expert` for async code (the gateway)."""
    for attempt in (1, 2):
        try:
            response = handle.run.remote(request)
            if attempt == 1:
                return await response
            waiting = asyncio.ensure_future(_awaited(response))
            not_serving_since: float | None = None
            while True:
                done, _ = await asyncio.wait({waiting}, timeout=RETRY_POLL_S)
                if done:
                    return waiting.result()
                try:
                    not_serving_since = await asyncio.to_thread(_still_worth_waiting, handle, name, response,
                                                                not_serving_since)
                except ExpertUnavailable:
                    waiting.cancel()
                    raise
        except Exception as exc:
            retry_or_raise(exc, name, attempt)
    raise AssertionError("unreachable")


async def _awaited(response: Any) -> Any:
    return await response


def _still_worth_waiting(handle: Any, name: str, response: Any, not_serving_since: float | None) -> float | None:
    """None while the deployment serves; the time it stopped serving, until RETRY_WAIT_S have passed: then
    the retry is cancelled and fails with Ray Serve's status and message."""
    from ray import serve

    from langchain_hugginggpt.experts.readiness import brief

    application = serve.status().applications.get(handle.app_name)
    status = application.deployments.get(handle.deployment_name) if application else None
    state = str(getattr(status.status, "value", status.status)) if status else "MISSING"
    if state in SERVING_STATUSES:
        return None
    since = not_serving_since or time.monotonic()
    if time.monotonic() - since < RETRY_WAIT_S:
        return since
    response.cancel()
    message = f": {brief(status.message)}" if status and status.message else ""
    raise ExpertUnavailable(f"expert deployment {name!r}: its replica died during the task, and no replica took "
                            f"the retry within {RETRY_WAIT_S:.0f} s (deployment {state}{message})")


def retry_or_raise(exc: BaseException, name: str, attempt: int) -> None:
    """Return when the task should be sent again (its replica died, first time), else raise
    an error that names the deployment."""
    from ray.exceptions import ActorUnavailableError, RayActorError, RayTaskError
    from ray.serve.exceptions import BackPressureError, DeploymentUnavailableError

    if isinstance(exc, BackPressureError):
        raise CapacityError(f"expert deployment {name!r} is at capacity: every replica is at its "
                            f"max_ongoing_requests and the queue is full (max_queued_requests); "
                            f"the task was refused, try again later or add replicas") from None
    if isinstance(exc, ExpertUnavailable):
        raise exc
    if isinstance(exc, (RayActorError, ActorUnavailableError)):
        if attempt == 1:
            return
        raise ExpertUnavailable(f"expert deployment {name!r}: its replica died during the task, and again "
                                f"on the retry ({type(exc).__name__})") from None
    if isinstance(exc, DeploymentUnavailableError):
        raise ExpertUnavailable(f"expert deployment {name!r} is unavailable: {exc}") from None
    if isinstance(exc, RayTaskError):  # the engine raised: its own message, without Ray's traceback
        cause = exc.cause if exc.cause is not None else exc
        raise ExpertError(str(cause) or type(cause).__name__) from None
    raise exc
