"""The experts' HTTP entry: a Ray Serve ingress deployment in front of the engine deployments.

    GET  /experts          every deployed engine with its Ray Serve status (model selection reads it)
    POST /experts/{name}   run a task on a deployment: an `ExpertRequest` in, an `ExpertReply` out (JSON)
    GET  /health           200 once every deployment of the application is serving, else 503; both with
                           {"app", "ready", "app_status", "deployments": {name: status}, "not_ready": {name: why}}

Errors are JSON `{"detail": ...}` naming the deployment: 404 when it does not exist, 503 when
it is not healthy, its replica died twice or it is at capacity, 422 when the engine failed.
"""

# No `from __future__ import annotations`: FastAPI must see `Request` itself in the routes of a Serve ingress.
import asyncio
import time
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response
from ray import serve

from langchain_hugginggpt.experts.deployment import acall_expert
from langchain_hugginggpt.experts.protocol import (
    CapacityError,
    ExpertInfo,
    ExpertRequest,
    ExpertUnavailable,
)
from langchain_hugginggpt.experts.readiness import brief, readiness
from langchain_hugginggpt.tools.base import ExpertError

api = FastAPI(title="HuggingGPT experts")
STATUS_TTL_S = 1.0  # a burst of tasks asks the Serve controller once


def deployment_statuses(app_name: str) -> dict[str, tuple[str, str]]:
    """{deployment: (status, message)} of one Serve application, from the Serve controller."""
    application = serve.status().applications.get(app_name)
    if application is None:
        return {}
    return {name: (str(getattr(d.status, "value", d.status)), brief(d.message or ""))
            for name, d in application.deployments.items()}


def with_statuses(infos: list[ExpertInfo], statuses: dict[str, tuple[str, str]]) -> list[ExpertInfo]:
    # An engine's status is its deployment's (a group's, for a grouped engine).
    return [info.model_copy(update=dict(zip(("status", "message"),
                                            statuses.get(info.serve_deployment, ("MISSING", "")))))
            for info in infos]


def unavailable_message(info: ExpertInfo) -> str:
    detail = f": {info.message}" if info.message else ""
    return f"expert deployment {info.name!r} ({info.task} with {info.model}) is {info.status}{detail}"


def _error(status: int, detail: str) -> JSONResponse:
    return JSONResponse({"detail": detail}, status_code=status)


@serve.deployment(name="ExpertsGateway")
@serve.ingress(api)
class ExpertsGateway:
    def __init__(self, experts: dict[str, Any], infos: list[dict[str, Any]]) -> None:
        self.handles = experts  # Serve deployment name -> DeploymentHandle (an engine's, or a group's)
        self.infos = {info["name"]: ExpertInfo.model_validate(info) for info in infos}
        self.app_name = serve.get_replica_context().app_name
        self._statuses: tuple[float, dict[str, tuple[str, str]]] = (0.0, {})

    async def catalog(self) -> list[ExpertInfo]:
        """The deployed engines with their current status (also called through a DeploymentHandle)."""
        checked, statuses = self._statuses
        if time.monotonic() - checked > STATUS_TTL_S:
            statuses = await asyncio.to_thread(deployment_statuses, self.app_name)
            self._statuses = (time.monotonic(), statuses)
        return with_statuses(list(self.infos.values()), statuses)

    @api.get("/health")
    async def health(self) -> JSONResponse:
        # Read fresh: a load balancer or `experts serve` polls this to learn the moment all are ready.
        state = await asyncio.to_thread(readiness, self.app_name)
        return JSONResponse(state.model_dump(), status_code=200 if state.ready else 503)

    @api.get("/experts")
    async def list_experts(self) -> list[dict[str, Any]]:
        return [info.model_dump() for info in await self.catalog()]

    @api.post("/experts/{name}")
    async def run_expert(self, name: str, request: Request) -> Response:
        if name not in self.infos:
            return _error(404, f"no expert deployment named {name!r}; deployed: {', '.join(sorted(self.infos))}")
        info = next(i for i in await self.catalog() if i.name == name)
        if not info.healthy:
            return _error(503, unavailable_message(info))
        try:
            task = ExpertRequest.model_validate_json(await request.body())
        except ValueError as exc:
            return _error(422, f"not an expert request: {exc}")
        task.engine = name
        try:
            reply = await acall_expert(self.handles[info.serve_deployment], name, task)
        except (CapacityError, ExpertUnavailable) as exc:
            return _error(503, str(exc))
        except ExpertError as exc:
            return _error(422, str(exc))
        return Response(reply.model_dump_json(), media_type="application/json")
