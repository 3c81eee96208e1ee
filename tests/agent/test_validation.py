"""Plan validation and repair: every error case names the task and the problem."""

import pytest

from langchain_hugginggpt.core.schema import Plan, Task
from langchain_hugginggpt.planning.validation import PlanError, validate_plan


def plan(*tasks):
    return Plan(tasks=[Task.model_validate(t) for t in tasks])


def problems(p):
    with pytest.raises(PlanError) as info:
        validate_plan(p)
    return info.value.problems


def test_valid_plan_passes_unchanged():
    p = plan({"task": "object-detection", "id": 0, "dep": [-1], "args": {"image": "a.jpg"}},
             {"task": "text-to-speech", "id": 1, "dep": [0], "args": {"text": "<resource>-0"}})
    out = validate_plan(p)
    assert out.plan == p and out.repairs == []


def test_unknown_task_is_named():
    assert problems(plan({"task": "teleportation", "id": 0, "args": {"text": "x"}})) == [(0, "unknown task 'teleportation'")]


def test_alias_and_spelling_are_repaired():
    out = validate_plan(plan({"task": "Image-Cls", "id": 0, "args": {"image": "a.jpg"}},
                             {"task": "Automatic Speech Recognition", "id": 1, "args": {"audio": "b.wav"}}))
    assert [t.task for t in out.plan] == ["image-classification", "automatic-speech-recognition"]
    assert len(out.repairs) == 2


def test_duplicate_ids():
    assert (1, "duplicate task id") in problems(plan(
        {"task": "summarization", "id": 1, "args": {"text": "a"}},
        {"task": "summarization", "id": 1, "args": {"text": "b"}}))


def test_dep_on_missing_task():
    found = problems(plan({"task": "summarization", "id": 0, "dep": [7], "args": {"text": "a"}}))
    assert found == [(0, "depends on task 7, which does not exist")]


def test_reference_to_missing_task():
    found = problems(plan({"task": "text-to-speech", "id": 0, "args": {"text": "<resource>-3"}}))
    assert found[0][0] == 0 and "no task 3" in found[0][1]


def test_dep_on_later_task():
    found = problems(plan({"task": "text-to-speech", "id": 0, "dep": [1], "args": {"text": "<resource>-1"}},
                          {"task": "summarization", "id": 1, "args": {"text": "long text"}}))
    assert found[0][0] == 0 and "come after it" in found[0][1]


def test_cycle_is_reported_as_a_cycle():
    found = problems(plan({"task": "summarization", "id": 0, "dep": [1], "args": {"text": "<resource>-1"}},
                          {"task": "summarization", "id": 1, "dep": [0], "args": {"text": "<resource>-0"}}))
    assert "cycle" in found[0][1]


def test_self_reference():
    found = problems(plan({"task": "summarization", "id": 0, "args": {"text": "<resource>-0"}}))
    assert "its own output" in found[0][1]


def test_dep_derived_from_references_and_generated_spelling():
    out = validate_plan(plan({"task": "image-to-text", "id": 0, "dep": [-1], "args": {"image": "a.jpg"}},
                             {"task": "text-to-speech", "id": 1, "dep": [-1], "args": {"text": "<GENERATED>-0"}}))
    assert out.plan.tasks[1].dep == [0]
    assert any("added dep [0]" in r for r in out.repairs)


def test_argument_a_task_does_not_take():
    found = problems(plan({"task": "object-detection", "id": 0, "args": {"image": "a.jpg", "audio": "x.wav"}}))
    assert found[0][0] == 0 and "does not take a 'audio' argument" in found[0][1]


def test_file_in_the_wrong_slot_moves():
    out = validate_plan(plan({"task": "object-detection", "id": 0, "args": {"text": "street.jpg"}}))
    assert out.plan.tasks[0].args == {"image": "street.jpg"}


def test_media_reference_of_the_wrong_type():
    found = problems(plan({"task": "automatic-speech-recognition", "id": 0, "args": {"audio": "a.wav"}},
                          {"task": "object-detection", "id": 1, "args": {"image": "<resource>-0"}}))
    assert found[0][0] == 1 and "text output of automatic-speech-recognition" in found[0][1]


def test_missing_required_slot_filled_from_single_dependency():
    out = validate_plan(plan({"task": "text-to-image", "id": 0, "args": {"text": "a red fox"}},
                             {"task": "object-detection", "id": 1, "dep": [0], "args": {}}))
    assert out.plan.tasks[1].args == {"image": "<resource>-0"}


def test_missing_required_slot_without_source_is_an_error():
    found = problems(plan({"task": "object-detection", "id": 0, "args": {}}))
    assert found == [(0, "object-detection needs a 'image' (image) argument")]


def test_empty_plan_is_valid_chit_chat():
    assert validate_plan(Plan()).plan.tasks == []


def test_error_message_names_task_and_problem():
    with pytest.raises(PlanError, match=r"task 0: unknown task 'warp-drive'"):
        validate_plan([{"task": "warp-drive", "id": 0, "args": {}}])


def test_media_arguments_must_be_strings():
    for value in (3, ["a.jpg"], {"path": "a.jpg"}, True):
        found = problems(plan({"task": "image-to-text", "id": 0, "args": {"image": value}}))
        assert found[0][0] == 0 and "argument 'image' must be a string" in found[0][1]


def test_ids_are_non_negative_integers():
    for bad in (-1, True, 1.5, "first"):
        with pytest.raises(PlanError, match="plan item 0 .* is not a valid task: id"):
            validate_plan([{"task": "summarization", "id": bad, "args": {"text": "a"}}])


def test_a_long_plan_is_refused_by_size_not_by_recursion():
    chain = [{"task": "summarization", "id": i, "dep": [i - 1] if i else [-1], "args": {"text": "a"}} for i in range(1500)]
    with pytest.raises(PlanError, match="1500 tasks; at most 64"):
        validate_plan(chain)
