"""The phrasebook: indirect wording of our own, matched to tasks; and the planner using it."""

import pytest

from langchain_hugginggpt.planning.phrasebook import PHRASES, PhraseClassifier, phrases
from langchain_hugginggpt.planning.retrieval import RetrievalPlanner
from langchain_hugginggpt.core.tasks import TASKS


@pytest.fixture(scope="module")
def classifier():
    return PhraseClassifier()


def test_every_phrasebook_task_exists_and_expands():
    assert set(PHRASES) <= set(TASKS)
    expanded = phrases()
    assert len(expanded) > 500
    assert {task for _, task in expanded} == set(PHRASES)


@pytest.mark.parametrize("clause, task", [
    ("split @IMG into its separate regions", "image-segmentation"),
    ("work out which people and places the article mentions", "token-classification"),
    ("put the result into Korean for me", "translation"),
])
def test_indirect_clauses_find_their_task(classifier, clause, task):
    ranked = classifier.classify(clause)
    assert ranked[0][0] == task and ranked[0][1] >= 0.3


@pytest.mark.parametrize("clause", ["my grandmother lives near the harbour", "the weather was lovely yesterday",
                                    "I have a photo from my trip"])
def test_unrelated_clauses_score_low(classifier, clause):
    ranked = classifier.classify(clause)
    assert not ranked or ranked[0][1] < 0.3


def test_restricted_task_list_is_respected():
    ranked = PhraseClassifier(tasks=["translation", "summarization"]).classify("split @IMG into its separate regions")
    assert {t for t, _ in ranked} <= {"translation", "summarization"}


def test_planner_adds_a_step_no_cue_names():
    out = RetrievalPlanner().plan("Take garden.jpg and divide it into its distinct parts, then caption the result.")
    assert [t.task for t in out.plan.tasks] == ["image-segmentation", "image-to-text"]
    assert out.plan.tasks[0].args == {"image": "garden.jpg"}
    assert out.plan.tasks[1].args == {"image": "<resource>-0"} and out.plan.tasks[1].dep == [0]


REPORT = ("Summarize 'The council met on Monday and approved the new park budget.', "
          "then work out which people and places it mentions.")


def test_phrasebook_finds_a_step_the_cues_miss():
    assert [t.task for t in RetrievalPlanner(phrase_threshold=None).plan(REPORT).plan.tasks] == ["summarization"]
    out = RetrievalPlanner().plan(REPORT)
    assert [t.task for t in out.plan.tasks] == ["summarization", "token-classification"]
    assert out.plan.tasks[1].args == {"text": "<resource>-0"}


def test_listed_steps_chain_without_connectives():
    out = RetrievalPlanner().plan("Transcribe lecture.wav. Summarize the transcript. Turn that into German.")
    assert [t.task for t in out.plan.tasks] == ["automatic-speech-recognition", "summarization", "translation"]
    assert [t.dep for t in out.plan.tasks] == [[-1], [0], [1]]


def test_parallel_wording_still_shares_the_input():
    out = RetrievalPlanner().plan("Caption beach.jpg and also estimate the depth of the same image.")
    by_task = {t.task: t for t in out.plan.tasks}
    assert by_task["depth-estimation"].args["image"] == "beach.jpg"
    assert by_task["depth-estimation"].dep == [-1]
