"""More ways to ask for a task, written from the task definitions: each names one task."""

import pytest


@pytest.mark.parametrize("request_, task", [
    ("Draw boxes around the cars in street.jpg.", "object-detection"),
    ("Give me a pixel-wise map of the objects in garden.jpg.", "image-segmentation"),
    ("Run panoptic analysis on garden.jpg so each object gets its own region.", "image-segmentation"),
    ("Isolate the dog from the rest of garden.jpg.", "image-segmentation"),
    ("Keep the conversation going after 'I just got back from Japan!'", "conversational"),
    ("Produce a coherent and relevant response to the prompt 'Tell me something fun about space'.", "conversational"),
    ("Turn the sentence 'Welcome to our store' into natural sounding speech.", "text-to-speech"),
    ("Who is the person talking in clip.wav?", "audio-classification"),
    ("Score the closeness of meaning between 'He left early' and 'He departed ahead of time'.", "sentence-similarity"),
    ("What text is written on the sign in sign.jpg?", "image-to-text"),
])
def test_one_task_for_each_phrasing(planner, request_, task):
    assert [t.task for t in planner.plan(request_).plan.tasks] == [task]
