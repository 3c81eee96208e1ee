"""Reading a request's quotes: an apostrophe inside a word belongs to the word, also inside a quote."""

import pytest

from langchain_hugginggpt.planning.text import parse


@pytest.mark.parametrize("request_, quotes", [
    ("Answer 'What is the Q1's total revenue?' from table.png", ["What is the Q1's total revenue?"]),
    ("Draw 'a cabin at the river's edge' for me.", ["a cabin at the river's edge"]),
    ("Translate 'good' and 'bad' into French.", ["good", "bad"]),
    ("I've got a dog and it's fine, isn't it?", []),
    # a comma the writer put inside the quotes ends the sentence, not the text
    ("I have a text, 'John Doe was born in 1990 in New York City,' and want its names.", ["John Doe was born in 1990 in New York City"]),
])
def test_quotes(request_, quotes):
    assert [q.value for q in parse(request_).quotes] == quotes


def test_a_quoted_question_with_an_apostrophe_is_asked_whole(planner):
    plan = planner.plan("In the scanned report report.png, answer 'What is the Q1's total revenue?'").plan
    assert [(t.task, t.args["text"]) for t in plan.tasks] == [
        ("document-question-answering", "What is the Q1's total revenue?")]


@pytest.mark.parametrize("request_, pasted", [
    # to a sentence-end and a comma ("., and then")
    ("Could you continue this opening: The last bus never stopped at the quarry, yet someone rang the bell., and then "
     "tag the names?", ["The last bus never stopped at the quarry, yet someone rang the bell."]),
    # several sentences, to the one that goes back to asking
    ("The board sent me this notice: The city will deliver compost on 12 April between 8 and 10 a.m. Bring gloves. "
     "Find out from it when the compost arrives.", ["The city will deliver compost on 12 April between 8 and 10 a.m. "
                                                    "Bring gloves."]),
    ("Summarize this: The meeting ran long. We agreed on the budget.", ["The meeting ran long. We agreed on the budget."]),
    # the text named earlier in the sentence, the colon after what to do with it
    ("Work out from this office note how long the guest password stays valid: The guest network is called Visitor. "
     "Its password changes every Monday. Then reply to that answer as a friend would.",
     ["The guest network is called Visitor. Its password changes every Monday."]),
    ("Have this station announcement spoken aloud, then label the sound of the clip: Platform four for the 18:10 "
     "service to Gothenburg.", ["Platform four for the 18:10 service to Gothenburg."]),
    ("Caption this photo of the harbour and then tell me: Is it busy?", []),
    # not a passage: a lower-case instruction, a quote (already one), a step label
    ("Edit the photo as follows: make the sky orange.", []),
    ('Reply to this: "Any tips for staying awake?"', ["Any tips for staying awake?"]),
    ("Step 1: Caption photo.jpg", []),
])
def test_text_pasted_after_a_colon_is_a_quote(request_, pasted):
    assert [q.value for q in parse(request_).quotes] == pasted


def test_a_pasted_passage_is_the_text_a_step_works_on():
    from langchain_hugginggpt.planning import default_planner

    request_ = ("Summarize this notice: The city will deliver compost on Saturday 12 April between 8 and 10 a.m. "
                "Members are asked to bring gloves. Then read the summary aloud.")
    plan = default_planner("learned").plan(request_).plan
    assert [(t.task, t.args["text"]) for t in plan.tasks] == [
        ("summarization", "The city will deliver compost on Saturday 12 April between 8 and 10 a.m. Members are asked "
                          "to bring gloves."), ("text-to-speech", "<resource>-0")]


def test_a_text_file_is_read_as_a_text_the_request_gives():
    from langchain_hugginggpt.planning.text import parse

    parsed = parse("Translate notes/minutes.md into French, then summarize report.txt and caption photo.jpg")
    assert [q.value for q in parsed.quotes] == ["notes/minutes.md", "report.txt"]
    assert [(f.value, f.kind) for f in parsed.files] == [("photo.jpg", "image")]
    assert "minutes.md" not in parsed.masked and "report.txt" not in parsed.masked


def test_a_quote_that_ends_its_sentence_ends_the_clause():
    """'...: 'What is the Q1's total revenue?' Following that, ...': the masked quote hid the '?' that ends the
    sentence, so the next ask was read as part of the question's clause."""
    parsed = parse("Answer this query I have: 'What is the Q1's total revenue?' Following that, please write an "
                   "engaging dialogue about it. Also 'The sun sets.' That is nice")
    # a quoted statement stays with what follows it ("saying '...'. On which day is ...?" asks about it)
    assert [c.text.split()[0] for c in parsed.clauses] == ["Answer", "Following", "Also"]
    assert len(parsed.masked) == len(parsed.text)
    assert [q.value for q in parsed.quotes] == ["What is the Q1's total revenue?", "The sun sets."]


@pytest.mark.parametrize("request_, text", [
    ("Summarize: The committee met on Monday. Budgets were cut by ten percent. The new park opens in May. "
     "The mayor promised a reply.", "The committee met on Monday. Budgets were cut by ten percent. The new park "
                                    "opens in May. The mayor promised a reply."),
    ("Translate to French: The train leaves at noon.", "The train leaves at noon."),
])
def test_a_request_that_opens_with_its_instruction_and_a_colon_gives_the_text_after_it(planner, request_, text):
    """'Summarize: ...' summarized its own instruction, and 'promised a reply' in the text planned a chat reply."""
    assert [q.value for q in parse(request_).quotes] == [text]
    plan = planner.plan(request_).plan
    assert len(plan.tasks) == 1 and plan.tasks[0].args["text"] == text
