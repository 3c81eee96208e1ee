"""What an MCP client sees of the workspace: resource URIs instead of disk paths, and files as content.

Workspace files are named `hugginggpt://files/<path in the workspace>` (`hugginggpt://files/outputs/
detection-1a2b.png`): in the text of a result (the server's `PublicPaths` rule, with this root instead of
`/files`), as the URI of every file a result carries and of every resource listed. A client may send such a
URI back as a file input, where it names the workspace file again. A produced file comes as the content of
its kind: a picture as image content, a sound as audio content, anything else (a video) as an embedded
resource; a file over `MAX_INLINE_BYTES` comes as a resource link the client reads when it wants it.
"""

from __future__ import annotations

import base64
import mimetypes
import os
import re
from collections.abc import Awaitable, Callable, Iterable
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import quote, unquote

from mcp.types import (AudioContent, BlobResourceContents, CallToolResult, ContentBlock, EmbeddedResource, ImageContent, Resource,
                       ResourceLink)

from langchain_hugginggpt.core.media import ALLOWED, media_type
from langchain_hugginggpt.server.files import served_file
from langchain_hugginggpt.server.public import PublicPaths
from langchain_hugginggpt.core.workspace import Workspace, relative_path

RESOURCE_ROOT = "hugginggpt://files"
MAX_INLINE_BYTES = 8 * 2**20  # a bigger file is linked, not sent: one tool result stays a few MB at most
MAX_RESOURCE_BYTES = 64 * 2**20  # the most one resource read sends
MAX_LISTED = 500  # the newest outputs listed as resources: the listing stays small in a long-used workspace
_URI_IN_TEXT = re.compile(re.escape(RESOURCE_ROOT) + r"/([^\s\"'`<>|\\(){}\[\],;]+)")
_MIME = {extension: mime for mime, (_, extension) in ALLOWED.items()}


def mime_type(path: str | Path) -> str:
    suffix = PurePosixPath(str(path)).suffix.lower()
    return _MIME.get(suffix) or mimetypes.guess_type(str(path))[0] or "application/octet-stream"


class WorkspaceFiles:
    """The workspace as the MCP server shows it (see the module doc)."""

    def __init__(self, workspace: Workspace, private: Iterable[str | Path] = ()) -> None:
        self.workspace = workspace
        self._public = PublicPaths(workspace, private, files_url=RESOURCE_ROOT)

    def text(self, value: str) -> str:
        """Text with every disk path in it replaced: workspace files by their URIs, other paths by their last part."""
        return self._public.text(value)

    def uri(self, path: str | Path) -> str | None:
        rel = relative_path(self.workspace, path)
        return None if rel is None else f"{RESOURCE_ROOT}/{quote(rel)}"

    def to_workspace(self, value: str) -> str:
        """Text a client sent, with each resource URI (and each `/files/...` URL of `hugginggpt serve`) as the
        workspace path it names."""
        return self._public.to_workspace(_URI_IN_TEXT.sub(lambda m: unquote(m.group(1)), value))

    def output(self, uri: str) -> Path:
        """The produced file a resource URI names; FileNotFoundError for anything else (an upload, an input, a
        hidden file, `..`), with the same rule as `GET /files/...` (`served_file`)."""
        if not uri.startswith(RESOURCE_ROOT + "/"):
            raise FileNotFoundError(uri)
        rel = unquote(uri[len(RESOURCE_ROOT) + 1:])
        if not rel.startswith("outputs/"):
            raise FileNotFoundError(uri)
        return served_file(self.workspace, rel)

    def blocks(self, files: Iterable[str]) -> list[ContentBlock]:
        """Every file as MCP content of its kind (see the module doc)."""
        blocks: list[ContentBlock] = []
        for name in files:
            path, uri = Path(name), self.uri(name)
            if uri is None or not path.is_file():
                continue
            size, mime, kind = path.stat().st_size, mime_type(path), media_type(path)
            if size > MAX_INLINE_BYTES:
                blocks.append(ResourceLink(type="resource_link", uri=uri, name=path.name, mimeType=mime, size=size))
                continue
            data = base64.b64encode(path.read_bytes()).decode()
            if kind == "image":
                blocks.append(ImageContent(type="image", data=data, mimeType=mime))
            elif kind == "audio":
                blocks.append(AudioContent(type="audio", data=data, mimeType=mime))
            else:
                blocks.append(EmbeddedResource(type="resource", resource=BlobResourceContents(uri=uri, mimeType=mime,
                                                                                              blob=data)))
        return blocks

    def resources(self) -> list[Resource]:
        """The newest produced files (`MAX_LISTED`), newest first."""
        found: list[tuple[float, Path, int]] = []
        for root, folders, names in os.walk(self.workspace.outputs):
            folders[:] = [f for f in folders if not f.startswith(".")]
            for name in names:
                if not name.startswith("."):
                    path = Path(root, name)
                    try:
                        info = path.stat()
                        found.append((info.st_mtime, path, info.st_size))
                    except OSError:  # removed while listed
                        continue
        found.sort(key=lambda item: item[0], reverse=True)
        listed = []
        for _, path, size in found[:MAX_LISTED]:
            uri = self.uri(path)
            if uri is not None:
                listed.append(Resource(uri=uri, name=path.name, mimeType=mime_type(path), size=size,
                                       description=f"a {media_type(path)} file HuggingGPT produced"))
        return listed


async def audio_as_file(request: Any, handler: Callable[[Any], Awaitable[Any]]) -> Any:
    """A tool-call interceptor for langchain-mcp-adapters (`MultiServerMCPClient(..., tool_interceptors=
    [audio_as_file])`): audio content, which its version 0.3 cannot turn into a LangChain block (it raises
    NotImplementedError), comes as an embedded file of the same bytes and type instead."""
    result = await handler(request)
    if isinstance(result, CallToolResult) and any(isinstance(c, AudioContent) for c in result.content):
        content = [EmbeddedResource(type="resource", resource=BlobResourceContents(
                       uri=f"{RESOURCE_ROOT}/audio", mimeType=c.mimeType, blob=c.data))
                   if isinstance(c, AudioContent) else c for c in result.content]
        result = result.model_copy(update={"content": content})
    return result
