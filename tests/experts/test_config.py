"""The experts config: Ray Serve's option names, defaults merged per deployment, clear errors."""

from __future__ import annotations

import pytest

from langchain_hugginggpt.experts import ExpertsConfig, deployment_name
from langchain_hugginggpt.experts.app import build_app, load_config
from langchain_hugginggpt.tools.base import ExpertError


def test_defaults_fill_what_a_deployment_leaves_unset(tmp_path):
    path = tmp_path / "experts.yaml"
    path.write_text("""
defaults:
  ray_actor_options: {num_cpus: 0.5, memory: 1000}
  max_ongoing_requests: 4
  num_replicas: 2
deployments:
  - task: summarization
    model: sumy-lexrank
    ray_actor_options: {num_gpus: 0.25}
  - task: object-detection
    model: centernet-mobilenetv3-coco
    autoscaling_config: {min_replicas: 0, max_replicas: 3}
""")
    config = ExpertsConfig.from_file(path)
    summary, detector = config.deployments
    assert summary.options(config.defaults).serve_options() == {
        "num_replicas": 2, "max_ongoing_requests": 4,
        "ray_actor_options": {"num_cpus": 0.5, "memory": 1000, "num_gpus": 0.25}}
    options = detector.options(config.defaults).serve_options()
    assert "num_replicas" not in options and options["autoscaling_config"] == {"min_replicas": 0, "max_replicas": 3}
    assert detector.deployment_name == "object-detection--centernet-mobilenetv3-coco"
    assert deployment_name("text-generation", "HuggingFaceTB/SmolLM2-135M-Instruct") == \
        "text-generation--HuggingFaceTB_SmolLM2-135M-Instruct"


@pytest.mark.parametrize("text, problem", [
    ("deployments: [{task: summarization}]", "model"),
    ("deployments: [{task: summarization, model: m, num_replicas: 1, autoscaling_config: {max_replicas: 2}}]",
     "num_replicas or autoscaling_config"),
    ("deployments: [{task: summarization, model: m, ray_actor_options: {num_cpu: 1}}]", "num_cpu"),
    ("deployments: [{task: a, model: m, name: x}, {task: b, model: n, name: x}]", "repeated: x"),
    ("deployments: [oops", "not valid YAML"),
    ("- just a list", "expected a mapping"),
])
def test_a_bad_config_is_an_error_naming_the_file_and_the_problem(tmp_path, text, problem):
    path = tmp_path / "bad.yaml"
    path.write_text(text)
    with pytest.raises(ValueError, match=problem) as caught:
        load_config({"config": str(path)})
    assert str(path) in str(caught.value)


def test_an_engine_that_is_not_registered_fails_the_build_naming_the_deployment():
    # (A Hub id of a transformers task is accepted: its weights may be on the cluster's nodes.)
    with pytest.raises(ExpertError, match="canny-control--no-such-model.*no engine is registered"):
        build_app({"deployments": [{"task": "canny-control", "model": "no-such-model"}]})


def test_the_app_builder_takes_ray_serve_args_and_binds_one_deployment_per_engine():
    app = build_app({"deployments": [{"task": "summarization", "model": "sumy-lexrank", "num_replicas": 3}]})
    gateway = app._bound_deployment
    experts, infos = gateway.init_args
    [(name, bound)] = experts.items()
    assert name == "summarization--sumy-lexrank" and bound._bound_deployment.num_replicas == 3
    assert infos[0]["task"] == "summarization" and infos[0]["model"] == "sumy-lexrank"


def _deployments(app) -> dict:
    experts, infos = app._bound_deployment.init_args
    return {name: bound._bound_deployment for name, bound in experts.items()}, infos


def test_the_default_groups_engines_by_family_and_fits_the_node():
    from langchain_hugginggpt.experts.sizing import CPU_SHARE, MEMORY_SHARE, NodeResources

    node = NodeResources.current()  # no Ray connected here: the machine's CPUs and memory
    deployments, infos = _deployments(build_app())
    assert deployments and all(name.startswith("experts--") for name in deployments)
    assert all(d.num_replicas == 1 for d in deployments.values())
    cpus = sum(d.ray_actor_options["num_cpus"] for d in deployments.values())
    memory = sum(d.ray_actor_options["memory"] for d in deployments.values())
    assert 0 < cpus <= node.cpus * CPU_SHARE and 0 < memory <= node.memory * MEMORY_SHARE
    # Every engine is in the catalog, served by its family's deployment.
    families = {info["deployment"] for info in infos}
    assert families == set(deployments)
    assert {"summarization--sumy-lexrank", "object-detection--centernet-mobilenetv3-coco"} <= {i["name"] for i in infos}
    assert next(i for i in infos if i["task"] == "summarization")["deployment"] == "experts--language"


def test_on_a_two_core_node_the_groups_ask_for_at_most_its_cpus_and_one_fits_on_one_node():
    from langchain_hugginggpt.experts.sizing import NodeResources, group_options

    node = NodeResources(cpus=2, memory=4e9)
    options = group_options(5, node)
    assert 5 * options.ray_actor_options.num_cpus <= 2 * 0.75 and 5 * options.ray_actor_options.memory <= 2e9
    # Ten 2-CPU nodes: a group's share of the cluster (3 CPUs) would fit on none of them.
    many = group_options(5, NodeResources(cpus=20, memory=40e9, node_cpus=2, node_memory=4e9))
    assert many.ray_actor_options.num_cpus <= 2 and many.ray_actor_options.memory <= 4e9


def test_a_config_groups_engines_into_one_deployment_with_the_groups_options():
    deployments, infos = _deployments(build_app({
        "groups": {"text": {"ray_actor_options": {"num_cpus": 0.5}, "max_ongoing_requests": 3}},
        "deployments": [{"task": "summarization", "model": "sumy-lexrank", "group": "text"},
                        {"task": "text-classification", "model": "vader-sentiment", "group": "text"},
                        {"task": "object-detection", "model": "centernet-mobilenetv3-coco"}]}))
    assert set(deployments) == {"experts--text", "object-detection--centernet-mobilenetv3-coco"}
    group = deployments["experts--text"]
    assert group.ray_actor_options["num_cpus"] == 0.5 and group.max_ongoing_requests == 3
    engines, _imports = group.init_args
    assert [name for name, _task, _model in engines] == ["summarization--sumy-lexrank",
                                                         "text-classification--vader-sentiment"]
    assert {i["name"]: i["deployment"] for i in infos}["text-classification--vader-sentiment"] == "experts--text"


@pytest.mark.parametrize("config, problem", [
    ({"deployments": [{"task": "summarization", "model": "m", "group": "g", "num_replicas": 2}]},
     "runs in the group's deployment; set num_replicas under groups.g"),
    ({"groups": {"nobody": {}}, "deployments": [{"task": "summarization", "model": "m"}]},
     "groups nobody have options, but no engine is in them"),
    ({"deployments": [{"task": "summarization", "model": "m", "group": "g"},
                      {"task": "translation", "model": "n", "name": "experts--g"}]}, "repeated: experts--g"),
])
def test_a_bad_group_is_an_error_naming_it(config, problem):
    with pytest.raises(ValueError, match=problem):
        ExpertsConfig.model_validate(config)
