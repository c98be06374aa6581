"""Throughput of the ray executor against the local one on this machine: the packaged SmolLM2-135M on
llama.cpp (the smollm2-135m registry entry), the same batches through ``LoadedModel`` with the cache off.

Per batch and per request overhead come from a line fitted to the wall time of batches of 1 to
``--max-batch`` one-token requests (compute almost nil; the fastest of ``--repeats`` tries per size, as
other work on a shared machine only ever adds time): the intercept is what a batch costs, on Ray a
fresh actor process, the model load and Ray Data scheduling, the slope what each request adds. A batch
of 32-token answers gives the throughput of both. llama.cpp runs ``--threads`` threads (1 by default:
busy-waiting threads slow down many times over when other processes share the cores). The local model
is freed before Ray runs, so the two never share the cores. Prints JSON (and markdown with --markdown).

    python benchmarks/bench_ray.py [--max-batch 64] [--repeats 3] [--threads 1] [--markdown]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from typing import Any

from cts_dataset.models.base import ChatRequest, Sampling
from cts_dataset.models.registry import LoadedModel, load_model, release_backends

MODEL = "smollm2-135m"  # the registry entry; its engine args plus n_threads


def requests(count: int, max_tokens: int, offset: int = 0) -> list[ChatRequest]:
    return [ChatRequest.of([{"role": "user", "content": f"Question {offset + i}: name one city in Europe."}],
                           sampling=Sampling(max_tokens=max_tokens)) for i in range(count)]


def timed(model: LoadedModel, batch: list[ChatRequest]) -> tuple[float, int]:
    started = time.perf_counter()
    responses = model.complete(batch)
    failed = [r.error for r in responses if r.failed]
    if failed:
        raise RuntimeError(f"{len(failed)} requests failed, e.g. {failed[0]}")
    return time.perf_counter() - started, sum(r.usage.completion_tokens for r in responses)


def fit(points: list[tuple[int, float]]) -> tuple[float, float]:
    """(intercept, slope) of the least-squares line through (batch size, seconds)."""
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    slope = sum((x - mx) * (y - my) for x, y in points) / sum((x - mx) ** 2 for x in xs)
    return my - slope * mx, slope


def measure(executor: str, sizes: list[int], repeats: int, answer_batch: int, threads: int) -> dict[str, Any]:
    from cts_dataset.models.registry import resolve_spec

    spec = resolve_spec(MODEL)
    started = time.perf_counter()
    model = load_model(spec.replace(engine_args={**spec.engine_args, "n_threads": threads}), cache=False,
                       executor=executor)
    load_s = time.perf_counter() - started
    if executor == "local":
        model.complete(requests(1, 1, offset=10_000))  # the engine's own warm-up is not a batch cost
    offset, points, fastest = 0, [], []
    for size in sizes:
        tries = []
        for _ in range(repeats):
            seconds, _ = timed(model, requests(size, 1, offset))
            offset += size
            tries.append(seconds)
        points += [(size, t) for t in tries]
        fastest.append((size, min(tries)))
    intercept, slope = fit(fastest)
    seconds, tokens = timed(model, requests(answer_batch, 32, offset))
    release_backends()
    return {"executor": executor, "load_s": round(load_s, 3), "batch_intercept_s": round(intercept, 3),
            "per_request_s": round(slope, 4), "points": [(n, round(s, 3)) for n, s in points],
            "answer_batch": answer_batch, "answer_s": round(seconds, 2), "answer_tokens": tokens,
            "requests_per_s": round(answer_batch / seconds, 2), "tokens_per_s": round(tokens / seconds, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-batch", type=int, default=64)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--answer-batch", type=int, default=32)
    parser.add_argument("--threads", type=int, default=1, help="llama.cpp threads per model")
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args()
    sizes = sorted({1, 4, 16, args.max_batch})
    load_before = os.getloadavg()[0]
    local = measure("local", sizes, args.repeats, args.answer_batch, args.threads)
    from cts_dataset.executors.ray import RayOptions, ensure_ray, shutdown

    started = time.perf_counter()
    ensure_ray(RayOptions.from_env())
    cluster_s = time.perf_counter() - started
    try:
        ray = measure("ray", sizes, args.repeats, args.answer_batch, args.threads)
    finally:
        shutdown()
    result = {"model": MODEL, "threads": args.threads, "cores": len(os.sched_getaffinity(0)), "load_average": [round(load_before, 2),
              round(os.getloadavg()[0], 2)], "cluster_start_s": round(cluster_s, 2), "local": local, "ray": ray,
              "ray_batch_overhead_s": round(ray["batch_intercept_s"] - local["batch_intercept_s"], 3),
              "ray_request_overhead_s": round(ray["per_request_s"] - local["per_request_s"], 4)}
    print(json.dumps(result, indent=2))
    if args.markdown:
        print("\n| executor | batch intercept (s) | per request (s) | 32-token answers: req/s | tokens/s |")
        print("|---|---|---|---|---|")
        for row in (local, ray):
            print(f"| {row['executor']} | {row['batch_intercept_s']} | {row['per_request_s']} | "
                  f"{row['requests_per_s']} | {row['tokens_per_s']} |")
        print(f"\nRay over local: {result['ray_batch_overhead_s']} s per batch, "
              f"{result['ray_request_overhead_s']} s per request; local cluster start {cluster_s:.1f} s "
              f"(load average {result['load_average'][0]} -> {result['load_average'][1]} on "
              f"{result['cores']} cores).")


if __name__ == "__main__":
    main()
