"""Tiny randomly initialised diffusers pipelines (the diffusers test-suite recipe): a
two-block UNet, a two-block VAE and a small CLIP text encoder, so a 32x32 image
takes two denoising steps in well under a second. Outputs are noise."""

from __future__ import annotations

from pathlib import Path

CROSS_DIM = 32


def _seed() -> None:
    import torch

    torch.manual_seed(0)


def clip_tokenizer():
    """A byte-level CLIP BPE tokenizer over single characters (no merges)."""
    from transformers import CLIPTokenizer

    chars = list("abcdefghijklmnopqrstuvwxyz0123456789.,!?'-")
    tokens = ["<|startoftext|>", "<|endoftext|>"] + chars + [c + "</w>" for c in chars]
    return CLIPTokenizer(vocab={t: i for i, t in enumerate(tokens)}, merges=[], model_max_length=16)


def text_encoder(vocab_size: int):
    from transformers import CLIPTextConfig, CLIPTextModel

    config = CLIPTextConfig(vocab_size=vocab_size, hidden_size=CROSS_DIM, intermediate_size=37, num_attention_heads=4,
                            num_hidden_layers=2, max_position_embeddings=16, bos_token_id=0, eos_token_id=1, pad_token_id=1)
    return CLIPTextModel(config)


def vae():
    from diffusers import AutoencoderKL

    return AutoencoderKL(block_out_channels=(4, 8), in_channels=3, out_channels=3, latent_channels=4, norm_num_groups=2,
                         down_block_types=("DownEncoderBlock2D",) * 2, up_block_types=("UpDecoderBlock2D",) * 2)


def unet(in_channels: int = 4):
    from diffusers import UNet2DConditionModel

    return UNet2DConditionModel(block_out_channels=(4, 8), layers_per_block=1, sample_size=16, in_channels=in_channels,
                                out_channels=4, down_block_types=("DownBlock2D", "CrossAttnDownBlock2D"),
                                up_block_types=("CrossAttnUpBlock2D", "UpBlock2D"), cross_attention_dim=CROSS_DIM,
                                attention_head_dim=2, norm_num_groups=2)


def _components(unet_model) -> dict:
    from diffusers import DDIMScheduler

    tokenizer = clip_tokenizer()
    return {"unet": unet_model, "vae": vae(), "text_encoder": text_encoder(len(tokenizer)), "tokenizer": tokenizer,
            "scheduler": DDIMScheduler(beta_start=0.00085, beta_end=0.012, beta_schedule="scaled_linear", clip_sample=False,
                                        steps_offset=1)}


def save_stable_diffusion(folder: Path) -> Path:
    """A StableDiffusionPipeline whose images are 32x32 (latents 16x16, VAE scale 2)."""
    from diffusers import StableDiffusionPipeline

    _seed()
    pipe = StableDiffusionPipeline(**_components(unet()), safety_checker=None, feature_extractor=None,
                                   requires_safety_checker=False)
    pipe.save_pretrained(folder)
    return folder


def save_instruct_pix2pix(folder: Path) -> Path:
    """InstructPix2Pix: the UNet takes the noisy latents and the image latents (8 channels)."""
    from diffusers import StableDiffusionInstructPix2PixPipeline

    _seed()
    pipe = StableDiffusionInstructPix2PixPipeline(**_components(unet(in_channels=8)), safety_checker=None,
                                                  feature_extractor=None, requires_safety_checker=False)
    pipe.save_pretrained(folder)
    return folder


def save_controlnet(folder: Path) -> Path:
    """A ControlNet matching `unet()`; its condition embedding downsamples by 2, as the VAE does."""
    from diffusers import ControlNetModel

    _seed()
    ControlNetModel(block_out_channels=(4, 8), layers_per_block=1, in_channels=4, cross_attention_dim=CROSS_DIM,
                    down_block_types=("DownBlock2D", "CrossAttnDownBlock2D"), conditioning_embedding_out_channels=(16, 32),
                    attention_head_dim=2, norm_num_groups=2).save_pretrained(folder)
    return folder


def save_text_to_video(folder: Path) -> Path:
    from diffusers import TextToVideoSDPipeline, UNet3DConditionModel

    _seed()
    unet3d = UNet3DConditionModel(block_out_channels=(4, 8), layers_per_block=1, sample_size=16, in_channels=4,
                                  out_channels=4, down_block_types=("CrossAttnDownBlock3D", "DownBlock3D"),
                                  up_block_types=("UpBlock3D", "CrossAttnUpBlock3D"), cross_attention_dim=CROSS_DIM,
                                  attention_head_dim=4, norm_num_groups=2)
    TextToVideoSDPipeline(**_components(unet3d)).save_pretrained(folder)
    return folder
