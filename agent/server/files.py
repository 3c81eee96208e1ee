"""Uploads into the workspace, and workspace files served back.

An upload is accepted when its bytes are an allowed image, audio or video format
(sniffed from the content by agent/media.py, like URL inputs), or UTF-8 text sent as
text/plain (a passage too long for a request, stored as .txt, which a step reads). It
is stored under `uploads/` with a sanitised name and the extension of its real
format, and the reply gives the workspace-relative path to use in a request.
Serving resolves a path inside the workspace and answers 404 for anything else,
so no route reads outside it.
"""

from __future__ import annotations

import mimetypes
import re
import unicodedata
import uuid
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import quote

from fastapi import APIRouter, HTTPException, Request, UploadFile
from fastapi.responses import FileResponse
from pydantic import BaseModel

from langchain_hugginggpt.agent.media import ALLOWED, SNIFF_BYTES, allowed_formats, media_problem, sniff
from langchain_hugginggpt.agent.workspace import MAX_TEXT_FILE_BYTES, Workspace, media_type

UPLOADS = "uploads"
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


def relative_path(workspace: Workspace, path: str | Path) -> str | None:
    """The workspace-relative form of a path inside the workspace (None outside it)."""
    resolved = Path(path).resolve()
    for base, prefix in ((workspace.root, ""), (workspace.outputs, "outputs/")):
        if resolved.is_relative_to(base):
            return prefix + resolved.relative_to(base).as_posix()
    return None


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


class Upload(BaseModel):
    path: str
    url: str
    kind: str
    media_type: str
    size: int
    filename: str


async def store_upload(file: UploadFile, workspace: Workspace, max_bytes: int) -> Upload:
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
    size = 0
    try:
        with target.open("xb") as out:
            chunk = head
            while chunk:
                size += len(chunk)
                if size > max_bytes:
                    raise HTTPException(413, f"{file.filename!r} is larger than the upload limit of {max_bytes} bytes")
                out.write(chunk)
                chunk = await file.read(CHUNK)
    except BaseException:
        target.unlink(missing_ok=True)
        raise
    if problem := media_problem(target, kind):  # a small file that decodes to gigabytes
        target.unlink(missing_ok=True)
        raise HTTPException(413, problem.replace(target.name, repr(file.filename), 1))
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
    return await store_upload(file, state.workspace, state.max_upload_bytes)


@router.get("/files/{rel:path}")
async def get_file(request: Request, rel: str) -> FileResponse:
    """A workspace file: an upload, an input placed there, or a produced output."""
    workspace = request.app.state.hugginggpt.workspace
    try:
        path = served_file(workspace, rel)
    except FileNotFoundError:
        shown = rel if len(rel) <= 120 else rel[:100] + f"... ({len(rel)} characters)"
        raise HTTPException(404, f"no file {shown!r} in the workspace") from None
    media = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
    # Served files are data: never run them as a page of this origin.
    return FileResponse(path, media_type=media, headers={"X-Content-Type-Options": "nosniff",
                                                        "Content-Security-Policy": "sandbox"})
