"""A labelled stand-in for image captioning, composed from the vision models that run here.

No captioning model (BLIP, ViT-GPT2) has its weights offline; their transformers engines stay
registered for machines that have them. Until then "describe the picture" gets a plain sentence
naming what CenterNet detects (COCO-80) and EfficientNet-Lite0's ImageNet class for the whole
picture. It says only what those two models report, and is flagged as a stand-in.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Callable

from langchain_hugginggpt.core.workspace import Workspace
from langchain_hugginggpt.tools.base import Engine, ExpertError, ExpertOutput
from langchain_hugginggpt.tools.engines._image_io import _plural, fail, image_input
from langchain_hugginggpt.tools.engines.vision import CenterNetDetector, EfficientNetLite0
from langchain_hugginggpt.tools.registration import register

# Requests for a description of the picture (as opposed to the text printed in it).
CAPTION_CUES = (r"\b(?:describ\w*|descriptions?|caption\w*|depict\w*|tell me about)\b"
                r"|\bwhat(?:'s| is) (?:in|on|shown in|happening in|going on in)\b"
                r"|\bwhat does\b.{0,40}\b(?:show|look like)\b")

_NUMBERS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine", 10: "ten"}


def _counted(label: str, n: int) -> str:
    """'a cat', 'an umbrella', 'three people'."""
    if n == 1:
        return f"{'an' if label[0] in 'aeiou' else 'a'} {label}"
    return f"{_NUMBERS.get(n, str(n))} {'people' if label == 'person' else _plural(label)}"


def object_phrase(labels: list[str]) -> str:
    """'a motorcycle, a cat and two people' from detection labels, in the order given (best score first)."""
    parts = [_counted(label, n) for label, n in Counter(labels).items()]
    if len(parts) < 2:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


@register
class DetectionClassificationCaption(Engine):
    """Stand-in for a captioning model: CenterNet's objects + EfficientNet-Lite0's class, in one sentence."""

    task = "image-to-text"
    model_id = "detection+classification-caption"
    backend = "stand-in"
    stand_in = True
    description = ("Stand-in, not a captioning model: a sentence naming the objects CenterNet (COCO-80) detects "
                   "and EfficientNet-Lite0's ImageNet class for the whole picture.")
    request_cues = CAPTION_CUES
    license = "MIT (CenterNet package), Apache-2.0 (EfficientNet-Lite0)"
    # The engines it reuses.
    detector = CenterNetDetector
    classifier = EfficientNetLite0

    def check_resources(self) -> str | None:
        for cls in (self.detector, self.classifier):
            reason = cls().unavailable_reason()
            if reason:
                return f"needs {cls.model_id} ({cls.task}): {reason}"
        return None

    def _run(self, engine: type[Engine], call: Callable[[Any], Any]) -> Any:
        try:
            return call(engine())
        except ExpertError as exc:  # name this task and model first, then the engine that failed
            raise fail(self, str(exc)) from None

    def run(self, inputs: dict[str, Any], workspace: Workspace) -> ExpertOutput:
        path = image_input(self, inputs)
        _, detections = self._run(self.detector, lambda detector: detector.detect(path))  # no drawing wanted
        classification = self._run(self.classifier, lambda classifier: classifier.run({"image": path}, workspace))
        objects = object_phrase([d["label"] for d in detections])
        top = classification.result[0]
        label = top["label"].split(",")[0]  # ImageNet names list synonyms: "tabby, tabby cat"
        sentence = f"A picture with {objects}" if objects else "A picture in which no COCO object is detected"
        sentence += f" (EfficientNet-Lite0's best guess for the whole picture: {label}, {top['score']:.0%})."
        result = {"generated_text": sentence, "objects": detections, "classes": classification.result}
        note = (f"stand-in, not a captioning model: a sentence composed from {self.detector.model_id}'s detections "
                f"and {self.classifier.model_id}'s top ImageNet class")
        return ExpertOutput(model=self.model_id, result=result, text=sentence, stand_in=True, note=note)
