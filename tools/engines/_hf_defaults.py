"""The Hub models HuggingGPT deployed, per task (`TaskSpec.hub_model`), split by the library that runs them:
the defaults every Hugging Face backend registers (transformers and diffusers locally, the same ids through
Inference Providers)."""

from __future__ import annotations

from langchain_hugginggpt.core.tasks import TASKS

# A model id with this prefix runs through Inference Providers, never from local weights.
INFERENCE_PREFIX = "inference-api:"

CONTROLNET_CONDITIONS = ("canny", "depth", "hed", "mlsd", "openpose", "seg", "scribble")
# Tasks whose Hub model is a diffusers pipeline; every other task with a Hub model runs in transformers.
DIFFUSERS_TASKS = ("text-to-image", "image-to-image", "image-editing", "text-to-video",
                   *(f"{c}-text-to-image" for c in CONTROLNET_CONDITIONS))
# What a default checkpoint needs beyond transformers and torch: Marian tokenizers are SentencePiece; DETR
# checkpoints name a timm ResNet backbone (and timm pulls torchvision); LayoutLM reads words with Tesseract.
_NEEDS = {"translation": ("sentencepiece",), "object-detection": ("timm",), "image-segmentation": ("timm",),
          "document-question-answering": ("pytesseract",)}

# task -> (model id, importable modules that checkpoint needs beyond transformers and torch)
TRANSFORMERS_DEFAULTS: dict[str, tuple[str, tuple[str, ...]]] = {
    name: (spec.hub_model, _NEEDS.get(name, ())) for name, spec in TASKS.items()
    if spec.hub_model and name not in DIFFUSERS_TASKS}
DIFFUSERS_DEFAULTS: dict[str, str] = {name: TASKS[name].hub_model for name in DIFFUSERS_TASKS}
