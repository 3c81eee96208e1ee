"""diffusers pipelines by Hub model id (or saved folder): text-to-image, image-to-image,
image editing, ControlNet generation and text-to-video.

`DiffusionPipeline.from_pretrained` picks the pipeline class a checkpoint's
`model_index.json` names, so any catalog model of these tasks loads the way its
authors saved it. Steps: HUGGINGGPT_DIFFUSION_STEPS (default 20). ControlNets run on
the SD-1.5 base named by HUGGINGGPT_CONTROLNET_BASE. Same cache rule as transformers.
"""

from __future__ import annotations

import functools
import os
from typing import TYPE_CHECKING, Any, ClassVar

from langchain_hugginggpt.tools.base import ExpertOutput
from langchain_hugginggpt.tools.engines._hf_defaults import CONTROLNET_CONDITIONS, DIFFUSERS_DEFAULTS
from langchain_hugginggpt.tools.engines._hub import (
    HubEngine,
    is_local_path,
    missing_weights,
    model_source,
    register_default,
    torch_device,
)
from langchain_hugginggpt.tools.engines._image_io import load_image, save_png

if TYPE_CHECKING:
    from PIL import Image as PILImage

    from langchain_hugginggpt.core.workspace import Workspace

STEPS_ENV = "HUGGINGGPT_DIFFUSION_STEPS"
CONTROLNET_BASE_ENV = "HUGGINGGPT_CONTROLNET_BASE"
DEFAULT_CONTROLNET_BASE = "runwayml/stable-diffusion-v1-5"


def diffusion_steps() -> int:
    try:
        return max(1, int(os.environ.get(STEPS_ENV, "20")))
    except ValueError:
        return 20


def controlnet_base() -> str:
    return os.environ.get(CONTROLNET_BASE_ENV) or DEFAULT_CONTROLNET_BASE


def _dtype() -> Any:
    import torch

    return torch.float16 if torch_device() == "cuda" else torch.float32


@functools.lru_cache(maxsize=2)  # a Stable Diffusion pipeline holds ~4 GB: keep few
def load_diffusion(model_id: str, mode: str = "auto", controlnet: str | None = None) -> Any:
    """A pipeline for `model_id`: as saved ("auto"), converted for image-to-image, or with a ControlNet."""
    import diffusers

    kwargs = {"dtype": _dtype()}
    if controlnet is not None:
        net = diffusers.ControlNetModel.from_pretrained(model_source(controlnet), **kwargs)
        pipe = diffusers.StableDiffusionControlNetPipeline.from_pretrained(model_source(model_id), controlnet=net, **kwargs)
        pipe.scheduler = diffusers.UniPCMultistepScheduler.from_config(pipe.scheduler.config)  # as HuggingGPT ran them
    else:
        pipe = diffusers.DiffusionPipeline.from_pretrained(model_source(model_id), **kwargs)
        if mode == "image-to-image" and not _takes_image_only(pipe):
            pipe = diffusers.AutoPipelineForImage2Image.from_pipe(pipe)
    pipe.set_progress_bar_config(disable=True)
    return pipe.to(torch_device())


def _takes_image_only(pipe: Any) -> bool:
    """Image-variation pipelines condition on a CLIP image embedding and take no prompt."""
    return type(pipe).__name__ == "StableDiffusionImageVariationPipeline"


def _multiple_of_8(image: PILImage.Image, longest: int = 768) -> PILImage.Image:
    """Latent diffusion needs sides divisible by 8; keep big inputs within what SD-1.5 was trained on."""
    scale = min(1.0, longest / max(image.size))
    width, height = (max(8, int(side * scale) // 8 * 8) for side in image.size)
    return image if (width, height) == image.size else image.resize((width, height))


class DiffusersEngine(HubEngine):
    backend = "diffusers"
    requires = ("diffusers", "transformers", "torch", "huggingface_hub")
    extra = "diffusion"
    weights_file = "model_index.json"
    mode: ClassVar[str] = "auto"

    def pipeline(self) -> Any:
        return load_diffusion(self.model_id, self.mode)

    def generate(self, **kwargs: Any) -> Any:
        import torch

        seed = os.environ.get("HUGGINGGPT_DIFFUSION_SEED")
        generator = torch.Generator("cpu").manual_seed(int(seed)) if seed else None
        return self.pipeline()(num_inference_steps=diffusion_steps(), generator=generator, **kwargs)

    def image_output(self, image: PILImage.Image, workspace: Workspace, stem: str) -> ExpertOutput:
        path = save_png(image, workspace, stem=stem)
        return ExpertOutput(model=self.model_id, result={"image": path, "steps": diffusion_steps()},
                            text=f"generated image {os.path.basename(path)}", image=path)


class TextToImage(DiffusersEngine):
    def predict(self, inputs: dict[str, Any], workspace: Workspace) -> ExpertOutput:
        image = self.generate(prompt=self.require(inputs, "text")).images[0]
        return self.image_output(image, workspace, "text-to-image")


class ImageToImage(DiffusersEngine):
    mode = "image-to-image"

    def predict(self, inputs: dict[str, Any], workspace: Workspace) -> ExpertOutput:
        image = _multiple_of_8(load_image(self, self.require(inputs, "image")))
        if _takes_image_only(self.pipeline()):
            out = self.generate(image=image)
        else:
            out = self.generate(prompt=inputs.get("text") or "", image=image, strength=0.75)
        return self.image_output(out.images[0], workspace, "image-to-image")


class ImageEditing(DiffusersEngine):
    """InstructPix2Pix: the instruction edits the image, which also conditions every step."""

    def predict(self, inputs: dict[str, Any], workspace: Workspace) -> ExpertOutput:
        image = _multiple_of_8(load_image(self, self.require(inputs, "image")))
        out = self.generate(prompt=self.require(inputs, "text"), image=image, image_guidance_scale=1.5)
        return self.image_output(out.images[0], workspace, "image-editing")


class ControlNetTextToImage(DiffusersEngine):
    """A ControlNet (this engine's model id) on the Stable Diffusion base it was trained for."""

    weights_file = "config.json"

    def check_resources(self) -> str | None:
        return missing_weights(self.model_id, "config.json") or missing_weights(controlnet_base(), "model_index.json")

    def pipeline(self) -> Any:
        return load_diffusion(controlnet_base(), controlnet=self.model_id)

    def predict(self, inputs: dict[str, Any], workspace: Workspace) -> ExpertOutput:
        condition = _multiple_of_8(load_image(self, self.require(inputs, "image")))
        out = self.generate(prompt=self.require(inputs, "text"), image=condition,
                            width=condition.width, height=condition.height)
        return self.image_output(out.images[0], workspace, self.task)


class TextToVideo(DiffusersEngine):
    num_frames: ClassVar[int] = 16
    fps: ClassVar[int] = 8

    def predict(self, inputs: dict[str, Any], workspace: Workspace) -> ExpertOutput:
        frames = self.generate(prompt=self.require(inputs, "text"), num_frames=self.num_frames).frames[0]
        path = write_video(frames, workspace, self.fps)
        return ExpertOutput(model=self.model_id, result={"video": path, "frames": len(frames), "fps": self.fps},
                            text=f"generated video {os.path.basename(path)}", video=path)


def write_video(frames: Any, workspace: Workspace, fps: int) -> str:
    """H.264 MP4 through PyAV when it is installed, else an animated GIF (Pillow only)."""
    import numpy as np
    from PIL import Image

    arrays = [np.asarray(f) for f in frames]
    arrays = [(a * 255).round().clip(0, 255).astype(np.uint8) if a.dtype != np.uint8 else a for a in arrays]
    try:
        import av
    except ImportError:
        path = workspace.new_output(".gif", stem="text-to-video")
        images = [Image.fromarray(a) for a in arrays]
        images[0].save(path, save_all=True, append_images=images[1:], duration=int(1000 / fps), loop=0)
        return str(path)
    path = workspace.new_output(".mp4", stem="text-to-video")
    height, width = (side // 2 * 2 for side in arrays[0].shape[:2])  # yuv420p needs even sides
    with av.open(str(path), "w") as container:
        stream = container.add_stream("libx264", rate=fps)
        stream.width, stream.height, stream.pix_fmt = width, height, "yuv420p"
        for array in arrays:
            container.mux(stream.encode(av.VideoFrame.from_ndarray(array[:height, :width, :3], format="rgb24")))
        container.mux(stream.encode())
    return str(path)


_RUNNERS: dict[str, type[DiffusersEngine]] = {
    "text-to-image": TextToImage,
    "image-to-image": ImageToImage,
    "image-editing": ImageEditing,
    "text-to-video": TextToVideo,
    **{f"{c}-text-to-image": ControlNetTextToImage for c in CONTROLNET_CONDITIONS},
}


@functools.cache
def diffusers_engine(task: str, model_id: str) -> type[DiffusersEngine] | None:
    """The engine class running `model_id` for `task` with diffusers; None for other tasks."""
    runner = _RUNNERS.get(task)
    if runner is None:
        return None
    where = "local folder" if is_local_path(model_id) else "Hugging Face model"
    name = "".join(part.capitalize() for part in task.split("-")) + "Engine"
    return type(name, (runner,), {"__module__": __name__, "task": task, "model_id": model_id,
                                  "description": f"{where} {model_id} run with diffusers ({task})"})


for _task, _model in DIFFUSERS_DEFAULTS.items():
    register_default(diffusers_engine(_task, _model))
