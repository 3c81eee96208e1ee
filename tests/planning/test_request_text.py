"""Reading a request's quotes: an apostrophe inside a word belongs to the word, also inside a quote."""

import pytest

from langchain_hugginggpt.agent.planners.text import parse


@pytest.mark.parametrize("request_, quotes", [
    ("Answer 'What is the Q1's total revenue?' from table.png", ["What is the Q1's total revenue?"]),
    ("Draw 'a cabin at the river's edge' for me.", ["a cabin at the river's edge"]),
    ("Translate 'good' and 'bad' into French.", ["good", "bad"]),
    ("I've got a dog and it's fine, isn't it?", []),
])
def test_quotes(request_, quotes):
    assert [q.value for q in parse(request_).quotes] == quotes


def test_a_quoted_question_with_an_apostrophe_is_asked_whole(planner):
    plan = planner.plan("In the scanned report report.png, answer 'What is the Q1's total revenue?'").plan
    assert [(t.task, t.args["text"]) for t in plan.tasks] == [
        ("document-question-answering", "What is the Q1's total revenue?")]
