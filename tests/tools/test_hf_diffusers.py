"""The diffusers backend on tiny random pipelines the tests build and save (no download):
each generation task loads its folder the way a Hub checkpoint loads and writes a
file of the expected size and format. The pixels are noise; only shapes are asserted."""

from __future__ import annotations

import os

os.environ["HF_HUB_OFFLINE"] = "1"

from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from langchain_hugginggpt.core.workspace import Workspace
from langchain_hugginggpt.tools import ExpertError, ExpertTool, task_status
from langchain_hugginggpt.tools.engines.hf_diffusers import diffusion_steps
from langchain_hugginggpt.tools.engines.hf_transformers import engine_for_hub_model
from tests.tools import _diffusers_tiny as tiny


@pytest.fixture(autouse=True)
def two_steps(monkeypatch):
    monkeypatch.setenv("HUGGINGGPT_DIFFUSION_STEPS", "2")
    monkeypatch.setenv("HUGGINGGPT_DIFFUSION_SEED", "0")


@pytest.fixture(scope="module")
def root(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("hf-diffusers")


@pytest.fixture(scope="module")
def ws(root) -> Workspace:
    work = root / "work"
    work.mkdir()
    rng = np.random.default_rng(0)
    Image.fromarray(rng.integers(0, 255, (40, 60, 3), dtype=np.uint8)).save(work / "photo.png")  # 60 is not a multiple of 8
    (work / "broken.png").write_bytes(b"\x89PNG but truncated")
    return Workspace(work)


@pytest.fixture(scope="module")
def stable_diffusion(root) -> Path:
    return tiny.save_stable_diffusion(root / "sd")


def run(task: str, folder: Path, ws: Workspace, **inputs):
    engine = engine_for_hub_model(task, str(folder))()
    assert engine.backend == "diffusers" and engine.unavailable_reason() is None
    resolved = {k: str(ws.resolve_input(v)) if k == "image" else v for k, v in inputs.items()}
    return engine.run(resolved, ws)


def test_text_to_image_writes_an_image_of_the_pipeline_size(stable_diffusion, ws):
    out = run("text-to-image", stable_diffusion, ws, text="a red cat")
    with Image.open(out.image) as image:
        assert image.format == "PNG" and image.size == (32, 32)  # 16x16 latents, VAE scale 2
    assert out.result["steps"] == 2 == diffusion_steps()


def test_the_same_seed_gives_the_same_image(stable_diffusion, ws):
    first = run("text-to-image", stable_diffusion, ws, text="a red cat")
    second = run("text-to-image", stable_diffusion, ws, text="a red cat")
    assert np.array_equal(np.asarray(Image.open(first.image)), np.asarray(Image.open(second.image)))


def test_image_to_image_converts_a_text_to_image_checkpoint(stable_diffusion, ws):
    out = run("image-to-image", stable_diffusion, ws, image="photo.png", text="a red cat")
    with Image.open(out.image) as image:
        assert image.size == (56, 40)  # the input, rounded down to multiples of 8


def test_image_editing_with_instruct_pix2pix(root, ws):
    out = run("image-editing", tiny.save_instruct_pix2pix(root / "pix2pix"), ws, image="photo.png", text="make it red")
    with Image.open(out.image) as image:
        assert image.size == (56, 40)


def test_controlnet_generation_on_the_configured_base(root, stable_diffusion, ws, monkeypatch):
    controlnet = tiny.save_controlnet(root / "controlnet")
    monkeypatch.setenv("HUGGINGGPT_CONTROLNET_BASE", str(root / "no-such-base"))
    engine = engine_for_hub_model("canny-text-to-image", str(controlnet))()
    assert "does not exist" in engine.unavailable_reason()  # the base is checked, not just the ControlNet
    monkeypatch.setenv("HUGGINGGPT_CONTROLNET_BASE", str(stable_diffusion))
    out = run("canny-text-to-image", controlnet, ws, image="photo.png", text="a red cat")
    with Image.open(out.image) as image:
        assert image.size == (56, 40)


def test_text_to_video_writes_a_playable_mp4(root, ws):
    import av

    out = run("text-to-video", tiny.save_text_to_video(root / "t2v"), ws, text="a red cat")
    assert out.video.endswith(".mp4")
    with av.open(out.video) as container:
        frames = [f.to_ndarray(format="rgb24") for f in container.decode(video=0)]
    assert len(frames) == out.result["frames"] == 16 and frames[0].shape == (32, 32, 3)


def test_bad_inputs_and_missing_models(stable_diffusion, ws, monkeypatch, tmp_path):
    from huggingface_hub import constants

    with pytest.raises(ExpertError, match=r"image-to-image with .*sd: cannot read image .*not an image"):
        run("image-to-image", stable_diffusion, ws, image="broken.png")
    with pytest.raises(ExpertError, match="missing input 'text'"):
        run("text-to-image", stable_diffusion, ws)

    monkeypatch.setattr(constants, "HF_HUB_CACHE", str(tmp_path / "empty-cache"))
    for var in ("HUGGINGGPT_ALLOW_DOWNLOADS", "HF_TOKEN", "HUGGINGFACEHUB_API_TOKEN", "HUGGINGGPT_INFERENCE_BASE_URL"):
        monkeypatch.delenv(var, raising=False)
    engine = engine_for_hub_model("text-to-image", "runwayml/stable-diffusion-v1-5")()
    assert engine.backend == "diffusers"
    with pytest.raises(ExpertError, match=r"text-to-image with runwayml/stable-diffusion-v1-5: .*would download from the Hub"):
        engine.run({"text": "a cat"}, ws)
    status = task_status("openpose-text-to-image")
    assert "would download" in status["unavailable"]["lllyasviel/sd-controlnet-openpose"]
    with pytest.raises(ExpertError, match="would download"):
        ExpertTool.for_task("text-to-image", model="runwayml/stable-diffusion-v1-5", workspace=ws).invoke({"text": "a cat"})
