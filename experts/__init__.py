"""Experts as Ray Serve deployments: one deployment per engine (task, model), a gateway in
front, and the client the controller uses to send tasks to them (`RemoteExperts`).

Only `config`, `protocol` and `client` import without Ray; the rest needs `pip install
'langchain-hugginggpt[scale]'`.
"""

from langchain_hugginggpt.experts.client import RemoteEngine, RemoteExperts
from langchain_hugginggpt.experts.config import APP_NAME, ExpertsConfig, ExpertSpec, deployment_name
from langchain_hugginggpt.experts.protocol import ExpertInfo, ServedBy

__all__ = ["APP_NAME", "ExpertInfo", "ExpertSpec", "ExpertsConfig", "RemoteEngine", "RemoteExperts", "ServedBy",
           "deployment_name"]
