"""Shared fixtures of the tools tests. Those of the language, audio and video tests:
`av_workspace` (bad and non-speech audio inputs the tests make), `word_error_rate` and `char_error_rate`."""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Sequence

import numpy as np
import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")

from langchain_hugginggpt.core.workspace import Workspace  # noqa: E402
from langchain_hugginggpt.tools.engines._audio_io import write_wav  # noqa: E402


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9']+", text.lower().replace("-", " "))


def edit_distance(reference: Sequence, hypothesis: Sequence) -> int:
    """Levenshtein distance (substitutions, insertions, deletions), as WER and CER count them."""
    previous = list(range(len(hypothesis) + 1))
    for i, r in enumerate(reference, 1):
        current = [i]
        for j, h in enumerate(hypothesis, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (r != h)))
        previous = current
    return previous[-1]


def _word_error_rate(reference: str, hypothesis: str) -> float:
    """Word edit distance over the reference length, after lowercasing and dropping
    punctuation (the usual WER normalisation)."""
    ref = _words(reference)
    return edit_distance(ref, _words(hypothesis)) / max(1, len(ref))


def _char_error_rate(reference: str, hypothesis: str) -> float:
    return edit_distance(reference, hypothesis) / max(1, len(reference))


@pytest.fixture(scope="session")
def word_error_rate() -> Callable[[str, str], float]:
    return _word_error_rate


@pytest.fixture(scope="session")
def char_error_rate() -> Callable[[str, str], float]:
    return _char_error_rate


@pytest.fixture(scope="module")
def av_workspace(tmp_path_factory) -> Workspace:
    """A workspace holding bad audio inputs and non-speech clips (16 kHz WAV)."""
    root = tmp_path_factory.mktemp("av")
    rng = np.random.default_rng(0)
    (root / "corrupt.wav").write_bytes(b"RIFF\x24\x00\x00\x00WAVEfmt " + rng.integers(0, 256, 4000, dtype=np.uint8).tobytes())
    (root / "notes.wav").write_text("this is a text file with a .wav name\n")
    write_wav(root / "silence.wav", np.zeros(3 * 16000, dtype=np.float32), 16000)
    write_wav(root / "noise.wav", (0.1 * rng.standard_normal(3 * 16000)).astype(np.float32), 16000)
    return Workspace(root)
