#!/usr/bin/env bash
# Model retrieval (retriever/): export the packaged all-MiniLM-L6-v2 to ONNX once, into the
# cache folder, so the first search does not pay for it (the default embeddings run on onnxruntime).
set -euo pipefail
cd "$(dirname "$0")/../.."
python3 -c "from langchain_hugginggpt.retriever import default_embeddings; print('50-retrieval:', type(default_embeddings()).__name__)"
