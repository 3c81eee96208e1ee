"""Every task in core/tasks is one the offline planners can plan: a plain request naming it, with its
inputs, gives a plan that holds it. A task added to TASKS without the cues that ask for it (its
`planning` hints, core/task_cues.py) fails here, as does a task of the table without a request below."""

import pytest

from langchain_hugginggpt.core.task_cues import HINTS, PlanningHints
from langchain_hugginggpt.core.tasks import TASKS
from langchain_hugginggpt.planning import default_planner
from langchain_hugginggpt.planning.retrieval import RetrievalPlanner

# One plain request per task, written for this test from the task's description.
REQUESTS = {
    "text-classification": "What is the sentiment of the review 'The food was cold and the waiter was rude'?",
    "token-classification": "Find the named entities in 'Marie Curie worked in Paris at the Sorbonne'.",
    "text2text-generation": "Paraphrase the sentence 'The meeting has been moved to Friday afternoon'.",
    "summarization": "Summarize this article: 'The city council met on Monday to discuss the new park. After a long "
                     "debate, members voted to fund it next year, with work starting in spring.'",
    "translation": "Translate 'Where is the train station?' into German.",
    "question-answering": "Using the passage 'The Eiffel Tower was finished in 1889 for the World Fair.', answer the "
                          "question 'When was the Eiffel Tower finished?'",
    "conversational": "Reply to my message 'I had a rough day at work today' as a friendly chat assistant would.",
    "text-generation": "Write a short story about a lighthouse keeper who finds a message in a bottle.",
    "sentence-similarity": "How similar in meaning are 'A man is playing a guitar' and 'Someone plays an instrument'?",
    "tabular-classification": "Classify the rows of the table in sales_table.png.",
    "zero-shot-classification": "Classify the text 'I love it' into the labels sports, politics or cooking.",
    "image-classification": "Classify the image cat.jpg: what kind of animal is it?",
    "object-detection": "Detect the objects in street.jpg and draw boxes around them.",
    "image-segmentation": "Segment the photo street.jpg into its regions.",
    "depth-estimation": "Estimate the depth of the scene in room.jpg.",
    "image-to-text": "Write a caption for beach.jpg.",
    "visual-question-answering": "Look at kitchen.jpg and answer: what color is the kettle?",
    "document-question-answering": "In the scanned invoice invoice.png, what is the total amount due?",
    "text-to-image": "Generate an image of a red fox sleeping in the snow.",
    "image-to-image": "Turn photo.jpg into a watercolor painting style version.",
    "image-editing": "Edit garden.jpg so that the sky is purple.",
    "automatic-speech-recognition": "Transcribe the recording meeting.wav.",
    "text-to-speech": "Read the sentence 'Welcome to our museum' aloud.",
    "audio-classification": "What kind of sound is in clip.wav? Classify the audio.",
    "audio-to-audio": "Remove the background noise from interview.wav.",
    "text-to-video": "Make a short video of a dog running on a beach.",
    "video-classification": "Classify the video skate.mp4: what activity is happening in it?",
    "canny-control": "Extract the canny edges from house.jpg.",
    "canny-text-to-image": "Generate an image of a futuristic city from the canny edge map edges.png.",
    "hed-control": "Get the HED soft edge map of portrait.jpg.",
    "hed-text-to-image": "Generate an image of a marble statue from the soft edge map soft_edges.png.",
    "mlsd-control": "Extract the M-LSD straight line map of hallway.jpg.",
    "mlsd-text-to-image": "Generate an image of a modern kitchen from the straight line map lines.png.",
    "openpose-control": "Extract the pose skeleton of the dancer in dance.jpg.",
    "openpose-text-to-image": "Generate an image of an astronaut from the pose skeleton pose.png.",
    "depth-control": "Extract a depth map from room.jpg to use as a ControlNet condition.",
    "depth-text-to-image": "Generate an image of a cozy library from the depth map depth.png.",
    "seg-control": "Make a segmentation map of street.jpg for ControlNet.",
    "seg-text-to-image": "Generate an image of a busy market from the segmentation map seg.png.",
    "scribble-control": "Turn drawing.jpg into a scribble map for ControlNet.",
    "scribble-text-to-image": "Generate an image of a sailing boat from the scribble sketch.png.",
}


@pytest.fixture(scope="module")
def planners():
    return {"default": default_planner(), "retrieval": RetrievalPlanner()}


def test_every_task_has_a_request_here():
    assert set(REQUESTS) == set(TASKS)


def test_every_task_has_cues_and_every_hint_a_task():
    assert not [name for name, spec in TASKS.items() if not spec.planning.cues and not spec.planning.families]
    assert set(HINTS) <= set(TASKS)


def test_a_text_role_the_wiring_does_not_know_is_refused():
    with pytest.raises(ValueError, match="text_role 'prompt' is none of"):
        PlanningHints(text_role="prompt")


@pytest.mark.parametrize("planner_name", ["default", "retrieval"])
@pytest.mark.parametrize("task", list(TASKS))
def test_a_plain_request_naming_the_task_plans_it(planners, planner_name, task):
    plan = planners[planner_name].plan(REQUESTS.get(task, f"(no request written for {task})")).plan
    assert task in [t.task for t in plan.tasks], f"{planner_name} planned {[t.task for t in plan.tasks]}"


@pytest.mark.parametrize("planner_name", ["default", "retrieval"])
def test_the_labels_a_request_lists_fill_the_zero_shot_labels(planners, planner_name):
    plan = planners[planner_name].plan(REQUESTS["zero-shot-classification"]).plan
    step = next(t for t in plan.tasks if t.task == "zero-shot-classification")
    assert step.args == {"text": "I love it", "labels": "sports, politics, cooking"}
