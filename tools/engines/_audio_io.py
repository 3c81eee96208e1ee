"""Shared helpers of the audio and video engines: decode any audio file to mono float32 at
a chosen rate (PyAV, which faster-whisper already needs), write WAV files, and speak a
text with the Debian synthesizers flite and espeak-ng."""

from __future__ import annotations

import subprocess
import tempfile
import wave
from pathlib import Path
from typing import TYPE_CHECKING, Any

from langchain_hugginggpt.core.errors import HuggingGPTError
from langchain_hugginggpt.tools.base import Engine
from langchain_hugginggpt.tools.engines._image_io import fail

if TYPE_CHECKING:
    import numpy as np

TTS_TIMEOUT_S = 120.0
ESPEAK_VOICES = {"en": "en-us", "zh": "cmn", "sh": "sr"}  # ISO 639-1 -> espeak-ng voice, where they differ


def audio_input(engine: Engine, inputs: dict[str, Any]) -> str:
    path = inputs.get("audio")
    if not path:
        raise fail(engine, "no input audio given (slot 'audio')")
    return str(path)


def load_audio(engine: Engine, path: str | Path, sampling_rate: int) -> np.ndarray:
    """The audio in `path` (any format FFmpeg reads, or a video's sound track) as mono
    float32 samples in [-1, 1] at `sampling_rate`; ExpertError when it holds no audio."""
    import av
    import numpy as np

    try:
        with av.open(str(path), metadata_errors="ignore") as container:
            if not container.streams.audio:
                raise fail(engine, f"{path} has no audio stream")
            chunks = decode_mono(container, sampling_rate, path)
    except TooLong as exc:
        raise fail(engine, str(exc)) from None
    except FileNotFoundError:
        raise fail(engine, f"cannot read audio {path}: file not found") from None
    except (av.error.FFmpegError, OSError, ValueError) as exc:
        raise fail(engine, f"cannot read audio {path}: not a readable audio file ({exc})") from None
    samples = np.concatenate(chunks) if chunks else np.zeros(0, dtype=np.float32)
    if samples.size == 0:
        raise fail(engine, f"{path} holds no audio samples")
    return samples.astype(np.float32, copy=False)


class TooLong(HuggingGPTError, ValueError):
    """The audio runs past MAX_AUDIO_SECONDS."""


def decode_mono(container: Any, sampling_rate: int, name: str | Path) -> list[np.ndarray]:
    """The first audio stream of an open PyAV container as chunks of mono float32 samples at `sampling_rate`;
    TooLong as soon as it passes MAX_AUDIO_SECONDS (a header's duration can lie: the samples are counted)."""
    import itertools

    import av

    from langchain_hugginggpt.core.media import MAX_AUDIO_SECONDS, too_long

    resampler = av.AudioResampler(format="flt", layout="mono", rate=sampling_rate)
    chunks: list[np.ndarray] = []
    count, limit = 0, MAX_AUDIO_SECONDS * sampling_rate
    for frame in itertools.chain(container.decode(audio=0), [None]):  # None flushes the resampler
        for out in resampler.resample(frame):
            chunks.append(out.to_ndarray().reshape(-1))
            count += chunks[-1].size
            if count > limit:
                raise TooLong(too_long(None, name))
    return chunks


def write_wav(path: str | Path, samples: np.ndarray, sampling_rate: int) -> None:
    """16-bit mono PCM WAV, which every player and every engine here reads."""
    import numpy as np

    pcm = (np.clip(samples, -1.0, 1.0) * 32767).astype("<i2")
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(sampling_rate)
        out.writeframes(pcm.tobytes())


def wav_info(path: str | Path) -> tuple[int, float]:
    """(sampling rate, duration in seconds) of a PCM WAV file."""
    with wave.open(str(path), "rb") as wav:
        return wav.getframerate(), wav.getnframes() / wav.getframerate()


def _synthesize(command: list[str], text: str, out: Path, what: str) -> None:
    # The text goes through a file, not argv: long texts and leading dashes stay safe.
    with tempfile.NamedTemporaryFile("w", suffix=".txt", encoding="utf-8", delete=False) as handle:
        handle.write(text)
    try:
        done = subprocess.run([*command, handle.name], capture_output=True, timeout=TTS_TIMEOUT_S, check=False)
    finally:
        Path(handle.name).unlink(missing_ok=True)
    if done.returncode != 0 or not out.is_file() or out.stat().st_size <= 44:
        error = done.stderr.decode(errors="replace").strip()[-300:] or f"exit status {done.returncode}"
        raise RuntimeError(f"{what} wrote no audio: {error}")


def flite_wav(text: str, out: Path, voice: str = "slt") -> None:
    """Speak English `text` into the WAV `out` (16 kHz) with flite's built-in `voice`."""
    _synthesize(["flite", "-voice", voice, "-o", str(out), "-f"], text, out, f"flite -voice {voice}")


def espeak_wav(text: str, out: Path, language: str = "en") -> None:
    """Speak `text` into the WAV `out` (22.05 kHz) with espeak-ng's voice for `language`."""
    voice = ESPEAK_VOICES.get(language, language)
    _synthesize(["espeak-ng", "-v", voice, "-w", str(out), "-f"], text, out, f"espeak-ng -v {voice}")
