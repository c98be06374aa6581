"""Search backbone benchmark: index build time and size, query speed, agent step overhead, recall@10.

    python benchmarks/bench_search.py [--queries 1000] [--agents 32] [--steps 10]

The index is built in a temporary cache folder (the user's cache is not touched). The agent runs
with an instant scripted model, so its figures are the loop's own cost: parsing, tool calls over the
real BM25 index, formatting and record keeping.
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from pathlib import Path

import cts_dataset
from cts_dataset.corpus import load_corpus
from cts_dataset.models.scripted import ScriptedModel
from cts_dataset.search.bm25 import BM25Index
from cts_dataset.search.corpus_tool import CorpusSearchTool
from cts_dataset.search.react import ReactSearcher, ReactSettings
from cts_dataset.search.retrieval import RetrievalSearcher


def folder_size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def bench_index(cache: Path) -> None:
    documents = load_corpus()
    start = time.perf_counter()
    BM25Index.open(documents, cache)
    built = time.perf_counter() - start
    start = time.perf_counter()
    reloaded = BM25Index.open(documents, cache)
    loaded = time.perf_counter() - start
    assert not reloaded.built
    print(f"index: {len(documents)} documents, build+save {built:.2f} s, reload {loaded * 1000:.0f} ms, "
          f"{folder_size(cache) / 1e6:.1f} MB on disk")


def bench_queries(tool: CorpusSearchTool, n: int) -> None:
    rng = random.Random(0)
    documents = rng.sample(tool.index.documents, min(n, len(tool.index.documents)))
    queries = [f"{d.title} {d.description}" for d in documents]
    start = time.perf_counter()
    results = tool.search(queries, k=10)
    batch = time.perf_counter() - start
    start = time.perf_counter()
    for query in queries[:100]:
        tool.search([query], k=10)
    single = (time.perf_counter() - start) / min(100, len(queries))
    top1 = sum(hits[0].doc_id == d.id for hits, d in zip(results, documents) if hits) / len(documents)
    print(f"queries: {len(queries)} in one batch {len(queries) / batch:.0f} q/s; "
          f"one at a time {single * 1000:.2f} ms/query; title+description query finds its document at rank 1: {top1:.1%}")


def bench_recall(tool: CorpusSearchTool) -> None:
    instances = cts_dataset.load()
    searcher = RetrievalSearcher(tool)
    for field in ("fused_query", "blurred_query"):
        outputs = searcher.search([getattr(i, field) for i in instances])
        cited = found = 0
        for instance, output in zip(instances, outputs):
            gold = {s for n in instance.nuggets for s in n.sources}
            cited += len(gold)
            found += len(gold & set(output.retrieved_doc_ids[:10]))
        print(f"retrieval searcher gold-document recall@10 on the {len(instances)} shipped instances ({field}): "
              f"{found}/{cited} = {found / cited:.3f}")


def bench_agent(tool: CorpusSearchTool, agents: int, steps: int) -> None:
    rng = random.Random(1)
    titles = [d.title for d in rng.sample(tool.index.documents, agents * steps)]
    counter = iter(range(10**9))

    def reply(_request) -> str:
        title = titles[next(counter) % len(titles)]
        return f'<think>look it up</think>\n<tool_call>{{"name": "search", "arguments": {{"query": ["{title}"]}}}}</tool_call>'

    searcher = ReactSearcher(ScriptedModel(default=reply), tool, ReactSettings(max_llm_calls=steps))
    start = time.perf_counter()
    outputs = searcher.search([f"question {i}" for i in range(agents)])
    elapsed = time.perf_counter() - start
    agent_steps = sum(o.llm_calls for o in outputs)
    print(f"agent: {agents} agents x {steps} steps (search every step, instant model): {elapsed:.2f} s, "
          f"{elapsed / steps * 1000:.1f} ms per batch step, {elapsed / agent_steps * 1000:.2f} ms per agent step; "
          f"final context ~{outputs[0].tokens.context} tokens")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=1000)
    parser.add_argument("--agents", type=int, default=32)
    parser.add_argument("--steps", type=int, default=10)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="ctsbench-bench-") as folder:
        bench_index(Path(folder))
        tool = CorpusSearchTool(cache_root=Path(folder))
        bench_queries(tool, args.queries)
        bench_recall(tool)
        bench_agent(tool, args.agents, args.steps)


if __name__ == "__main__":
    main()
