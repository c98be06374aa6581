"""llama.cpp (xllamacpp) vs transformers on the same GGUF and the same prompts: speed, load time, peak memory.

    python benchmarks/bench_llamacpp.py [--prompts 8] [--max-tokens 48] [--with-1.5b] [--skip-transformers]

Each (model, backend) runs in a subprocess of its own, so its peak RSS (from ``os.wait4``) is its own.
Greedy decoding; one warm-up request first. "batched": all prompts in one ``complete`` call (llama.cpp:
``--slots`` parallel slots, 4 as in the registry; transformers: one padded batch); "single": one prompt
at a time. tok/s counts the generated tokens over the wall time of the calls (prompts are short, so this is nearly all decoding).
transformers dequantises the GGUF to float32 on load. Run it on an otherwise idle machine: llama.cpp
busy-waits its threads, so anything else on the cores slows it down many times over.
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


def child(backend: str, gguf: Path, n: int, max_tokens: int, threads: int, slots: int) -> None:
    """Load, warm up, time batched then single; print one ``@@{json}`` line."""
    started = time.perf_counter()
    if backend == "llamacpp":
        from cts_dataset.models.llamacpp_backend import LlamaCppModel

        model = LlamaCppModel(gguf, n_ctx=1024 * slots, n_parallel=slots, n_threads=threads)
    else:
        import torch

        from cts_dataset.models.transformers_backend import TransformersModel

        torch.set_num_threads(threads)
        model = TransformersModel(gguf.parent, gguf_file=gguf.name, batch_size=n)
    load_s = time.perf_counter() - started
    batch = requests(n, max_tokens)
    model.complete(batch[:1])
    figures: dict[str, object] = {"load_s": load_s}
    for label, alone in (("batched", False), ("single", True)):
        started = time.perf_counter()
        responses = [model.complete([r])[0] for r in batch] if alone else model.complete(batch)
        wall = time.perf_counter() - started
        failed = [r.error for r in responses if r.failed]
        if failed:
            raise RuntimeError(failed[0])
        tokens = sum(r.usage.completion_tokens for r in responses)
        figures[label] = {"tokens": tokens, "wall_s": wall, "tok_s": tokens / wall, "texts": [r.text for r in responses]}
    print("@@" + json.dumps(figures), flush=True)


def run_child(backend: str, gguf: Path, args: argparse.Namespace) -> dict[str, object] | str:
    """The child's figures plus its peak RSS, or the tail of its error output."""
    command = [sys.executable, __file__, "--child", backend, "--gguf", str(gguf), "--prompts", str(args.prompts),
               "--max-tokens", str(args.max_tokens), "--threads", str(args.threads), "--slots", str(args.slots)]
    with tempfile.TemporaryFile() as errors:
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=errors, text=True)
        assert process.stdout is not None
        output = process.stdout.read()
        _, status, usage = os.wait4(process.pid, 0)  # this child's own resource usage (ru_maxrss: KiB on Linux)
        process.returncode = os.waitstatus_to_exitcode(status)
        errors.seek(0)
        tail = errors.read().decode(errors="replace")[-1500:]
    lines = [line for line in output.splitlines() if line.startswith("@@")]
    if process.returncode != 0 or not lines:
        return f"failed ({process.returncode}): {tail}"
    figures = json.loads(lines[-1][2:])
    figures["peak_rss_mib"] = usage.ru_maxrss / 1024
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--prompts", type=int, default=8)
    parser.add_argument("--max-tokens", type=int, default=48)
    parser.add_argument("--threads", type=int, default=len(os.sched_getaffinity(0)))
    # The packaged models' registry entries run 4 slots. On 2 cores decoding is compute-bound: 1, 2, 4 and 8
    # slots gave the 1.5B 19.9, 22.3, 20.9 and 17.0 tok/s on 8 prompts, so more slots buy little.
    parser.add_argument("--slots", type=int, default=4, help="llama.cpp parallel slots (n_parallel)")
    parser.add_argument("--with-1.5b", dest="with_15b", action="store_true",
                        help="Also the default Qwen2.5-Coder-1.5B (ctsbench models install-default first).")
    parser.add_argument("--skip-transformers", action="store_true")
    parser.add_argument("--child", choices=("llamacpp", "transformers"), help=argparse.SUPPRESS)
    parser.add_argument("--gguf", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.gguf, args.prompts, args.max_tokens, args.threads, args.slots)
        return

    from cts_dataset.models.default_model import DEFAULT_MODEL, SMOLLM2, default_gguf, gguf_path

    models = [(SMOLLM2, gguf_path())] + ([(DEFAULT_MODEL, default_gguf())] if args.with_15b else [])
    backends = ["llamacpp"] + ([] if args.skip_transformers else ["transformers"])
    print(f"{args.prompts} prompts, {args.max_tokens} new tokens max, greedy, {args.threads} threads; "
          f"load average {os.getloadavg()[0]:.2f}\n")
    header = f"| {'model':36} | {'backend':12} | load s | batched tok/s | single tok/s | peak RSS MiB |"
    print(header + "\n|" + "|".join("-" * len(c) for c in header.split("|")[1:-1]) + "|")
    notes = []
    for name, gguf in models:
        texts: dict[str, list[str]] = {}
        for backend in backends:
            figures = run_child(backend, gguf, args)
            if isinstance(figures, str):
                print(f"| {name:36} | {backend:12} | {figures}")
                continue
            batched, single = figures["batched"], figures["single"]
            texts[backend] = single["texts"]  # type: ignore[index]
            print(f"| {name:36} | {backend:12} | {figures['load_s']:6.1f} | {batched['tok_s']:13.1f} | "  # type: ignore[index]
                  f"{single['tok_s']:12.1f} | {figures['peak_rss_mib']:12.0f} |", flush=True)
        if len(texts) == 2:
            same = sum(a == b for a, b in zip(texts["llamacpp"], texts["transformers"]))
            notes.append(f"{name}: greedy outputs identical across the backends for {same} of {args.prompts} prompts")
    print("\n" + "\n".join(notes))


if __name__ == "__main__":
    main()
