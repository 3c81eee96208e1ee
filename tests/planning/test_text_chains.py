"""Text tools inside chains (speech, captions, replies, generated text): when a word asks for
the task and when it only describes the input. Requests written for these tests."""

import pytest

from .plans import tasks_of


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


def test_a_conversational_reply_is_conversational_not_generated_text(planner):
    tasks = tasks_of(planner, "Transcribe meeting.wav and then write a conversational reply to what was said.")
    assert tasks == ["automatic-speech-recognition", "conversational"]
    tasks = tasks_of(planner, "My friend wrote 'Any plans for the weekend'. Please produce some conversational text for it.")
    assert tasks == ["conversational"]


@pytest.mark.parametrize("request_", [
    # a conversation the recording holds is no reply to write
    "My interview.wav is a conversation that is hard to follow; could you clean up the noise in it?",
    "The call.mp3 conversation is muffled. Please transcribe the audio.",
])
def test_a_recorded_conversation_asks_for_no_reply(planner, request_):
    assert "conversational" not in tasks_of(planner, request_)


def test_a_file_in_a_later_sentence_needs_no_converter(planner):
    # the picture belongs to the segmentation, not to the summary before it
    tasks = tasks_of(planner, "Summarize the key points of our last call. Besides that, I have a photo "
                              "office.jpg; please segment it.")
    assert "image-to-text" not in tasks


@pytest.mark.parametrize("request_, expected", [
    # 'written' before its noun names a text that exists or that another task makes
    ("Please turn the speech in lecture.mp3 into written text.", ["automatic-speech-recognition"]),
    ("Condense the written content of 'The meeting moved to Tuesday because the room was booked.'",
     ["summarization"]),
    # ... while writing something new is text generation
    ("Write a short text about autumn leaves.", ["text-generation"]),
])
def test_written_describes_a_text_write_asks_for_one(planner, request_, expected):
    assert tasks_of(planner, request_) == expected


@pytest.mark.parametrize("request_", [
    # speech named by what it sounds like or what it comes in, not by a verb
    "Caption photo.png, then turn the caption into calm, natural speech.",
    "Tell me what is in street.jpg in an audio clip.",
    "Classify garden.jpg and then give me a spoken explanation of the result.",
])
def test_speech_asked_for_by_its_form(planner, request_):
    assert tasks_of(planner, request_)[-1] == "text-to-speech"


@pytest.mark.parametrize("request_", [
    "My podcast is saved in an audio file named show.mp3; please transcribe it.",
    "Change the voice in song.wav into a deeper voice.",
])
def test_audio_the_request_brings_is_no_speech_to_make(planner, request_):
    assert "text-to-speech" not in tasks_of(planner, request_)


@pytest.mark.parametrize("request_", [
    # 'it describes', 'is described as' tell what the input holds; they ask for no caption
    "The poster in gig.jpg describes a concert. What date is the concert on?",
    "The car in street.jpg is described as red in the ad; please detect all the cars.",
])
def test_describes_or_described_asks_for_no_caption(planner, request_):
    assert "image-to-text" not in tasks_of(planner, request_)


def test_describe_asks_for_a_caption(planner):
    assert tasks_of(planner, "Describe kitchen.jpg for me.") == ["image-to-text"]


@pytest.mark.parametrize("request_", [
    "Transcribe memo.wav, and then edit garden.jpg based on the transcript.",
    "Summarize 'Paint the fence white and add a cat to the porch.' and then modify house.png following the summary.",
])
def test_an_edit_based_on_an_earlier_text_takes_it_as_instruction(planner, request_):
    edit = planner.plan(request_).plan.tasks[-1]
    assert edit.task == "image-editing" and edit.args["text"] == "<resource>-0"


def test_an_edit_with_its_own_words_keeps_them(planner):
    edit = planner.plan("Caption street.jpg and then edit street.jpg so the sky is purple.").plan.tasks[-1]
    assert edit.args["text"] == "edit the image so the sky is purple"


@pytest.mark.parametrize("request_, expected", [
    # a story or poem the user already has is worked on, not written
    ("Please read my poem 'Roses bloom in May' aloud.", ["text-to-speech"]),
    ("Translate this story into Spanish: 'The fox ran home.'", ["translation"]),
    # 'a poem', 'some lyrics': a new text to write
    ("I'd love a short poem about the sea.", ["text-generation"]),
    ("Give me some lyrics for a birthday song.", ["text-generation"]),
])
def test_a_new_story_is_written_an_existing_one_is_not(planner, request_, expected):
    assert tasks_of(planner, request_) == expected


@pytest.mark.parametrize("request_, expected", [
    # text found on a picture is read from it before any text task uses it
    ("Identify any text on the sign in street.jpg and translate it into French.", ["image-to-text", "translation"]),
    ("Tell me what the writing on the poster in gig.png says.", ["image-to-text"]),
])
def test_text_on_a_picture_is_read_from_it(planner, request_, expected):
    assert tasks_of(planner, request_) == expected


def test_words_in_a_sentence_are_not_read_from_a_picture(planner):
    assert "image-to-text" not in tasks_of(planner, "Find the words in the sentence 'the quick brown fox jumps' "
                                                     "that are nouns.")
