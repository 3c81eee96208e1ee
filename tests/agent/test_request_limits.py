"""Every front refuses an empty or overlong request by name, through one check (schema.request_problem)."""

import pytest
from langchain_core.messages import AIMessage, HumanMessage
from pydantic import ValidationError

from langchain_hugginggpt.agent.graph import turn_input
from langchain_hugginggpt.agent.hugginggpt import HuggingGPTInput
from langchain_hugginggpt.agent.schema import MAX_REQUEST_CHARS, request_problem


def test_the_limit_is_inclusive_and_names_the_length():
    assert request_problem("x" * MAX_REQUEST_CHARS) is None
    assert request_problem("x" * (MAX_REQUEST_CHARS + 1)).startswith(f"the request is {MAX_REQUEST_CHARS + 1:,} characters")
    assert request_problem(" \n\t") == "the request is empty"


@pytest.mark.parametrize("request_, problem", [("", "is empty"), ("good " * 5000, "at most 20,000 are planned")])
def test_the_runnable_input_and_the_graph_refuse_the_same_requests(request_, problem):
    with pytest.raises(ValidationError, match=problem):
        HuggingGPTInput(request=request_)
    with pytest.raises(ValueError, match=problem):
        turn_input([HumanMessage("caption photo.jpg"), AIMessage("a dog"), HumanMessage(request_)])


def test_a_request_at_the_limit_is_planned():
    from langchain_hugginggpt.agent.planners import default_planner

    # a quote padded across most of the limit: the masked padding once made clause splitting quadratic
    request_ = "Read this aloud: '" + "good " * (MAX_REQUEST_CHARS // 5 - 10) + "'"
    plan = default_planner("retrieval").plan(request_).plan
    assert [t.task for t in plan.tasks] == ["text-to-speech"]
