import os

import pytest

from langchain_hugginggpt.planning.taskbench import BUILTIN_DATA as TASKBENCH  # shipped with the package

os.environ.setdefault("HF_HUB_OFFLINE", "1")


@pytest.fixture(scope="session")
def hf_tools():
    from langchain_hugginggpt.planning.taskbench import ToolSet

    return ToolSet.load(TASKBENCH / "hf_tool_desc.json")


@pytest.fixture(scope="session")
def planner():
    from langchain_hugginggpt.planning.retrieval import RetrievalPlanner

    return RetrievalPlanner()
