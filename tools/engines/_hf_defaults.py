"""The Hub models HuggingGPT deployed, per task: the defaults every Hugging Face backend
registers (transformers and diffusers locally, the same ids through Inference Providers)."""

from __future__ import annotations

# A model id with this prefix runs through Inference Providers, never from local weights.
INFERENCE_PREFIX = "inference-api:"

# task -> (model id, importable modules that checkpoint needs beyond transformers and torch)
TRANSFORMERS_DEFAULTS: dict[str, tuple[str, tuple[str, ...]]] = {
    "text-classification": ("distilbert/distilbert-base-uncased-finetuned-sst-2-english", ()),
    "token-classification": ("dslim/distilbert-NER", ()),
    "zero-shot-classification": ("facebook/bart-large-mnli", ()),
    "text-generation": ("openai-community/gpt2", ()),
    "conversational": ("HuggingFaceTB/SmolLM2-360M-Instruct", ()),
    "text2text-generation": ("google/flan-t5-base", ()),
    "summarization": ("facebook/bart-large-cnn", ()),
    "translation": ("Helsinki-NLP/opus-mt-en-es", ("sentencepiece",)),  # Marian tokenizers are SentencePiece
    "question-answering": ("distilbert/distilbert-base-cased-distilled-squad", ()),
    "sentence-similarity": ("sentence-transformers/all-MiniLM-L6-v2", ()),
    "image-classification": ("google/vit-base-patch16-224", ()),
    # DETR checkpoints name a timm ResNet backbone (and timm pulls torchvision).
    "object-detection": ("facebook/detr-resnet-50", ("timm",)),
    "image-segmentation": ("facebook/detr-resnet-50-panoptic", ("timm",)),
    "depth-estimation": ("Intel/dpt-large", ()),
    # ControlNet's conditions: its depth annotator is MiDaS v3 DPT-Hybrid; diffusers' sd-controlnet-seg
    # card makes seg maps with UperNet-ConvNeXt on ADE20K (both native transformers, no timm).
    "depth-control": ("Intel/dpt-hybrid-midas", ()),
    "seg-control": ("openmmlab/upernet-convnext-small", ()),
    "image-to-text": ("nlpconnect/vit-gpt2-image-captioning", ()),
    "visual-question-answering": ("dandelin/vilt-b32-finetuned-vqa", ()),
    "document-question-answering": ("impira/layoutlm-document-qa", ("pytesseract",)),  # reads words with Tesseract
    "automatic-speech-recognition": ("openai/whisper-base", ()),
    "audio-classification": ("MIT/ast-finetuned-audioset-10-10-0.4593", ()),
    "text-to-speech": ("facebook/mms-tts-eng", ()),
    "video-classification": ("MCG-NJU/videomae-base-finetuned-kinetics", ()),
}

CONTROLNET_CONDITIONS = ("canny", "depth", "hed", "mlsd", "openpose", "seg", "scribble")

DIFFUSERS_DEFAULTS: dict[str, str] = {
    "text-to-image": "runwayml/stable-diffusion-v1-5",
    "image-to-image": "lambdalabs/sd-image-variations-diffusers",
    "image-editing": "timbrooks/instruct-pix2pix",
    "text-to-video": "damo-vilab/text-to-video-ms-1.7b",
    **{f"{c}-text-to-image": f"lllyasviel/sd-controlnet-{c}" for c in CONTROLNET_CONDITIONS},
}
