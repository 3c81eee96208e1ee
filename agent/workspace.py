"""Where inputs are read from and outputs are written to.

Inputs resolve inside the workspace root and nothing outside it is read; every
output gets a unique name in the outputs folder, so parallel tasks never clash.
"""

from __future__ import annotations

import mimetypes
import urllib.parse
import urllib.request
import uuid
from pathlib import Path

MEDIA_SUFFIXES = {
    "image": {".jpg", ".jpeg", ".png", ".gif", ".bmp", ".webp", ".tif", ".tiff"},
    "audio": {".wav", ".flac", ".mp3", ".ogg", ".m4a"},
    "video": {".mp4", ".avi", ".mov", ".mkv", ".webm", ".gif"},
}


class WorkspaceError(ValueError):
    """An input path that does not exist, or lies outside the workspace."""


class Workspace:
    def __init__(self, root: str | Path = ".", outputs: str | Path | None = None) -> None:
        self.root = Path(root).expanduser().resolve()
        out = Path(outputs) if outputs is not None else self.root / "outputs"
        self.outputs = (out if out.is_absolute() else self.root / out).resolve()

    def __repr__(self) -> str:
        return f"Workspace(root={str(self.root)!r}, outputs={str(self.outputs)!r})"

    def resolve_input(self, value: str) -> Path:
        """A path or URL named in a request, as a local file inside the workspace."""
        if value.startswith(("http://", "https://")):
            return self.fetch(value)
        if value.startswith("file://"):
            value = urllib.parse.unquote(urllib.parse.urlparse(value).path)
        # The original web client sent "/examples/a.jpg" meaning "under the public folder".
        candidate = Path(value).expanduser()
        if candidate.is_absolute() and not self._inside(candidate.resolve()):
            relative = (self.root / value.lstrip("/")).resolve()
            candidate = relative if relative.exists() else candidate.resolve()
        elif not candidate.is_absolute():
            candidate = (self.root / candidate).resolve()
        else:
            candidate = candidate.resolve()
        if not self._inside(candidate):
            raise WorkspaceError(f"{value!r} is outside the workspace {self.root}; copy it into the workspace first")
        if not candidate.is_file():
            raise WorkspaceError(f"input file {value!r} not found in the workspace {self.root}")
        return candidate

    def fetch(self, url: str, timeout: float = 30.0) -> Path:
        """Download a URL input into the workspace, so tasks only ever read local files."""
        suffix = Path(urllib.parse.urlparse(url).path).suffix or ".bin"
        target = self.new_output(suffix, folder="downloads")
        try:
            with urllib.request.urlopen(url, timeout=timeout) as response:  # noqa: S310 (http/https only)
                target.write_bytes(response.read())
        except OSError as exc:
            raise WorkspaceError(f"could not download {url}: {exc}") from exc
        return target

    def new_output(self, suffix: str, folder: str | None = None, stem: str = "") -> Path:
        """A fresh, unique path in the outputs folder (created on demand)."""
        directory = self.outputs / folder if folder else self.outputs
        directory.mkdir(parents=True, exist_ok=True)
        if not suffix.startswith("."):
            suffix = "." + suffix
        name = f"{stem + '-' if stem else ''}{uuid.uuid4().hex[:12]}{suffix}"
        return directory / name

    def _inside(self, path: Path) -> bool:
        return path == self.root or self.root in path.parents or path == self.outputs or self.outputs in path.parents


def media_type(path: str | Path) -> str:
    """'image', 'audio', 'video' or 'text' from a file name, the way TaskBench derives argument types."""
    suffix = Path(str(path)).suffix.lower()
    for kind in ("image", "audio", "video"):
        if suffix in MEDIA_SUFFIXES[kind]:
            return kind
    guess = (mimetypes.guess_type(str(path))[0] or "").split("/")[0]
    return guess if guess in ("image", "audio", "video") else "text"


def looks_like_file(value: str) -> bool:
    """True for a value that names a media file or a URL rather than literal text."""
    if not isinstance(value, str) or "\n" in value or len(value) > 512:
        return False
    if value.startswith(("http://", "https://", "file://")):
        return True
    return media_type(value) != "text" and " " not in value.strip()
