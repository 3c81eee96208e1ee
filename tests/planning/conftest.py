import os
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")

# The shared data folder sits beside the repository (../shared/data from the project root).
TASKBENCH = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "taskbench"


@pytest.fixture(scope="session")
def hf_tools():
    from langchain_hugginggpt.agent.eval.taskbench import ToolSet

    return ToolSet.load(TASKBENCH / "hf_tool_desc.json")


@pytest.fixture(scope="session")
def planner():
    from langchain_hugginggpt.agent.planners.retrieval import RetrievalPlanner

    return RetrievalPlanner()
