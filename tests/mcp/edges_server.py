"""A second, small MCP server for the tests (stdio): OpenCV's Canny edge detector as the tool `edges`, and a
tool that always fails. Started by the tests through an MCP experts config, as a user's config would start one."""

import io

import cv2
import numpy as np
from mcp.server.fastmcp import FastMCP, Image
from PIL import Image as Picture

server = FastMCP("edges-box", log_level="WARNING")


@server.tool()
def edges(picture: str, low: int = 100, high: int = 200) -> Image:
    """The Canny edge map of the picture at the path given."""
    pixels = np.asarray(Picture.open(picture).convert("RGB"))
    out = io.BytesIO()
    Picture.fromarray(cv2.Canny(pixels, low, high)).save(out, format="PNG")
    return Image(data=out.getvalue(), format="png")


@server.tool()
def broken(picture: str) -> str:
    """Fails, saying why."""
    raise ValueError("the edge box is out of order")


if __name__ == "__main__":
    server.run("stdio")
