"""Wiring steps once the tasks are found: which earlier output each slot takes."""

import pytest

from langchain_hugginggpt.agent.validation import validate_plan


def by_task(output) -> dict:
    return {t.task: t for t in output.plan.tasks}


@pytest.mark.parametrize("request_, source", [
    ("Transcribe memo.wav, then edit photo.jpg using the spoken instructions.", "automatic-speech-recognition"),
    ("Summarize 'The garden needs a brighter look: paint the fence white and add red tulips along the path.' "
     "Based on the summary, edit garden.png.", "summarization"),
    ("Classify the voice command in cmd.wav and apply the command to edit kitchen.jpg", "audio-classification"),
    ("Have a chat about cozy bedroom ideas, then modify bedroom.jpg following the reply.", "conversational"),
])
def test_an_edit_follows_the_earlier_text_it_names(planner, request_, source):
    out = planner.plan(request_)
    validate_plan(out.plan)
    steps = by_task(out)
    edit, made = steps["image-editing"], steps[source]
    assert edit.args["text"] == f"<resource>-{made.id}" and made.id in edit.dep
    assert "<resource>" not in edit.args["image"]


def test_an_edit_with_its_own_words_keeps_them(planner):
    out = planner.plan("Transcribe memo.wav, then edit photo.jpg to make the sky pink.")
    edit = by_task(out)["image-editing"]
    assert "sky pink" in edit.args["text"] and edit.dep == [-1]
