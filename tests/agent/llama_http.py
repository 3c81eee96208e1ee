"""llama.cpp's OpenAI-compatible HTTP server (xllamacpp) on 127.0.0.1, as a process the preset tests start.

    python tests/agent/llama_http.py MODEL.gguf PORT

Prints "ready URL" once the model is loaded and the port answers; SIGTERM stops it.
"""

import signal
import sys
import threading

import xllamacpp

params = xllamacpp.CommonParams()
params.model.path = sys.argv[1]
params.n_ctx = 4096
params.port = int(sys.argv[2])
params.hostnames = ["127.0.0.1"]
params.cache_ram_mib = 64
params.verbosity = 0
server = xllamacpp.Server(params)
stop = threading.Event()
signal.signal(signal.SIGTERM, lambda *_: stop.set())
print("ready", server.listening_address, flush=True)
stop.wait()
