"""Engines are checked when their class is defined (`Engine.__init_subclass__`): a task name that is not
in core/tasks, a model id that is not a string, or a missing `run` fails at once, naming the class."""

import pytest

from langchain_hugginggpt.core.tasks import TASKS
from langchain_hugginggpt.tools import registry
from langchain_hugginggpt.tools.base import Engine, ExpertOutput


def test_an_engine_for_an_unknown_task_fails_when_defined():
    with pytest.raises(TypeError, match=r"TeleportEngine names an unknown task 'teleportation'"):
        class TeleportEngine(Engine):
            task = "teleportation"
            model_id = "test/teleport"

            def run(self, inputs, workspace):
                return ExpertOutput(model=self.model_id)


def test_an_engine_without_run_fails_when_defined():
    with pytest.raises(TypeError, match=r"Lazy for 'summarization' \(test/lazy\) does not implement run"):
        class Lazy(Engine):
            task = "summarization"
            model_id = "test/lazy"


def test_an_engine_with_an_empty_model_id_fails_when_defined():
    with pytest.raises(TypeError, match=r"Nameless: model_id must be a non-empty string"):
        class Nameless(Engine):
            task = "summarization"
            model_id = ""

            def run(self, inputs, workspace):
                return ExpertOutput(model=self.model_id)


def test_a_base_that_leaves_the_model_to_its_subclasses_is_allowed():
    class SummaryBase(Engine):
        task = "summarization"

        def run(self, inputs, workspace):
            return ExpertOutput(model=self.model_id, text=inputs["text"][:10])

    class Concrete(SummaryBase):
        model_id = "test/concrete-summary"

    assert Concrete().run({"text": "a long enough text"}, None).text == "a long eno"


def test_every_registered_engine_names_a_known_task():
    tasks = {cls.task for name in TASKS for cls in registry.engines_for(name)}
    assert tasks and tasks <= set(TASKS)
