"""The experts config: which engines to deploy on Ray Serve, and how.

Each entry is one engine (a task and a model); its options are Ray Serve's own deployment
options, with Ray Serve's names, so a Ray user reads it at a glance:

    defaults:                        # applied to every deployment, overridden per entry
      ray_actor_options: {num_cpus: 0.25}
    deployments:
      - task: object-detection
        model: centernet-mobilenetv3-coco
        num_replicas: 2
        max_ongoing_requests: 2
      - task: text-to-image
        model: runwayml/stable-diffusion-v1-5
        autoscaling_config: {min_replicas: 0, max_replicas: 4}
        ray_actor_options: {num_gpus: 0.5, memory: 8000000000}

Without `deployments`, every engine that can run on the machine building the app is deployed
with one replica.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

APP_NAME = "hugginggpt-experts"


class RayActorOptions(BaseModel):
    """The resources one replica asks Ray for (fractions share a CPU or a GPU)."""

    model_config = ConfigDict(extra="forbid")
    num_cpus: float | None = Field(None, ge=0)
    num_gpus: float | None = Field(None, ge=0)
    memory: int | None = Field(None, ge=0, description="Bytes of memory Ray reserves for the replica.")
    resources: dict[str, float] | None = Field(None, description="Custom resources, e.g. {'cpu_node': 1} to pin a node.")
    accelerator_type: str | None = None


class AutoscalingConfig(BaseModel):
    model_config = ConfigDict(extra="allow")  # Ray Serve's other autoscaling knobs pass through
    min_replicas: int = Field(1, ge=0)
    max_replicas: int = Field(1, ge=1)
    initial_replicas: int | None = Field(None, ge=0)
    target_ongoing_requests: float | None = Field(None, gt=0)


class DeploymentOptions(BaseModel):
    """Ray Serve's per-deployment options that an expert may set."""

    model_config = ConfigDict(extra="forbid")
    num_replicas: int | None = Field(None, ge=0)
    autoscaling_config: AutoscalingConfig | None = None
    ray_actor_options: RayActorOptions | None = None
    max_ongoing_requests: int | None = Field(None, ge=1, description="Requests one replica handles at once.")
    max_queued_requests: int | None = Field(
        None, description="Requests that may wait for a replica; more are refused with a clear error. -1: no limit.")
    health_check_period_s: float | None = Field(None, gt=0)
    max_constructor_retry_count: int | None = Field(
        None, ge=1, description="Tries to start a replica before the deployment is DEPLOY_FAILED (an engine that "
                                "cannot run on its node fails its start).")

    @model_validator(mode="after")
    def _replicas_or_autoscaling(self) -> "DeploymentOptions":
        if self.num_replicas is not None and self.autoscaling_config is not None:
            raise ValueError("set num_replicas or autoscaling_config, not both")
        return self

    def merged_over(self, defaults: "DeploymentOptions") -> "DeploymentOptions":
        """These options, with `defaults` filling what they leave unset (actor options key by key)."""
        merged = defaults.model_dump(exclude_none=True)
        mine = self.model_dump(exclude_none=True)
        actor = {**merged.pop("ray_actor_options", {}), **mine.pop("ray_actor_options", {})}
        if "autoscaling_config" in mine:
            merged.pop("num_replicas", None)
        if "num_replicas" in mine:
            merged.pop("autoscaling_config", None)
        merged.update(mine)
        if actor:
            merged["ray_actor_options"] = actor
        return DeploymentOptions.model_validate(merged)

    def serve_options(self) -> dict[str, Any]:
        """Keyword arguments for `Deployment.options`."""
        return self.model_dump(exclude_none=True)


class ExpertSpec(DeploymentOptions):
    """One engine to deploy: a task, a model of the registry, and its deployment options."""

    task: str
    model: str
    name: str | None = Field(None, description="Deployment name; default: made from the task and the model.")

    @property
    def deployment_name(self) -> str:
        return self.name or deployment_name(self.task, self.model)

    def options(self, defaults: DeploymentOptions) -> DeploymentOptions:
        return DeploymentOptions.model_validate(self.model_dump(exclude={"task", "model", "name"})).merged_over(defaults)


class ExpertsConfig(BaseModel):
    """The whole experts application (a YAML file, or the `args` of a Ray Serve config)."""

    model_config = ConfigDict(extra="forbid")
    # 0.1 logical CPU a replica: a laptop's cores hold every engine (Ray's CPUs only schedule).
    defaults: DeploymentOptions = Field(default_factory=lambda: DeploymentOptions(
        ray_actor_options=RayActorOptions(num_cpus=0.1)))
    deployments: list[ExpertSpec] | None = Field(
        None, description="Engines to deploy; None: every engine that can run where the app is built.")
    imports: list[str] = Field(default_factory=list,
                               description="Modules to import in every replica first, so the engines they @register exist.")
    gateway: DeploymentOptions = Field(default_factory=lambda: DeploymentOptions(
        num_replicas=1, max_ongoing_requests=200, ray_actor_options=RayActorOptions(num_cpus=0)))

    @model_validator(mode="after")
    def _unique_names(self) -> "ExpertsConfig":
        names = [spec.deployment_name for spec in self.deployments or []]
        twice = sorted({n for n in names if names.count(n) > 1})
        if twice:
            raise ValueError(f"deployment names must be unique; repeated: {', '.join(twice)}")
        return self

    @classmethod
    def from_file(cls, path: str | Path) -> "ExpertsConfig":
        import yaml

        text = Path(path).read_text(encoding="utf-8")
        try:
            data = yaml.safe_load(text) or {}
        except yaml.YAMLError as exc:
            raise ValueError(f"{path}: not valid YAML: {exc}") from None
        if not isinstance(data, dict):
            raise ValueError(f"{path}: expected a mapping with `deployments`, got {type(data).__name__}")
        try:
            return cls.model_validate(data)
        except ValueError as exc:
            raise ValueError(f"{path}: {exc}") from None


def deployment_name(task: str, model: str) -> str:
    """A Ray Serve deployment name for an engine: `task--model`, with characters Ray Serve
    reserves ('#', '/', ...) replaced, e.g. `text-generation--HuggingFaceTB_SmolLM2-135M-Instruct`."""
    return f"{task}--" + re.sub(r"[^A-Za-z0-9._+-]", "_", model)
