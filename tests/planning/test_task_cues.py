"""Cues for the tasks that work on pictures, recordings and tables, written from the task
definitions (what people ask of each task), with requests written for these tests."""

import pytest

from .plans import tasks_of


@pytest.mark.parametrize("request_", [
    # audio classification: what a recording is, the emotion it conveys
    "Here is birdsong.wav. What is in this recording?",
    "Please describe the sound in doorbell.wav for me.",
    "Which emotions does the caller express in call.wav?",
    "I recorded standup.wav at the meeting. Can you tell whether any emotions come through in it?",
])
def test_what_a_recording_is_is_audio_classification(planner, request_):
    assert tasks_of(planner, request_) == ["audio-classification"]


def test_the_emotion_of_a_text_is_text_classification(planner):
    assert tasks_of(planner, "Find the emotion behind this review: 'I waited two hours and nobody came.'") == [
        "text-classification"]


@pytest.mark.parametrize("request_, expected", [
    # 'hard to interpret' says what the input is like; only the request after it asks for something
    ("The voicemail.wav is hard to interpret because of the wind. Please remove the background noise.",
     ["audio-to-audio"]),
    ("The chart in sales.png is hard to interpret at this size. Please upscale it.", ["image-to-image"]),
    ("The interview.wav is too noisy to interpret. Please clean it up.", ["audio-to-audio"]),
])
def test_a_verb_after_hard_to_asks_for_nothing(planner, request_, expected):
    assert tasks_of(planner, request_) == expected


@pytest.mark.parametrize("request_", [
    # image segmentation: a picture divided into its parts or regions
    "Break street.jpg up into pieces.",
    "Break street.jpg down into its separate regions.",
    "Could you show me the different parts of the picture in garden.png?",
    "In zoo.jpg, please pick out every animal separately.",
])
def test_dividing_a_picture_is_segmentation(planner, request_):
    assert tasks_of(planner, request_) == ["image-segmentation"]


@pytest.mark.parametrize("request_, expected", [
    # the same words about a text: no segmentation
    ("Break this article down into its key points: 'Prices rose again in May as energy costs climbed.'",
     ["summarization"]),
    ("Please translate each sentence separately into French: 'Good morning.' 'See you tomorrow.'", ["translation"]),
])
def test_dividing_a_text_is_no_segmentation(planner, request_, expected):
    assert tasks_of(planner, request_) == expected


@pytest.mark.parametrize("request_", [
    # token classification: the entities or key terms of a text
    "Which cities are mentioned in this paragraph: 'We flew from Oslo to Rome and then took a train to Naples.'",
    "Please isolate the key terms in this abstract: 'Graphene conducts heat better than copper.'",
    "Single out the dates in this note: 'The contract starts on 3 May and ends on 1 June.'",
])
def test_entities_and_key_terms_are_token_classification(planner, request_):
    assert tasks_of(planner, request_) == ["token-classification"]


@pytest.mark.parametrize("request_, expected", [
    # 'labelled a.jpg' names the file; 'label this photo' asks for a class
    ("There's a photo labeled sunset.jpg on my desktop. Please describe it.", ["image-to-text"]),
    ("I keep a recording labelled memo.wav. Please transcribe it.", ["automatic-speech-recognition"]),
    ("Please label this photo for me: dog.jpg", ["image-classification"]),
])
def test_labelled_before_a_file_names_it(planner, request_, expected):
    assert tasks_of(planner, request_) == expected


@pytest.mark.parametrize("request_", [
    # 'spot which object ...': a question about the picture, not a list of its objects
    "In kitchen.jpg, can you spot which object is closest to the window?",
    "Looking at desk.jpg, could you find which object is the oldest?",
    "Can you spot whether any object in hall.jpg blocks the door?",
])
def test_which_object_is_a_question(planner, request_):
    assert tasks_of(planner, request_) == ["visual-question-answering"]


def test_the_objects_of_a_picture_are_detected(planner):
    assert tasks_of(planner, "Identify the objects in street.jpg for me.") == ["object-detection"]


@pytest.mark.parametrize("request_, expected", [
    # 'I was wondering if you could ...' asks for the task it names
    ("I was wondering if you could draw a fox in the snow.", ["text-to-image"]),
    ("I was wondering if it would be possible to make a short video of waves at dusk.", ["text-to-video"]),
    # ... while 'wondering whether' a fact holds is a question
    ("I'm wondering whether the dog in park.jpg is a puppy.", ["visual-question-answering"]),
])
def test_wondering_if_you_could_is_a_request(planner, request_, expected):
    assert tasks_of(planner, request_) == expected


@pytest.mark.parametrize("request_, expected", [
    # something new to see: 'made into an artwork', 'digital art', 'depict ... in a short video'
    ("I'd like my haiku 'Frost on the window, the kettle sings' made into an artwork.", ["text-to-image"]),
    ("Let's create some digital art of a lighthouse in a storm.", ["text-to-image"]),
    ("I want to depict a busy harbour at sunrise in a short video.", ["text-to-video"]),
    ("Please illustrate the idea of teamwork with a picture.", ["text-to-image"]),
    # 'present in the image' makes nothing
    ("How many birds are present in the image flock.jpg?", ["object-detection"]),
])
def test_ways_to_ask_for_a_new_picture_or_video(planner, request_, expected):
    assert tasks_of(planner, request_) == expected


@pytest.mark.parametrize("request_, expected", [
    # 'a picture inspired by / representing ...' is one to make, unless the request brings it
    ("Translate 'Good night' into Italian, then I'd like a picture inspired by the translation.",
     ["translation", "text-to-image"]),
    ("I need an illustration representing the water cycle.", ["text-to-image"]),
    ("This image based on our floor plan is plan.jpg; please describe it.", ["image-to-text"]),
])
def test_a_picture_inspired_by_something(planner, request_, expected):
    assert tasks_of(planner, request_) == expected
