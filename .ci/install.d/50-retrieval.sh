#!/usr/bin/env bash
# Model retrieval (retriever/): export the packaged all-MiniLM-L6-v2 to ONNX once, into the
# cache folder, so the first search does not pay for it (the default embeddings run on onnxruntime),
# and quantize it to int8 once: the learned planner's vectors (a failure here beats planning on the
# float vectors it was not trained on).
set -euo pipefail
cd "$(dirname "$0")/../.."
python3 -c "from langchain_hugginggpt.retriever import default_embeddings; print('50-retrieval:', type(default_embeddings()).__name__)"
python3 -c "from langchain_hugginggpt.retriever.minilm_onnx import MiniLMOnnx; MiniLMOnnx(int8=True); print('50-retrieval: int8 MiniLM ready')"
