"""The figures the unit tests used to assert as wall-clock thresholds (flaky on a loaded machine):

- the rule question-type classifier's time per question on the labelled questions (x10); it was held
  under 2 ms;
- ``diagnose`` of a whole scripted demo run (200 instances, 600 questions), once its imports are paid;
  it was held under 2 s;
- how soon the finished answers of a batch reach the response cache while one request of the batch is
  still held by the server (9 fast answers and 1 held for ``--hold-s``); they were awaited for 2 s.

Run from the repository root: python benchmarks/bench_test_timings.py [--repeat 10] [--hold-s 2.5]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import threading
import time
from pathlib import Path
from statistics import median

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the scripted runs and the fake server live with the tests


def rules_per_question(repeat: int) -> None:
    from cts_dataset.diagnostics import classify

    path = ROOT / "tests" / "data" / "question_types.jsonl"
    texts = [json.loads(line)["text"] for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    rows = texts * repeat
    start = time.perf_counter()
    for text in rows:
        classify(text)
    elapsed = time.perf_counter() - start
    print(f"rules: {len(rows)} questions in {elapsed:.3f} s, {elapsed / len(rows) * 1e3:.3f} ms per question")


def diagnose_demo_run(rounds: int) -> None:
    from cts_dataset.diagnostics import diagnose
    from cts_dataset.search.corpus_tool import CorpusSearchTool
    from cts_dataset.search.retrieval import RetrievalSearcher
    from tests.diagnostics_runs import run

    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch) / "all"
        started = time.perf_counter()
        run(folder, RetrievalSearcher(CorpusSearchTool(cache_root=Path(scratch) / "bm25")), limit=None)
        print(f"diagnose: the scripted demo run took {time.perf_counter() - started:.1f} s")
        diagnose(folder)  # imports (scipy.stats) are paid once per process
        times = []
        for _ in range(rounds):
            started = time.perf_counter()
            found = diagnose(folder)
            times.append(time.perf_counter() - started)
    print(f"diagnose: {found['run']['instances']} instances, {found['question_types']['questions']} questions "
          f"in {median(times):.3f} s (median of {rounds}; min {min(times):.3f}, max {max(times):.3f})")


def cache_while_the_batch_runs(hold_s: float) -> None:
    from cts_dataset.models.base import ChatRequest
    from cts_dataset.models.cache import ResponseCache
    from cts_dataset.models.registry import load_model
    from tests.fake_openai_server import FakeOpenAIServer

    with tempfile.TemporaryDirectory() as scratch, FakeOpenAIServer(rules={"slow": "hang"}, hang_s=hold_s) as server:
        spec = {"backend": "openai", "model": "bench", "base_urls": [server.url], "max_retries": 0,
                "timeout_s": hold_s + 30}
        model = load_model(spec, cache=Path(scratch) / "cache.sqlite")
        batch = [ChatRequest.of([{"role": "user", "content": text}], role="bench", tag=text)
                 for text in [f"fast {i}" for i in range(9)] + ["slow one"]]
        started = time.perf_counter()
        runner = threading.Thread(target=model.complete, args=(batch,))
        runner.start()
        reader, seen = ResponseCache(Path(scratch) / "cache.sqlite"), 0.0
        while runner.is_alive():
            if not seen and reader.count() >= 9:
                seen = time.perf_counter() - started
            time.sleep(0.01)
        ended = time.perf_counter() - started
    shown = f"{seen:.3f} s" if seen else "only when the batch ended"
    print(f"cache: 9 finished answers stored after {shown}; the batch (one request held {hold_s:g} s) "
          f"ended after {ended:.3f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=10, help="passes over the labelled questions")
    parser.add_argument("--rounds", type=int, default=5, help="diagnose calls timed")
    parser.add_argument("--hold-s", type=float, default=2.5, help="how long the server holds the slow request")
    args = parser.parse_args()
    rules_per_question(args.repeat)
    diagnose_demo_run(args.rounds)
    cache_while_the_batch_runs(args.hold_s)


if __name__ == "__main__":
    main()
