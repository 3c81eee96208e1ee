"""Text tools inside chains (speech, captions, replies, generated text): when a word asks for
the task and when it only describes the input. Requests written for these tests."""

import pytest


def tasks_of(planner, request):
    return [t.task for t in planner.plan(request).plan.tasks]


@pytest.mark.parametrize("request_", [
    # 'speak' with no object, negated, or after the noun it describes: no speech is asked for
    "My pen pal wrote to me in German and I don't speak German. Please translate 'Wie geht es dir?' to English.",
    "Who is the woman speaking in interview.wav? Please transcribe the clip.",
    # 'say' before a file name means 'for example'
    "I took a holiday photo, say beach.png, and would like it classified.",
])
def test_speak_or_say_without_something_to_speak_is_no_speech(planner, request_):
    assert "text-to-speech" not in tasks_of(planner, request_)


@pytest.mark.parametrize("request_", [
    "Translate 'good night' into Italian and then speak it for me.",
    "Please say 'welcome home' in a warm voice.",
])
def test_speak_or_say_something_is_speech(planner, request_):
    assert "text-to-speech" in tasks_of(planner, request_)
