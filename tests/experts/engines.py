"""Engines of the experts tests, imported in every replica through the config's `imports`.

They are real engines (real work, real files), slow or crashing on purpose so that
overlap, a replica killed mid-task and a full deployment can be observed.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from langchain_hugginggpt.tools.base import Engine, ExpertOutput
from langchain_hugginggpt.tools.registry import register

MARKERS_ENV = "HUGGINGGPT_TEST_REPLICA_MARKERS"
SLOW_SECONDS = 3.0


def _replica_id() -> str:
    from ray import serve

    return serve.get_replica_context().replica_id.unique_id


@register
class SlowUpperWriter(Engine):
    """Uppercases the text after SLOW_SECONDS and writes it to a .txt output. On start it leaves
    a marker file named after its replica, so a test knows which replica to kill."""

    task = "text2text-generation"
    model_id = "test/slow-upper-writer"
    description = "Uppercases the text slowly and writes it to a file (test engine)."

    def run(self, inputs, workspace):
        markers = os.environ.get(MARKERS_ENV)
        if markers:
            (Path(markers) / _replica_id()).write_text(inputs["text"])
        time.sleep(SLOW_SECONDS)
        path = workspace.new_output(".txt", stem="upper")
        path.write_text(inputs["text"].upper())
        return ExpertOutput(model=self.model_id, result={"generated_text": inputs["text"].upper(), "file": str(path)},
                            text=f"{inputs['text'].upper()} (written to {path})", files=[str(path)])


@register
class CrashesItsProcess(Engine):
    """Ends its worker process in the middle of every task, as an out-of-memory kill would."""

    task = "translation"
    model_id = "test/crashes-its-process"
    description = "Kills its own process mid-task (test engine)."

    def run(self, inputs, workspace):
        time.sleep(0.2)
        os._exit(1)


@register
class NeedsAMissingModule(Engine):
    """Cannot run anywhere: its replica fails to start, so its deployment is DEPLOY_FAILED."""

    task = "image-classification"
    model_id = "test/needs-a-missing-module"
    description = "Needs a module that is not installed (test engine)."
    requires = ("a_module_that_is_not_installed",)

    def run(self, inputs, workspace):
        raise AssertionError("never runs")


START_SECONDS = 12.0  # well past a gateway start, so the 1 s timeout case sees it still starting


@register
class SlowToStart(Engine):
    """Takes START_SECONDS to construct in a replica (as a model load at start would), so its deployment
    stays UPDATING for a while: a task sent then must wait for it, not fail."""

    task = "text2text-generation"
    model_id = "test/slow-to-start"
    description = "Starts slowly, then echoes the text (test engine)."

    def __init__(self) -> None:
        try:
            from ray import serve

            serve.get_replica_context()  # raises outside a replica: the test runner's process never waits
        except Exception:
            return
        time.sleep(START_SECONDS)

    def run(self, inputs, workspace):
        return ExpertOutput(model=self.model_id, result={"generated_text": inputs["text"]}, text=inputs["text"])
