"""Controller LLM presets, and JSON output that works across them.

A preset is a string, from `--llm` or `HUGGINGGPT_LLM`:
  local               SmolLM2-135M-Instruct, embedded (no network, no key)
  openai:MODEL        langchain-openai; OPENAI_API_KEY, OPENAI_BASE_URL for any
                      OpenAI-compatible server (vLLM, Ollama, llama.cpp, LM Studio)
  hf:REPO_ID          a local transformers pipeline through langchain-huggingface
  hf-endpoint:REPO_ID Hugging Face Inference Providers through langchain-huggingface
  hf-endpoint:URL     a dedicated Inference Endpoint or any TGI-compatible server at URL
Any LangChain chat model instance can be passed instead of a string.
"""

from __future__ import annotations

import json
import os
import re
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage
from langchain_core.runnables import Runnable, RunnableConfig

DEFAULT_LLM = "local"


def load_llm(spec: str | BaseChatModel | None = None, **kwargs: Any) -> BaseChatModel:
    """A chat model from a preset string (or the model itself)."""
    if isinstance(spec, BaseChatModel):
        return spec
    spec = (spec or os.environ.get("HUGGINGGPT_LLM") or DEFAULT_LLM).strip()
    kind, _, name = spec.partition(":")
    if kind == "local":
        from langchain_hugginggpt.agent.local_llm import ChatLlamaCpp

        return ChatLlamaCpp(**({"model_path": name} if name else {}), **kwargs)
    if kind == "openai":
        from langchain_openai import ChatOpenAI

        base_url = kwargs.pop("base_url", None) or os.environ.get("OPENAI_BASE_URL")
        api_key = kwargs.pop("api_key", None) or os.environ.get("OPENAI_API_KEY")
        if not api_key and base_url:
            api_key = "not-needed"  # local OpenAI-compatible servers ignore the key
        if not api_key:
            raise ValueError("the openai: preset needs OPENAI_API_KEY (or OPENAI_BASE_URL for a local server)")
        return ChatOpenAI(model=name or "gpt-4o-mini", base_url=base_url, api_key=api_key,
                          temperature=kwargs.pop("temperature", 0), **kwargs)
    if kind == "hf":
        from langchain_huggingface import HuggingFacePipeline

        if not name:
            raise ValueError("the hf: preset needs a model id, e.g. hf:HuggingFaceTB/SmolLM2-1.7B-Instruct")
        from langchain_hugginggpt.agent.hf_pipeline_chat import ChatHuggingFacePipeline

        pipeline = HuggingFacePipeline.from_model_id(model_id=name, task="text-generation",
                                                     pipeline_kwargs={"max_new_tokens": 512, "do_sample": False,
                                                                      "return_full_text": False})
        return ChatHuggingFacePipeline(llm=pipeline, **kwargs)
    if kind == "hf-endpoint":
        from langchain_huggingface import ChatHuggingFace, HuggingFaceEndpoint

        if not name:
            raise ValueError("the hf-endpoint: preset needs a model id, e.g. hf-endpoint:meta-llama/Llama-3.1-8B-Instruct")
        options: dict[str, Any] = {"task": "text-generation", "max_new_tokens": 512, "temperature": 0.01}
        if name.startswith(("http://", "https://")):  # a dedicated Inference Endpoint or a TGI server
            endpoint = HuggingFaceEndpoint(endpoint_url=name, **options)
        else:
            endpoint = HuggingFaceEndpoint(repo_id=name, provider=os.environ.get("HF_PROVIDER", "auto"), **options)
        return ChatHuggingFace(llm=endpoint, **kwargs)
    raise ValueError(f"unknown LLM preset {spec!r}: use local, openai:MODEL, hf:REPO_ID or hf-endpoint:REPO_ID")


def llm_name(llm: BaseChatModel) -> str:
    for attr in ("model_name", "model", "model_id"):
        value = getattr(llm, attr, None)
        if isinstance(value, str) and value:
            return value
    return type(llm).__name__


def json_llm(llm: BaseChatModel, schema: dict[str, Any], name: str = "output") -> Runnable:
    """The model bound so that its reply follows a JSON schema where the backend can enforce it.

    llama.cpp (in process or behind its OpenAI-compatible server) takes
    `{"type": "json_object", "schema": ...}`; OpenAI itself takes `json_schema`.
    Other models get no binding and rely on the prompt plus `parse_json`.
    """
    mode = os.environ.get("HUGGINGGPT_STRUCTURED_OUTPUT", "auto")
    if mode == "off":
        return llm
    from langchain_hugginggpt.agent.local_llm import ChatLlamaCpp

    if isinstance(llm, ChatLlamaCpp):
        return llm.bind(response_format={"type": "json_object", "schema": schema})
    try:
        from langchain_openai import ChatOpenAI
    except ImportError:  # pragma: no cover - langchain-openai is a core dependency
        ChatOpenAI = None  # type: ignore[assignment]
    if ChatOpenAI is not None and isinstance(llm, ChatOpenAI):
        base = str(llm.openai_api_base or "")
        if not base or "api.openai.com" in base:
            wrapped = schema if schema.get("type") == "object" else {"type": "object", "properties": {"items": schema}}
            return llm.bind(response_format={"type": "json_schema",
                                             "json_schema": {"name": name, "schema": wrapped, "strict": False}})
        return llm.bind(response_format={"type": "json_object", "schema": schema})
    return llm


_FENCE = re.compile(r"```(?:json)?\s*(.*?)```", re.S)


def parse_json(text: str) -> Any:
    """The JSON value in an LLM reply: the whole text, a fenced block, or the outermost [...] / {...}."""
    text = text.strip()
    candidates = [text] + _FENCE.findall(text)
    for opener, closer in (("[", "]"), ("{", "}")):
        start, end = text.find(opener), text.rfind(closer)
        if 0 <= start < end:
            candidates.append(text[start:end + 1])
    for candidate in candidates:
        try:
            return json.loads(candidate)
        except (json.JSONDecodeError, ValueError):
            continue
    raise ValueError(f"the LLM reply is not JSON: {text[:200]!r}")


async def ainvoke_text(runnable: Runnable, messages: list[BaseMessage], config: RunnableConfig | None = None) -> str:
    message = await runnable.ainvoke(messages, config)
    return message.text if hasattr(message, "text") else str(message)
