"""The embedded controller's llama.cpp build runs on this CPU.

llama-cpp-python compiles natively by default; on an Intel CPU with AMX that build segfaults on its first
batched matmul, which would kill the test runner. So the first real chat completion runs in a child process:
a crash is one failed test that names the cause, and the rest of the suite still runs.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap

import pytest

pytest.importorskip("llama_cpp", reason="the local-llm extra is not installed")

CHILD = textwrap.dedent("""
    import llama_cpp
    from langchain_hugginggpt.agent.local_llm import ChatLlamaCpp

    print("SYSTEM_INFO", llama_cpp.llama_print_system_info().decode().strip(), flush=True)
    # A prompt of a few dozen tokens: evaluated as one batch, the path that crashed on AMX.
    llm = ChatLlamaCpp(max_tokens=24)
    question = "Hi! What can you do? I have a photo of a busy street and a recording of a meeting."
    reply = llm.invoke([("system", "You are a helpful assistant. Answer in one short sentence."), ("user", question)])
    print("REPLY", reply.content.replace("\\n", " "), flush=True)
""")


def _crash_message(returncode: int, output: str) -> str:
    name = signal.Signals(-returncode).name if returncode < 0 else f"exit code {returncode}"
    info = next((line for line in output.splitlines() if line.startswith("SYSTEM_INFO")), "SYSTEM_INFO unknown")
    cause = ("llama.cpp was built with its AMX backend, which crashes on Intel CPUs with AMX"
             if "AMX_INT8 = 1" in info else "llama.cpp crashed")
    return (f"a chat completion of the embedded model died with {name}: {cause}. Rebuild llama-cpp-python "
            f"portably with `bash .ci/llama.sh` (unset HUGGINGGPT_LLAMA_NATIVE).\n{info}\n{output[-2000:]}")


@pytest.mark.slow
def test_a_real_chat_completion_survives_in_a_child_process():
    child = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True, timeout=300)
    output = child.stdout + child.stderr
    if child.returncode != 0:
        pytest.fail(_crash_message(child.returncode, output), pytrace=False)
    reply = next(line for line in child.stdout.splitlines() if line.startswith("REPLY"))
    assert len(reply.split()) > 2, f"the embedded model answered nothing: {output[-500:]}"


def test_the_crash_message_names_signal_and_cause():
    message = _crash_message(-signal.SIGSEGV, "SYSTEM_INFO CPU : AVX2 = 1 | AMX_INT8 = 1 |\nSegmentation fault")
    assert "SIGSEGV" in message and "AMX backend" in message and ".ci/llama.sh" in message


def test_the_installed_build_has_no_amx_backend():
    import llama_cpp

    info = llama_cpp.llama_print_system_info().decode()
    assert "AMX_INT8 = 1" not in info, f"llama-cpp-python was built with AMX (a native build?): {info}"
