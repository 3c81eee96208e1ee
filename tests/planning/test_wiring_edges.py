"""Wiring steps once the tasks are found: which earlier output each slot takes."""

import pytest

from langchain_hugginggpt.planning.validation import validate_plan


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


@pytest.mark.parametrize("request_, first, then", [
    ("Edit car.jpg to make the car red. Also, classify the picture post-editing.", "image-editing",
     "image-classification"),
    ("Clean up the noise in talk.wav, and also transcribe the recording post-processing.", "audio-to-audio",
     "automatic-speech-recognition"),
])
def test_post_step_words_chain_even_after_also(planner, request_, first, then):
    steps = by_task(planner.plan(request_))
    assert steps[then].dep == [steps[first].id]


def test_also_without_such_words_is_a_sibling(planner):
    steps = by_task(planner.plan("Edit car.jpg to make the car red. Also, classify the picture."))
    assert steps["image-classification"].args == {"image": "car.jpg"}


@pytest.mark.parametrize("request_, task, file", [
    ("Detect the objects in street.jpg. I also have a scanned form, invoice.png. What is the total amount due?",
     "document-question-answering", "invoice.png"),
    ("Make the sky in beach.jpg purple. Here is another photo: park.jpg. Classify it.", "image-classification",
     "park.jpg"),
])
def test_a_file_introduced_between_steps_is_the_next_steps_input(planner, request_, task, file):
    step = by_task(planner.plan(request_))[task]
    assert step.args["image"] == file and step.dep == [-1]


@pytest.mark.parametrize("request_, means, goal", [
    ("Enhance holiday.jpg by estimating its depth, then describe the result.", "depth-estimation", "image-to-image"),
    ("Make a short video by summarizing 'The city council met on Monday and approved a new park, two bike lanes "
     "and a later closing time for the public library.'", "summarization", "text-to-video"),
])
def test_the_means_after_by_runs_first_and_feeds_the_goal(planner, request_, means, goal):
    out = planner.plan(request_)
    validate_plan(out.plan)
    steps = by_task(out)
    assert steps[means].dep == [-1] and steps[goal].dep == [steps[means].id]
    assert f"<resource>-{steps[means].id}" in steps[goal].args.values()


def test_by_with_no_task_of_its_own_keeps_the_order(planner):
    out = planner.plan("Generate an image of a fox, then edit it by changing the sky to pink.")
    assert [t.task for t in out.plan.tasks] == ["text-to-image", "image-editing"]
    assert out.plan.tasks[1].dep == [0]


@pytest.mark.parametrize("request_, first, then", [
    ("I'd like to create an image for a sentence. The sentence is 'the moon sleeps on the lake'. "
     "Please translate it into Spanish and then make an image out of it.", "translation", "text-to-image"),
    ("My goal is a short video about the talk in lecture.wav. Transcribe the lecture, then make a video "
     "from the transcript.", "automatic-speech-recognition", "text-to-video"),
    ("I want to hear my notes read aloud. Summarize 'Buy milk, call the plumber about the leaking sink, book the "
     "dentist for Tuesday and pay the electricity bill before Friday.' and then read the summary aloud.",
     "summarization", "text-to-speech"),
])
def test_a_goal_stated_first_runs_where_it_is_asked_for_again(planner, request_, first, then):
    out = planner.plan(request_)
    validate_plan(out.plan)
    assert [t.task for t in out.plan.tasks] == [first, then]
    assert out.plan.tasks[1].args == {"text": "<resource>-0"} and out.plan.tasks[1].dep == [0]


def test_words_for_a_result_are_no_second_request(planner):
    out = planner.plan("Translate 'good night' into German. Then create an image from the German translation.")
    assert [t.task for t in out.plan.tasks] == ["translation", "text-to-image"]
    assert out.plan.tasks[1].dep == [0]


_NEWS = "'The city council met on Monday and approved a new park, two bike lanes and a later closing time.'"


@pytest.mark.parametrize("request_, medium", [
    (f"Make a short video summary of {_NEWS}", "text-to-video"),
    (f"Please create an audio summary of {_NEWS}", "text-to-speech"),
])
def test_a_medium_summary_summarizes_first(planner, request_, medium):
    out = planner.plan(request_)
    assert [t.task for t in out.plan.tasks] == ["summarization", medium]
    assert out.plan.tasks[1].args == {"text": "<resource>-0"}


@pytest.mark.parametrize("request_, source, asker", [
    ("Transcribe question.wav, then answer a question about chart.png using the transcript.",
     "automatic-speech-recognition", "visual-question-answering"),
    ("Translate 'Quel est le montant total' into English and answer a question on the scanned bill invoice.png "
     "using the translation.", "translation", "document-question-answering"),
])
def test_a_question_taken_from_an_earlier_output(planner, request_, source, asker):
    steps = by_task(planner.plan(request_))
    assert steps[asker].args["text"] == f"<resource>-{steps[source].id}"
    assert "<resource>" not in steps[asker].args["image"]


def test_an_asked_question_stays_the_question(planner):
    steps = by_task(planner.plan("Transcribe memo.wav, then answer a question about street.jpg using the "
                                 "transcript: what color is the car?"))
    assert steps["visual-question-answering"].args["text"] == "what color is the car?"


def test_a_translation_step_takes_the_languages_the_request_names():
    """The text of a chained translation is an earlier output, which names no language: the step's
    target_lang carries "into German" to the engine, and TaskBench's export lists it."""
    from langchain_hugginggpt.planning.retrieval import RetrievalPlanner

    planner = RetrievalPlanner()
    plan = planner.plan("Transcribe talk.wav and then translate it into German.").plan
    assert [(t.task, t.args) for t in plan.tasks] == [
        ("automatic-speech-recognition", {"audio": "talk.wav"}),
        ("translation", {"text": "<resource>-0", "target_lang": "German"})]
    plan = planner.plan("Summarize notes.wav, then translate the summary from English to Japanese.").plan
    assert {"target_lang": "Japanese", "source_lang": "English"}.items() <= plan.tasks[-1].args.items()
    # a language inside the quoted text is the text's, not the step's
    plan = planner.plan("Translate 'I want to go to Spain' please.").plan
    assert plan.tasks[0].args == {"text": "I want to go to Spain"}


@pytest.mark.parametrize("name", ["retrieval", "learned"])
@pytest.mark.parametrize("request_, maker, reader", [
    ("I'm testing an image generator for a counting book. Could you create 'a bowl of five red apples on a wooden "
     "table' and then check the generated picture by asking 'How many apples are in the bowl?'",
     "text-to-image", "visual-question-answering"),
    ("Summarize 'The city council met on Monday to discuss the new park and agreed on a budget.' and then check the "
     "summarized text by comparing it with 'The council agreed a park budget.'", "summarization", "sentence-similarity"),
])
def test_a_means_works_on_the_result_it_checks(name, request_, maker, reader):
    """'check the generated picture by asking ...': asking is how the picture is checked, so it reads the
    picture; it is not a step that runs first and feeds the picture's making."""
    from langchain_hugginggpt.planning import default_planner

    out = default_planner(name).plan(request_)
    validate_plan(out.plan)
    steps = by_task(out)
    assert set(steps) == {maker, reader}
    assert steps[reader].dep == [steps[maker].id] and steps[maker].dep == [-1]


@pytest.mark.parametrize("name", ["retrieval", "learned"])
@pytest.mark.parametrize("request_, task, slot, values", [
    ("Transcribe a.wav and b.wav", "automatic-speech-recognition", "audio", ["a.wav", "b.wav"]),
    ("Detect the objects in street.jpg and in street2.jpg", "object-detection", "image", ["street.jpg", "street2.jpg"]),
    ("Classify cat.jpg, dog.jpg and bird.jpg", "image-classification", "image", ["cat.jpg", "dog.jpg", "bird.jpg"]),
    ("What's the sentiment of 'I hate mondays' and of 'I love fridays'?", "text-classification", "text",
     ["I hate mondays", "I love fridays"]),
])
def test_a_task_asked_of_a_list_runs_once_per_item(name, request_, task, slot, values):
    """Before, the plan did the first item and said nothing of the rest."""
    from langchain_hugginggpt.planning import default_planner

    plan = validate_plan(default_planner(name).plan(request_).plan).plan
    assert [(t.task, t.args[slot], t.dep) for t in plan.tasks] == [(task, v, [-1]) for v in values]


@pytest.mark.parametrize("name", ["retrieval", "learned"])
def test_each_listed_item_keeps_the_steps_that_use_its_output(name):
    from langchain_hugginggpt.planning import default_planner

    plan = validate_plan(default_planner(name).plan("Caption a.jpg and b.jpg, then read the captions aloud").plan).plan
    captions = {t.args["image"]: t.id for t in plan.tasks if t.task == "image-to-text"}
    spoken = sorted(t.args["text"] for t in plan.tasks if t.task == "text-to-speech")
    assert set(captions) == {"a.jpg", "b.jpg"} and spoken == sorted(f"<resource>-{i}" for i in captions.values())
    # a list a step reads whole (both sides of a comparison): nothing is copied
    both = default_planner(name).plan("How similar are 'A cat sat on the mat' and 'A dog ran in the park'?").plan
    assert [(t.task, sorted(t.args.values())) for t in both.tasks] == [
        ("sentence-similarity", ["A cat sat on the mat", "A dog ran in the park"])]


@pytest.mark.parametrize("name", ["retrieval", "learned"])
def test_a_language_we_do_not_list_is_still_the_target(name):
    """'to Klingon' used to leave the target empty, so the engine translated into its default language and the
    answer came back in Spanish; named, the engine refuses the language it lacks."""
    from langchain_hugginggpt.planning import default_planner

    planner = default_planner(name)
    assert planner.plan("Translate 'good morning' to Klingon").plan.tasks[0].args == {
        "text": "good morning", "target_lang": "Klingon"}
    assert planner.plan("Transcribe a.wav and translate it into Quechua").plan.tasks[1].args["target_lang"] == "Quechua"
    # a name after "to" that goes on is no language
    assert "target_lang" not in planner.plan("Translate 'hi' to Bob's sister").plan.tasks[0].args


@pytest.mark.parametrize("name", ["retrieval", "learned"])
@pytest.mark.parametrize("request_, task", [
    ("Detect the objects in street.jpg and give me the canny edges of it", "canny-control"),
    ("Find the people in street.jpg and give me their pose", "openpose-control"),
])
def test_a_control_map_after_a_detection_is_drawn_from_the_photo(name, request_, task):
    """The detection's picture has its boxes and labels drawn in: an edge or pose map of it traced them."""
    from langchain_hugginggpt.planning import default_planner

    steps = by_task(default_planner(name).plan(request_))
    assert steps[task].args["image"] == "street.jpg" and steps[task].dep == [-1]
    # asked for in so many words, the annotated picture it is
    steps = by_task(default_planner(name).plan("Detect the objects in street.jpg and give me the canny edges of "
                                               "the annotated image"))
    assert steps["canny-control"].args["image"] == f"<resource>-{steps['object-detection'].id}"
