"""One failed request never loses its batch: the others are cached and traced as they finish, the failure
comes back as a failure response, and a rerun asks the server for the failed request alone."""

from __future__ import annotations

import threading
import time

import pytest

from cts_dataset.models.base import ChatRequest, ChatResponse
from cts_dataset.models.cache import ResponseCache
from cts_dataset.models.openai_backend import ModelCallError
from cts_dataset.models.registry import LoadedModel, load_model
from cts_dataset.models.scripted import ScriptedModel
from cts_dataset.models.spec import ModelSpec
from cts_dataset.models.trace import TraceWriter, read_traces
from tests.fake_openai_server import FakeOpenAIServer


def ask(text: str) -> ChatRequest:
    return ChatRequest.of([{"role": "user", "content": text}], role="clarifier", tag=text)


def served(server: FakeOpenAIServer, tmp_path, **options):
    spec = {"backend": "openai", "model": "test-model", "base_urls": [server.url], "max_retries": 1,
            "timeout_s": 10.0, **options}
    return load_model(spec, cache=tmp_path / "cache.sqlite", trace=tmp_path / "trace.jsonl")


def test_a_permanent_failure_keeps_the_rest_of_the_batch_and_a_rerun_asks_only_for_it(tmp_path):
    batch = [ask(f"question {i}") for i in range(12)]
    batch[5] = ask("question 5 is far too long")
    with FakeOpenAIServer(rules={"too long": "400"}) as server:
        model = served(server, tmp_path)
        responses = model.complete(batch)
        assert len(server.bodies) == 12
        again = model.complete(batch)
        assert len(server.bodies) == 13, "the rerun must send the failed request, and only it"
        assert server.bodies[-1]["messages"][-1]["content"] == "question 5 is far too long"
    failed = responses[5]
    assert failed.failed and "HTTP 400" in failed.error and server.url in failed.error and failed.text == ""
    assert [r.text for i, r in enumerate(responses) if i != 5] == [f"echo: question {i}" for i in range(12) if i != 5]
    assert all(r.cached for i, r in enumerate(again) if i != 5) and again[5].failed and not again[5].cached
    assert model.cache.count() == 11
    traces = read_traces(tmp_path / "trace.jsonl")
    assert len(traces) == 24
    errors = [t for t in traces if t.error]
    assert len(errors) == 2 and all(t.tag == "question 5 is far too long" and "HTTP 400" in t.error for t in errors)
    assert {t.tag for t in traces[:12]} == {r.tag for r in batch}, "the first batch's traces, each request once"


def test_retries_spent_on_one_request_do_not_fail_the_others(tmp_path):
    with FakeOpenAIServer(rules={"flaky": "500"}) as server:
        model = served(server, tmp_path, max_retries=2)
        responses = model.complete([ask("a"), ask("flaky b"), ask("c")])
    assert [r.failed for r in responses] == [False, True, False]
    assert "gave up after 3 attempts" in responses[1].error and "HTTP 500" in responses[1].error


def test_finished_responses_reach_the_cache_while_the_batch_still_runs(tmp_path, monkeypatch):
    # The server holds the slow request until the test has looked at the cache: no wall-clock threshold
    # (the latency figures: benchmarks/bench_test_timings.py).
    from types import SimpleNamespace

    import tests.fake_openai_server as fake

    release = threading.Event()
    monkeypatch.setattr(fake, "time", SimpleNamespace(sleep=release.wait))  # the server's hang waits for us
    with FakeOpenAIServer(rules={"slow": "hang"}, hang_s=120) as server:
        model = served(server, tmp_path, timeout_s=300.0)
        batch = [ask(f"fast {i}") for i in range(9)] + [ask("slow one")]
        result: list[list[ChatResponse]] = []
        runner = threading.Thread(target=lambda: result.append(model.complete(batch)))
        runner.start()
        reader = ResponseCache(tmp_path / "cache.sqlite")
        guard = time.monotonic() + 120  # only so that a broken cache cannot hang the suite
        while reader.count() < 9 and time.monotonic() < guard:
            time.sleep(0.02)
        stored, still_running, held = reader.count(), runner.is_alive(), server.in_flight
        release.set()
        runner.join(timeout=60)
    assert stored == 9 and still_running and held == 1, "the nine fast answers must be stored while the slow one is held"
    assert result[0][-1].text == "too late" and model.cache.count() == 10


def test_a_rejected_key_still_fails_the_whole_batch(tmp_path, monkeypatch):
    monkeypatch.setenv("CTSBENCH_TEST_KEY", "sk-wrong")
    with FakeOpenAIServer(rules={"q": "401"}) as server:
        model = served(server, tmp_path, api_key_env="CTSBENCH_TEST_KEY")
        with pytest.raises(ModelCallError, match="HTTP 401"):
            model.complete([ask(f"q{i}") for i in range(6)])
    assert model.cache.count() == 0


class RefusesLongPrompts(ScriptedModel):
    """A batch engine (as vLLM offline) that raises for the whole batch when one prompt is too long."""

    def complete(self, requests):
        if any("too long" in r.messages[-1].content for r in requests):
            self.batches.append(len(requests))
            raise ValueError("The decoder prompt (length 40000) is longer than the maximum model length of 32768")
        return super().complete(requests)


def test_a_batch_engine_that_raises_is_narrowed_to_the_failing_request(tmp_path):
    backend = RefusesLongPrompts(default=lambda r: "ok " + r.messages[-1].content, spec="vllm:m")
    writer = TraceWriter(tmp_path / "trace.jsonl")
    model = LoadedModel(backend, ModelSpec(backend="vllm", model="m"), {"backend": "vllm", "model": "m"},
                        cache=ResponseCache(tmp_path / "c.sqlite"), trace=writer)
    batch = [ask(f"q{i}") for i in range(16)]
    batch[11] = ask("q11 too long")
    responses = model.complete(batch)
    assert [r.failed for r in responses] == [i == 11 for i in range(16)]
    assert "ValueError" in responses[11].error and "maximum model length" in responses[11].error
    assert [r.text for i, r in enumerate(responses) if i != 11] == [f"ok q{i}" for i in range(16) if i != 11]
    # Halving: far fewer engine calls than one per request, and the other requests still in batches.
    assert len(backend.batches) <= 2 * 4 + 1 and max(backend.batches[1:]) >= 4
    calls = len(backend.batches)
    rerun = model.complete(batch)
    assert rerun[11].failed and backend.batches[calls:] == [1], "a rerun asks for the failed request alone"
    writer.close()
    assert sum(bool(t.error) for t in read_traces(tmp_path / "trace.jsonl")) == 2


def test_a_missing_install_still_raises():
    class Broken(ScriptedModel):
        def complete(self, requests):
            raise ImportError("no module named vllm")

    model = LoadedModel(Broken(spec="vllm:m"), ModelSpec(backend="vllm", model="m"), {"backend": "vllm"})
    with pytest.raises(ImportError):
        model.complete([ask("a"), ask("b")])
