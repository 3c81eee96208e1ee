"""'Make it black and white': a new look or style for a picture the request or an earlier turn brings."""

import pytest


def plan(planner, request, history=None):
    return [(t.task, t.args, t.dep) for t in planner.plan(request, history).plan.tasks]


NAMED = [{"role": "user", "content": "Here is my photo: dunes.png"}, {"role": "assistant", "content": "Got it."}]
PRODUCED = [{"role": "user", "content": "Generate a picture of a lighthouse at dusk"},
            {"role": "assistant", "content": "Here is a lighthouse at dusk.\nFiles produced: outputs/text-to-image-1a2b3c.png"}]


@pytest.mark.parametrize("request_, instruction", [
    ("Now make it black and white", "make it black and white"),
    ("Could you make it look older?", "make it look older"),
    ("ok, make the photo brighter", "make the photo brighter"),
    ("Make them look like they were taken at night.", "Make them look like they were taken at night"),
])
def test_a_new_look_edits_the_picture_an_earlier_turn_named(planner, request_, instruction):
    assert plan(planner, request_, NAMED) == [("image-editing", {"image": "dunes.png", "text": instruction}, [-1])]


def test_a_new_look_edits_the_picture_an_earlier_turn_produced(planner):
    assert plan(planner, "make it sepia", PRODUCED) == [
        ("image-editing", {"image": "outputs/text-to-image-1a2b3c.png", "text": "make it sepia"}, [-1])]


@pytest.mark.parametrize("request_", ["Turn it into a pencil sketch", "render it as a watercolor painting",
                                      "Make it look like a cartoon"])
def test_a_new_style_is_image_to_image(planner, request_):
    assert plan(planner, request_, PRODUCED) == [("image-to-image", {"image": "outputs/text-to-image-1a2b3c.png"}, [-1])]


def test_a_picture_in_the_request_wins_over_the_history(planner):
    # the file's name is not part of the instruction: the editing model gets the file itself
    assert plan(planner, "Make harbor.jpg look older", NAMED) == [
        ("image-editing", {"image": "harbor.jpg", "text": "Make the image look older"}, [-1])]


def test_a_picture_made_earlier_in_the_request(planner):
    assert plan(planner, "Generate a picture of a cat on a sofa, then make it black and white") == [
        ("text-to-image", {"text": "a cat on a sofa"}, [-1]),
        ("image-editing", {"image": "<resource>-0", "text": "make it black and white"}, [0])]


@pytest.mark.parametrize("request_, history", [
    ("Now make it black and white", None),  # no picture anywhere: nothing to edit
    ("Make it more formal", NAMED),  # not a look a picture can have
    ("Write a poem about rain and turn it into a sketch", NAMED),  # 'it' is the poem
])
def test_no_picture_edit_without_a_picture(planner, request_, history):
    assert not {"image-editing", "image-to-image"} & {t for t, _, _ in plan(planner, request_, history)}
