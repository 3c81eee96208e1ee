"""The controller's HTTP app (`hugginggpt serve`: LangServe routes, `/hugginggpt`, the chat page) as a
Ray Serve ingress deployment with several replicas.

    serve run langchain_hugginggpt.server.ray_controller:build_controller_app num_replicas=2 data_dir=/shared/hugginggpt

Every replica builds the same app (`create_app`) over the same data folder and workspace, so the
conversations and files one replica wrote are there for the next request, whichever replica takes it:
the conversations live in the LangGraph checkpointer's SQLite file (WAL mode), which the replicas' processes share on one node,
or across nodes on a shared volume. Tasks go to the experts' deployments through DeploymentHandles.
Each response names the replica that answered in the `x-hugginggpt-replica` header.
"""

from __future__ import annotations

from typing import Any

from pydantic import ConfigDict, Field
from ray import serve
from ray.serve import Application

from langchain_hugginggpt.experts.config import APP_NAME, DeploymentOptions, RayActorOptions

REPLICA_HEADER = "x-hugginggpt-replica"


class ControllerConfig(DeploymentOptions):
    """The `args` of the controller application: Ray Serve options, and those of `hugginggpt serve`."""

    model_config = ConfigDict(extra="forbid")
    llm: str | None = Field(None, description="Controller preset (default: local).")
    planner: str = "auto"
    responder: str | None = None
    selection: str | None = None
    experts: str | None = Field(f"ray:{APP_NAME}", description="Where tasks run; None: in each replica.")
    local_fallback: bool = False
    data_dir: str | None = Field(None, description="Conversations; the same path on every replica's node.")
    workspace: str | None = None
    api_key: str | None = None
    max_upload_mb: float = Field(50.0, gt=0, description="The most one upload may hold, in MiB.")
    max_upload_storage: int = Field(2 * 2**30, ge=1, description=(
        "The most uploads/ may hold, in bytes, shared by the replicas that serve one workspace folder."))


class ReplicaHeader:
    """ASGI middleware: every response says which replica answered (pure ASGI: streams pass through)."""

    def __init__(self, app: Any, replica: str) -> None:
        self.app, self.replica = app, replica.encode()

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)

        async def send_with_header(message: dict) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), (REPLICA_HEADER.encode(), self.replica)]
            await send(message)

        await self.app(scope, receive, send_with_header)


@serve.deployment(name="HuggingGPTServer")
@serve.ingress()
class ControllerServer:
    """One replica of the controller: `hugginggpt serve`'s app, built in the replica."""

    def __init__(self, config: dict[str, Any]) -> None:
        self.config = ControllerConfig.model_validate(config)

    def __serve_build_asgi_app__(self) -> Any:
        from langchain_hugginggpt.server.app import create_app, default_agent_factory

        config = self.config
        options: dict[str, Any] = {"planner": config.planner}
        for name in ("responder", "selection"):
            if getattr(config, name):
                options[name] = getattr(config, name)
        if config.experts:
            from langchain_hugginggpt.experts.client import RemoteExperts

            options["experts"] = RemoteExperts(config.experts, fallback_local=config.local_fallback)
        app = create_app(default_agent_factory(config.llm, **options), workspace=config.workspace,
                         data_dir=config.data_dir, api_key=config.api_key,
                         max_upload_bytes=int(config.max_upload_mb * 2**20),
                         max_upload_storage=config.max_upload_storage)
        app.add_middleware(ReplicaHeader, replica=serve.get_replica_context().replica_id.unique_id)
        return app


def build_controller_app(args: ControllerConfig | dict[str, Any] | None = None) -> Application:
    """The controller application (Ray Serve's app-builder signature)."""
    config = args if isinstance(args, ControllerConfig) else ControllerConfig.model_validate(args or {})
    deployment = DeploymentOptions(num_replicas=1, ray_actor_options=RayActorOptions(num_cpus=0.5),
                                   max_ongoing_requests=20)
    options = DeploymentOptions.model_validate(config.model_dump(include=set(DeploymentOptions.model_fields),
                                                                 exclude_none=True)).merged_over(deployment)
    return ControllerServer.options(**options.serve_options()).bind(
        config.model_dump(exclude=set(DeploymentOptions.model_fields)))
