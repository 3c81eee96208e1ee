"""The experts application: a Ray Serve deployment per engine, or per group of engines, behind the
`ExpertsGateway` ingress.

For Ray's own tools:

    serve run langchain_hugginggpt.experts.app:app                  # every engine that runs here
    serve run langchain_hugginggpt.experts.app:build_app config=experts.yaml
    serve build langchain_hugginggpt.experts.app:app -o serve.yaml  # then `serve deploy serve.yaml`

In a Ray Serve config file (KubeRay's RayService too), `import_path` is
`langchain_hugginggpt.experts.app:build_app` and `args` is an `ExpertsConfig`, or
`{config: PATH}` naming a YAML file on the cluster.
"""

from __future__ import annotations

from typing import Any

from ray.serve import Application

from langchain_hugginggpt.experts.config import DeploymentOptions, ExpertsConfig, ExpertSpec
from langchain_hugginggpt.experts.deployment import ExpertDeployment, import_engine_modules
from langchain_hugginggpt.experts.gateway import ExpertsGateway
from langchain_hugginggpt.experts.protocol import ExpertInfo
from langchain_hugginggpt.experts.sizing import NodeResources, default_specs, group_options
from langchain_hugginggpt.tools.base import ExpertError


def load_config(args: ExpertsConfig | dict[str, Any] | None) -> ExpertsConfig:
    """An `ExpertsConfig` from itself, a dict, or `{"config": PATH}` (other keys override the file's)."""
    if isinstance(args, ExpertsConfig):
        return args
    args = dict(args or {})
    path = args.pop("config", None)
    if path is None:
        return ExpertsConfig.model_validate(args)
    return ExpertsConfig.model_validate({**ExpertsConfig.from_file(path).model_dump(exclude_unset=True), **args})


def expert_info(spec: ExpertSpec) -> ExpertInfo:
    """What model selection is told about an engine (the engine class's own description)."""
    from langchain_hugginggpt.tools.registry import engine_class
    from langchain_hugginggpt.tools.engines.hf_transformers import engine_for_hub_model

    cls = engine_class(spec.task, spec.model) or engine_for_hub_model(spec.task, spec.model)
    if cls is None:
        raise ExpertError(f"deployment {spec.deployment_name!r}: no engine is registered for {spec.task} with "
                          f"{spec.model!r} (see `hugginggpt tasks`; an app's own engines need `imports`)")
    return ExpertInfo(name=spec.deployment_name, task=spec.task, model=spec.model, description=cls.description,
                      backend=cls.backend, stand_in=cls.stand_in, request_cues=cls.request_cues,
                      deployment=spec.serve_deployment)


def build_app(args: ExpertsConfig | dict[str, Any] | None = None) -> Application:
    """The application for a config (Ray Serve's app-builder signature: `args` is a dict)."""
    config = load_config(args)
    import_engine_modules(config.imports)
    specs = config.deployments if config.deployments is not None else default_specs()
    if not specs:
        raise ValueError("the experts config deploys no engine")
    infos = [expert_info(spec).model_dump() for spec in specs]
    experts: dict[str, Any] = {}
    for spec in specs:
        if spec.group is None:
            experts[spec.deployment_name] = _bind(spec.deployment_name, spec.options(config.defaults), [spec],
                                                  config.imports)
    groups = sorted({spec.group for spec in specs if spec.group})
    # The default is sized for the machine; a config's own groups start from its `defaults`.
    base = (group_options(len(groups), NodeResources.current()) if config.deployments is None
            else DeploymentOptions())
    if config.deployments is None and "defaults" not in config.model_fields_set:
        defaults = base
    else:
        defaults = config.defaults.merged_over(base)
    for group in groups:
        members = [spec for spec in specs if spec.group == group]
        options = config.groups.get(group, DeploymentOptions()).merged_over(defaults)
        experts[members[0].serve_deployment] = _bind(members[0].serve_deployment, options, members, config.imports)
    return ExpertsGateway.options(**config.gateway.serve_options()).bind(experts, infos)


def _bind(name: str, options: DeploymentOptions, specs: list[ExpertSpec], imports: list[str]) -> Any:
    engines = [(spec.deployment_name, spec.task, spec.model) for spec in specs]
    return ExpertDeployment.options(name=name, **options.serve_options()).bind(engines, tuple(imports))


def __getattr__(name: str) -> Any:
    # `app` is built on first access, so importing this module deploys nothing and probes no engine.
    if name == "app":
        return build_app()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
