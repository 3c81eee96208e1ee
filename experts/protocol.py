"""What travels between the controller and an expert deployment.

Workers do not share the controller's disk, so media go as bytes both ways: input files
with the request, output files with the result. The same models are pickled over a Ray
DeploymentHandle and sent as JSON (bytes as base64) over HTTP.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from langchain_hugginggpt.tools.base import ExpertError


class MediaFile(BaseModel):
    """A file's name (its suffix tells the engines its type) and content."""

    model_config = ConfigDict(ser_json_bytes="base64", val_json_bytes="base64")
    name: str
    data: bytes


class ExpertRequest(BaseModel):
    """The inputs of one task: text slots as they are, media slots as files."""

    inputs: dict[str, Any] = Field(default_factory=dict, description="Text slots.")
    files: dict[str, MediaFile] = Field(default_factory=dict, description="Media slots.")
    engine: str | None = Field(None, description="The engine's catalog name: which engine of a group's deployment "
                                                 "runs the task (the gateway sets it from the route).")


class ServedBy(BaseModel):
    """Where a task ran: the Ray Serve deployment and the replica in it (and the engine, in a group's)."""

    deployment: str
    replica: str
    engine: str | None = None
    app: str | None = None
    node: str | None = None
    node_id: str | None = Field(None, description="The Ray node's id (nodes on one machine share `node`, the IP).")


class ExpertReply(BaseModel):
    """An engine's `ExpertOutput` as a dict, with the files it names sent along as bytes
    (keyed by the path the output names on the worker)."""

    output: dict[str, Any]
    files: dict[str, MediaFile] = Field(default_factory=dict)
    served_by: ServedBy


class ExpertInfo(BaseModel):
    """One deployed engine, as model selection sees it."""

    name: str
    task: str
    model: str
    description: str = ""
    backend: str = "local"
    stand_in: bool = False
    request_cues: str | None = None
    status: str = "UNKNOWN"
    message: str = ""
    deployment: str = Field("", description="The Ray Serve deployment that runs it (a group's); empty: `name`.")

    @property
    def serve_deployment(self) -> str:
        return self.deployment or self.name

    @property
    def healthy(self) -> bool:
        return self.status in SERVING_STATUSES


# Ray Serve deployment statuses in which a deployment takes requests.
SERVING_STATUSES = frozenset({"HEALTHY", "UPSCALING", "DOWNSCALING"})


class CapacityError(ExpertError):
    """A deployment is at its max_ongoing_requests on every replica and its queue is full."""


class ExpertUnavailable(ExpertError):
    """A deployment is missing, unhealthy, or its replica died twice."""
