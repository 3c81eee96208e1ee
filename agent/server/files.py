"""Uploads into the workspace, and workspace files served back.

An upload is accepted when its bytes are an allowed image, audio or video format
(sniffed from the content: neither the name nor the declared type is trusted). It
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

from langchain_hugginggpt.agent.workspace import Workspace, media_type

UPLOADS = "uploads"
CHUNK = 1 << 20

# Media type -> (kind, extension the stored file gets).
ALLOWED: dict[str, tuple[str, str]] = {
    "image/png": ("image", ".png"), "image/jpeg": ("image", ".jpg"), "image/gif": ("image", ".gif"),
    "image/webp": ("image", ".webp"), "image/bmp": ("image", ".bmp"), "image/tiff": ("image", ".tif"),
    "audio/wav": ("audio", ".wav"), "audio/flac": ("audio", ".flac"), "audio/mpeg": ("audio", ".mp3"),
    "audio/ogg": ("audio", ".ogg"), "audio/mp4": ("audio", ".m4a"),
    "video/mp4": ("video", ".mp4"), "video/quicktime": ("video", ".mov"), "video/webm": ("video", ".webm"),
    "video/x-matroska": ("video", ".mkv"), "video/x-msvideo": ("video", ".avi"),
}
_GENERIC_TYPES = {"", "application/octet-stream"}


def sniff(head: bytes) -> str | None:
    """The media type of a file from its first bytes, if it is one of ALLOWED."""
    riff = head[8:12] if head[:4] == b"RIFF" else b""
    if head.startswith(b"\x89PNG\r\n\x1a\n"):
        return "image/png"
    if head.startswith(b"\xff\xd8\xff"):
        return "image/jpeg"
    if head[:6] in (b"GIF87a", b"GIF89a"):
        return "image/gif"
    if head[:2] == b"BM" and len(head) >= 18 and int.from_bytes(head[14:18], "little") in (12, 40, 52, 56, 64, 108, 124):
        return "image/bmp"
    if head[:4] in (b"II*\x00", b"MM\x00*"):
        return "image/tiff"
    if riff in (b"WEBP", b"WAVE", b"AVI "):
        return {b"WEBP": "image/webp", b"WAVE": "audio/wav", b"AVI ": "video/x-msvideo"}[riff]
    if head.startswith(b"fLaC"):
        return "audio/flac"
    if head.startswith(b"OggS"):
        return "audio/ogg"
    if head.startswith(b"ID3") or (len(head) > 1 and head[0] == 0xFF and head[1] & 0xE0 == 0xE0):
        return "audio/mpeg"
    if head[4:8] == b"ftyp":
        brand = head[8:12]
        return "audio/mp4" if brand in (b"M4A ", b"M4B ") else "video/quicktime" if brand == b"qt  " else "video/mp4"
    if head.startswith(b"\x1a\x45\xdf\xa3"):
        return "video/webm" if b"webm" in head[:64] else "video/x-matroska"
    return None


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
    if declared not in _GENERIC_TYPES and declared.split("/")[0] not in ("image", "audio", "video"):
        raise HTTPException(415, f"uploads must be images, audio or video; {file.filename!r} was sent as {declared!r}")
    head = await file.read(64)
    detected = sniff(head)
    if detected is None:
        allowed = ", ".join(sorted(ext.lstrip(".") for _, ext in ALLOWED.values()))
        raise HTTPException(415, f"{file.filename!r} is not an image, audio or video file in an allowed format ({allowed})")
    kind, extension = ALLOWED[detected]
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
    rel = f"{UPLOADS}/{target.name}"
    return Upload(path=rel, url="/files/" + quote(rel), kind=kind, media_type=detected, size=size,
                  filename=file.filename or "")


router = APIRouter(tags=["files"])


@router.post("/files", response_model=Upload, status_code=201)
async def upload_file(request: Request, file: UploadFile) -> Upload:
    """Store an image, audio or video file in the workspace; use the returned `path` in a request."""
    state = request.app.state.hugginggpt
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
