"""Which media files the agent accepts from outside, recognised by their bytes.

Uploads (server) and URL inputs (downloads) both keep a file only when its first
bytes are an allowed image, audio or video format: neither the name nor the
declared type is trusted.

Also what kind of file a name or a plan argument names (`media_type`, `looks_like_file`), for the
planners and plan validation, which need no workspace and no HTTP client.
"""

from __future__ import annotations

import mimetypes
from pathlib import Path

SNIFF_BYTES = 64  # enough for every signature below

# Media type -> (kind, extension the stored file gets).
ALLOWED: dict[str, tuple[str, str]] = {
    "image/png": ("image", ".png"), "image/jpeg": ("image", ".jpg"), "image/gif": ("image", ".gif"),
    "image/webp": ("image", ".webp"), "image/bmp": ("image", ".bmp"), "image/tiff": ("image", ".tif"),
    "audio/wav": ("audio", ".wav"), "audio/flac": ("audio", ".flac"), "audio/mpeg": ("audio", ".mp3"),
    "audio/ogg": ("audio", ".ogg"), "audio/mp4": ("audio", ".m4a"),
    "video/mp4": ("video", ".mp4"), "video/quicktime": ("video", ".mov"), "video/webm": ("video", ".webm"),
    "video/x-matroska": ("video", ".mkv"), "video/x-msvideo": ("video", ".avi"),
}


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


def serves_as(media: str, kind: str) -> bool:
    """Whether a file of this media type fits an input slot of this kind (a GIF is also a video)."""
    return ALLOWED[media][0] == kind or (media == "image/gif" and kind == "video")


def allowed_formats() -> str:
    return ", ".join(sorted(ext.lstrip(".") for _, ext in ALLOWED.values()))


MEDIA_SUFFIXES = {
    "image": {".jpg", ".jpeg", ".png", ".gif", ".bmp", ".webp", ".tif", ".tiff"},
    "audio": {".wav", ".flac", ".mp3", ".ogg", ".m4a"},
    "video": {".mp4", ".avi", ".mov", ".mkv", ".webm", ".gif"},
}


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


# What one step decodes at most: a 20 kB PNG can declare 13,000 x 13,000 pixels (2.7 GB once decoded) and a
# 272 kB FLAC three hours of silence (7 GB as samples), so the size on disk bounds nothing.
MAX_IMAGE_PIXELS = 40_000_000  # an 8K frame is 33 million
MAX_AUDIO_SECONDS = 30 * 60


def too_many_pixels(size: tuple[int, int], name: str | Path) -> str | None:
    """Why an image of `size` (width, height) is not decoded, or None."""
    width, height = size
    if width * height > MAX_IMAGE_PIXELS:
        return (f"{Path(name).name} is {width:,} x {height:,} pixels; images of at most "
                f"{MAX_IMAGE_PIXELS // 1_000_000} million pixels are read")
    return None


def too_long(seconds: float | None, name: str | Path) -> str | None:
    """Why audio of this duration is not decoded, or None; `seconds=None`: decoding passed the limit."""
    limit = _duration(MAX_AUDIO_SECONDS)
    if seconds is None:
        return f"{Path(name).name} runs longer than {limit}; audio of at most {limit} is read"
    if seconds > MAX_AUDIO_SECONDS:
        return f"{Path(name).name} is {_duration(seconds)} long; audio of at most {limit} is read"
    return None


def _duration(seconds: float) -> str:
    return f"{seconds / 60:,.0f} minutes" if seconds >= 120 else f"{seconds:,.0f} s"


def media_problem(path: str | Path, kind: str) -> str | None:
    """Why a stored image or audio file is refused before any step decodes it (its header's size or
    duration), or None; a file whose header cannot be read is left to the step, which names the problem."""
    try:
        if kind == "image":
            from PIL import Image

            with Image.open(path) as image:
                return too_many_pixels(image.size, path)
        if kind == "audio":  # a video's sound track is bounded when a step decodes it
            import av

            with av.open(str(path), metadata_errors="ignore") as container:
                duration = container.duration  # microseconds, when the header says
                return too_long(duration / 1_000_000, path) if duration else None
    except Exception:  # noqa: BLE001 - unreadable headers are the step's to report
        return None
    return None
