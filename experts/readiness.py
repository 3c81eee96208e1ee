"""When the experts are ready: every deployment of the application serving, by Ray Serve's own status.

One reading of `serve.status()` feeds the gateway's `GET /health`, the lines `hugginggpt experts serve`
prints while it waits, and `hugginggpt experts status`. A deployment that is not serving carries Ray's
own message (a replica that cannot be scheduled for lack of CPUs or memory, a constructor that failed)
and, where we can tell, what to change.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from langchain_hugginggpt.experts.protocol import SERVING_STATUSES

# Deployments that will not serve without a change (Ray Serve gave up, or the engine's check failed).
FAILED_STATUSES = frozenset({"DEPLOY_FAILED", "UNHEALTHY"})
UNSCHEDULABLE_MARK = "to be scheduled"  # Ray Serve's words for replicas waiting for resources (after 30 s)


class Readiness(BaseModel):
    """The body of `GET /health`: 200 when `ready`, 503 otherwise."""

    app: str = Field(description="The Ray Serve application (a client in the cluster uses it for handles).")
    ready: bool = Field(description="Every deployment of the application is serving (HEALTHY or scaling).")
    app_status: str = Field(description="Ray Serve's application status: RUNNING once every deployment is.")
    deployments: dict[str, str] = Field(default_factory=dict, description="Deployment -> Ray Serve status.")
    not_ready: dict[str, str] = Field(default_factory=dict, description="Deployment -> why it is not serving.")

    def problems(self) -> dict[str, str]:
        """The deployments that will not become ready without a change, each with what to change."""
        return {name: advice(name, self.deployments.get(name, ""), reason)
                for name, reason in self.not_ready.items() if stuck(self.deployments.get(name, ""), reason)}

    def summary(self) -> str:
        serving = sum(status in SERVING_STATUSES for status in self.deployments.values())
        return f"{serving}/{len(self.deployments)} deployments of application {self.app!r} serving"


def brief(message: str) -> str:
    """Ray's status message without the replica's traceback: its first sentence and the error line."""
    lines = [line.strip() for line in message.strip().splitlines() if line.strip()]
    if len(lines) <= 2:
        return " ".join(lines)
    return f"{lines[0].split(' Error:')[0]} {lines[-1]}"


def stuck(status: str, reason: str) -> bool:
    """A deployment that failed, or whose replicas Ray cannot place (it would wait forever)."""
    return status in FAILED_STATUSES or UNSCHEDULABLE_MARK in reason


def advice(name: str, status: str, reason: str) -> str:
    """Ray's message, and what to change."""
    if UNSCHEDULABLE_MARK in reason and "required for each replica: {}" in reason:
        change = ("it asks for no resources: Ray is still starting worker processes (many replicas at once on "
                  "few cores); wait, or deploy fewer engines")
    elif UNSCHEDULABLE_MARK in reason:
        change = ("lower its ray_actor_options (num_cpus, memory) in --config, deploy fewer engines, "
                  "give Ray more (--num-cpus) or add a node")
    elif status == "DEPLOY_FAILED":
        change = ("its replica could not start: install what its engine needs (see `hugginggpt tasks`) "
                  "or remove it from --config")
    else:
        change = "Ray Serve is replacing its replicas; if it stays so, see the replica's log"
    return f"deployment {name!r} is {status}: {reason or 'no message from Ray Serve'} -> {change}"


def readiness(app_name: str) -> Readiness:
    """The application's readiness now, from the Serve controller."""
    from ray import serve

    application = serve.status().applications.get(app_name)
    if application is None:
        return Readiness(app=app_name, ready=False, app_status="MISSING",
                         not_ready={"*": f"no application {app_name!r} on this Ray cluster"})
    statuses = {name: _value(d.status) for name, d in application.deployments.items()}
    not_ready = {name: (d.message or "").strip() for name, d in application.deployments.items()
                 if statuses[name] not in SERVING_STATUSES}
    app_status = _value(application.status)
    ready = bool(statuses) and not not_ready and app_status == "RUNNING"
    return Readiness(app=app_name, ready=ready, app_status=app_status, deployments=statuses,
                     not_ready={name: reason or f"{statuses[name]} (starting)" for name, reason in not_ready.items()})


def _value(status: object) -> str:
    return str(getattr(status, "value", status))
