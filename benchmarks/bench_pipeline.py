"""Harness overhead of `ctsbench run` with instant models, at several sizes: synthetic instances, budgets
1-3, conditions baseline, clarify and oracle (5 as the summary counts them: baseline, clarify@1..3,
oracle). For each size it prints the wall time of a fresh run (the whole `Experiment.run`, records and
summary written), seconds per instance, model calls and batches per role against the minimum, the time
of an identical rerun (every stage already on disk) and the run folder's bytes; then a linearity line:
seconds per instance at each size and the ratio largest/smallest (linear: about 1), of fresh runs and of
reruns. A small warm-up run comes first, so that what a process pays once (imports, the corpus's place
names) is not counted against the first size.

The requirement it checks: 5,180 instances x 5 conditions in under 15 s, growing linearly.

    python benchmarks/bench_pipeline.py [--sizes 518,1554,5180] [--warmup 20]
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path
from typing import Any

from cts_dataset.data import load
from cts_dataset.jsonl import write_jsonl
from cts_dataset.judges.base import Judgement
from cts_dataset.log import log_records
from cts_dataset.models.scripted import ScriptedModel
from cts_dataset.pipeline.config import load_config
from cts_dataset.pipeline.experiment import Experiment
from cts_dataset.search.records import SearchOutput, Termination

TARGET_SIZE, TARGET_SECONDS = 5180, 15.0


class InstantSearcher:
    name = "instant"

    def search(self, queries: list[str], tags: list[str] | None = None) -> list[SearchOutput]:
        return [SearchOutput(query=q, answer=q, searcher="instant", tool="none", termination=Termination.answer,
                             retrieved_doc_ids=[]) for q in queries]


class InstantJudge:
    name = "instant"

    def judge(self, items: list[Any]) -> list[Judgement]:
        return [Judgement(labels=["partial"] * len(item.nuggets)) for item in items]


def synthetic(count: int) -> list:
    base = load()
    return [base[i % len(base)].model_copy(update={"id": f"syn-{i:04d}"}) for i in range(count)]


def models() -> dict[str, ScriptedModel]:
    return {"clarifier": ScriptedModel(default="Which year?"),
            "user_answerer": ScriptedModel(default='{"answer": "unknown"}'),
            "rewriter": ScriptedModel(default="rewritten query")}


def once(folder: Path, dataset: Path) -> tuple[float, dict[str, ScriptedModel], dict[str, Any]]:
    roles = models()
    config = load_config(out_dir=folder, dataset=str(dataset))
    started = time.perf_counter()
    summary = Experiment(config, models=roles, searcher=InstantSearcher(), judge=InstantJudge(),
                         progress=False).run()
    return time.perf_counter() - started, roles, summary


def minimum_calls(folder: Path) -> dict[str, int]:
    """One call per record that needs its model: every clarifier turn, every answer to a valid question,
    every rewrite with something elicited (an all-unknown dialogue keeps its query without a call)."""
    def count(stage: str, needs: Any) -> int:
        return sum(1 for _, r in log_records(folder / f"{stage}.jsonl") if needs(r))

    return {"clarifier": count("clarify", lambda r: True),
            "user_answerer": count("answer", lambda r: not r.get("invalid_question") and not r.get("declined")),
            "rewriter": count("rewrite", lambda r: not r.get("nothing_elicited"))}


def measure(n: int, scratch: Path) -> tuple[float, float]:
    """Print one size's figures; returns the seconds per instance of its fresh run and of its rerun."""
    dataset = write_jsonl(scratch / f"synthetic-{n}.jsonl", synthetic(n))
    folder = scratch / f"run-{n}"
    first, roles, summary = once(folder, dataset)
    minimum = minimum_calls(folder)
    print(f"instances: {n}, budgets 1 2 3, conditions baseline clarify oracle "
          f"({len(summary['conditions'])} conditions: {', '.join(summary['conditions'])})")
    print(f"  fresh run: {first:.2f} s wall, {first / n * 1000:.3f} ms per instance")
    for role, model in roles.items():
        print(f"  {role}: {len(model.calls)} calls (minimum {minimum[role]}), {len(model.batches)} batches "
              f"{model.batches}")
    rerun, again, _ = once(folder, dataset)
    print(f"  identical rerun: {rerun:.2f} s wall, model calls {sum(len(m.calls) for m in again.values())}")
    sizes = {p.name: p.stat().st_size for p in sorted(folder.glob("*.jsonl"))}
    print("  run folder bytes:", json.dumps(sizes))
    if n == TARGET_SIZE:
        verdict = "within" if first < TARGET_SECONDS else "OVER"
        print(f"  target: {TARGET_SIZE} instances in under {TARGET_SECONDS:.0f} s: {verdict} ({first:.2f} s)")
    return first / n, rerun / n


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="518,1554,5180", help="instance counts, comma-separated")
    parser.add_argument("--warmup", type=int, default=20, help="instances of the warm-up run (0: none)")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    per_instance: dict[int, tuple[float, float]] = {}
    with tempfile.TemporaryDirectory() as scratch:
        if args.warmup:
            dataset = write_jsonl(Path(scratch) / "warmup.jsonl", synthetic(args.warmup))
            seconds, _, _ = once(Path(scratch) / "warmup", dataset)
            print(f"warm-up: {args.warmup} instances, {seconds:.2f} s wall (what a process pays once)")
        for n in sizes:
            per_instance[n] = measure(n, Path(scratch))
    smallest, largest = min(per_instance), max(per_instance)
    for index, label in ((0, "fresh runs"), (1, "reruns")):
        shown = ", ".join(f"{n}: {s[index] * 1000:.3f} ms" for n, s in per_instance.items())
        ratio = per_instance[largest][index] / per_instance[smallest][index]
        print(f"linearity, {label}: seconds per instance {shown}; ratio {largest}/{smallest} = {ratio:.2f} "
              "(linear: about 1)")


if __name__ == "__main__":
    main()
