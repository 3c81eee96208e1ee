"""When a request asks a question, and which question task answers it. Requests written for these tests."""

import pytest

from .plans import tasks_of


@pytest.mark.parametrize("request_, expected", [
    # 'could you do this?' after the task was named asks for that task, not for an answer
    ("I want the objects in street.jpg outlined with boxes. Can you do this for me?", ["object-detection"]),
    ("Write a short poem about autumn leaves. Could you take care of that for me?", ["text-generation"]),
    ("I need a picture of a lighthouse at dusk. Can you make that happen?", ["text-to-image"]),
    # a polite request naming its own task: no question answering on top
    ("My holiday shot is beach.jpg. Could you sharpen the image for me?", ["image-to-image"]),
    ("I recorded lecture.wav on my phone. Can you transcribe it for me?", ["automatic-speech-recognition"]),
    ("Here is party.jpg. Would you find the people in the picture?", ["object-detection"]),
])
def test_a_polite_request_to_do_something_asks_no_question(planner, request_, expected):
    assert tasks_of(planner, request_) == expected


@pytest.mark.parametrize("request_, task", [
    # ... but one that asks to work out or learn something is a question
    ("My receipt is receipt.png. Can you help me work out the total of the bill?", "document-question-answering"),
    ("Here is street.jpg. Could you help me identify the number of bicycles in it?", "visual-question-answering"),
    ("I scanned the contract as contract.png and cannot follow it. Can you help me figure it out?",
     "document-question-answering"),
    # a wh-word after the polite opening: a real question
    ("Could you tell me what colour the car in street.jpg is?", "visual-question-answering"),
])
def test_a_polite_request_to_learn_something_is_a_question(planner, request_, task):
    assert tasks_of(planner, request_) == [task]


@pytest.mark.parametrize("request_, expected", [
    # 'can we ...', 'could it be done', 'would it be possible' are requests too
    ("I have portrait.jpg and want its depth map. Can we manage that?", ["depth-estimation"]),
    ("Write a poem about the sea. Could it be done quickly?", ["text-generation"]),
    ("Segment cats.jpg into regions. Would it be possible by tonight?", ["image-segmentation"]),
])
def test_a_request_asked_with_we_or_it_is_no_question(planner, request_, expected):
    assert tasks_of(planner, request_) == expected


@pytest.mark.parametrize("request_", ["Is the dog in park.jpg asleep?", "Here is park.jpg. Can the dog in it swim?"])
def test_a_yes_no_question_about_a_picture_is_still_a_question(planner, request_):
    assert tasks_of(planner, request_) == ["visual-question-answering"]


@pytest.mark.parametrize("request_, expected", [
    # 'I wonder if you could ...', 'I'd like to know whether an AI could ...': a request
    ("I was wondering if you could make a picture of a red barn at sunset.", ["text-to-image"]),
    ("I'd like to know whether an AI could draw a castle on a hill.", ["text-to-image"]),
    # 'how about we ...', 'what about ...': a suggestion
    ("Here is room.jpg. How about we make the walls blue?", ["image-editing"]),
    ("Here is room.jpg. What about making the walls blue?", ["image-editing"]),
])
def test_an_embedded_request_or_a_suggestion_is_no_question(planner, request_, expected):
    assert tasks_of(planner, request_) == expected


def test_an_embedded_yes_no_question_is_a_question(planner):
    assert tasks_of(planner, "I'd like to know if the cat in sofa.jpg is asleep.") == ["visual-question-answering"]


@pytest.mark.parametrize("request_, converter, task", [
    # no text given: 'the text' is the words in the file no task reads yet
    ("I have sign.jpg with some text on it. I want to know if there's a way to make a video that uses this text.",
     "image-to-text", "text-to-video"),
    ("My friend lists our groceries in memo.wav. I'd love a short video that shows the words.",
     "automatic-speech-recognition", "text-to-video"),
])
def test_the_text_of_a_file_is_read_out_of_it_first(planner, request_, converter, task):
    plan = planner.plan(request_).plan
    assert [t.task for t in plan.tasks] == [converter, task]
    assert plan.tasks[1].args["text"] == f"<resource>-{plan.tasks[0].id}"


@pytest.mark.parametrize("request_, expected", [
    # 'ask for' asks for a task; 'this answer' is an earlier step's output
    ("Could I ask for your help transcribing lecture.wav?", ["automatic-speech-recognition"]),
    ("Could I ask for a caption of beach.jpg?", ["image-to-text"]),
    ("Describe photo.jpg and present this answer in Spanish.", ["image-to-text", "translation"]),
    ("Caption photo.jpg, then read that answer aloud.", ["image-to-text", "text-to-speech"]),
    # 'could the sky be tinted ...': a request in the passive
    ("Make a picture of a harbour at dawn. Could the sky be tinted purple?", ["text-to-image", "image-editing"]),
    # 'when that's done' says when, it asks nothing
    ("Detect the cars in road.jpg. When that's done, could you help me with the rest?", ["object-detection"]),
    ("Segment garden.jpg. When it is finished, would you share it with me?", ["image-segmentation"]),
])
def test_words_of_questions_that_ask_nothing(planner, request_, expected):
    assert tasks_of(planner, request_) == expected


@pytest.mark.parametrize("request_, task", [
    # the quoted question names what it asks about
    ("Look at page.jpg and answer 'What is the title of this document?'", "document-question-answering"),
    ("Here are receipt.png and street.jpg. Please answer 'What colour is the bus in the photo?'",
     "visual-question-answering"),
    # a text document, or a document named apart from the only picture, is read as text
    ("I have a text document saying 'The meeting moved to Friday at noon.' On which day is the meeting? "
     "Also, make party.jpg brighter.", "question-answering"),
    ("Here is a document: 'Roses need six hours of sun.' How many hours of sun do roses need? "
     "Separately, brighten photo.jpg.", "question-answering"),
])
def test_which_question_task_answers(planner, request_, task):
    tasks = tasks_of(planner, request_)
    assert task in tasks
    assert len([t for t in tasks if t.endswith("question-answering")]) == 1


@pytest.mark.parametrize("request_, expected", [
    # 'based on the answer', 'from the answer': an earlier step's output, not a new question
    ("Describe photo.jpg, then make a video from the answer.", ["image-to-text", "text-to-video"]),
    ("Caption scene.jpg and then write a poem based on the answer.", ["image-to-text", "text-generation"]),
])
def test_the_answer_of_an_earlier_step_is_no_new_question(planner, request_, expected):
    assert tasks_of(planner, request_) == expected


@pytest.mark.parametrize("request_, task", [
    # no question of its own: 'using the summary' says an earlier step's text is what to ask
    ("Summarize the article 'Bees pollinate crops and make honey, but colonies are declining.' "
     "Then answer a question about the receipt in receipt.png using the summary.", "document-question-answering"),
    ("Caption photo.jpg, then answer a question about street.jpg using the caption.", "visual-question-answering"),
])
def test_a_question_taken_from_an_earlier_step(planner, request_, task):
    plan = planner.plan(request_).plan
    assert [t.task for t in plan.tasks][1] == task
    assert plan.tasks[1].args["text"] == f"<resource>-{plan.tasks[0].id}"


def test_a_question_of_its_own_is_asked_as_written(planner):
    plan = planner.plan("Caption photo.jpg. What colour is the bus in street.jpg?").plan
    assert plan.tasks[1].args == {"image": "street.jpg", "text": "What colour is the bus in street.jpg?"}


@pytest.mark.parametrize("request_, first", [
    # 'according to the transcript': a noun for an earlier output, which the question is about
    ("Transcribe interview.wav. According to the transcript, what year did the company start?",
     "automatic-speech-recognition"),
    ("Translate 'Le musee a ouvert en 1990.' into English. From the translation, when did the museum open?",
     "translation"),
])
def test_a_question_about_an_earlier_output(planner, request_, first):
    plan = planner.plan(request_).plan
    assert [t.task for t in plan.tasks] == [first, "question-answering"]
    assert plan.tasks[1].args["context"] == f"<resource>-{plan.tasks[0].id}"
