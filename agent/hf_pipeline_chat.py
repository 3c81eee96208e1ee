"""`ChatHuggingFace` over a local transformers pipeline, usable from async code.

langchain-huggingface's `HuggingFacePipeline` has no async path: `ainvoke` and `astream`
raise NotImplementedError, and the agent's stages are async. Here they run the pipeline
in a worker thread instead (a local pipeline is CPU/GPU-bound work, not I/O).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from langchain_core.callbacks import AsyncCallbackManagerForLLMRun
from langchain_core.messages import AIMessageChunk, BaseMessage
from langchain_core.outputs import ChatGenerationChunk, ChatResult
from langchain_core.runnables.config import run_in_executor
from langchain_huggingface import ChatHuggingFace


class ChatHuggingFacePipeline(ChatHuggingFace):
    """The `hf:REPO_ID` preset's chat model."""

    async def _agenerate(self, messages: list[BaseMessage], stop: list[str] | None = None,
                         run_manager: AsyncCallbackManagerForLLMRun | None = None, **kwargs: Any) -> ChatResult:
        sync_manager = run_manager.get_sync() if run_manager else None
        return await run_in_executor(None, self._generate, messages, stop, sync_manager, **kwargs)

    async def _astream(self, messages: list[BaseMessage], stop: list[str] | None = None,
                       run_manager: AsyncCallbackManagerForLLMRun | None = None,
                       **kwargs: Any) -> AsyncIterator[ChatGenerationChunk]:
        # A local pipeline gives its text at the end; one chunk keeps `astream` working.
        result = await self._agenerate(messages, stop, run_manager, **kwargs)
        yield ChatGenerationChunk(message=AIMessageChunk(content=result.generations[0].message.content))
