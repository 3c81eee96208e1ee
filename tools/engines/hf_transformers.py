"""transformers models by Hub model id (or a saved folder), one runner per task.

Like `transformers.pipelines.SUPPORTED_TASKS`, `RUNNERS` maps a task to the class that
runs any model of it; `engine_for_hub_model(task, model_id)` turns a runner and a model
id into an engine, so every catalog model of a supported task can be selected. The
defaults HuggingGPT deployed are registered up front. Weights come from the local HF
cache only, unless HUGGINGGPT_ALLOW_DOWNLOADS=1 (see `_hub.py`).
"""

from __future__ import annotations

import functools

from langchain_hugginggpt.tools.base import Engine
from langchain_hugginggpt.tools.engines import _hf_media as media
from langchain_hugginggpt.tools.engines import _hf_text as text
from langchain_hugginggpt.tools.engines._hf_defaults import INFERENCE_PREFIX, TRANSFORMERS_DEFAULTS
from langchain_hugginggpt.tools.engines._hub import TransformersEngine, is_local_path, register_default
from langchain_hugginggpt.tools.registration import register_factory

RUNNERS: dict[str, type[TransformersEngine]] = {
    "text-classification": text.TextClassification,
    "token-classification": text.TokenClassification,
    "zero-shot-classification": text.ZeroShotClassification,
    "text-generation": text.TextGeneration,
    "conversational": text.Conversational,
    "text2text-generation": text.Seq2SeqGeneration,
    "summarization": text.Summarization,
    "translation": text.Translation,
    "question-answering": text.QuestionAnswering,
    "sentence-similarity": text.SentenceSimilarity,
    "image-classification": media.ImageClassification,
    "object-detection": media.ObjectDetection,
    "image-segmentation": media.ImageSegmentation,
    "depth-estimation": media.DepthEstimation,
    "depth-control": media.DepthControl,
    "seg-control": media.SegmentationControl,
    "image-to-text": media.ImageToText,
    "visual-question-answering": media.VisualQuestionAnswering,
    "document-question-answering": media.DocumentQuestionAnswering,
    "automatic-speech-recognition": media.SpeechRecognition,
    "audio-classification": media.AudioClassification,
    "text-to-speech": media.TextToSpeech,
    "video-classification": media.VideoClassification,
}

@functools.cache
def transformers_engine(task: str, model_id: str, needs: tuple[str, ...] = ()) -> type[TransformersEngine] | None:
    """The engine class running `model_id` for `task` with transformers; None when no runner exists."""
    runner = RUNNERS.get(task)
    if runner is None:
        return None
    where = "local folder" if is_local_path(model_id) else "Hugging Face model"
    name = "".join(part.capitalize() for part in task.replace("2", "-2-").split("-")) + "Engine"
    return type(name, (runner,), {
        "__module__": __name__,
        "task": task,
        "model_id": model_id,
        "description": f"{where} {model_id} run with transformers ({task})",
        "needs": needs,
    })


def engine_for_hub_model(task: str, model_id: str) -> type[Engine] | None:
    """An engine class for any Hub model id (or saved folder) of a supported task; None otherwise.

    `inference-api:<id>` always means the Inference Providers backend. A plain id
    runs locally (transformers, or diffusers for the generation tasks); when its
    weights are not here but an Inference Providers token is, it runs remotely.
    """
    from langchain_hugginggpt.tools.engines import hf_diffusers, hf_inference

    if model_id.startswith(INFERENCE_PREFIX):
        return hf_inference.inference_engine(task, model_id.removeprefix(INFERENCE_PREFIX))
    local = hf_diffusers.diffusers_engine(task, model_id) or transformers_engine(task, model_id)
    if is_local_path(model_id) or (local is not None and local().check_resources() is None):
        return local
    remote = hf_inference.inference_engine(task, model_id)
    if remote is not None and remote().unavailable_reason() is None:
        return remote
    return local


def _register_defaults() -> None:
    for task, (model_id, needs) in TRANSFORMERS_DEFAULTS.items():
        register_default(transformers_engine(task, model_id, needs))


_register_defaults()
register_factory(engine_for_hub_model)  # a model named by its Hub id (or a saved folder) runs without registering
