"""Where the CPU protocol's time goes: the main job (`ctsbench run --sample 20 --no-cache` on the shipped
defaults) run for real, then per role: calls, prompt tokens (reused from a shared prefix, and processed),
output tokens and model seconds; the wall time; the scores; and, with ``--compare``, how many stage
records differ from another run folder's (the determinism check across runs and machines).

    python benchmarks/bench_protocol.py [--sample 20] [--engine deterministic|longest|concurrent] [--out-dir DIR]
    python benchmarks/bench_protocol.py --read DIR [--compare OTHER_DIR]

``--engine concurrent`` plays the llama.cpp engine with ``deterministic: false`` (up to 4 requests decoded
together), and ``--engine longest`` the earlier reproducible setting (``prompt_reuse: longest``: prompts read
a token at a time after the longest prefix any earlier prompt shares), for side-by-side figures on one machine.
Run it on an idle machine: one model process at a time.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

STAGES = ("clarify", "answer", "rewrite", "search", "judge")
# What a stage record's text is: the fields compared across runs (the rest are timings and ids).
TEXT_FIELDS = {"clarify": ("question", "raw"), "answer": ("answer", "raw"), "rewrite": ("rewrite", "raw"),
               "search": ("answer", "retrieved_doc_ids"), "judge": ("labels", "score")}
ROLE_MODELS = ("clarifier", "user_answerer", "rewriter")


def run_main_job(sample: int, engine: str, out_dir: Path) -> tuple[float, float]:
    """Runs the main job in a subprocess; returns its wall seconds and peak RSS in GB."""
    command = [sys.executable, "-m", "cts_dataset.cli", "run", "--sample", str(sample), "--no-cache", "--quiet",
               "--out-dir", str(out_dir)]
    if engine != "deterministic":
        config = out_dir.parent / f"{out_dir.name}-config.yaml"
        args = {"deterministic": False} if engine == "concurrent" else {"prompt_reuse": "longest"}
        model = {"backend": "default", "engine_args": args}
        config.write_text(json.dumps({role: model for role in ROLE_MODELS}))  # JSON is YAML
        command += ["--config", str(config)]
    started = time.perf_counter()
    subprocess.run(command, check=True, env={**os.environ, "HF_HUB_OFFLINE": "1"})
    peak_kib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss  # Linux: KiB
    return time.perf_counter() - started, peak_kib / 1024 ** 2


def role_figures(folder: Path) -> dict[str, dict[str, float]]:
    """Per role, from the run's call trace: calls, prompt/reused/processed/output tokens, model seconds."""
    figures: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    with open(folder / "calls.jsonl", encoding="utf-8") as lines:
        for line in lines:
            call = json.loads(line)
            row, usage = figures[call["role"] or "other"], call.get("usage") or {}
            row["calls"] += 1
            row["prompt_tokens"] += usage.get("prompt_tokens", 0)
            row["reused_tokens"] += usage.get("cached_tokens", 0)
            row["output_tokens"] += usage.get("completion_tokens", 0)
            row["model_s"] += call.get("latency_s", 0.0)
    for row in figures.values():
        row["processed_tokens"] = row["prompt_tokens"] - row["reused_tokens"]
    return {role: dict(row) for role, row in figures.items()}


def stage_texts(folder: Path) -> dict[str, dict[str, str]]:
    """stage -> record key -> the record's text fields, as JSON."""
    texts: dict[str, dict[str, str]] = {}
    for stage in STAGES:
        path = folder / f"{stage}.jsonl"
        if not path.exists():
            continue
        records = {}
        for line in path.read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            key = "|".join(str(record.get(k)) for k in ("instance", "condition", "budget", "turn", "repeat"))
            records[key] = json.dumps([record.get(f) for f in TEXT_FIELDS[stage]], ensure_ascii=False)
        texts[stage] = records
    return texts


def differing(folder_a: Path, folder_b: Path) -> dict[str, str]:
    """Per stage: how many records both runs hold, and how many of them differ."""
    a, b = stage_texts(folder_a), stage_texts(folder_b)
    out = {}
    for stage in STAGES:
        shared = set(a.get(stage, {})) & set(b.get(stage, {}))
        changed = sum(a[stage][key] != b[stage][key] for key in shared)
        out[stage] = f"{changed} of {len(shared)}"
    return out


def scores(folder: Path) -> dict[str, float]:
    summary = json.loads((folder / "summary.json").read_text(encoding="utf-8"))
    return {name: round(row["restore_score_100"]["mean"], 1) for name, row in summary.get("conditions", {}).items()
            if isinstance(row.get("restore_score_100"), dict) and row["restore_score_100"].get("mean") is not None}


def report(folder: Path, wall_s: float | None, compare: Path | None, peak_gb: float | None = None) -> None:
    figures = role_figures(folder)
    print(f"run folder: {folder}" + (f"; wall {wall_s:.1f} s" if wall_s is not None else "")
          + (f"; peak RSS {peak_gb:.2f} GB" if peak_gb is not None else ""))
    print("| role | calls | prompt tokens | reused | processed | output tokens | model s | s per call |")
    print("|---|---|---|---|---|---|---|---|")
    total = defaultdict(float)
    for role, row in sorted(figures.items()):
        for key, value in row.items():
            total[key] += value
        print(f"| {role} | {row['calls']:.0f} | {row['prompt_tokens']:.0f} | {row['reused_tokens']:.0f} | "
              f"{row['processed_tokens']:.0f} | {row['output_tokens']:.0f} | {row['model_s']:.1f} | "
              f"{row['model_s'] / max(row['calls'], 1):.2f} |")
    print(f"| all | {total['calls']:.0f} | {total['prompt_tokens']:.0f} | {total['reused_tokens']:.0f} | "
          f"{total['processed_tokens']:.0f} | {total['output_tokens']:.0f} | {total['model_s']:.1f} | |")
    print("(model s sums each call's latency: with concurrent decoding the calls overlap)")
    found = scores(folder)
    if found:
        print("restore_score_100:", found)
    if compare is not None:
        print(f"records differing from {compare}:", differing(folder, compare))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sample", type=int, default=20)
    parser.add_argument("--engine", choices=("deterministic", "longest", "concurrent"), default="deterministic")
    parser.add_argument("--out-dir", type=Path, help="the run folder (default: a new temporary one)")
    parser.add_argument("--read", type=Path, help="report on an existing run folder instead of running")
    parser.add_argument("--compare", type=Path, help="count stage records that differ from this run folder")
    args = parser.parse_args()
    if args.read:
        report(args.read, None, args.compare)
        return
    out_dir = args.out_dir or Path(tempfile.mkdtemp(prefix="bench-protocol-")) / "run"
    wall, peak = run_main_job(args.sample, args.engine, out_dir)
    report(out_dir, wall, args.compare, peak)


if __name__ == "__main__":
    main()
