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

Light engines can share one deployment (one process, each engine loaded on its first task):
give them the same `group`, and the group's options under `groups`:

    groups:
      language: {ray_actor_options: {num_cpus: 0.5}}
    deployments:
      - {task: summarization, model: sumy-lexrank, group: language}
      - {task: text-classification, model: vader-sentiment, group: language}

Without `deployments`, every engine that can run on the machine building the app is deployed, grouped
by its task's family, and sized to fit that machine (`sizing.py`).
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
    group: str | None = Field(None, pattern=r"^[A-Za-z0-9._-]+$", description=(
        "Serve this engine from the shared deployment of its group (options under `groups`), not its own."))

    @model_validator(mode="after")
    def _group_has_no_options_of_its_own(self) -> "ExpertSpec":
        own = sorted(set(DeploymentOptions.model_fields) & self.model_fields_set)
        if self.group and own:
            raise ValueError(f"{self.deployment_name}: an engine of group {self.group!r} runs in the group's "
                             f"deployment; set {', '.join(own)} under groups.{self.group}")
        return self

    @property
    def deployment_name(self) -> str:
        """The engine's name in the catalog (and its Serve deployment, unless it is grouped)."""
        return self.name or deployment_name(self.task, self.model)

    @property
    def serve_deployment(self) -> str:
        """The Ray Serve deployment that runs this engine."""
        return group_deployment_name(self.group) if self.group else self.deployment_name

    def options(self, defaults: DeploymentOptions) -> DeploymentOptions:
        return DeploymentOptions.model_validate(
            self.model_dump(exclude={"task", "model", "name", "group"})).merged_over(defaults)


class ExpertsConfig(BaseModel):
    """The whole experts application (a YAML file, or the `args` of a Ray Serve config)."""

    model_config = ConfigDict(extra="forbid")
    # 0.1 logical CPU a replica, for a config that lists its deployments (Ray's CPUs only schedule: mind
    # that 21 of them fill 2 CPUs); without `deployments`, sizing.py sizes the groups to the node.
    defaults: DeploymentOptions = Field(default_factory=lambda: DeploymentOptions(
        ray_actor_options=RayActorOptions(num_cpus=0.1)))
    deployments: list[ExpertSpec] | None = Field(
        None, description="Engines to deploy; None: every engine that can run where the app is built.")
    imports: list[str] = Field(default_factory=list,
                               description="Modules to import in every replica first, so the engines they @register exist.")
    gateway: DeploymentOptions = Field(default_factory=lambda: DeploymentOptions(
        num_replicas=1, max_ongoing_requests=200, ray_actor_options=RayActorOptions(num_cpus=0)))
    groups: dict[str, DeploymentOptions] = Field(
        default_factory=dict, description="Options of each group's shared deployment (over `defaults`).")

    @model_validator(mode="after")
    def _unique_names(self) -> "ExpertsConfig":
        names = [spec.deployment_name for spec in self.deployments or []]
        names += sorted({group_deployment_name(spec.group) for spec in self.deployments or [] if spec.group})
        twice = sorted({n for n in names if names.count(n) > 1})
        if twice:
            raise ValueError(f"deployment names must be unique; repeated: {', '.join(twice)}")
        if self.deployments is not None:
            named = {spec.group for spec in self.deployments}
        else:  # the default groups engines by their task's family (sizing.py)
            from langchain_hugginggpt.core.tasks import TASKS

            named = {spec.family for spec in TASKS.values()}
        unused = sorted(set(self.groups) - named)
        if unused:
            raise ValueError(f"groups {', '.join(unused)} have options, but no engine is in them "
                             f"(groups here: {', '.join(sorted(g for g in named if g)) or 'none'})")
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


def group_deployment_name(group: str) -> str:
    """The Ray Serve deployment of a group of engines, e.g. `experts--language`."""
    return f"experts--{group}"


def deployment_name(task: str, model: str) -> str:
    """A Ray Serve deployment name for an engine: `task--model`, with characters Ray Serve
    reserves ('#', '/', ...) replaced, e.g. `text-generation--HuggingFaceTB_SmolLM2-135M-Instruct`."""
    return f"{task}--" + re.sub(r"[^A-Za-z0-9._+-]", "_", model)
