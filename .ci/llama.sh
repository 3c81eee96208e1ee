#!/usr/bin/env bash
# Builds llama-cpp-python (source-only on PyPI) portably and installs it, before the project.
#
# Why: its default build is -march=native. On an Intel Xeon with AMX that compiles llama.cpp's
# AMX backend, which segfaults on the first batched matmul; on the next machine (an AMD, say)
# a wheel built elsewhere may use instructions it lacks. So: no native code paths, AVX2-class
# flags that every x86-64 machine of the last decade has.
# pip caches built wheels without regard to CMAKE_ARGS, so pip's cache is never used here: the
# wheel is built once into our cache folder, under a name that holds the flags, and installed
# from there. HUGGINGGPT_LLAMA_NATIVE=1 opts into a native build (faster where it works).
set -euo pipefail
VERSION="${HUGGINGGPT_LLAMA_VERSION:-0.3.36}"
if [ "${HUGGINGGPT_LLAMA_NATIVE:-0}" = 1 ]; then
  FLAGS="-DGGML_NATIVE=ON"
  # a native build belongs to the CPU it was built on
  TAG="native-$(grep -m1 '^flags' /proc/cpuinfo | md5sum | cut -c1-12)"
else
  FLAGS="-DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_BMI2=ON"
  FLAGS="$FLAGS -DGGML_AVX512=OFF -DGGML_AMX_TILE=OFF -DGGML_AMX_INT8=OFF -DGGML_AMX_BF16=OFF"
  TAG="portable-$(echo "$FLAGS" | md5sum | cut -c1-12)"
fi
CACHE="${HUGGINGGPT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/langchain-hugginggpt}"
WHEEL_DIR="$CACHE/wheels/llama-cpp-python-$VERSION-$TAG"
mkdir -p "$WHEEL_DIR"
if ! ls "$WHEEL_DIR"/llama_cpp_python-*.whl >/dev/null 2>&1; then
  echo "llama: building llama-cpp-python $VERSION ($TAG; about 13 min on 2 cores)"
  CMAKE_ARGS="$FLAGS" python3 -m pip wheel -q --no-deps --no-cache-dir --no-binary llama-cpp-python \
    -w "$WHEEL_DIR" "llama-cpp-python==$VERSION"
fi
WHEEL="$(ls "$WHEEL_DIR"/llama_cpp_python-*.whl | head -n1)"
# --force-reinstall --no-deps replaces any llama-cpp-python installed before (perhaps native)
python3 -m pip install -q --force-reinstall --no-deps "$WHEEL"
python3 -m pip install -q "${WHEEL}[server]"

# llama.cpp reports the CPU features it was compiled for; an AMX backend is the crash above.
python3 - "$TAG" <<'PY'
import sys
import llama_cpp
info = llama_cpp.llama_print_system_info().decode()
if "AMX_INT8 = 1" in info and not sys.argv[1].startswith("native"):
    sys.exit(f"llama: the installed llama-cpp-python has llama.cpp's AMX backend, which crashes on "
             f"Intel CPUs with AMX. Remove it (pip uninstall llama-cpp-python) and rerun .ci/install.\n{info}")
if "AMX_INT8 = 1" in info:
    print("llama: warning: this native build has llama.cpp's AMX backend, which is known to crash; "
          "unset HUGGINGGPT_LLAMA_NATIVE if chat completions segfault", file=sys.stderr)
print(f"llama: llama-cpp-python {llama_cpp.__version__} ({sys.argv[1]})")
PY
