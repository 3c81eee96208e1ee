"""A llama.cpp server inside the process, from xllamacpp's prebuilt wheel (nothing compiles at install).

llama.cpp's own server code does what a local chat model needs: continuous batching and a request
queue (thread-safe), OpenAI-style chat completions with the GGUF's chat template, JSON-schema
constrained decoding (llguidance), and its own prompt cache, so a prompt prefix that never changes
(the planning prompt's specification, task list and demonstrations) is evaluated once. This module
adds what the project needs around it: one server per model and settings per process, a deadline on
every call (a call that runs past it is stopped and fails saying so), and a quiet, closed HTTP side.

The wheel is a fixed AVX2/FMA/F16C build (no AVX-512 or AMX code paths), so the same install runs on
any x86-64 machine of the last decade; it needs the system's libgomp.
"""

from __future__ import annotations

import os
import queue
import secrets
import threading
import time
from pathlib import Path
from typing import Any, Iterator

from langchain_hugginggpt.core.errors import HuggingGPTError


class LlamaTimeoutError(HuggingGPTError, TimeoutError):
    """A call to the local model did not finish within its deadline (queued behind others, or slow)."""


class LlamaServerError(HuggingGPTError, RuntimeError):
    """llama.cpp refused a request or failed while answering it."""


_DONE = object()


class LlamaServer:
    """A loaded GGUF model behind llama.cpp's server, called in process.

    `n_parallel` requests are decoded at once (each in its own slot of `n_ctx` tokens); more wait in
    llama.cpp's queue. `prompt_cache_mb` bounds llama.cpp's RAM cache of earlier prompts' states.
    """

    def __init__(self, model_path: str | Path, n_ctx: int = 4096, n_threads: int | None = None,
                 n_parallel: int = 1, prompt_cache_mb: int = 64) -> None:
        try:
            import xllamacpp
        except ImportError as exc:
            raise RuntimeError("the local model needs llama.cpp (xllamacpp): "
                               "pip install 'langchain-hugginggpt[local-llm]'") from exc
        path = Path(model_path)
        if not path.is_file():
            raise FileNotFoundError(f"model file {path.name} not found")
        params = xllamacpp.CommonParams()
        params.model.path = str(path)
        params.n_ctx = n_ctx * n_parallel  # llama.cpp splits n_ctx over the slots
        params.n_parallel = n_parallel
        params.cpuparams.n_threads = n_threads or max(1, os.cpu_count() or 1)
        params.cpuparams_batch.n_threads = params.cpuparams.n_threads
        params.cache_ram_mib = prompt_cache_mb
        params.verbosity = 0  # errors only: llama.cpp logs every request otherwise
        # The server also listens on loopback HTTP; nothing here uses it, so it takes no one's calls:
        # a random key nobody knows, and no browser origin (a page could otherwise reach it by CORS).
        params.api_keys = [secrets.token_urlsafe(32)]
        params.cors_origins = "http://127.0.0.1:1"
        self.model_path = path
        self.n_ctx = n_ctx
        self._server = xllamacpp.Server(params)

    def stream(self, request: dict[str, Any], timeout_s: float | None = None) -> Iterator[dict[str, Any]]:
        """The chat completion's chunks as llama.cpp sends them; stops the call when the caller stops
        reading, and raises `LlamaTimeoutError` once `timeout_s` has passed (queueing included)."""
        chunks: queue.SimpleQueue = queue.SimpleQueue()
        stop = threading.Event()

        def on_chunk(chunk: Any) -> bool:
            chunks.put(chunk)
            return stop.is_set()  # True ends the generation

        def call() -> None:
            try:
                self._server.handle_chat_completions({**request, "stream": True}, on_chunk)
                chunks.put(_DONE)
            except Exception as exc:  # noqa: BLE001 - handed to the reading thread
                chunks.put(exc)

        threading.Thread(target=call, name="llama.cpp call", daemon=True).start()
        deadline = None if timeout_s is None else time.monotonic() + timeout_s
        try:
            while True:
                wait = None if deadline is None else deadline - time.monotonic()
                try:
                    if wait is not None and wait <= 0:
                        raise queue.Empty
                    item = chunks.get(timeout=wait)
                except queue.Empty:
                    raise LlamaTimeoutError(f"the local model {self.model_path.stem} did not answer within "
                                            f"{timeout_s:g} s (busy with other calls, or slow): try again later") from None
                if item is _DONE:
                    return
                if isinstance(item, Exception):
                    raise LlamaServerError(f"llama.cpp: {item}") from item
                if isinstance(item, dict) and item.get("error"):
                    raise LlamaServerError(f"llama.cpp: {_error_text(item['error'])}")
                yield item
        finally:
            stop.set()

    def complete(self, request: dict[str, Any], timeout_s: float | None = None) -> dict[str, Any]:
        """A whole chat completion (`content`, `finish_reason`, `usage`), gathered from the stream so that
        a call past its deadline is stopped rather than left running."""
        parts: list[str] = []
        finish_reason, usage = None, None
        for chunk in self.stream({**request, "stream_options": {"include_usage": True}}, timeout_s):
            usage = chunk.get("usage") or usage
            for choice in chunk.get("choices") or []:
                parts.append((choice.get("delta") or {}).get("content") or "")
                finish_reason = choice.get("finish_reason") or finish_reason
        return {"content": "".join(parts), "finish_reason": finish_reason, "usage": usage}


def _error_text(error: Any) -> str:
    return error.get("message", str(error)) if isinstance(error, dict) else str(error)


_LOAD_LOCK = threading.Lock()
# One server per model and settings: each holds the weights and its slots' KV memory.
_SERVERS: dict[tuple, LlamaServer] = {}


def load_server(model_path: str | Path, n_ctx: int = 4096, n_threads: int | None = None,
                n_parallel: int = 1, prompt_cache_mb: int = 64) -> LlamaServer:
    """The process's server for this model and these settings, loaded on first use (one load at a time)."""
    key = (str(model_path), n_ctx, n_threads, n_parallel, prompt_cache_mb)
    with _LOAD_LOCK:
        if key not in _SERVERS:
            _SERVERS[key] = LlamaServer(*key)
        return _SERVERS[key]


def loaded_server(model_path: str | Path, n_ctx: int = 4096, n_threads: int | None = None,
                  n_parallel: int = 1, prompt_cache_mb: int = 64) -> LlamaServer | None:
    """The server `load_server` would return, if this process has loaded it already (no load)."""
    return _SERVERS.get((str(model_path), n_ctx, n_threads, n_parallel, prompt_cache_mb))
