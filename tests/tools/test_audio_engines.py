"""Local audio engines on audio the tests make: flite and espeak-ng speech read back by
Whisper base and tiny.en, Silero VAD on speech, silence and noise, DeepFilterNet3 on
noisy speech. Every task runs through ExpertTool, the way the agent calls it."""

import wave
from pathlib import Path

import numpy as np
import pytest
from langchain_hugginggpt.core.workspace import WorkspaceError
from langchain_hugginggpt.tools import ExpertError, ExpertTool
from langchain_hugginggpt.tools.engines import audio
from langchain_hugginggpt.tools.engines._audio_io import load_audio, write_wav
from langchain_hugginggpt.tools.registry import engine_class, resolve_engine, task_status

SENTENCE = "Please call Stella and ask her to bring these things with her from the store."


def run(task: str, workspace, model: str | None = None, **args) -> dict:
    return ExpertTool.for_task(task, workspace=workspace, model=model).run_expert(args).model_dump()


def wav_params(path) -> tuple[int, float]:
    with wave.open(str(path)) as wav:
        return wav.getframerate(), wav.getnframes() / wav.getframerate()


@pytest.fixture(scope="module")
def spoken(av_workspace) -> str:
    """SENTENCE spoken by the flite engine, through the tool (path relative to the workspace)."""
    out = run("text-to-speech", av_workspace, text=SENTENCE)
    return str(Path(out["audio"]).relative_to(av_workspace.root))


# ------------------------------------------------------------------------ TTS

def test_flite_writes_a_wav_of_the_sentence(av_workspace, spoken):
    out_path = av_workspace.root / spoken
    assert out_path.parent == av_workspace.outputs
    rate, seconds = wav_params(out_path)
    assert rate == 16000 and 3 < seconds < 10


def test_espeak_speaks_the_language_of_the_text(av_workspace):
    out = run("text-to-speech", av_workspace, model="espeak-ng", text="El gato negro duerme en el sofá de la casa.")
    assert out["model"] == "espeak-ng" and "Spanish" in out["text"]
    rate, seconds = wav_params(out["audio"])
    assert rate == 22050 and seconds > 1


@pytest.mark.parametrize("model", ["flite/cmu_us_slt", "espeak-ng"])
def test_tts_rejects_empty_text(av_workspace, model):
    with pytest.raises(ExpertError, match=f"text-to-speech with {model}: no input text given"):
        run("text-to-speech", av_workspace, model=model, text=" ")


# ------------------------------------------------------------------------ ASR

@pytest.mark.slow
def test_whisper_base_reads_back_flite_speech(av_workspace, spoken, word_error_rate):
    out = run("automatic-speech-recognition", av_workspace, audio=spoken)
    assert out["model"] == "openai/whisper-base"
    assert word_error_rate(SENTENCE, out["text"]) < 0.3, out["text"]
    result = out["result"]
    assert result["text"] == out["text"] and result["language"] == "en"
    assert result["chunks"] and all(0 <= c["timestamp"][0] < c["timestamp"][1] for c in result["chunks"])


@pytest.mark.slow
def test_whisper_tiny_en_reads_back_flite_speech(av_workspace, spoken, word_error_rate):
    out = run("automatic-speech-recognition", av_workspace, model="openai/whisper-tiny.en", audio=spoken)
    assert word_error_rate(SENTENCE, out["text"]) < 0.3, out["text"]


@pytest.mark.slow
def test_whisper_reads_back_espeak_speech(av_workspace, word_error_rate):
    text = "The library opens at nine in the morning."
    speech = run("text-to-speech", av_workspace, model="espeak-ng", text=text)["audio"]
    out = run("automatic-speech-recognition", av_workspace, audio=speech)
    assert word_error_rate(text, out["text"]) < 0.3, out["text"]


@pytest.mark.slow
def test_whisper_finds_no_words_in_silence_or_noise(av_workspace):
    for name in ("silence.wav", "noise.wav"):
        out = run("automatic-speech-recognition", av_workspace, model="openai/whisper-tiny.en", audio=name)
        assert out["text"] == "" and out["result"]["chunks"] == [], out["text"]  # not Whisper's famous "You"
        assert out["note"] == "no speech recognised in the audio"


def test_whisper_base_is_assembled_once_from_its_two_packages():
    folder = audio.whisper_base_dir()
    parts = audio._whisper_base_parts()
    assert (folder / "model.bin").stat().st_size == sum(p.stat().st_size for p in parts)
    assert all((folder / name).is_file() for name in ("config.json", "tokenizer.json", "vocabulary.txt"))
    assert audio.whisper_base_dir() == folder


@pytest.mark.parametrize("name", ["corrupt.wav", "notes.wav"])
def test_unreadable_audio_is_an_expert_error(av_workspace, name):
    with pytest.raises(ExpertError, match=f"automatic-speech-recognition with openai/whisper-base: cannot read audio .*{name}"):
        run("automatic-speech-recognition", av_workspace, audio=name)


def test_missing_audio_file(av_workspace):
    with pytest.raises(ExpertError, match="automatic-speech-recognition: audio input: .*'nowhere.wav' not found") as info:
        run("automatic-speech-recognition", av_workspace, audio="nowhere.wav")
    assert isinstance(info.value.__cause__, WorkspaceError)
    engine = resolve_engine("audio-classification", "silero-vad")
    with pytest.raises(ExpertError, match="silero-vad: cannot read audio .*file not found"):
        engine.run({"audio": str(av_workspace.root / "nowhere.wav")}, av_workspace)


# ------------------------------------------------------------------------ VAD

def test_vad_finds_the_speech_and_where_it_is(av_workspace, spoken):
    speech = load_audio(engine_class("audio-classification", "silero-vad")(), av_workspace.root / spoken, 16000)
    padded = np.concatenate([np.zeros(16000, np.float32), speech, np.zeros(16000, np.float32)])
    write_wav(av_workspace.root / "padded.wav", padded, 16000)
    out = run("audio-classification", av_workspace, audio="padded.wav")
    top = out["result"][0]
    assert out["model"] == "silero-vad" and top["label"] == "speech" and top["score"] > 0.9
    first, last = top["segments"][0], top["segments"][-1]
    assert 0.8 < first["start"] < 1.6  # the speech starts after one second of silence
    assert len(speech) / 16000 < last["end"] < len(padded) / 16000 - 0.5


@pytest.mark.parametrize("name", ["silence.wav", "noise.wav"])
def test_vad_finds_no_speech_in_silence_or_noise(av_workspace, name):
    out = run("audio-classification", av_workspace, audio=name)
    assert out["result"][0]["label"] == "non-speech"
    speech = next(r for r in out["result"] if r["label"] == "speech")
    assert speech["segments"] == [] and speech["score"] < 0.5


def test_vad_rejects_a_corrupt_file(av_workspace):
    with pytest.raises(ExpertError, match="audio-classification with silero-vad: cannot read audio"):
        run("audio-classification", av_workspace, audio="corrupt.wav")


# -------------------------------------------------------- speech enhancement

def si_sdr(reference: np.ndarray, estimate: np.ndarray) -> float:
    """Scale-invariant signal-to-distortion ratio in dB."""
    scale = np.dot(estimate, reference) / np.dot(reference, reference)
    target = scale * reference
    return float(10 * np.log10(np.sum(target ** 2) / np.sum((estimate - target) ** 2)))


@pytest.mark.slow
def test_deepfilternet_removes_noise_from_speech(av_workspace, spoken):
    engine = engine_class("audio-to-audio", "deepfilternet3")()
    clean = load_audio(engine, av_workspace.root / spoken, 48000)
    noise = np.random.default_rng(1).standard_normal(len(clean)).astype(np.float32)
    noise *= np.sqrt(np.mean(clean ** 2) / np.mean(noise ** 2)) / np.sqrt(10 ** (5 / 10))  # 5 dB SNR
    write_wav(av_workspace.root / "noisy.wav", clean + noise, 48000)
    noisy = load_audio(engine, av_workspace.root / "noisy.wav", 48000)

    out = run("audio-to-audio", av_workspace, audio="noisy.wav")
    assert out["model"] == "deepfilternet3" and out["audio"] in out["files"]
    rate, _ = wav_params(out["audio"])
    enhanced = load_audio(engine, out["audio"], 48000)
    assert rate == 48000 and len(enhanced) == len(noisy)  # delay removed, same length
    assert si_sdr(clean, enhanced) > si_sdr(clean, noisy) + 3


def test_deepfilternet_rejects_unreadable_audio(av_workspace):
    with pytest.raises(ExpertError, match="audio-to-audio with deepfilternet3: cannot read audio"):
        run("audio-to-audio", av_workspace, audio="notes.wav")


# ------------------------------------------------------------- availability

def test_missing_tts_binaries_are_clear_reasons(monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path))
    status = task_status("text-to-speech")
    assert "flite binary is missing: apt-get install flite" in status["unavailable"]["flite/cmu_us_slt"]
    assert "espeak-ng binary is missing" in status["unavailable"]["espeak-ng"]
    with pytest.raises(ExpertError, match="flite binary is missing"):
        resolve_engine("text-to-speech", "flite/cmu_us_slt")


def test_audio_tasks_list_real_models():
    for task, model in [("automatic-speech-recognition", "openai/whisper-base"),
                        ("automatic-speech-recognition", "openai/whisper-tiny.en"),
                        ("text-to-speech", "flite/cmu_us_slt"), ("audio-classification", "silero-vad"),
                        ("audio-to-audio", "deepfilternet3")]:
        status = task_status(task)
        assert model in status["models"], status


def test_audio_past_the_length_limit_stops_decoding_with_a_clear_error(av_workspace, monkeypatch):
    """Three hours of silence are a 272 kB FLAC and 7 GB of samples: decoding stops at the limit, counted in
    samples (a header's duration can lie)."""
    from langchain_hugginggpt.core import media

    monkeypatch.setattr(media, "MAX_AUDIO_SECONDS", 2)  # the 3 s silence.wav stands for three hours
    with pytest.raises(ExpertError, match=r"silence\.wav runs longer than 2 s; audio of at most 2 s is read"):
        load_audio(engine_class("audio-classification", "silero-vad")(), av_workspace.root / "silence.wav", 16000)
    with pytest.raises(ExpertError, match=r"silence\.wav runs longer than 2 s"):
        run("automatic-speech-recognition", av_workspace, audio="silence.wav")
