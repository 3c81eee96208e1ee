"""A similarity check needs two texts: where the request names one (an earlier step's output),
the other is the quote it started from or another earlier output. Requests written for these tests."""


def test_a_summary_is_compared_with_its_original(planner):
    note = "The meeting moved to Friday because the room was booked on Thursday."
    plan = planner.plan(f"Summarize this note: '{note}' Then tell me how close the summary is to the original.").plan
    assert [t.task for t in plan.tasks] == ["summarization", "sentence-similarity"]
    assert plan.tasks[1].args == {"text": "<resource>-0", "text2": note}


def test_two_outputs_are_compared(planner):
    plan = planner.plan("Write a short story about a lighthouse, summarize it, and tell me how similar the "
                        "summary is to the story.").plan
    assert [t.task for t in plan.tasks] == ["text-generation", "summarization", "sentence-similarity"]
    assert plan.tasks[2].args == {"text": "<resource>-1", "text2": "<resource>-0"}
