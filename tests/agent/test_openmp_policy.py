"""llama.cpp's OpenMP threads sleep while they wait, unless the user says otherwise (see agent/__init__.py and
bench/bench_chat_under_load.py): set on import, before llama.cpp or torch loads the OpenMP runtime."""

import os
import subprocess
import sys

import pytest

PROBE = ("import os, sys, langchain_hugginggpt.agent; "
         "print(os.environ.get('OMP_WAIT_POLICY'), 'xllamacpp' in sys.modules, 'torch' in sys.modules)")


@pytest.mark.parametrize("given, expected", [(None, "PASSIVE"), ("ACTIVE", "ACTIVE")])
def test_importing_the_agent_makes_waiting_threads_sleep_unless_the_user_chose(given, expected):
    env = {k: v for k, v in os.environ.items() if k != "OMP_WAIT_POLICY"}
    if given:
        env["OMP_WAIT_POLICY"] = given
    out = subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    # set, and before either OpenMP user is loaded: the runtime reads it once, when it loads
    assert out.stdout.split() == [expected, "False", "False"]
