"""After a task that annotates a picture (boxes, masks, depth), words for the picture mean the
picture itself; only words for the annotation chain to the drawing."""

import pytest

from langchain_hugginggpt.planning.validation import validate_plan


def args_by_task(output) -> dict[str, dict]:
    return {t.task: t.args for t in output.plan.tasks}


@pytest.mark.parametrize("request_", [
    "Detect the objects in examples/street.jpg, describe the picture and read the description aloud",
    "Find every object in examples/street.jpg, then write a caption for the photo and say it out loud",
    "What objects are in examples/street.jpg? Describe this image and read the caption aloud.",
])
def test_the_picture_after_detection_is_the_named_file(planner, request_):
    out = planner.plan(request_)
    validate_plan(out.plan)
    assert [t.task for t in out.plan.tasks] == ["object-detection", "image-to-text", "text-to-speech"]
    detection, caption, speech = out.plan.tasks
    assert detection.args == {"image": "examples/street.jpg"}
    assert caption.args == {"image": "examples/street.jpg"} and caption.dep == [-1]
    assert speech.args == {"text": f"<resource>-{caption.id}"} and speech.dep == [caption.id]


@pytest.mark.parametrize("request_, annotator, reader", [
    ("Segment garden.png, then caption the picture", "image-segmentation", "image-to-text"),
    ("Estimate the depth of room.jpg and classify the photo", "depth-estimation", "image-classification"),
])
def test_other_annotators_and_readers(planner, request_, annotator, reader):
    args = args_by_task(planner.plan(request_))
    assert args[reader] == args[annotator] and "<resource>" not in args[reader]["image"]


def test_words_for_the_annotation_still_chain_to_it(planner):
    out = planner.plan("Detect the objects in examples/street.jpg, then caption the annotated image")
    detection, caption = out.plan.tasks
    assert detection.task == "object-detection" and caption.task == "image-to-text"
    assert caption.args == {"image": f"<resource>-{detection.id}"} and caption.dep == [detection.id]


def test_the_picture_an_annotator_read_can_be_a_generated_one(planner):
    out = planner.plan("Generate an image of a cat, detect the objects and describe the picture")
    by_task = {t.task: t for t in out.plan.tasks}
    made = by_task["text-to-image"].id
    assert by_task["object-detection"].args == {"image": f"<resource>-{made}"}
    assert by_task["image-to-text"].args == {"image": f"<resource>-{made}"}
    assert by_task["image-to-text"].dep == [made]
