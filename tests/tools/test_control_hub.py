"""depth-control and seg-control: the Hub engines (DPT-Hybrid MiDaS, UperNet on ADE20K) on tiny
random models of those architectures the tests build, and their error when the weights are missing.

Random weights make the maps meaningless; the tests assert what ControlNet needs of any such
map: the input's size, three channels, a grey depth map normalised to 0..255, and a seg map
that only uses ADE20K palette colours, class id i in colour i.
"""

from __future__ import annotations

import os

os.environ["HF_HUB_OFFLINE"] = "1"

import argparse
from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageDraw

from langchain_hugginggpt.core.workspace import Workspace
from langchain_hugginggpt.tools import ExpertError, ExpertTool, task_status
from langchain_hugginggpt.tools.engines._ade20k import ADE20K_PALETTE
from langchain_hugginggpt.tools.engines._hf_media import DepthControl, DepthEstimation, ImageSegmentation
from langchain_hugginggpt.tools.engines._hub import torch_device
from langchain_hugginggpt.tools.engines.hf_transformers import engine_for_hub_model
from langchain_hugginggpt.tools.registry import engine_class
from tests.tools import _hf_tiny as tiny

DEFAULTS = {"depth-control": "Intel/dpt-hybrid-midas", "seg-control": "openmmlab/upernet-convnext-small"}
ADE_LABELS = {i: f"ade-class-{i}" for i in range(len(ADE20K_PALETTE))}  # ADE20K-sized label map


def save_dpt_hybrid(folder: Path) -> Path:
    """DPT-Hybrid (a BiT backbone under the ViT), the architecture of Intel/dpt-hybrid-midas."""
    import torch
    from transformers import BitConfig, DPTConfig, DPTForDepthEstimation, DPTImageProcessor

    torch.manual_seed(0)
    bit = BitConfig(layer_type="bottleneck", global_padding="same", embedding_size=8, hidden_sizes=[8, 16, 32],
                    depths=[1, 1, 1], num_groups=2, out_features=["stage1", "stage2", "stage3"])
    config = DPTConfig(is_hybrid=True, backbone_config=bit, backbone_featmap_shape=[1, 32, 2, 2], image_size=32,
                       patch_size=16, hidden_size=16, num_hidden_layers=4, num_attention_heads=2, intermediate_size=32,
                       backbone_out_indices=[0, 1, 2, 3], neck_hidden_sizes=[8, 16, 16, 16], fusion_hidden_size=16,
                       reassemble_factors=[1, 1, 1, 0.5])
    DPTForDepthEstimation(config).save_pretrained(folder)
    DPTImageProcessor(size={"height": 32, "width": 32}).save_pretrained(folder)
    return folder


def save_upernet(folder: Path) -> Path:
    """UperNet on a ConvNeXt backbone with ADE20K's 150 classes, the architecture of openmmlab/upernet-convnext-small."""
    import torch
    from transformers import ConvNextConfig, SegformerImageProcessor, UperNetConfig, UperNetForSemanticSegmentation

    torch.manual_seed(0)
    backbone = ConvNextConfig(num_stages=2, hidden_sizes=[8, 16], depths=[1, 1], out_features=["stage1", "stage2"])
    config = UperNetConfig(backbone_config=backbone, hidden_size=16, pool_scales=[1, 2], use_auxiliary_head=False,
                           id2label=ADE_LABELS, label2id={v: k for k, v in ADE_LABELS.items()})
    UperNetForSemanticSegmentation(config).save_pretrained(folder)
    SegformerImageProcessor(size={"height": 32, "width": 32}).save_pretrained(folder)
    return folder


@pytest.fixture(scope="module")
def root(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("control-hub-models")


@pytest.fixture(scope="module")
def ws(tmp_path_factory) -> Workspace:
    """A 64 x 48 scene drawn with Pillow (sky, ground, a house), not square so resizing back is tested."""
    work = tmp_path_factory.mktemp("control-hub-work")
    scene = Image.new("RGB", (64, 48), (90, 160, 230))
    draw = ImageDraw.Draw(scene)
    draw.rectangle((0, 30, 63, 47), fill=(60, 140, 50))
    draw.rectangle((20, 14, 40, 36), fill=(200, 40, 30))
    draw.polygon([(18, 14), (30, 4), (42, 14)], fill=(90, 50, 20))
    scene.save(work / "scene.png")
    (work / "corrupt.png").write_bytes(b"\x89PNG but only the signature")
    return Workspace(work)


@pytest.fixture(scope="module")
def upernet(root) -> Path:
    return save_upernet(root / "upernet")


def run(task: str, folder: Path, ws: Workspace, image: str = "scene.png"):
    engine = engine_for_hub_model(task, str(folder))()
    assert engine.backend == "transformers" and not engine.stand_in and engine.unavailable_reason() is None
    return engine.run({"image": str(ws.resolve_input(image))}, ws)


def pixels(path: str) -> np.ndarray:
    with Image.open(path) as image:
        assert image.mode == "RGB" and image.size == (64, 48)  # ControlNet takes 3-channel maps of the input's size
        return np.asarray(image)


def test_depth_control_writes_a_grey_three_channel_depth_map_in_the_outputs(root, ws):
    out = run("depth-control", save_dpt_hybrid(root / "dpt-hybrid"), ws)
    path = Path(out.image)
    assert path.parent == ws.outputs and path.name.startswith("depth-control-") and path.suffix == ".png"
    assert out.files == [out.image] and out.result["depth"] == out.image
    depth = pixels(out.image)
    assert (depth[..., 0] == depth[..., 1]).all() and (depth[..., 1] == depth[..., 2]).all()
    assert depth.min() == 0 and depth.max() == 255  # min-max normalised, as ControlNet's MiDaS annotator does
    assert out.result["min"] < out.result["max"]


def test_depth_control_is_the_depth_estimation_map_in_three_channels(root, ws):
    folder = tiny.save_dpt(root / "dpt")  # the Intel/dpt-large architecture: any DPT checkpoint works
    estimated, control = run("depth-estimation", folder, ws), run("depth-control", folder, ws)
    with Image.open(estimated.image) as grey:
        assert grey.mode == "L"
        assert (pixels(control.image) == np.asarray(grey)[..., None]).all()
    assert control.result["min"] == estimated.result["min"] and control.result["max"] == estimated.result["max"]
    assert issubclass(engine_class("depth-control", DEFAULTS["depth-control"]), DepthControl)
    assert issubclass(DepthControl, DepthEstimation)  # one code path; only the rendering differs


def test_seg_control_paints_each_class_in_its_ade20k_colour(upernet, ws):
    import torch
    from transformers import AutoImageProcessor, UperNetForSemanticSegmentation

    out = run("seg-control", upernet, ws)
    path = Path(out.image)
    assert path.parent == ws.outputs and path.name.startswith("seg-control-") and out.note is None
    seg = pixels(out.image)
    colours = {tuple(int(c) for c in rgb) for rgb in seg.reshape(-1, 3)}
    assert colours <= set(ADE20K_PALETTE)  # every pixel is painted, in palette colours only
    labels = [s["label"] for s in out.result]
    assert len(labels) == len(set(labels)) > 1 and set(labels) <= set(ADE_LABELS.values())
    assert colours == {ADE20K_PALETTE[int(label.rsplit("-", 1)[1])] for label in labels}

    # the recipe of diffusers' sd-controlnet-seg card, by hand: argmax classes, class i in palette colour i;
    # on the engine's device, as a GPU's TF32 convolutions can flip the near-tied argmax of random logits
    device = torch_device()
    processor = AutoImageProcessor.from_pretrained(upernet)
    model = UperNetForSemanticSegmentation.from_pretrained(upernet).to(device).eval()
    with Image.open(ws.root / "scene.png") as scene, torch.no_grad():
        logits = model(**processor(scene.convert("RGB"), return_tensors="pt").to(device))
    classes = processor.post_process_semantic_segmentation(logits, target_sizes=[(48, 64)])[0].cpu().numpy()
    assert (seg == np.asarray(ADE20K_PALETTE, dtype=np.uint8)[classes]).all()


def test_seg_control_says_when_a_model_does_not_have_ade20k_classes(root, ws):
    out = run("seg-control", tiny.save_segformer(root / "segformer"), ws)
    assert "has 3 classes, not ADE20K's 150" in out.note
    assert {tuple(int(c) for c in rgb) for rgb in pixels(out.image).reshape(-1, 3)} <= set(ADE20K_PALETTE[:3])


def test_the_expert_tool_runs_a_pinned_folder_model(upernet, ws):
    result = ExpertTool.for_task("seg-control", model=str(upernet), workspace=ws).run_expert({"image": "scene.png"}).model_dump()
    assert result["model"] == str(upernet) and Path(result["image"]).parent == ws.outputs
    assert issubclass(engine_for_hub_model("seg-control", str(upernet)), ImageSegmentation)
    with pytest.raises(ExpertError, match=r"seg-control with .*upernet: cannot read image .*corrupt\.png: not an image"):
        run("seg-control", upernet, ws, image="corrupt.png")


@pytest.mark.parametrize("task", sorted(DEFAULTS))
def test_default_models_missing_from_the_cache_need_a_download(task, ws, monkeypatch, tmp_path, capsys):
    from huggingface_hub import constants

    from langchain_hugginggpt.cli.main import cmd_tasks

    model = DEFAULTS[task]
    monkeypatch.setattr(constants, "HF_HUB_CACHE", str(tmp_path / "empty-cache"))
    monkeypatch.delenv("HUGGINGGPT_ALLOW_DOWNLOADS", raising=False)
    status = task_status(task)
    assert status["available"] is False and status["models"] == [] and status["stand_ins"] == []
    assert "not in the local Hugging Face cache (would download from the Hub)" in status["unavailable"][model]

    missing = rf"{model} is not in the local Hugging Face cache .*HUGGINGGPT_ALLOW_DOWNLOADS=1"
    with pytest.raises(ExpertError, match=rf"^{task} with {model}: {missing}"):
        engine_class(task, model)().run({"image": str(ws.root / "scene.png")}, ws)
    with pytest.raises(ExpertError, match=rf"no model for '{task}' can run here; tried: {model} \({missing}"):
        ExpertTool.for_task(task, workspace=ws).invoke({"image": "scene.png"})

    cmd_tasks(argparse.Namespace(json=False, markdown=True))
    [row] = [line for line in capsys.readouterr().out.splitlines() if line.startswith(f"| {task} |")]
    assert row == f"| {task} | image | - | - | needs a download or a GPU |"
