"""The embedded controller's llama.cpp runs on this CPU, from a prebuilt wheel that runs on any x86-64 of the last decade.

llama.cpp's native builds pick the build machine's instructions: on an Intel CPU with AMX its AMX backend
segfaulted on the first batched matmul, and a build with AVX-512 dies on a machine without it. So the first real
chat completion runs in a child process (a crash is one failed test that names the cause, and the rest of the
suite still runs), and the installed build must use no instruction beyond AVX2/FMA/F16C.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap

import pytest

xllamacpp = pytest.importorskip("xllamacpp", reason="the local-llm extra is not installed")

CHILD = textwrap.dedent("""
    import xllamacpp
    from langchain_hugginggpt.agent.local_llm import ChatLlamaCpp

    print("SYSTEM_INFO", xllamacpp.get_system_info().strip(), flush=True)
    # A prompt of a few dozen tokens: evaluated as one batch, the path that crashed on AMX.
    llm = ChatLlamaCpp(max_tokens=24)
    question = "Hi! What can you do? I have a photo of a busy street and a recording of a meeting."
    reply = llm.invoke([("system", "You are a helpful assistant. Answer in one short sentence."), ("user", question)])
    print("REPLY", reply.content.replace("\\n", " "), flush=True)
""")


def crash_message(returncode: int, output: str) -> str:
    name = signal.Signals(-returncode).name if returncode < 0 else f"exit code {returncode}"
    info = next((line for line in output.splitlines() if line.startswith("SYSTEM_INFO")), "SYSTEM_INFO unknown")
    cause = ("this llama.cpp build has code for AMX or AVX-512, which crashes where the CPU lacks or mishandles it"
             if "AMX" in info or "AVX512" in info else "llama.cpp crashed")
    return (f"a chat completion of the embedded model died with {name}: {cause}. Reinstall the prebuilt "
            f"wheel: pip install --force-reinstall xllamacpp\n{info}\n{output[-2000:]}")


@pytest.mark.slow
def test_a_real_chat_completion_survives_in_a_child_process():
    child = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True, timeout=300)
    output = child.stdout + child.stderr
    if child.returncode != 0:
        pytest.fail(crash_message(child.returncode, output), pytrace=False)
    reply = next(line for line in child.stdout.splitlines() if line.startswith("REPLY"))
    assert len(reply.split()) > 2, f"the embedded model answered nothing: {output[-500:]}"


def test_the_crash_message_names_signal_and_cause():
    message = crash_message(-signal.SIGSEGV, "SYSTEM_INFO CPU : AVX2 = 1 | AMX_INT8 = 1 |\nSegmentation fault")
    assert "SIGSEGV" in message and "AMX or AVX-512" in message and "pip install --force-reinstall xllamacpp" in message


def test_the_installed_build_uses_no_instruction_beyond_avx2():
    info = xllamacpp.get_system_info()
    assert "AVX2 = 1" in info, info
    assert "AMX" not in info and "AVX512" not in info, f"a native llama.cpp build is installed: {info}"
