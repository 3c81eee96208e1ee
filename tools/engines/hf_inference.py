"""Hugging Face Inference Providers through `huggingface_hub.InferenceClient`.

Engines are named `inference-api:<model id>`. They need a token (HF_TOKEN or
HUGGINGFACEHUB_API_TOKEN) unless HUGGINGGPT_INFERENCE_BASE_URL points at a server of
your own, which is then called at `<base>/models/<model id>` with the hf-inference
routes (a self-hosted endpoint may need no token). HUGGINGGPT_INFERENCE_PROVIDER
picks a provider (default "auto"). A failed call says which model, which URL and
which HTTP status.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

from langchain_hugginggpt.tools.base import Engine, ExpertError, ExpertOutput
from langchain_hugginggpt.tools.engines._hf_defaults import DIFFUSERS_DEFAULTS, INFERENCE_PREFIX, TRANSFORMERS_DEFAULTS
from langchain_hugginggpt.tools.engines._hub import hub_offline, jsonable, register_default
from langchain_hugginggpt.tools.engines._image_io import count_summary, draw_boxes, load_image, save_png
from langchain_hugginggpt.core.languages import translation_languages

if TYPE_CHECKING:
    from langchain_hugginggpt.core.workspace import Workspace

TOKEN_ENVS = ("HF_TOKEN", "HUGGINGFACEHUB_API_TOKEN")
BASE_URL_ENV = "HUGGINGGPT_INFERENCE_BASE_URL"
PROVIDER_ENV = "HUGGINGGPT_INFERENCE_PROVIDER"
TIMEOUT_S = 120.0


def hf_token() -> str | None:
    return next((os.environ[v] for v in TOKEN_ENVS if os.environ.get(v)), None)


def _labels(items: list[dict[str, Any]]) -> str:
    return ", ".join(f"{d['label']} ({d['score']:.2f})" for d in items)


def _suffix(data: bytes, default: str) -> str:
    """The file type of returned media, from its magic bytes (providers differ in what they send)."""
    magic = {b"RIFF": ".wav", b"fLaC": ".flac", b"OggS": ".ogg", b"ID3": ".mp3", b"\xff\xfb": ".mp3", b"\x1aE\xdf\xa3": ".webm"}
    if data[4:8] == b"ftyp":
        return ".mp4"
    return next((s for m, s in magic.items() if data.startswith(m)), default)


def _media(data: bytes, workspace: Workspace, default: str, stem: str) -> str:
    path = workspace.new_output(_suffix(data, default), stem=stem)
    path.write_bytes(data)
    return str(path)


# task -> call(client, model, inputs, engine, workspace) -> ExpertOutput
Call = Callable[[Any, str, dict[str, Any], "InferenceEngine", "Workspace"], ExpertOutput]


def _label_call(method: str, slot: str) -> Call:
    def call(client, model, inputs, engine, workspace):
        result = jsonable(getattr(client, method)(engine.require(inputs, slot), model=model))
        return engine.output(result, text=_labels(result))
    return call


def _text_call(method: str, key: str, **params: Any) -> Call:
    def call(client, model, inputs, engine, workspace):
        out = getattr(client, method)(engine.require(inputs, "text"), model=model, **params)
        text = out if isinstance(out, str) else out[key]
        return engine.output([{key: text}], text=text)
    return call


def _translation(client, model, inputs, engine, workspace):
    # a model of one fixed pair would answer in its own language, not the one asked for; a many-language one
    # needs both languages in its own codes
    try:
        codes = translation_languages(model, inputs.get("source_lang"), inputs.get("target_lang"))
    except ValueError as exc:
        raise engine.fail(str(exc)) from None
    return _text_call("translation", "translation_text", **codes)(client, model, inputs, engine, workspace)


def _object_detection(client, model, inputs, engine, workspace):
    path = engine.require(inputs, "image")
    result = jsonable(client.object_detection(path, model=model))
    drawn = save_png(draw_boxes(load_image(engine, path), result), workspace, stem="detection")
    return engine.output(result, text=count_summary([d["label"] for d in result]) or "no objects found", image=drawn)


def _image_to_text(client, model, inputs, engine, workspace):
    text = client.image_to_text(engine.require(inputs, "image"), model=model).generated_text
    return engine.output([{"generated_text": text}], text=text)


def _question(method: str, media: str) -> Call:
    def call(client, model, inputs, engine, workspace):
        result = jsonable(getattr(client, method)(engine.require(inputs, media), engine.require(inputs, "text"), model=model))
        result = result if isinstance(result, list) else [result]
        return engine.output(result, text=result[0]["answer"] if result else "no answer found")
    return call


def _question_answering(client, model, inputs, engine, workspace):
    result = jsonable(client.question_answering(question=engine.require(inputs, "text"),
                                                context=engine.require(inputs, "context"), model=model))
    return engine.output(result, text=result["answer"] if isinstance(result, dict) else result[0]["answer"])


def _zero_shot(client, model, inputs, engine, workspace):
    labels = [label.strip() for label in str(engine.require(inputs, "labels")).split(",") if label.strip()]
    result = jsonable(client.zero_shot_classification(engine.require(inputs, "text"), candidate_labels=labels, model=model))
    return engine.output(result, text=_labels(result))


def _sentence_similarity(client, model, inputs, engine, workspace):
    scores = client.sentence_similarity(engine.require(inputs, "text"), other_sentences=[engine.require(inputs, "text2")], model=model)
    return engine.output(jsonable(scores), text=f"similarity {scores[0]:.3f}")


def _conversational(client, model, inputs, engine, workspace):
    reply = client.chat_completion([{"role": "user", "content": engine.require(inputs, "text")}], model=model, max_tokens=512)
    text = reply.choices[0].message.content or ""
    return engine.output({"generated_text": text}, text=text)


def _saved_image(image: Any, engine: InferenceEngine, workspace: Workspace) -> ExpertOutput:
    path = save_png(image, workspace, stem=engine.task)
    return engine.output({"image": path}, text=f"generated image {os.path.basename(path)}", image=path)


def _text_to_image(client, model, inputs, engine, workspace):
    return _saved_image(client.text_to_image(engine.require(inputs, "text"), model=model), engine, workspace)


def _image_to_image(client, model, inputs, engine, workspace):
    prompt = {"prompt": inputs["text"]} if inputs.get("text") else {}
    return _saved_image(client.image_to_image(engine.require(inputs, "image"), model=model, **prompt), engine, workspace)


def _token_classification(client, model, inputs, engine, workspace):
    result = jsonable(client.token_classification(engine.require(inputs, "text"), model=model))
    found = ", ".join(f"{e['word']} ({e['entity_group']})" for e in result)
    return engine.output(result, text=found or "no entities found")


def _asr(client, model, inputs, engine, workspace):
    text = client.automatic_speech_recognition(engine.require(inputs, "audio"), model=model).text
    return engine.output({"text": text}, text=text)


def _tts(client, model, inputs, engine, workspace):
    path = _media(client.text_to_speech(engine.require(inputs, "text"), model=model), workspace, ".flac", "speech")
    return engine.output({"audio": path}, text=f"speech written to {os.path.basename(path)}", audio=path)


def _audio_to_audio(client, model, inputs, engine, workspace):
    outputs = client.audio_to_audio(engine.require(inputs, "audio"), model=model)
    paths = [_media(o.blob, workspace, ".flac", "audio") for o in outputs]
    result = [{"label": o.label, "audio": p} for o, p in zip(outputs, paths)]
    return engine.output(result, text=", ".join(o.label for o in outputs), audio=paths[0] if paths else None, files=paths)


def _text_to_video(client, model, inputs, engine, workspace):
    path = _media(client.text_to_video(engine.require(inputs, "text"), model=model), workspace, ".mp4", "text-to-video")
    return engine.output({"video": path}, text=f"generated video {os.path.basename(path)}", video=path)


CALLS: dict[str, Call] = {
    "text-classification": _label_call("text_classification", "text"),
    "token-classification": _token_classification,
    "zero-shot-classification": _zero_shot,
    "text-generation": _text_call("text_generation", "generated_text", max_new_tokens=256),
    "text2text-generation": _text_call("text_generation", "generated_text", max_new_tokens=256),
    "summarization": _text_call("summarization", "summary_text"),
    "translation": _translation,
    "question-answering": _question_answering,
    "conversational": _conversational,
    "sentence-similarity": _sentence_similarity,
    "image-classification": _label_call("image_classification", "image"),
    "object-detection": _object_detection,
    "image-to-text": _image_to_text,
    "visual-question-answering": _question("visual_question_answering", "image"),
    "document-question-answering": _question("document_question_answering", "image"),
    "text-to-image": _text_to_image,
    "image-to-image": _image_to_image,
    "image-editing": _image_to_image,
    "automatic-speech-recognition": _asr,
    "text-to-speech": _tts,
    "audio-classification": _label_call("audio_classification", "audio"),
    "audio-to-audio": _audio_to_audio,
    "text-to-video": _text_to_video,
}


class InferenceEngine(Engine):
    backend = "inference-api"
    requires = ("huggingface_hub",)
    extra = "transformers"
    hub_model: ClassVar[str]

    def check_resources(self) -> str | None:
        from huggingface_hub import constants

        if hub_offline() or constants.is_offline_mode():
            return "HF_HUB_OFFLINE is set, so Inference Providers cannot be reached"
        if not hf_token() and not os.environ.get(BASE_URL_ENV):
            return "no Hugging Face token: set HF_TOKEN (or HUGGINGFACEHUB_API_TOKEN) to use Inference Providers"
        return None

    def endpoint(self) -> tuple[Any, str]:
        """The client and the `model` argument: the Hub id, or `<base>/models/<id>` for a self-hosted server."""
        from huggingface_hub import InferenceClient

        base = os.environ.get(BASE_URL_ENV)
        if base:
            return InferenceClient(token=hf_token(), timeout=TIMEOUT_S), f"{base.rstrip('/')}/models/{self.hub_model}"
        provider = os.environ.get(PROVIDER_ENV) or "auto"
        return InferenceClient(provider=provider, token=hf_token(), timeout=TIMEOUT_S), self.hub_model

    def require(self, inputs: dict[str, Any], slot: str) -> Any:
        value = inputs.get(slot)
        if value is None or (isinstance(value, str) and not value.strip()):
            raise self.fail(f"missing input {slot!r}")
        return value

    def fail(self, cause: str) -> ExpertError:
        return ExpertError(f"{self.task} with {self.model_id}: {cause}")

    def output(self, result: Any, **resources: Any) -> ExpertOutput:
        return ExpertOutput(model=self.model_id, result=result, **resources)

    def run(self, inputs: dict[str, Any], workspace: Workspace) -> ExpertOutput:
        import httpx
        from huggingface_hub.errors import HfHubHTTPError, InferenceTimeoutError

        reason = self.unavailable_reason()
        if reason:
            raise self.fail(reason)
        client, model = self.endpoint()
        try:
            return CALLS[self.task](client, model, inputs, self, workspace)
        except ExpertError:
            raise
        except HfHubHTTPError as exc:
            response = exc.response
            detail = (response.text or "").strip().replace("\n", " ")[:300]
            raise self.fail(f"the inference endpoint {response.url} answered HTTP {response.status_code}"
                            + (f": {detail}" if detail else "")) from exc
        except (httpx.TransportError, InferenceTimeoutError) as exc:
            url = getattr(getattr(exc, "request", None), "url", None) or model
            raise self.fail(f"cannot reach the inference endpoint {url}: {type(exc).__name__}: {exc}") from exc
        except Exception as exc:
            raise self.fail(f"inference call to {model} failed: {type(exc).__name__}: {exc}") from exc


def inference_engine(task: str, hub_model: str) -> type[InferenceEngine] | None:
    """The engine class calling `hub_model` through Inference Providers; None when no client method fits the task."""
    if task not in CALLS:
        return None
    return _inference_engine(task, hub_model)


@functools.cache
def _inference_engine(task: str, hub_model: str) -> type[InferenceEngine]:
    name = "".join(part.capitalize() for part in task.replace("2", "-2-").split("-")) + "InferenceEngine"
    return type(name, (InferenceEngine,), {
        "__module__": __name__,
        "task": task,
        "model_id": INFERENCE_PREFIX + hub_model,
        "hub_model": hub_model,
        "description": f"{hub_model} through Hugging Face Inference Providers ({task})",
    })


for _task in CALLS:
    _default = TRANSFORMERS_DEFAULTS.get(_task, (DIFFUSERS_DEFAULTS.get(_task), ()))[0]
    if _default:
        register_default(inference_engine(_task, _default))
