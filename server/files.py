"""Uploads into the workspace, and workspace files served back.

An upload is accepted when its bytes are an allowed image, audio or video format
(sniffed from the content by core/media.py, like URL inputs), or UTF-8 text sent as
text/plain (a passage too long for a request, stored as .txt, which a step reads). It
is stored under `uploads/` with a sanitised name and the extension of its real
format, and the reply gives the workspace-relative path to use in a request.
Serving resolves a path inside the workspace and answers 404 for anything else,
so no route reads outside it.

Uploads are bounded in all, not only one by one: `UploadQuota` counts the bytes `uploads/` holds
against `max_upload_storage`, for every process serving the workspace, and an upload that would go over
it is refused (507) and not kept.
DELETE /files/uploads/{name} removes one upload and frees its room; it removes nothing else (404 for
any other path, so it tells nothing of what exists outside `uploads/`).
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import json
import logging
import mimetypes
import os
import re
import stat
import unicodedata
import uuid
from pathlib import Path, PurePosixPath
from typing import Any, Iterator
from urllib.parse import quote

from fastapi import APIRouter, HTTPException, Request, UploadFile
from fastapi.responses import FileResponse, Response
from pydantic import BaseModel

from langchain_hugginggpt.core.media import ALLOWED, SNIFF_BYTES, allowed_formats, media_problem, sniff
from langchain_hugginggpt.core.workspace import (MAX_TEXT_FILE_BYTES, UPLOADS, Workspace, folder_size, media_type,
                                                 relative_path)

logger = logging.getLogger(__name__)

CHUNK = 1 << 20

_GENERIC_TYPES = {"", "application/octet-stream"}


def _looks_like_text(head: bytes) -> bool:
    """UTF-8 without NUL bytes (a multi-byte character may be cut at the end of the first bytes)."""
    if not head or b"\x00" in head:
        return False
    try:
        head.decode("utf-8")
    except UnicodeDecodeError as exc:
        return exc.reason == "unexpected end of data"
    return True


def safe_name(filename: str | None, extension: str) -> str:
    """A file name that is safe anywhere: the ASCII letters, digits, '-' and '_' of the
    original stem (directories dropped), a unique suffix, and the real format's extension."""
    base = re.split(r"[\\/]", filename or "")[-1]
    stem = unicodedata.normalize("NFKD", PurePosixPath(base).stem).encode("ascii", "ignore").decode()
    stem = re.sub(r"[^A-Za-z0-9_-]+", "-", stem).strip("-_")[:48] or "upload"
    return f"{stem}-{uuid.uuid4().hex[:8]}{extension}"


def file_url(workspace: Workspace, path: str | Path) -> str | None:
    rel = relative_path(workspace, path)
    return None if rel is None else "/files/" + quote(rel)


def media_entry(workspace: Workspace, path: str | Path) -> dict[str, Any] | None:
    """What a client needs to show a produced file: its path in requests, its URL and kind."""
    rel = relative_path(workspace, path)
    if rel is None:
        return None
    return {"path": rel, "url": "/files/" + quote(rel), "kind": media_type(rel)}


def served_file(workspace: Workspace, rel: str) -> Path:
    """The file GET /files/{rel} serves; FileNotFoundError for anything that is not a
    regular, non-hidden file inside the workspace (`..` and absolute paths included)."""
    parts = PurePosixPath(rel).parts
    if not parts or "\x00" in rel or PurePosixPath(rel).is_absolute() or any(p.startswith(".") for p in parts):
        raise FileNotFoundError(rel)
    candidates = [workspace.root / rel]
    if parts[0] == "outputs" and not workspace.outputs.is_relative_to(workspace.root):
        candidates.append(workspace.outputs.joinpath(*parts[1:]))
    for candidate in candidates:
        try:
            path = candidate.resolve()
            if relative_path(workspace, path) is not None and path.is_file():
                return path
        except OSError:  # a name too long for the file system, a loop of links: no such file
            continue
    raise FileNotFoundError(rel)


class UploadQuota:
    """The bytes `uploads/` holds, against the most it may hold (`max_upload_storage`), shared by every
    process that serves the workspace (Ray Serve replicas, several servers on one folder).

    What counts: the files in the folder, and the bytes each upload still arriving has reserved. An upload is
    written under a hidden name and renamed when whole, so its bytes count once: as a reservation, then as a
    file. The reservations live in a small ledger beside the folder (`.uploads-quota.json`), read and changed
    under an exclusive file lock, so that of two uploads at once, in one process or two, only one can pass a
    check that only one fits. A reservation of a process that has died is dropped at the next count. A check
    walks the folder, in a thread: about 36 ms with 10,000 files there."""

    def __init__(self, folder: Path, limit: int) -> None:
        self.folder, self.limit = folder, limit
        self._ledger_path = folder.parent / f".{folder.name}-quota.json"
        self._lock_path = folder.parent / f".{folder.name}-quota.lock"
        if self.used > limit:
            logger.warning("uploads hold %d bytes, over the upload storage quota of %d: every upload is refused "
                           "until some are deleted (DELETE /files/uploads/NAME)", self.used, limit)

    @contextlib.contextmanager
    def _ledger(self) -> Iterator[dict[str, list[int]]]:
        """The live reservations ({token: [pid, bytes]}), under the lock; changes are written back."""
        self.folder.parent.mkdir(parents=True, exist_ok=True)
        with open(self._lock_path, "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            try:
                try:
                    held = json.loads(self._ledger_path.read_text(encoding="utf-8"))
                except (OSError, ValueError):  # none yet, or cut short by a killed process: no reservations
                    held = {}
                live = {token: entry for token, entry in (held.items() if isinstance(held, dict) else ())
                        if isinstance(entry, list) and len(entry) == 2 and all(type(n) is int for n in entry)
                        and _alive(entry[0])}
                yield live
                partial = self._ledger_path.with_name(self._ledger_path.name + f".{os.getpid()}")
                partial.write_text(json.dumps(live), encoding="utf-8")
                os.replace(partial, self._ledger_path)
            finally:
                fcntl.flock(lock, fcntl.LOCK_UN)

    def _used(self, ledger: dict[str, list[int]]) -> int:
        return folder_size(self.folder, hidden=False) + sum(entry[1] for entry in ledger.values())

    @property
    def used(self) -> int:
        with self._ledger() as ledger:
            return self._used(ledger)

    @property
    def free(self) -> int:
        return max(0, self.limit - self.used)

    async def reserve(self, token: str, size: int) -> bool:
        """Hold `size` bytes in all for the upload `token` if they fit under the quota; False (its reservation
        as it was) if not. In a thread: another process may hold the lock a moment."""
        return await asyncio.to_thread(self._reserve, token, size)

    def _reserve(self, token: str, size: int) -> bool:
        with self._ledger() as ledger:
            held = ledger.get(token, [0, 0])[1]
            if self._used(ledger) - held + size > self.limit:
                return False
            ledger[token] = [os.getpid(), size]
            return True

    def keep(self, token: str, partial: Path, target: Path) -> None:
        """The upload is whole: its file takes its name, and its reservation ends, in one step."""
        with self._ledger() as ledger:
            os.replace(partial, target)
            ledger.pop(token, None)

    def release(self, token: str) -> None:
        """End a reservation whose upload was not kept. No await: it runs whole even while the request is
        being cancelled."""
        with self._ledger() as ledger:
            ledger.pop(token, None)

    async def remove(self, path: Path) -> None:
        """Delete one upload; FileNotFoundError unless `path` is a regular file (a symbolic link is refused:
        the file it names is not an upload, and may be outside the folder)."""
        await asyncio.to_thread(self._remove, path)

    def _remove(self, path: Path) -> None:
        with self._ledger():  # a DELETE racing a check sees the file or not, never half
            try:
                info = path.lstat()
            except OSError:  # no such file, or a name the file system cannot hold
                raise FileNotFoundError(path.name) from None
            if not stat.S_ISREG(info.st_mode):
                raise FileNotFoundError(path.name)
            path.unlink()


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process: alive
        return True
    return True


def upload_path(workspace: Workspace, rel: str) -> Path:
    """The file DELETE /files/{rel} may remove: `uploads/<name>`, one non-hidden name directly in the
    uploads folder, as POST /files stores them. FileNotFoundError for any other path: outputs/ and the
    rest of the workspace, `..` and slashes however they were encoded (the route sees them decoded)."""
    folder, _, name = rel.partition("/")
    if folder != UPLOADS or not name or name.startswith(".") or any(c in name for c in "/\\\x00"):
        raise FileNotFoundError(rel)
    return workspace.root / UPLOADS / name


def _shown(rel: str) -> str:
    """A path a client sent, cut short for a message."""
    return repr(rel if len(rel) <= 120 else rel[:100] + f"... ({len(rel)} characters)")


async def _over_quota(filename: str | None, quota: UploadQuota) -> HTTPException:
    free = await asyncio.to_thread(lambda: quota.free)  # a count walks the folder: off the event loop
    return HTTPException(507, f"{filename!r} does not fit in the upload storage quota of {quota.limit} bytes "
                              f"({free} bytes free): free space by deleting uploads no longer needed "
                              "(DELETE /files/uploads/NAME), then send it again")


class Upload(BaseModel):
    path: str
    url: str
    kind: str
    media_type: str
    size: int
    filename: str


async def store_upload(file: UploadFile, workspace: Workspace, max_bytes: int, quota: UploadQuota) -> Upload:
    """Store one upload under uploads/ (see the module doc); nothing is kept of a refused one."""
    declared = (file.content_type or "").split(";")[0].strip().lower()
    if declared not in _GENERIC_TYPES | {"text/plain"} and declared.split("/")[0] not in ("image", "audio", "video"):
        raise HTTPException(415, f"uploads must be images, audio, video or plain text; {file.filename!r} was sent "
                                 f"as {declared!r}")
    head = await file.read(SNIFF_BYTES)
    if not head:
        raise HTTPException(400, f"{file.filename!r} is empty (0 bytes): nothing to store")
    detected = sniff(head) or ("text/plain" if declared == "text/plain" and _looks_like_text(head) else None)
    if detected is None:
        raise HTTPException(415, f"{file.filename!r} is not an image, audio or video file in an allowed format "
                                 f"({allowed_formats()}), nor UTF-8 text sent as text/plain")
    kind, extension = ALLOWED.get(detected, ("text", ".txt"))
    if kind == "text":  # a step reads no more of a text file than this
        max_bytes = min(max_bytes, MAX_TEXT_FILE_BYTES)
    folder = workspace.root / UPLOADS
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / safe_name(file.filename, extension)
    # The whole size is known (the form is parsed): reserve it at once, so that of uploads sent together
    # the first ones fit whole rather than each holding a part. Bytes past it are reserved as they come.
    reserved = file.size if file.size is not None and file.size <= max_bytes else 0
    token = target.name
    if not await quota.reserve(token, reserved):
        raise await _over_quota(file.filename, quota)
    partial = folder / f".{target.name}.part"  # hidden (never served, never an input) until whole
    size = 0
    try:
        with partial.open("xb") as out:
            chunk = head
            while chunk:
                size += len(chunk)
                if size > max_bytes:
                    raise HTTPException(413, f"{file.filename!r} is larger than the upload limit of {max_bytes} bytes"
                                             + ("" if kind == "text" else " (the server's --max-upload-mb)"))
                if size > reserved:
                    if not await quota.reserve(token, size):
                        raise await _over_quota(file.filename, quota)
                    reserved = size
                out.write(chunk)
                chunk = await file.read(CHUNK)
        if problem := media_problem(partial, kind):  # a small file that decodes to gigabytes
            raise HTTPException(413, problem.replace(partial.name, repr(file.filename), 1))
        quota.keep(token, partial, target)
    except BaseException:
        partial.unlink(missing_ok=True)
        quota.release(token)
        raise
    rel = f"{UPLOADS}/{target.name}"
    return Upload(path=rel, url="/files/" + quote(rel), kind=kind, media_type=detected, size=size,
                  filename=file.filename or "")


router = APIRouter(tags=["files"])


@router.post("/files", response_model=Upload, status_code=201)
async def upload_file(request: Request, file: UploadFile) -> Upload:
    """Store an image, audio or video file, or a text (text/plain), in the workspace; use the returned `path`
    in a request."""
    state = request.app.state.hugginggpt
    sent = (await request.form()).getlist("file")  # the form FastAPI parsed (cached): it binds only the last part
    if len(sent) > 1:
        raise HTTPException(400, f"one file per POST /files: this request has {len(sent)} 'file' parts")
    return await store_upload(file, state.workspace, state.max_upload_bytes, state.uploads)


@router.get("/files/{rel:path}")
async def get_file(request: Request, rel: str) -> FileResponse:
    """A workspace file: an upload, an input placed there, or a produced output."""
    workspace = request.app.state.hugginggpt.workspace
    try:
        path = served_file(workspace, rel)
    except FileNotFoundError:
        raise HTTPException(404, f"no file {_shown(rel)} in the workspace") from None
    media = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
    # Served files are data: never run them as a page of this origin.
    return FileResponse(path, media_type=media, headers={"X-Content-Type-Options": "nosniff",
                                                        "Content-Security-Policy": "sandbox"})


@router.delete("/files/{rel:path}", status_code=204, response_class=Response)
async def delete_upload(request: Request, rel: str) -> Response:
    """Remove an upload (`uploads/<name>`, the `path` POST /files returned) and free its room in the storage
    quota. Any other path is answered 404, as for an upload that is not there, whether or not a file exists
    at it: produced outputs and the rest of the workspace are never removed over HTTP."""
    state = request.app.state.hugginggpt
    try:
        await state.uploads.remove(upload_path(state.workspace, rel))
    except FileNotFoundError:
        raise HTTPException(404, f"no upload {_shown(rel)} to delete: DELETE removes a file POST /files stored "
                                 "(/files/uploads/NAME)") from None
    return Response(status_code=204)
