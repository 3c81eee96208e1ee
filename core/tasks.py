"""The task table: every task type the planner may use, with its input slots and output.

Like `transformers.pipelines.SUPPORTED_TASKS`, a task name maps to what it takes
and gives; which models can run it lives in the engine registry (`registry.py`), and how
a request asks for it (the offline planners' cues, families, phrases) in `task_cues.py`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from langchain_hugginggpt.core.schema import ResourceType
from langchain_hugginggpt.core.task_cues import HINTS, PlanningHints


@dataclass(frozen=True)
class TaskSpec:
    name: str
    family: str  # language, vision, audio, video, control
    description: str
    inputs: dict[str, ResourceType]  # slot name -> resource type
    output: ResourceType  # the resource a later task can reference as <resource>-N
    required: tuple[str, ...] = ()
    on_hub: bool = True  # the Hugging Face Hub has a pipeline tag of this name (the model catalog searches it)
    aliases: tuple[str, ...] = ()  # other spellings of its name (LLMs', the paper's), mended by plan validation
    # The Hub model HuggingGPT deployed for it: what the Hugging Face backends (transformers, diffusers, Inference
    # Providers) run when no model is named. None where no Hub model does the task.
    hub_model: str | None = None
    slot_help: dict[str, str] = field(default_factory=dict)
    planning: PlanningHints = field(default_factory=PlanningHints)  # what the offline planners know of it

    @property
    def input_types(self) -> list[str]:
        return sorted(set(self.inputs.values()))


def _t(name, family, description, inputs, output, required=None, aliases=(), on_hub=None, hub_model=None,
       **slot_help) -> TaskSpec:
    return TaskSpec(
        name=name,
        family=family,
        description=description,
        inputs=inputs,
        output=output,
        required=tuple(required if required is not None else inputs),
        aliases=tuple(aliases),
        hub_model=hub_model,
        on_hub=family != "control" if on_hub is None else on_hub,  # ControlNet's conditions are no Hub tags
        slot_help=slot_help,
        planning=HINTS.get(name, PlanningHints()),
    )


TEXT = {"text": "text"}
IMAGE = {"image": "image"}
AUDIO = {"audio": "audio"}

_SPECS: list[TaskSpec] = [
    # language
    _t("text-classification", "language", "Assigns a label such as a sentiment or topic to a piece of text.", TEXT, "text", aliases=("sentiment-analysis",), hub_model="distilbert/distilbert-base-uncased-finetuned-sst-2-english"),
    _t("token-classification", "language", "Labels words in a text: named entities (people, places, organisations, dates) or parts of speech.", TEXT, "text", aliases=("ner",), hub_model="dslim/distilbert-NER"),
    _t("text2text-generation", "language", "Rewrites an input text into a new text following an instruction (paraphrase, correct, convert).", TEXT, "text", hub_model="google/flan-t5-base"),
    _t("summarization", "language", "Produces a shorter text that keeps the main points of a long text.", TEXT, "text", hub_model="facebook/bart-large-cnn"),
    _t("translation", "language", "Translates a text from one language to another (e.g. English to Spanish).",
       {"text": "text", "target_lang": "text", "source_lang": "text"}, "text", required=("text",),
       target_lang="the language to translate into, e.g. French", source_lang="the language of the text, e.g. German", hub_model="Helsinki-NLP/opus-mt-en-es"),
    _t("question-answering", "language", "Answers a question from a given context passage.", {"text": "text", "context": "text"}, "text",
       text="the question", context="the passage that holds the answer", hub_model="distilbert/distilbert-base-cased-distilled-squad"),
    _t("conversational", "language", "Replies to a message as a chat assistant would.", TEXT, "text", on_hub=False, hub_model="HuggingFaceTB/SmolLM2-360M-Instruct"),
    _t("text-generation", "language", "Continues or writes new text from a prompt (stories, descriptions, code).", TEXT, "text", hub_model="openai-community/gpt2"),
    _t("sentence-similarity", "language", "Scores how close in meaning two sentences are.", {"text": "text", "text2": "text"}, "text",
       text="the first sentence", text2="the sentence to compare with", hub_model="sentence-transformers/all-MiniLM-L6-v2"),
    _t("tabular-classification", "language", "Classifies the rows of a table given as an image or a file.", IMAGE, "text"),
    _t("zero-shot-classification", "language", "Classifies a text into labels given at request time, without training on them.", {"text": "text", "labels": "text"}, "text",
       required=("text",), labels="comma-separated candidate labels", hub_model="facebook/bart-large-mnli"),
    # vision
    _t("image-classification", "vision", "Names the main thing in an image (one of the ImageNet classes, for example).", IMAGE, "text", aliases=("image-cls",), hub_model="google/vit-base-patch16-224"),
    _t("object-detection", "vision", "Finds and counts objects in an image, with a box and label for each; writes an image with the boxes drawn.", IMAGE, "image", hub_model="facebook/detr-resnet-50"),
    _t("image-segmentation", "vision", "Divides an image into regions (people, background, objects) and writes a mask overlay.", IMAGE, "image", hub_model="facebook/detr-resnet-50-panoptic"),
    _t("depth-estimation", "vision", "Estimates how far each pixel is from the camera and writes a depth map image.", IMAGE, "image", hub_model="Intel/dpt-large"),
    _t("image-to-text", "vision", "Describes an image in words (captioning) or reads the text printed in it (OCR).", IMAGE, "text", aliases=("image-captioning", "ocr"), hub_model="nlpconnect/vit-gpt2-image-captioning"),
    _t("visual-question-answering", "vision", "Answers a question about the content of an image.", {"image": "image", "text": "text"}, "text",
       text="the question about the image", aliases=("vqa",), hub_model="dandelin/vilt-b32-finetuned-vqa"),
    _t("document-question-answering", "vision", "Answers a question about a scanned document, receipt or form image.", {"image": "image", "text": "text"}, "text",
       text="the question about the document", hub_model="impira/layoutlm-document-qa"),
    _t("text-to-image", "vision", "Generates an image from a text description.", TEXT, "image", hub_model="runwayml/stable-diffusion-v1-5"),
    _t("image-to-image", "vision", "Transforms an image into a variation or a new style.", {"image": "image", "text": "text"}, "image",
       required=("image",), text="optional guidance for the transformation", hub_model="lambdalabs/sd-image-variations-diffusers"),
    _t("image-editing", "vision", "Edits an image following a text instruction (e.g. 'make the sky purple').", {"image": "image", "text": "text"}, "image", on_hub=False, hub_model="timbrooks/instruct-pix2pix"),
    # audio
    _t("automatic-speech-recognition", "audio", "Transcribes the speech in an audio file to text.", AUDIO, "text", aliases=("speech-recognition", "asr"), hub_model="openai/whisper-base"),
    _t("text-to-speech", "audio", "Reads a text aloud and writes the speech to an audio file.", TEXT, "audio", aliases=("tts",), hub_model="facebook/mms-tts-eng"),
    _t("audio-classification", "audio", "Labels an audio clip: speech or not, sound events, language spoken.", AUDIO, "text", hub_model="MIT/ast-finetuned-audioset-10-10-0.4593"),
    _t("audio-to-audio", "audio", "Transforms audio into new audio, e.g. removes background noise from speech.", AUDIO, "audio"),
    # video
    _t("text-to-video", "video", "Generates a short video from a text description.", TEXT, "video", hub_model="damo-vilab/text-to-video-ms-1.7b"),
    _t("video-classification", "video", "Labels what happens in a video.", {"video": "video"}, "text", hub_model="MCG-NJU/videomae-base-finetuned-kinetics"),
]

# ControlNet-style conditions: extract a map from an image, or draw an image from a map plus text.
_CONTROLS = {
    "canny": "Canny edge map",
    "hed": "HED soft-edge map",
    "mlsd": "straight-line map",
    "openpose": "human pose skeleton",
    "depth": "depth map",
    "seg": "segmentation map",
    "scribble": "scribble (rough sketch) map",
}
# ControlNet's depth annotator is MiDaS v3 DPT-Hybrid; diffusers' sd-controlnet-seg card makes seg maps with
# UperNet-ConvNeXt on ADE20K (the other conditions are drawn with OpenCV and packaged annotators, no Hub model).
_ANNOTATORS = {"depth": "Intel/dpt-hybrid-midas", "seg": "openmmlab/upernet-convnext-small"}
_CONTROL_ALIASES = {"openpose-control": ("pose-detection", "pose-control"), "seg-control": ("segmentation-control",),
                    "seg-text-to-image": ("segmentation-text-to-image",)}
for _name, _what in _CONTROLS.items():
    _SPECS.append(_t(f"{_name}-control", "control", f"Extracts a {_what} from an image, as a condition for controlled image generation.", IMAGE, "image",
                     aliases=_CONTROL_ALIASES.get(f"{_name}-control", ()), hub_model=_ANNOTATORS.get(_name)))
    _SPECS.append(_t(f"{_name}-text-to-image", "control", f"Generates a new image from a {_what} plus a text prompt (ControlNet).",
                     {"image": "image", "text": "text"}, "image", aliases=_CONTROL_ALIASES.get(f"{_name}-text-to-image", ()),
                     hub_model=f"lllyasviel/sd-controlnet-{_name}", image=f"the {_what}", text="what the new image shows"))

TASKS: dict[str, TaskSpec] = {spec.name: spec for spec in _SPECS}


def get_task(name: str) -> TaskSpec:
    try:
        return TASKS[name]
    except KeyError:
        raise KeyError(f"unknown task {name!r}; known tasks: {', '.join(sorted(TASKS))}") from None
