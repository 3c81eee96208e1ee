"""'Could you ...?' is usually a request in a question's clothes: it asks a question only when it
carries a wh-word or names no task of its own. Requests written for these tests."""

import pytest


@pytest.mark.parametrize("request_, expected", [
    # a polite request naming its task: no question answering on top
    ("My holiday shot is beach.jpg. Could you sharpen the image for me?", ["image-to-image"]),
    ("I recorded lecture.wav on my phone. Can you transcribe it for me?", ["automatic-speech-recognition"]),
    ("Here is party.jpg. Would you find the people in the picture?", ["object-detection"]),
])
def test_a_polite_request_is_not_a_question(planner, request_, expected):
    assert [t.task for t in planner.plan(request_).plan.tasks] == expected


@pytest.mark.parametrize("request_, task", [
    # a wh-word after the polite opening: a real question
    ("Could you tell me what colour the car in street.jpg is?", "visual-question-answering"),
    # no task named in the sentence: the question is all there is
    ("I scanned the contract as contract.png and cannot follow it. Can you help me figure it out?",
     "document-question-answering"),
])
def test_a_polite_question_is_still_a_question(planner, request_, task):
    assert task in [t.task for t in planner.plan(request_).plan.tasks]
