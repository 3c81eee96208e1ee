"""transformers runners for the vision, audio and video tasks. Results keep the pipeline's
shape (minus in-memory images and arrays, which become files in the workspace)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from langchain_hugginggpt.tools.base import ExpertOutput
from langchain_hugginggpt.tools.engines._ade20k import ADE20K_PALETTE
from langchain_hugginggpt.tools.engines._hf_text import labels_text
from langchain_hugginggpt.tools.engines._hub import TransformersEngine, jsonable, load_audio, torch_device, write_wav
from langchain_hugginggpt.tools.engines._image_io import PALETTE, count_summary, draw_boxes, load_image, save_png

if TYPE_CHECKING:
    from PIL import Image as PILImage

    from langchain_hugginggpt.core.workspace import Workspace


class _ImageEngine(TransformersEngine):
    def image(self, inputs: dict[str, Any]) -> PILImage.Image:
        return load_image(self, self.require(inputs, "image"))


class ImageClassification(_ImageEngine):
    pipeline_task = "image-classification"

    def predict(self, inputs: dict[str, Any], workspace: Workspace) -> ExpertOutput:
        result = jsonable(self.pipeline()(self.image(inputs), top_k=5))
        return ExpertOutput(model=self.model_id, result=result, text=labels_text(result))


class ObjectDetection(_ImageEngine):
    pipeline_task = "object-detection"
    score_threshold: ClassVar[float] = 0.5

    def predict(self, inputs: dict[str, Any], workspace: Workspace) -> ExpertOutput:
        image = self.image(inputs)
        result = jsonable(self.pipeline()(image, threshold=self.score_threshold))
        for detection in result:  # predicted boxes may overhang the border; report the visible part
            box = detection["box"]
            for key, side in (("xmin", image.width), ("xmax", image.width), ("ymin", image.height), ("ymax", image.height)):
                box[key] = min(max(box[key], 0), side)
        drawn = save_png(draw_boxes(image, result), workspace, stem="detection")
        summary = count_summary([d["label"] for d in result]) or "no objects found"
        return ExpertOutput(model=self.model_id, result=result, text=summary, image=drawn)


def overlay_masks(image: PILImage.Image, masks: list[PILImage.Image], alpha: float = 0.5) -> PILImage.Image:
    """`image` with each mask painted in its own palette colour."""
    from PIL import Image

    canvas = image.convert("RGB")
    for index, mask in enumerate(masks):
        colour = Image.new("RGB", canvas.size, PALETTE[index % len(PALETTE)])
        weight = mask.convert("L").resize(canvas.size).point(lambda v: int(v * alpha))
        canvas = Image.composite(colour, canvas, weight)
    return canvas


class ImageSegmentation(_ImageEngine):
    pipeline_task = "image-segmentation"
    subtask: ClassVar[str | None] = None  # None: the pipeline picks panoptic, instance or semantic
    stem: ClassVar[str] = "segmentation"

    def render(self, image: PILImage.Image, segments: list[dict[str, Any]]) -> PILImage.Image:
        return overlay_masks(image, [s["mask"] for s in segments])

    def predict(self, inputs: dict[str, Any], workspace: Workspace) -> ExpertOutput:
        image = self.image(inputs)
        segments = self.pipeline()(image, **({"subtask": self.subtask} if self.subtask else {}))
        drawn = save_png(self.render(image, segments), workspace, stem=self.stem)
        result = [{"label": s["label"], "score": jsonable(s.get("score"))} for s in segments]
        text = ", ".join(dict.fromkeys(s["label"] for s in result)) or "no segments found"
        return ExpertOutput(model=self.model_id, result=result, text=text, image=drawn)


class SegmentationControl(ImageSegmentation):
    """ControlNet's seg condition: semantic classes painted in the ADE20K palette its seg
    model was trained on, class id i in colour i (UperNet, as in diffusers' sd-controlnet-seg)."""

    subtask = "semantic"
    stem = "seg-control"

    def render(self, image: PILImage.Image, segments: list[dict[str, Any]]) -> PILImage.Image:
        import numpy as np
        from PIL import Image

        label2id = self.pipeline().model.config.label2id
        canvas = np.zeros((image.height, image.width, 3), dtype=np.uint8)
        for segment in segments:  # semantic masks are disjoint and cover the image
            class_id = int(label2id[segment["label"]])
            canvas[np.asarray(segment["mask"]) > 127] = ADE20K_PALETTE[class_id % len(ADE20K_PALETTE)]
        return Image.fromarray(canvas)

    def predict(self, inputs: dict[str, Any], workspace: Workspace) -> ExpertOutput:
        output = super().predict(inputs, workspace)
        classes = self.pipeline().model.config.num_labels
        if classes != len(ADE20K_PALETTE):
            output.note = (f"{self.model_id} has {classes} classes, not ADE20K's {len(ADE20K_PALETTE)}: colours follow "
                           "its class ids, which ControlNet's seg model reads as ADE20K classes")
        return output


class DepthEstimation(_ImageEngine):
    pipeline_task = "depth-estimation"
    stem: ClassVar[str] = "depth"

    def render(self, depth: PILImage.Image) -> PILImage.Image:
        """The depth image as written: the pipeline's 8-bit map, min-max normalised."""
        return depth

    def predict(self, inputs: dict[str, Any], workspace: Workspace) -> ExpertOutput:
        out = self.pipeline()(self.image(inputs))
        depth = out["predicted_depth"]
        path = save_png(self.render(out["depth"]), workspace, stem=self.stem)
        result = {"depth": path, "min": float(depth.min()), "max": float(depth.max())}
        return ExpertOutput(model=self.model_id, result=result, text="depth map (brighter is nearer)", image=path)


class DepthControl(DepthEstimation):
    """ControlNet's depth condition: the min-max normalised map its MiDaS annotator makes,
    as the 3-channel image ControlNet takes (MiDaS/DPT predict inverse depth: nearer is brighter)."""

    stem = "depth-control"

    def render(self, depth: PILImage.Image) -> PILImage.Image:
        return depth.convert("RGB")


class ImageToText(_ImageEngine):
    """Captioning/OCR with an image-to-sequence model (ViT-GPT2, BLIP, GIT, TrOCR)."""

    max_new_tokens: ClassVar[int] = 32

    def predict(self, inputs: dict[str, Any], workspace: Workspace) -> ExpertOutput:
        import torch

        image = self.image(inputs)
        processor = self.pretrained("AutoImageProcessor")
        tokenizer = self.pretrained("AutoTokenizer")
        model = self.pretrained("AutoModelForImageTextToText")
        pixels = processor(images=image, return_tensors="pt")["pixel_values"].to(torch_device(), model.dtype)
        with torch.inference_mode():
            generated = model.generate(pixel_values=pixels, max_new_tokens=self.max_new_tokens)
        caption = tokenizer.decode(generated[0], skip_special_tokens=True).strip()
        return ExpertOutput(model=self.model_id, result=[{"generated_text": caption}], text=caption)


class VisualQuestionAnswering(_ImageEngine):
    """ViLT-style answer classifiers (scores are sigmoids, as the pipeline gave) or generative VQA (BLIP)."""

    def predict(self, inputs: dict[str, Any], workspace: Workspace) -> ExpertOutput:
        import torch

        image, question = self.image(inputs), self.require(inputs, "text")
        processor = self.pretrained("AutoProcessor")
        model = self.pretrained("AutoModelForVisualQuestionAnswering")
        encoded = processor(images=image, text=question, return_tensors="pt", truncation=True).to(torch_device())
        with torch.inference_mode():
            if model.can_generate():
                answer = processor.decode(model.generate(**encoded)[0], skip_special_tokens=True).strip()
                result = [{"answer": answer}]
            else:
                probs = model(**encoded).logits[0].float().sigmoid().cpu()
                top = probs.topk(min(5, probs.numel()))
                result = [{"score": float(s), "answer": model.config.id2label[int(i)]} for s, i in zip(top.values, top.indices)]
        return ExpertOutput(model=self.model_id, result=result, text=result[0]["answer"])


class DocumentQuestionAnswering(_ImageEngine):
    """LayoutLM-style models read the words with Tesseract (pytesseract); Donut needs no OCR."""

    pipeline_task = "document-question-answering"

    def predict(self, inputs: dict[str, Any], workspace: Workspace) -> ExpertOutput:
        pipe = self.pipeline()
        # Tokenizers saved without a model_max_length report ~1e30, which the window logic cannot use.
        max_seq_len = min(getattr(pipe.tokenizer, "model_max_length", 512) or 512, 512)
        result = jsonable(pipe(image=self.image(inputs), question=self.require(inputs, "text"), max_seq_len=max_seq_len))
        if isinstance(result, dict):
            result = [result]
        return ExpertOutput(model=self.model_id, result=result, text=result[0]["answer"] if result else "no answer found")


class _AudioEngine(TransformersEngine):
    requires = TransformersEngine.requires + ("av",)  # PyAV decodes and resamples any audio file

    def samples(self, inputs: dict[str, Any], sampling_rate: int) -> Any:
        path = self.require(inputs, "audio")
        try:
            return load_audio(path, sampling_rate)
        except (ValueError, OSError) as exc:
            raise self.fail(str(exc)) from None


class SpeechRecognition(_AudioEngine):
    pipeline_task = "automatic-speech-recognition"

    def predict(self, inputs: dict[str, Any], workspace: Workspace) -> ExpertOutput:
        pipe = self.pipeline()
        rate = pipe.feature_extractor.sampling_rate
        samples = self.samples(inputs, rate)
        long_clip = {"chunk_length_s": 30} if len(samples) > 30 * rate else {}
        result = jsonable(pipe({"raw": samples, "sampling_rate": rate}, **long_clip))
        return ExpertOutput(model=self.model_id, result=result, text=result["text"].strip())


class AudioClassification(_AudioEngine):
    pipeline_task = "audio-classification"

    def predict(self, inputs: dict[str, Any], workspace: Workspace) -> ExpertOutput:
        pipe = self.pipeline()
        rate = pipe.feature_extractor.sampling_rate
        result = jsonable(pipe({"raw": self.samples(inputs, rate), "sampling_rate": rate}, top_k=5))
        return ExpertOutput(model=self.model_id, result=result, text=labels_text(result))


class TextToSpeech(TransformersEngine):
    pipeline_task = "text-to-audio"

    def predict(self, inputs: dict[str, Any], workspace: Workspace) -> ExpertOutput:
        out = self.pipeline()(self.require(inputs, "text"))
        path = workspace.new_output(".wav", stem="speech")
        write_wav(out["audio"], out["sampling_rate"], path)
        result = {"audio": str(path), "sampling_rate": int(out["sampling_rate"])}
        return ExpertOutput(model=self.model_id, result=result, text=f"speech written to {path.name}", audio=str(path))


def read_frames(path: str, count: int) -> list[Any]:
    """`count` RGB frames (numpy arrays) spread evenly over the video, decoded with PyAV."""
    import av
    import numpy as np

    try:
        with av.open(path) as container:
            if not container.streams.video:
                raise ValueError(f"{path} has no video stream")
            stream = container.streams.video[0]
            total = stream.frames or sum(1 for packet in container.demux(stream) if packet.size)
        wanted = np.linspace(0, max(total - 1, 0), count).round().astype(int).tolist()
        kept: dict[int, Any] = {}
        with av.open(path) as container:
            for index, frame in enumerate(container.decode(video=0)):
                if index in wanted:
                    kept[index] = frame.to_ndarray(format="rgb24")
                if index >= wanted[-1]:
                    break
    except (av.error.FFmpegError, UnicodeDecodeError) as exc:
        raise ValueError(f"cannot read video {path}: {exc}") from None
    if not kept:
        raise ValueError(f"cannot read video {path}: no frames")
    last = kept[max(kept)]  # a frame count the container overstated: repeat the last frame
    return [kept.get(i, last) for i in wanted]


class VideoClassification(TransformersEngine):
    """Frames sampled evenly over the clip with PyAV, then the model's image processor and
    classifier. Not the pipeline: with torchvision installed it decodes files only through
    torchcodec or torchvision < 0.26, which a current torch install lacks."""

    requires = TransformersEngine.requires + ("av",)

    def predict(self, inputs: dict[str, Any], workspace: Workspace) -> ExpertOutput:
        import torch

        processor = self.pretrained("AutoImageProcessor")
        model = self.pretrained("AutoModelForVideoClassification")
        try:
            frames = read_frames(str(self.require(inputs, "video")), getattr(model.config, "num_frames", 16))
        except (ValueError, OSError) as exc:
            raise self.fail(str(exc)) from None
        pixels = processor(frames, return_tensors="pt")["pixel_values"].to(torch_device(), model.dtype)
        with torch.inference_mode():
            probs = model(pixel_values=pixels).logits[0].float().softmax(-1).cpu()
        top = probs.topk(min(5, probs.numel()))
        result = [{"score": float(s), "label": model.config.id2label[int(i)]} for s, i in zip(top.values, top.indices)]
        return ExpertOutput(model=self.model_id, result=result, text=labels_text(result))
