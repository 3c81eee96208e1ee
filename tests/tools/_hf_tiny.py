"""Tiny randomly initialised Hugging Face models, built and saved the way transformers'
and diffusers' own tests build theirs: a few thousand parameters, no download.

Their outputs are meaningless; tests may only assert what any model of that
architecture guarantees (labels from the config, boxes inside the image, file sizes).
"""

from __future__ import annotations

import json
from pathlib import Path

WORDS = ("ada lovelace lived in london paris the cat sat on a mat who where did what is was "
         "sky blue red dog house it good bad very , . ?").split()
SPECIALS = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
NER_LABELS = {0: "O", 1: "B-PER", 2: "I-PER", 3: "B-LOC", 4: "I-LOC"}
SENTIMENT_LABELS = {0: "NEGATIVE", 1: "POSITIVE"}
NLI_LABELS = {0: "contradiction", 1: "neutral", 2: "entailment"}
IMAGE_LABELS = {0: "cat", 1: "dog", 2: "house"}
ANSWERS = {0: "yes", 1: "no", 2: "two", 3: "red"}
SOUND_LABELS = {0: "speech", 1: "music", 2: "siren"}
CTC_CHARS = ["<pad>", "<s>", "</s>", "<unk>", "|", "a", "b", "c", "d", "e", "o", "t"]


def _seed() -> None:
    import torch

    torch.manual_seed(0)


def word_tokenizer():
    """A BERT WordPiece tokenizer over a small fixed vocabulary (lower-cased)."""
    from transformers import BertTokenizer

    vocab = {w: i for i, w in enumerate(SPECIALS + WORDS)}
    return BertTokenizer(vocab=vocab, model_max_length=64)


def _bert_config(**kwargs):
    from transformers import BertConfig

    return BertConfig(vocab_size=len(SPECIALS) + len(WORDS), hidden_size=16, num_hidden_layers=1, num_attention_heads=2,
                      intermediate_size=32, max_position_embeddings=64, **kwargs)


def save_bert(folder: Path, head: str, id2label: dict[int, str] | None = None) -> Path:
    """BertFor<head> (SequenceClassification, TokenClassification, QuestionAnswering, Model)."""
    import transformers

    _seed()
    config = _bert_config(**({"id2label": id2label, "label2id": {v: k for k, v in id2label.items()}} if id2label else {}))
    getattr(transformers, f"Bert{head}")(config).save_pretrained(folder)
    word_tokenizer().save_pretrained(folder)
    return folder


def save_bart(folder: Path) -> Path:
    """An encoder-decoder (summarization, translation, text2text) sharing the word tokenizer."""
    from transformers import BartConfig, BartForConditionalGeneration

    _seed()
    tokenizer = word_tokenizer()
    config = BartConfig(vocab_size=len(tokenizer), d_model=16, encoder_layers=1, decoder_layers=1,
                        encoder_attention_heads=2, decoder_attention_heads=2, encoder_ffn_dim=32, decoder_ffn_dim=32,
                        max_position_embeddings=64, pad_token_id=0, bos_token_id=2, eos_token_id=3,
                        decoder_start_token_id=2, forced_eos_token_id=None)
    BartForConditionalGeneration(config).save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return folder


def save_m2m100(folder: Path) -> Path:
    """A many-language translation model (M2M100): its SentencePiece vocabulary trained here on WORDS, and
    a token for each of its 100 languages (__fr__), which its tokenizer puts before the text."""
    import io

    import sentencepiece as spm
    from transformers import M2M100Config, M2M100ForConditionalGeneration, M2M100Tokenizer

    _seed()
    folder.mkdir(parents=True, exist_ok=True)
    model = io.BytesIO()
    spm.SentencePieceTrainer.train(sentence_iterator=iter([" ".join(WORDS)] * 4), model_writer=model,
                                   vocab_size=len(set(WORDS)) + 4, model_type="word", bos_id=0, pad_id=1, eos_id=2,
                                   unk_id=3, minloglevel=2)
    (folder / "sentencepiece.bpe.model").write_bytes(model.getvalue())
    pieces = spm.SentencePieceProcessor(model_proto=model.getvalue())
    (folder / "vocab.json").write_text(json.dumps({pieces.id_to_piece(i): i for i in range(pieces.get_piece_size())}))
    tokenizer = M2M100Tokenizer(str(folder / "vocab.json"), str(folder / "sentencepiece.bpe.model"))
    config = M2M100Config(vocab_size=max(tokenizer.lang_token_to_id.values()) + 1, d_model=16, encoder_layers=1,
                          decoder_layers=1, encoder_attention_heads=2, decoder_attention_heads=2, encoder_ffn_dim=32,
                          decoder_ffn_dim=32, max_position_embeddings=64, pad_token_id=1, bos_token_id=0,
                          eos_token_id=2, decoder_start_token_id=2)
    M2M100ForConditionalGeneration(config).save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return folder


def save_gpt2(folder: Path, chat_template: str | None = None) -> Path:
    from transformers import GPT2Config, GPT2LMHeadModel

    _seed()
    tokenizer = word_tokenizer()
    if chat_template:
        tokenizer.chat_template = chat_template
    config = GPT2Config(vocab_size=len(tokenizer), n_embd=16, n_layer=1, n_head=2, n_positions=128,
                        bos_token_id=2, eos_token_id=3, pad_token_id=0)
    GPT2LMHeadModel(config).save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return folder


def _vit_config(**kwargs):
    from transformers import ViTConfig

    return ViTConfig(image_size=32, patch_size=8, hidden_size=16, num_hidden_layers=1, num_attention_heads=2,
                     intermediate_size=32, **kwargs)


def _image_processor(size: int = 32):
    from transformers import ViTImageProcessor

    return ViTImageProcessor(size={"height": size, "width": size})


def save_vit(folder: Path) -> Path:
    from transformers import ViTForImageClassification

    _seed()
    ViTForImageClassification(_vit_config(id2label=IMAGE_LABELS, label2id={v: k for k, v in IMAGE_LABELS.items()})).save_pretrained(folder)
    _image_processor().save_pretrained(folder)
    return folder


def save_detr(folder: Path) -> Path:
    """DETR on a native (not timm) two-stage ResNet backbone."""
    from transformers import DetrConfig, DetrForObjectDetection, DetrImageProcessor, ResNetConfig

    _seed()
    backbone = ResNetConfig(embedding_size=8, hidden_sizes=[8, 16], depths=[1, 1], layer_type="basic",
                            out_features=["stage1", "stage2"])
    config = DetrConfig(backbone_config=backbone, use_timm_backbone=False, use_pretrained_backbone=False,
                        d_model=16, encoder_layers=1, decoder_layers=1, encoder_attention_heads=2,
                        decoder_attention_heads=2, encoder_ffn_dim=32, decoder_ffn_dim=32, num_queries=5,
                        id2label=IMAGE_LABELS, label2id={v: k for k, v in IMAGE_LABELS.items()})
    DetrForObjectDetection(config).save_pretrained(folder)
    DetrImageProcessor(size={"shortest_edge": 32, "longest_edge": 64}).save_pretrained(folder)
    return folder


def save_segformer(folder: Path) -> Path:
    from transformers import SegformerConfig, SegformerForSemanticSegmentation, SegformerImageProcessor

    _seed()
    config = SegformerConfig(num_encoder_blocks=1, depths=[1], sr_ratios=[1], hidden_sizes=[16], num_attention_heads=[1],
                             patch_sizes=[7], strides=[4], mlp_ratios=[2], decoder_hidden_size=16,
                             id2label=IMAGE_LABELS, label2id={v: k for k, v in IMAGE_LABELS.items()})
    SegformerForSemanticSegmentation(config).save_pretrained(folder)
    SegformerImageProcessor(size={"height": 32, "width": 32}).save_pretrained(folder)
    return folder


def save_dpt(folder: Path) -> Path:
    from transformers import DPTConfig, DPTForDepthEstimation, DPTImageProcessor

    _seed()
    config = DPTConfig(image_size=32, patch_size=8, hidden_size=16, num_hidden_layers=2, num_attention_heads=2,
                       intermediate_size=32, backbone_out_indices=[0, 1], neck_hidden_sizes=[8, 16],
                       fusion_hidden_size=16, head_in_index=-1, reassemble_factors=[4, 2])
    DPTForDepthEstimation(config).save_pretrained(folder)
    DPTImageProcessor(size={"height": 32, "width": 32}).save_pretrained(folder)
    return folder


def save_vit_gpt2(folder: Path) -> Path:
    """A ViT encoder and GPT-2 decoder joined as a VisionEncoderDecoderModel (vit-gpt2 captioning)."""
    from transformers import GPT2Config, VisionEncoderDecoderConfig, VisionEncoderDecoderModel

    _seed()
    tokenizer = word_tokenizer()
    decoder = GPT2Config(vocab_size=len(tokenizer), n_embd=16, n_layer=1, n_head=2, n_positions=64,
                         add_cross_attention=True, is_decoder=True, bos_token_id=2, eos_token_id=3, pad_token_id=0)
    config = VisionEncoderDecoderConfig.from_encoder_decoder_configs(_vit_config(), decoder)
    config.decoder_start_token_id, config.pad_token_id, config.eos_token_id = 2, 0, 3
    VisionEncoderDecoderModel(config=config).save_pretrained(folder)
    _image_processor().save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return folder


def save_vilt(folder: Path) -> Path:
    from transformers import ViltConfig, ViltForQuestionAnswering, ViltImageProcessor, ViltProcessor

    _seed()
    tokenizer = word_tokenizer()
    config = ViltConfig(vocab_size=len(tokenizer), hidden_size=16, num_hidden_layers=1, num_attention_heads=2,
                        intermediate_size=32, image_size=32, patch_size=8, max_position_embeddings=40,
                        num_images=-1, id2label=ANSWERS, label2id={v: k for k, v in ANSWERS.items()})
    ViltForQuestionAnswering(config).save_pretrained(folder)
    image_processor = ViltImageProcessor(size={"shortest_edge": 32}, size_divisor=8, do_pad=True)
    ViltProcessor(image_processor=image_processor, tokenizer=tokenizer).save_pretrained(folder)
    return folder


def _ctc_tokenizer(folder: Path):
    from transformers import Wav2Vec2CTCTokenizer

    vocab = folder / "vocab.json"
    folder.mkdir(parents=True, exist_ok=True)
    vocab.write_text(json.dumps({c: i for i, c in enumerate(CTC_CHARS)}))
    return Wav2Vec2CTCTokenizer(str(vocab), word_delimiter_token="|")


def _wav2vec2_config(**kwargs):
    from transformers import Wav2Vec2Config

    return Wav2Vec2Config(hidden_size=16, num_hidden_layers=1, num_attention_heads=2, intermediate_size=32,
                          conv_dim=(8, 8), conv_kernel=(10, 3), conv_stride=(5, 2), num_conv_pos_embeddings=16,
                          num_conv_pos_embedding_groups=2, vocab_size=len(CTC_CHARS), pad_token_id=0, **kwargs)


def save_wav2vec2_ctc(folder: Path) -> Path:
    from transformers import Wav2Vec2FeatureExtractor, Wav2Vec2ForCTC, Wav2Vec2Processor

    _seed()
    Wav2Vec2ForCTC(_wav2vec2_config()).save_pretrained(folder)
    extractor = Wav2Vec2FeatureExtractor(sampling_rate=16000, return_attention_mask=True)
    Wav2Vec2Processor(feature_extractor=extractor, tokenizer=_ctc_tokenizer(folder)).save_pretrained(folder)
    return folder


def save_wav2vec2_classifier(folder: Path) -> Path:
    from transformers import Wav2Vec2FeatureExtractor, Wav2Vec2ForSequenceClassification

    _seed()
    config = _wav2vec2_config(id2label=SOUND_LABELS, label2id={v: k for k, v in SOUND_LABELS.items()})
    Wav2Vec2ForSequenceClassification(config).save_pretrained(folder)
    Wav2Vec2FeatureExtractor(sampling_rate=16000).save_pretrained(folder)
    return folder


def save_videomae(folder: Path) -> Path:
    from transformers import VideoMAEConfig, VideoMAEForVideoClassification, VideoMAEImageProcessor

    _seed()
    config = VideoMAEConfig(image_size=32, patch_size=8, num_frames=4, tubelet_size=2, hidden_size=16,
                            num_hidden_layers=1, num_attention_heads=2, intermediate_size=32,
                            id2label=IMAGE_LABELS, label2id={v: k for k, v in IMAGE_LABELS.items()})
    VideoMAEForVideoClassification(config).save_pretrained(folder)
    VideoMAEImageProcessor(size={"shortest_edge": 32}, crop_size={"height": 32, "width": 32}).save_pretrained(folder)
    return folder


def save_vits(folder: Path) -> Path:
    """A VITS text-to-waveform model with a character tokenizer (the MMS-TTS architecture)."""
    from transformers import VitsConfig, VitsModel, VitsTokenizer

    _seed()
    folder.mkdir(parents=True, exist_ok=True)
    chars = ["<pad>", "<unk>", " "] + list("abcdefghijklmnopqrstuvwxyz")
    (folder / "vocab.json").write_text(json.dumps({c: i for i, c in enumerate(chars)}))
    tokenizer = VitsTokenizer(str(folder / "vocab.json"), add_blank=True, phonemize=False)
    config = VitsConfig(vocab_size=len(chars), hidden_size=16, num_hidden_layers=2, num_attention_heads=2,
                        intermediate_size=32, flow_size=16, spectrogram_bins=8, duration_predictor_num_flows=2,
                        duration_predictor_filter_channels=16, prior_encoder_num_flows=2, upsample_initial_channel=16,
                        upsample_rates=[8, 2], upsample_kernel_sizes=[16, 4], resblock_kernel_sizes=[3, 7],
                        resblock_dilation_sizes=[[1, 3, 5], [1, 3, 5]], sampling_rate=16000)
    VitsModel(config).save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return folder


def save_layoutlm_qa(folder: Path) -> Path:
    """LayoutLM for extractive document QA (the impira/layoutlm-document-qa architecture)."""
    from transformers import LayoutLMConfig, LayoutLMForQuestionAnswering

    _seed()
    tokenizer = word_tokenizer()
    config = LayoutLMConfig(vocab_size=len(tokenizer), hidden_size=16, num_hidden_layers=1, num_attention_heads=2,
                            intermediate_size=32, max_position_embeddings=128, max_2d_position_embeddings=1024)
    LayoutLMForQuestionAnswering(config).save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return folder
