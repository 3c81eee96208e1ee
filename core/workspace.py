"""Where inputs are read from and outputs are written to.

Inputs resolve inside the workspace root and nothing outside it is read; URL inputs
are downloaded under the rules of `downloads.py`. Every output gets a unique name in
the outputs folder, so parallel tasks never clash; a task's outputs are tracked, so
those of a task that was abandoned (timed out) are removed when it ends.
"""

from __future__ import annotations

import base64
import binascii
import copy
import hashlib
import os
import re
import stat
import threading
import urllib.parse
import uuid
from pathlib import Path

from langchain_hugginggpt.core.errors import HuggingGPTError
from langchain_hugginggpt.core.downloads import DownloadRefused, UrlPolicy, download
from langchain_hugginggpt.core.media import (  # noqa: F401 (MEDIA_SUFFIXES, looks_like_file: re-exported)
    ALLOWED, MEDIA_SUFFIXES, SNIFF_BYTES, allowed_formats, looks_like_file, media_problem, media_type, sniff)

URL_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*)://")
# A text argument that is only the name of a text file ("notes.txt", "docs/minutes.md"): the step reads the file.
TEXT_FILE = re.compile(r"^[^\s'\"<>|]+\.(?:txt|md)$", re.IGNORECASE)
MAX_TEXT_FILE_BYTES = 2 * 2**20  # far past what a text model reads at once, short of filling memory


# Where files a user sends are kept (the server's POST /files, files sent inline in a chat message).
UPLOADS = "uploads"
# Files sent inline (base64 data: URLs in a message's content blocks): the most one may hold, and the most the
# uploads folder may hold before no more are kept (the server's own default quota).
MAX_INLINE_BYTES = 20 * 2**20
MAX_INLINE_STORAGE = 2 * 2**30
_DATA_URL = re.compile(r"data:[\w.+-]*/?[\w.+-]*(?:;[\w.+-]+=[^;,]*)*;base64,", re.I)


def folder_size(folder: Path, hidden: bool = True) -> int:
    """Bytes of the regular files under `folder`, links not followed (what a link points to takes no room
    there); 0 for a folder that does not exist yet. `hidden=False`: files whose names start with '.' (those
    still being written) left out."""
    total = 0
    for root, _dirs, names in os.walk(folder):
        for name in names:
            if not hidden and name.startswith("."):
                continue
            try:
                info = os.lstat(os.path.join(root, name))
            except OSError:  # removed while we walk
                continue
            if stat.S_ISREG(info.st_mode):
                total += info.st_size
    return total


class WorkspaceError(HuggingGPTError, ValueError):
    """An input path that does not exist, lies outside the workspace, or a URL input that was refused."""


class TaskAbandoned(HuggingGPTError, RuntimeError):
    """Raised in a task the executor stopped waiting for, when it asks for another output file."""


class TaskFiles:
    """The output files one task was given. Once the task is abandoned it gets no more, and those
    it has are removed as soon as it has ended (not before: it might still be writing them)."""

    def __init__(self) -> None:
        self.paths: list[Path] = []
        self.abandoned = self.ended = False
        self._lock = threading.Lock()

    def claim(self, path: Path) -> None:
        with self._lock:
            if self.abandoned:
                raise TaskAbandoned("this task was abandoned (it timed out or its run was cancelled); "
                                    "it writes no more files")
            self.paths.append(path)

    def abandon(self) -> None:
        with self._lock:
            self.abandoned = True
            if self.ended:
                self._remove()

    def end(self) -> None:
        with self._lock:
            self.ended = True
            if self.abandoned:
                self._remove()

    def _remove(self) -> None:
        for path in self.paths:
            path.unlink(missing_ok=True)


class Workspace:
    """`urls` sets which URL inputs are downloaded (default: public hosts only, 50 MB, 30 s)."""

    def __init__(self, root: str | Path = ".", outputs: str | Path | None = None, urls: UrlPolicy | None = None) -> None:
        self.root = Path(root).expanduser().resolve()
        out = Path(outputs) if outputs is not None else self.root / "outputs"
        self.outputs = (out if out.is_absolute() else self.root / out).resolve()
        self.urls = urls if urls is not None else UrlPolicy()
        self.task_files: TaskFiles | None = None

    def __repr__(self) -> str:
        return f"Workspace(root={str(self.root)!r}, outputs={str(self.outputs)!r})"

    def for_task(self) -> "Workspace":
        """The same workspace, tracking the outputs of one task in `task_files`."""
        scoped = copy.copy(self)
        scoped.task_files = TaskFiles()
        return scoped

    def resolve_input(self, value: str, kind: str | None = None) -> Path:
        """A path or URL named in a request, as a local file inside the workspace; `kind`
        ('image', 'audio', 'video') is what a downloaded file must be."""
        scheme = URL_SCHEME.match(value)
        if scheme and scheme.group(1).lower() in ("http", "https"):
            return self.fetch(value, kind)
        if scheme and scheme.group(1).lower() != "file":
            raise WorkspaceError(f"refused {value}: only http and https URLs are downloaded")
        if scheme:  # file://, in any case
            value = urllib.parse.unquote(urllib.parse.urlparse(value).path)
        try:
            return self._local_file(value)
        except WorkspaceError:
            raise
        # a NUL byte, a name longer than the file system takes, "~user" for no such user: no file by that name
        except (ValueError, OSError, RuntimeError) as exc:
            shown = value if len(value) <= 80 else value[:77] + "..."
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            if isinstance(exc, RuntimeError) and value.startswith("~"):
                reason = f"{value.split('/')[0]!r} names no user's home here"
            raise WorkspaceError(f"input file {shown!r} cannot be a file name here: {reason}") from None

    def _local_file(self, value: str) -> Path:
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
        if self._hidden(candidate):  # .git, .env, .config: what `GET /files` never serves, no step reads either
            raise WorkspaceError(f"{value!r} is a hidden file (a name in its path starts with '.'); hidden files are "
                                 "not read as inputs")
        if candidate.is_dir():
            raise WorkspaceError(f"input {value!r} is a folder, not a file")
        if not candidate.is_file():
            raise WorkspaceError(f"input file {value!r} not found in the workspace {self.root}")
        return candidate

    def text_input(self, value: str) -> str:
        """A text argument as a step reads it: the words of the workspace's text file it names ("summarize
        notes.txt"), else the text itself."""
        if not TEXT_FILE.match(value):
            return value
        path = self.resolve_input(value)
        if path.stat().st_size > MAX_TEXT_FILE_BYTES:
            raise WorkspaceError(f"text file {value!r} is {path.stat().st_size:,} bytes; at most "
                                 f"{MAX_TEXT_FILE_BYTES:,} are read")
        try:
            return path.read_text(encoding="utf-8")
        except UnicodeDecodeError as exc:
            raise WorkspaceError(f"text file {value!r} is not UTF-8 text (byte {exc.object[exc.start]:#04x} at "
                                 f"offset {exc.start})") from None

    def fetch(self, url: str, kind: str | None = None) -> Path:
        """Download a URL input into `outputs/downloads`, so tasks only ever read local files."""
        try:
            return download(url, self.urls, lambda suffix: self.new_output(suffix, folder="downloads"), kind,
                            self._still_wanted)
        except DownloadRefused as exc:  # no disk path in the message: it may reach a remote client
            raise WorkspaceError(str(exc)) from None
        except OSError as exc:
            raise WorkspaceError(f"could not store the download of {url}: {exc.strerror or type(exc).__name__}") from None

    def save_inline(self, url: str) -> str:
        """A file sent inline (a base64 `data:` URL, as chat UIs send a picture) kept under uploads/, named by
        its content so that the same file sent again, or read again from an earlier turn, is one file; its
        workspace-relative path. Only an allowed image, audio or video format is kept (the bytes decide, not
        the declared type), at most MAX_INLINE_BYTES, while uploads/ holds under MAX_INLINE_STORAGE."""
        match = _DATA_URL.match(url)
        if not match:
            raise WorkspaceError("a file sent inline must be a base64 data: URL (data:<type>;base64,...)")
        payload = url[match.end():].strip()
        if len(payload) * 3 // 4 > MAX_INLINE_BYTES:
            raise WorkspaceError(f"a file sent inline is larger than {MAX_INLINE_BYTES // 2**20} MB; "
                                 "put it in the workspace and name it instead")
        try:  # enough of it to know the format, before any of it is kept
            media = sniff(base64.b64decode(payload[:4 * ((SNIFF_BYTES + 2) // 3)]))
        except (binascii.Error, ValueError):
            media = None
        if media is None:
            raise WorkspaceError(f"a file sent inline is not an image, audio or video file in an allowed format "
                                 f"({allowed_formats()})")
        kind, extension = ALLOWED[media]
        folder = self.root / UPLOADS
        # named by a hash of the text as sent: an earlier turn's picture is found again without decoding it
        path = folder / f"inline-{hashlib.sha256(payload.encode()).hexdigest()[:24]}{extension}"
        if path.is_file():
            return f"{UPLOADS}/{path.name}"
        try:
            data = base64.b64decode(payload, validate=True)
        except (binascii.Error, ValueError):
            raise WorkspaceError("a file sent inline has corrupt base64 (not a file)") from None
        if folder_size(folder) + len(data) > MAX_INLINE_STORAGE:
            raise WorkspaceError(f"the workspace's uploads folder holds over {MAX_INLINE_STORAGE // 2**30} GB: no "
                                 "more files sent inline are kept until some are removed")
        folder.mkdir(parents=True, exist_ok=True)
        partial = folder / f".{path.name}.{uuid.uuid4().hex[:8]}"  # hidden until whole: no step reads it half-written
        partial.write_bytes(data)
        if problem := media_problem(partial, kind):  # a small file that decodes to gigabytes of pixels
            partial.unlink(missing_ok=True)
            raise WorkspaceError(problem.replace(partial.name, "a file sent inline"))
        os.replace(partial, path)
        return f"{UPLOADS}/{path.name}"

    def _still_wanted(self) -> None:
        if self.task_files is not None and self.task_files.abandoned:
            raise TaskAbandoned("this task was abandoned (it timed out or its run was cancelled); download stopped")

    def new_output(self, suffix: str, folder: str | None = None, stem: str = "") -> Path:
        """A fresh, unique path in the outputs folder (created on demand)."""
        directory = self.outputs / folder if folder else self.outputs
        directory.mkdir(parents=True, exist_ok=True)
        if not suffix.startswith("."):
            suffix = "." + suffix
        path = directory / f"{stem + '-' if stem else ''}{uuid.uuid4().hex[:12]}{suffix}"
        if self.task_files is not None:
            self.task_files.claim(path)
        return path

    def _hidden(self, path: Path) -> bool:
        base = self.outputs if path == self.outputs or self.outputs in path.parents else self.root
        return any(part.startswith(".") for part in path.relative_to(base).parts)

    def _inside(self, path: Path) -> bool:
        return path == self.root or self.root in path.parents or path == self.outputs or self.outputs in path.parents


def relative_path(workspace: Workspace, path: str | Path) -> str | None:
    """The workspace-relative form of a path inside the workspace (None outside it)."""
    resolved = Path(path).resolve()
    for base, prefix in ((workspace.root, ""), (workspace.outputs, "outputs/")):
        if resolved.is_relative_to(base):
            return prefix + resolved.relative_to(base).as_posix()
    return None
