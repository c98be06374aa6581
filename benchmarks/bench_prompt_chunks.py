"""Which llama.cpp prompt-chunk sizes keep the deterministic engine's bytes, and what each costs.

    python benchmarks/bench_prompt_chunks.py RUN_DIR [--chunks 1 3] [--limit N] [--gguf FILE]

The requests are a run folder's real ones (its ``calls.jsonl``, e.g. from ``bench_protocol.py``), replayed
on a fresh one-slot engine per chunk size and order: as the run sent them, then shuffled (so a reused
prompt prefix ends elsewhere). A chunk size keeps the deterministic engine's bytes only when every
request's per-token log-probabilities are bit-identical to those of one-token chunks in both orders.
Prints, per chunk size and order: wall seconds, prompt tokens processed, and how many requests differ
in text and in log-probabilities from one-token chunks sent in order. One model process at a time.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

import cts_dataset.models.llamacpp_backend as llamacpp
from cts_dataset.log import log_records
from cts_dataset.models.base import ChatRequest, Sampling, StructuredOutput

ENGINE_CHUNK = llamacpp.DETERMINISTIC_UBATCH  # what the engine uses, before replay() changes it


def requests_of(run_dir: Path, limit: int | None) -> list[ChatRequest]:
    """The run's model requests, in the order it sent them (a torn last line of a killed run is skipped)."""
    found = []
    for _, call in log_records(run_dir / "calls.jsonl"):
        params, sampling = call["params"], call["params"]["sampling"]
        structured = params.get("structured")
        found.append(ChatRequest.of(
            call["messages"], sampling=Sampling(sampling["temperature"], sampling["top_p"],
                                                sampling["max_tokens"], tuple(sampling["stop"]), sampling["seed"]),
            structured=StructuredOutput(**structured) if structured else None,
            chat_template_kwargs=params.get("chat_template_kwargs") or {},
            sample_index=params.get("sample_index", 0)))
    return found[:limit]


def replay(gguf: str, chunk: int, requests: list[ChatRequest], order: list[int]) -> dict[str, Any]:
    """Text and per-token log-probabilities of each request, on a fresh engine reading prompts in ``chunk``s."""
    llamacpp.DETERMINISTIC_UBATCH = chunk  # read when the engine starts
    model = llamacpp.LlamaCppModel(gguf, n_ctx=4096, n_parallel=1)
    outputs: dict[int, tuple[str, list[float]]] = {}
    processed = 0
    started = time.perf_counter()
    for index in order:
        body = {**llamacpp.request_body(requests[index]), "logprobs": True, "top_logprobs": 1}
        result = model._server.handle_chat_completions(body)
        result = json.loads(result) if isinstance(result, (str, bytes)) else result
        if "error" in result:
            raise RuntimeError(f"request {index}: {result['error']}")
        choice = result["choices"][0]
        tokens = (choice.get("logprobs") or {}).get("content") or []
        outputs[index] = (choice["message"]["content"], [t["logprob"] for t in tokens])
        processed += int((result.get("timings") or {}).get("prompt_n", 0))
    wall = time.perf_counter() - started
    model.close()
    return {"outputs": outputs, "wall_s": wall, "processed": processed}


def differing(a: dict[int, tuple[str, list[float]]], b: dict[int, tuple[str, list[float]]]) -> tuple[int, int]:
    """Requests whose text, and whose log-probabilities, differ between two replays."""
    return sum(a[i][0] != b[i][0] for i in a), sum(a[i][1] != b[i][1] for i in a)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("run_dir", type=Path)
    parser.add_argument("--chunks", type=int, nargs="+", default=[1, 3])
    parser.add_argument("--limit", type=int, default=None, help="the run's first N requests (default: all)")
    parser.add_argument("--gguf", help="the GGUF file (default: the packaged default model)")
    args = parser.parse_args()
    from cts_dataset.models.packaged import default_gguf

    gguf = args.gguf or str(default_gguf())
    requests = requests_of(args.run_dir, args.limit)
    in_order = list(range(len(requests)))
    print(f"{len(requests)} requests of {args.run_dir}, model {Path(gguf).name}\n")
    print("| prompt chunk | order | wall s | prompt tokens processed | text differs | log-probs differ |")
    print("|---|---|---|---|---|---|")
    shuffled = in_order[:]
    random.Random(0).shuffle(shuffled)
    reference = replay(gguf, 1, requests, in_order)
    kept = []
    for chunk in sorted(set(args.chunks) | {1}):
        differs = 0
        for name, order in (("as sent", in_order), ("shuffled", shuffled)):
            found = reference if (chunk, name) == (1, "as sent") else replay(gguf, chunk, requests, order)
            texts, logprobs = differing(found["outputs"], reference["outputs"])
            differs += logprobs
            print(f"| {chunk} | {name} | {found['wall_s']:.1f} | {found['processed']} | {texts} | {logprobs} |")
        if not differs:
            kept.append(chunk)
    print(f"\nChunk sizes with the bytes of one-token chunks in both orders: {kept} (the deterministic engine "
          f"reads prompts in chunks of {ENGINE_CHUNK}).")


if __name__ == "__main__":
    main()
