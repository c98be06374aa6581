"""Judge throughput on the demo instances: answers are the nuggets' own source documents.

Prints items/s and nuggets/s for the lexical and embedding judges (model load timed apart), and, with
``--llm SPEC`` (e.g. ``default``, the packaged SmolLM2), runs the LLM judge for real on ``--items`` items
and prints its speed, parse rate and labels. Run: python benchmarks/bench_scoring.py [--llm default]
"""

from __future__ import annotations

import argparse
import time

import cts_dataset
from cts_dataset.judges import JudgeItem, make_judge


def demo_items(repeat: int = 1) -> list[JudgeItem]:
    documents = {d.id: d for d in cts_dataset.load_corpus()}
    items = []
    for instance in cts_dataset.load():
        answer = "\n".join(dict.fromkeys(documents[s].text for n in instance.nuggets for s in n.sources))
        items.append(JudgeItem(answer=answer, nuggets=tuple(n.text for n in instance.nuggets),
                               query=instance.fused_query, id=instance.id))
    return items * repeat


def timed(judge, items: list[JudgeItem]) -> None:
    start = time.perf_counter()
    judgements = judge.judge(items)
    elapsed = time.perf_counter() - start
    nuggets = sum(len(i.nuggets) for i in items)
    labels = [label for j in judgements for label in j.labels]
    counts = {name: labels.count(name) for name in ("full", "partial", "none", None)}
    print(f"{judge.name}: {len(items)} items, {nuggets} nuggets in {elapsed:.2f} s: "
          f"{len(items) / elapsed:.1f} items/s, {nuggets / elapsed:.1f} nuggets/s; labels {counts}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=1, help="copies of the demo items (offline judges)")
    parser.add_argument("--llm", help="a model spec to run the LLM judge with (e.g. default)")
    parser.add_argument("--items", type=int, default=2, help="items for the LLM judge")
    parser.add_argument("--no-structured", action="store_true", help="LLM judge: no JSON-schema constraint")
    parser.add_argument("--llm-only", action="store_true", help="skip the offline judges")
    args = parser.parse_args()
    if not args.llm_only:
        items = demo_items(args.repeat)
        timed(make_judge("lexical"), items)
        start = time.perf_counter()
        embedding = make_judge("embedding")
        _ = embedding.model
        print(f"embedding model load: {time.perf_counter() - start:.1f} s")
        timed(embedding, items)
    if args.llm:
        start = time.perf_counter()
        judge = make_judge(args.llm, structured=not args.no_structured)
        print(f"{args.llm} load: {time.perf_counter() - start:.1f} s")
        chosen = demo_items()[: args.items]
        timed(judge, chosen)
        results = judge.judge(chosen)  # a second pass: served from the response cache
        calls = [c for r in results for c in r.calls]
        print(f"parsed {sum(c.parsed for c in calls)} of {len(calls)} calls; first raw output: {calls[0].raw_output[:300]!r}")


if __name__ == "__main__":
    main()
