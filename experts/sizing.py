"""The default experts application, sized to fit the machine it starts on.

Without a config, every engine that can run here is deployed, but not one process each: a replica is a
process of ~200 MB before it loads any model, and 25 of them asked for more logical CPUs than a 2-core
node has (some were never scheduled). Engines are grouped by their task's family (language, vision,
audio, video, control): one deployment per family, one replica, each engine loaded on its first task.

Fitting: the groups' logical CPUs sum to CPU_SHARE of what Ray offers (the rest stays free for the
controller's application, `HuggingGPTServer`, 0.5 CPU by default), and their memory reservations
(Ray's `memory` resource, which the scheduler will not overcommit) to MEMORY_SHARE of Ray's memory.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass

from langchain_hugginggpt.experts.config import DeploymentOptions, ExpertSpec, RayActorOptions

CPU_SHARE = 0.75
MEMORY_SHARE = 0.5
MIN_CPUS = 0.01  # two decimals: a share rounded down to 0 would let replicas pile up uncounted


@dataclass(frozen=True)
class NodeResources:
    """What the Ray cluster offers (logical CPUs, bytes of schedulable memory), in all and on its largest
    node: one replica must fit on one node, however many the cluster has."""

    cpus: float
    memory: float
    node_cpus: float | None = None
    node_memory: float | None = None

    @classmethod
    def current(cls) -> "NodeResources":
        """Ray's own figures when connected (the cluster `experts serve` started or joined), else the machine's."""
        try:
            import ray

            if ray.is_initialized():
                resources = ray.cluster_resources()
                nodes = [node["Resources"] for node in ray.nodes() if node.get("Alive")]
                return cls(cpus=float(resources.get("CPU", 0.0)), memory=float(resources.get("memory", 0.0)),
                           node_cpus=max((float(n.get("CPU", 0.0)) for n in nodes), default=None),
                           node_memory=max((float(n.get("memory", 0.0)) for n in nodes), default=None))
        except ImportError:
            pass
        import psutil

        # Ray's own default for a node's memory resource: about 70% of what is available.
        return cls(cpus=float(os.cpu_count() or 1), memory=0.7 * psutil.virtual_memory().available)


def default_specs() -> list[ExpertSpec]:
    """One spec for every engine that can run here, each in the group of its task's family."""
    from langchain_hugginggpt.tools.registry import available_engines
    from langchain_hugginggpt.core.tasks import TASKS

    return [ExpertSpec(task=task, model=cls.model_id, group=spec.family)
            for task, spec in TASKS.items() for cls in available_engines(task)]


def group_options(groups: int, node: NodeResources) -> DeploymentOptions:
    """The options of each of `groups` shared deployments: together within the shares of the node."""
    cpus = node.cpus * CPU_SHARE / max(groups, 1)
    memory = node.memory * MEMORY_SHARE / max(groups, 1)
    if node.node_cpus is not None:  # a share of a many-node cluster may be more than any one node has
        cpus = min(cpus, node.node_cpus * CPU_SHARE)
    if node.node_memory is not None:
        memory = min(memory, node.node_memory * MEMORY_SHARE)
    cpus = max(MIN_CPUS, math.floor(cpus * 100) / 100)
    memory = int(memory) if memory > 0 else None
    return DeploymentOptions(num_replicas=1, ray_actor_options=RayActorOptions(num_cpus=cpus, memory=memory))
