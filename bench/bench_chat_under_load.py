"""A chat reply from the embedded SmolLM2 after an expert ran in the same process, with the cores free and busy.

    python bench/bench_chat_under_load.py            # print the table
    python bench/bench_chat_under_load.py --write    # also replace its section of docs/benchmarks.md

llama.cpp runs its threads with OpenMP. Spinning while they wait at each step's barrier (OpenMP's default), they
compete with every other busy thread for the cores: an expert's thread pool (onnxruntime's spins too), other
processes. Sleeping (OMP_WAIT_POLICY=PASSIVE, which importing `langchain_hugginggpt.agent` sets unless the user set
a value) they do not. Each trial is a new process: one expert task (object detection on examples/street.jpg, an
onnxruntime model), then two chat replies, timed. "Busy" runs beside as many busy-looping processes as the machine
has cores, as a server does beside other work.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import platform
import statistics
import subprocess
import sys
import time

from docs_section import DOC, print_or_write

TRIALS = 3
POLICIES = {"spinning (OpenMP's default)": "default", "sleeping (PASSIVE, the package's default)": "PASSIVE"}

CHILD = r"""
import json, os, sys, time
import langchain_hugginggpt.agent  # sets OMP_WAIT_POLICY=PASSIVE unless it is set
if sys.argv[1] == "default":
    del os.environ["OMP_WAIT_POLICY"]  # before llama.cpp loads OpenMP: its own default
from langchain_core.messages import HumanMessage
from langchain_hugginggpt.agent import HuggingGPT
agent = HuggingGPT.from_preset("local", planner="retrieval", responder="template", log_runs=False)
result = agent.invoke("Detect the objects in examples/street.jpg")
assert result.results[0].status == "ok", result.results[0].error
times = []
for _ in range(2):
    start = time.perf_counter()
    agent.llm.invoke([HumanMessage("Say hello and tell me one fact about the sea.")])
    times.append(time.perf_counter() - start)
print(json.dumps(times))
"""


def _burn(seconds: float) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        pass


def trial(policy: str) -> list[float]:
    env = {k: v for k, v in os.environ.items() if k != "OMP_WAIT_POLICY"}
    out = subprocess.run([sys.executable, "-c", CHILD, policy], capture_output=True, text=True, env=env, timeout=900,
                         cwd=DOC.parent.parent)
    if out.returncode:
        raise RuntimeError(out.stderr[-2000:])
    return json.loads(out.stdout.strip().splitlines()[-1])


def measure(busy: bool) -> dict[str, list[float]]:
    burners = [multiprocessing.Process(target=_burn, args=(3600,)) for _ in range(os.cpu_count() or 1)] if busy else []
    for p in burners:
        p.start()
    try:
        times: dict[str, list[float]] = {name: [] for name in POLICIES}
        for _ in range(TRIALS):  # the policies interleaved, so a drift in load hits both
            for name, policy in POLICIES.items():
                times[name] += trial(policy)
        return times
    finally:
        for p in burners:
            p.terminate()


def section(results: dict[str, dict[str, list[float]]]) -> str:
    lines = ["## Chat replies beside expert work", "",
             f"Seconds for one reply of the embedded SmolLM2 after an expert ran in the same process (median of "
             f"{TRIALS} new processes x 2 replies), with the cores free and with {os.cpu_count()} busy-looping processes "
             f"beside it. Measured {time.strftime('%Y-%m-%d')} on {platform.machine()} with {os.cpu_count()} CPU cores "
             "(`python bench/bench_chat_under_load.py --write`).", "",
             "| OpenMP threads waiting | cores free: median | max | cores busy: median | max |", "|---|---|---|---|---|"]
    for name in POLICIES:
        lines.append(f"| {name} | " + " | ".join(f"{f(results[load][name]):.2f}" for load in ("free", "busy")
                                                  for f in (statistics.median, max)) + " |")
    spinning, sleeping = (results["busy"][name] for name in POLICIES)
    lines += ["", f"Spinning threads answered fastest on free cores and stalled beside other work (the slowest busy "
              f"reply: {max(spinning):.1f} s; by hand, one reply right after the detection took 188.6 s even on free "
              f"cores, and a QA probe saw 45-140 s). Sleeping threads cost a second or so per reply on free cores and "
              f"did not stall (the slowest busy reply: {max(sleeping):.1f} s), so importing the agent sets "
              "OMP_WAIT_POLICY=PASSIVE; a dedicated machine can set the variable itself (any value, before the import) "
              "to keep spinning."]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    return print_or_write(__doc__.split("\n\n")[0], "## Chat replies beside expert work",
                          lambda: section({"free": measure(busy=False), "busy": measure(busy=True)}), argv)


if __name__ == "__main__":
    sys.exit(main())
