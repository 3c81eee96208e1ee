#!/usr/bin/env bash
# Hugging Face backends (tools/engines/hf_transformers.py, hf_diffusers.py, hf_inference.py).
# Their packages come with the `transformers` and `diffusion` extras; no weights are fetched
# (no machine here reaches the Hub: the tests build tiny models). This only checks that the
# stack imports and that nothing swapped the CPU torch (timm, for DETR's backbone, would pull
# torchvision and a different torch: it is deliberately not installed).
set -euo pipefail
cd "$(dirname "$0")/../.."

python3 - <<'PY'
# Metadata only: importing torch and transformers here took 8 s of a loaded install.
import importlib.metadata as metadata, importlib.util, sys
missing = [m for m in ("transformers", "diffusers", "huggingface_hub", "av", "sentencepiece", "pytesseract", "accelerate")
           if importlib.util.find_spec(m) is None]
if missing:
    sys.exit(f"40-hf: missing {', '.join(missing)}: pip install -e '.[transformers,diffusion]'")
if not metadata.version("torch").startswith("2.13.0"):
    sys.exit(f"40-hf: torch {metadata.version('torch')} replaced torch 2.13.0 (CPU)")
PY
echo "40-hf: done"
