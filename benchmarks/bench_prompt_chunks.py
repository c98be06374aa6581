"""Which llama.cpp prompt settings keep the deterministic engine's bytes, and what each costs.

    python benchmarks/bench_prompt_chunks.py RUN_DIR [--settings 512:prefix 1 512:cold 512:norepack] [--limit N]

A setting is ``CHUNK[:flag]...``, prompts read in chunks of CHUNK tokens, with the flags:
- ``prefix``: the engine's ``prompt_reuse="prefix"`` (each prompt read from its own fixed prefix; it decides
  what is reused itself, so ``cold`` changes nothing with it). Without it, ``longest``: the longest prefix
  any earlier prompt shares is reused;
- ``nosave``: with ``prefix``, each prefix read again rather than restored from its saved state;
- ``cold``: every prompt read whole, with no prefix reused from an earlier request;
- ``norepack``: the weights as stored (llama.cpp's ``no_extra_bufts``), not repacked for the CPU's wider
  kernels;
- ``noflash``: attention without flash attention; ``q8kv``: the KV cache as q8_0 rather than f16;
- ``decode1``: decoding with one thread (prompt chunks keep the engine's threads).

The requests are a run folder's real ones (its ``calls.jsonl``, e.g. from ``bench_protocol.py``), replayed
on a fresh one-slot engine per setting and order: as the run sent them, then shuffled (so a reused prompt
prefix ends elsewhere). A setting keeps its bytes when every request's per-token log-probabilities are
bit-identical in both orders. Prints, per setting and order: wall seconds, prompt tokens processed, and how
many requests differ in text and in log-probabilities from the earlier setting (``1``: one-token chunks
after the longest shared prefix) sent in order, and between the two orders; with several settings, how many requests each differs in from the first as
sent (``512:prefix 512:prefix:nosave``: do saved prefix states keep the bytes?); then which requests differ
between the orders, with the prompt tokens each order read for them. One model process at a time.
"""

from __future__ import annotations

import argparse
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

ENGINE = f"{llamacpp.PREFIX_UBATCH}:prefix"  # the engine's own setting, before replay() changes it
REFERENCE = "1"  # the earlier setting (prompt_reuse="longest"): every comparison is against it


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


FLAGS = ("prefix", "nosave", "cold", "norepack", "noflash", "q8kv", "decode1")


def parse_setting(text: str) -> tuple[int, set[str]]:
    """``CHUNK[:flag]...`` as (chunk, flags)."""
    chunk, *flags = text.split(":")
    if set(flags) - set(FLAGS) or not chunk.isdigit() or int(chunk) < 1:
        raise SystemExit(f"--settings {text!r}: expected CHUNK[:{']['.join(FLAGS)}], e.g. 512:cold")
    return int(chunk), set(flags)


def replay(gguf: str, setting: str, requests: list[ChatRequest], order: list[int]) -> dict[str, Any]:
    """Text and per-token log-probabilities of each request, on a fresh engine with ``setting``."""
    import xllamacpp

    chunk, flags = parse_setting(setting)
    cold = "cold" in flags
    llamacpp.DETERMINISTIC_UBATCH = llamacpp.PREFIX_UBATCH = chunk  # read when the engine starts
    attention = xllamacpp.llama_flash_attn_type
    kv = xllamacpp.ggml_type.GGML_TYPE_Q8_0 if "q8kv" in flags else xllamacpp.ggml_type.GGML_TYPE_F16
    model = llamacpp.LlamaCppModel(  # options given here override the engine's own
        gguf, n_ctx=4096, n_parallel=1, prompt_reuse="prefix" if "prefix" in flags else "longest",
        save_prefixes="nosave" not in flags, no_extra_bufts="norepack" in flags, cache_type_k=kv, cache_type_v=kv,
        n_threads=1 if "decode1" in flags else None, n_threads_batch=llamacpp.DETERMINISTIC_DECODE_THREADS,
        flash_attn_type=attention.LLAMA_FLASH_ATTN_TYPE_DISABLED if "noflash" in flags
        else attention.LLAMA_FLASH_ATTN_TYPE_ENABLED)
    outputs: dict[int, tuple[str, list[float]]] = {}
    processed, read = 0, {}
    started = time.perf_counter()
    for index in order:
        body = {**llamacpp.request_body(requests[index]), "logprobs": True, "top_logprobs": 1,
                "cache_prompt": not cold}  # (the prefix setting decides this itself)
        before = model.prefix_tokens_read
        result = model.chat(body)
        choice = result["choices"][0]
        tokens = (choice.get("logprobs") or {}).get("content") or []
        outputs[index] = (choice["message"]["content"], [t["logprob"] for t in tokens])
        read[index] = int((result.get("timings") or {}).get("prompt_n", 0)) + model.prefix_tokens_read - before
        processed += read[index]
    wall = time.perf_counter() - started
    model.close()
    return {"outputs": outputs, "wall_s": wall, "processed": processed, "read": read}


def differing(a: dict[int, tuple[str, list[float]]], b: dict[int, tuple[str, list[float]]]) -> tuple[int, int]:
    """Requests whose text, and whose log-probabilities, differ between two replays."""
    return sum(a[i][0] != b[i][0] for i in a), sum(a[i][1] != b[i][1] for i in a)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("run_dir", type=Path)
    parser.add_argument("--settings", nargs="+", default=[ENGINE],
                        help="CHUNK[:" + "][:".join(FLAGS) + "] ...")
    parser.add_argument("--limit", type=int, default=None, help="the run's first N requests (default: all)")
    parser.add_argument("--gguf", help="the GGUF file (default: the packaged default model)")
    args = parser.parse_args()
    from cts_dataset.models.packaged import default_gguf

    for setting in args.settings:
        parse_setting(setting)
    gguf = args.gguf or str(default_gguf())
    requests = requests_of(args.run_dir, args.limit)
    in_order = list(range(len(requests)))
    shuffled = in_order[:]
    random.Random(0).shuffle(shuffled)
    print(f"{len(requests)} requests of {args.run_dir}, model {Path(gguf).name}; the engine's setting: "
          f"{ENGINE}; compared with {REFERENCE} as sent\n")
    print("| setting | order | wall s | prompt tokens processed | text differs | log-probs differ |")
    print("|---|---|---|---|---|---|")
    reference = replay(gguf, REFERENCE, requests, in_order)
    kept: list[str] = []
    details: list[str] = []
    sent: dict[str, dict[int, tuple[str, list[float]]]] = {}  # each setting's outputs as sent
    for setting in dict.fromkeys(args.settings):
        replays = []
        for name, order in (("as sent", in_order), ("shuffled", shuffled)):
            found = reference if (setting, name) == (REFERENCE, "as sent") else replay(
                gguf, setting, requests, order)
            texts, logprobs = differing(found["outputs"], reference["outputs"])
            replays.append(found)
            print(f"| {setting} | {name} | {found['wall_s']:.1f} | {found['processed']} | {texts} | {logprobs} |",
                  flush=True)
        texts, logprobs = differing(replays[0]["outputs"], replays[1]["outputs"])
        print(f"| {setting} | as sent vs shuffled | | | {texts} | {logprobs} |", flush=True)
        sent[setting] = replays[0]["outputs"]
        first, second = (r["outputs"] for r in replays)
        apart = [i for i in first if first[i][1] != second[i][1]]
        if apart:  # which requests, and how many prompt tokens each order read for them
            details.append(f"{setting}: " + ", ".join(
                f"#{i} read {replays[0]['read'][i]} / {replays[1]['read'][i]}" for i in apart))
        if not logprobs:
            kept.append(setting)
    first_setting, *others = sent
    for other in others:  # e.g. 512:prefix against 512:prefix:nosave: the same bytes?
        texts, logprobs = differing(sent[other], sent[first_setting])
        print(f"\n{other} against {first_setting}, as sent: {texts} texts and {logprobs} log-probabilities differ")
    if details:
        print("\nRequests whose bytes depend on the order (prompt tokens read as sent / shuffled):\n" +
              "\n".join(details))
    print(f"\nSettings whose bytes do not depend on the order: {kept} (the engine's: {ENGINE}).")


if __name__ == "__main__":
    main()
