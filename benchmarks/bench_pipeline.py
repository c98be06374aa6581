"""Harness overhead of `ctsbench run` with instant models: 518 synthetic instances, budgets 1-3,
baseline and oracle. Prints wall time per run, model calls and batches per role against the minimum,
and the time of an identical rerun (every stage already on disk).

    python benchmarks/bench_pipeline.py [--instances 518]
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

from cts_dataset.data import load
from cts_dataset.jsonl import write_jsonl
from cts_dataset.judges.base import Judgement
from cts_dataset.models.scripted import ScriptedModel
from cts_dataset.pipeline.config import load_config
from cts_dataset.pipeline.experiment import Experiment
from cts_dataset.search.records import SearchOutput, Termination


class InstantSearcher:
    name = "instant"

    def search(self, queries, tags=None):
        return [SearchOutput(query=q, answer=q, searcher="instant", tool="none", termination=Termination.answer,
                             retrieved_doc_ids=[]) for q in queries]


class InstantJudge:
    name = "instant"

    def judge(self, items):
        return [Judgement(labels=["partial"] * len(item.nuggets)) for item in items]


def synthetic(count: int) -> list:
    base = load()
    return [base[i % len(base)].model_copy(update={"id": f"syn-{i:04d}"}) for i in range(count)]


def models() -> dict[str, ScriptedModel]:
    return {"clarifier": ScriptedModel(default="Which year?"),
            "user_answerer": ScriptedModel(default='{"answer": "unknown"}'),
            "rewriter": ScriptedModel(default="rewritten query")}


def once(folder: Path, dataset: Path) -> tuple[float, dict[str, ScriptedModel]]:
    roles = models()
    config = load_config(out_dir=folder, dataset=str(dataset))
    started = time.perf_counter()
    Experiment(config, models=roles, searcher=InstantSearcher(), judge=InstantJudge(), progress=False).run()
    return time.perf_counter() - started, roles


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--instances", type=int, default=518)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        dataset = write_jsonl(Path(scratch) / "synthetic.jsonl", synthetic(args.instances))
        first, roles = once(Path(scratch) / "run", dataset)
        n = args.instances
        minimum = {"clarifier": 3 * n, "user_answerer": 3 * n, "rewriter": 3 * n}
        print(f"instances: {n}, budgets 1 2 3, conditions baseline clarify oracle")
        print(f"first run: {first:.2f} s wall")
        for role, model in roles.items():
            print(f"  {role}: {len(model.calls)} calls (minimum {minimum[role]}), {len(model.batches)} batches {model.batches}")
        rerun, again = once(Path(scratch) / "run", dataset)
        print(f"identical rerun: {rerun:.2f} s wall, model calls {sum(len(m.calls) for m in again.values())}")
        sizes = {p.name: p.stat().st_size for p in (Path(scratch) / "run").glob("*.jsonl")}
        print("run folder bytes:", json.dumps(sizes))


if __name__ == "__main__":
    main()
