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
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import json_repair

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage
from langchain_core.runnables import Runnable, RunnableConfig

from langchain_hugginggpt.core.errors import HuggingGPTError

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
        if name.startswith(("/", "./", "../", "~")) and not Path(name).expanduser().is_dir():
            # a local folder, as the path says: the hub would only complain that it is no repo id
            raise ValueError(f"the hf: preset's folder {name} " + ("is a file" if Path(name).expanduser().exists()
                                                                  else "not found"))
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
            from huggingface_hub import get_token

            if not (os.environ.get("HUGGINGFACEHUB_API_TOKEN") or get_token()):  # else it fails after the tasks ran
                raise ValueError(f"hf-endpoint:{name} goes through Hugging Face Inference Providers, which need a "
                                 "token: set HF_TOKEN (or run `hf auth login`)")
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
# Plans and model choices nest 3-4 levels; anything far deeper is not one, and
# would overflow the recursive JSON parsers (`"[" * 100000`).
MAX_JSON_DEPTH = 32


class LLMJSONError(HuggingGPTError, ValueError):
    """An LLM reply holds no JSON value that can be read."""


@dataclass(frozen=True)
class JSONReply:
    """The JSON value in an LLM reply, and how it was read."""

    value: Any
    repaired: bool = False  # strict JSON failed and json-repair mended the text
    # Containers still open where the reply ends (outermost first), each with the
    # number of its members (objects or lists) that closed before the end.
    # Not empty means the reply was cut off mid-way.
    unclosed: tuple[tuple[str, int], ...] = ()

    @property
    def truncated(self) -> bool:
        return bool(self.unclosed)


def read_json(text: str) -> JSONReply:
    """The JSON value in an LLM reply: strict JSON first (the whole text, a fenced
    block, or the outermost [...] / {...}), else the text mended by json-repair
    (trailing commas, single quotes, missing brackets of a cut-off reply)."""
    text = text.strip()
    deepest, unclosed = _bracket_scan(text)
    if deepest > MAX_JSON_DEPTH:
        raise LLMJSONError(f"the LLM reply nests brackets {deepest} deep (at most {MAX_JSON_DEPTH} are read): "
                           f"{text[:80]!r}")
    candidates = [text] + _FENCE.findall(text)
    # In a cut-off reply, the span from the first { to the last } is only its first
    # task: that slice would shorten the plan without a word.
    for opener, closer in (("[", "]"), ("{", "}")) if not unclosed else ():
        start, end = text.find(opener), text.rfind(closer)
        if 0 <= start < end:
            candidates.append(text[start:end + 1])
    for candidate in candidates:
        try:
            return JSONReply(json.loads(candidate))
        except ValueError:
            continue
    if deepest:  # only text with brackets is mended: json-repair reads any prose as ""
        try:
            value = json_repair.repair_json(text, return_objects=True, skip_json_loads=True)
        except Exception as exc:  # noqa: BLE001 - whatever the mender trips on, the reply is unreadable
            raise LLMJSONError(f"the LLM reply is not JSON ({type(exc).__name__} while mending it): "
                               f"{text[:200]!r}") from exc
        if isinstance(value, (list, dict)):
            return JSONReply(value, repaired=True, unclosed=tuple((bracket, n) for bracket, n in unclosed))
    raise LLMJSONError(f"the LLM reply is not JSON: {text[:200]!r}")


def parse_json(text: str) -> Any:
    """The JSON value in an LLM reply (see `read_json`); raises LLMJSONError."""
    return read_json(text).value


def _bracket_scan(text: str) -> tuple[int, list[list]]:
    """The deepest bracket nesting in `text`, and the containers still open at its end.

    Each open container is `[bracket, members closed inside it]`. Quotes count only
    inside brackets (prose around the JSON has apostrophes), and only double quotes
    (brackets inside single-quoted strings may be miscounted).
    """
    stack: list[list] = []
    deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"' and stack:
            in_string = True
        elif char in "[{":
            stack.append([char, 0])
            deepest = max(deepest, len(stack))
        elif char in "]}" and stack:
            stack.pop()
            if stack:
                stack[-1][1] += 1
    return deepest, stack


def finish_reason(message: Any) -> str | None:
    """Why the model stopped ("stop", "length", ...), where its provider says so."""
    metadata = getattr(message, "response_metadata", None) or {}
    reason = metadata.get("finish_reason") or metadata.get("stop_reason")
    return "length" if reason in ("length", "max_tokens", "MAX_TOKENS") else reason


async def ainvoke_text(runnable: Runnable, messages: list[BaseMessage], config: RunnableConfig | None = None) -> str:
    message = await runnable.ainvoke(messages, config)
    return message.text if hasattr(message, "text") else str(message)
