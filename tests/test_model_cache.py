"""The response cache and the trace, around a model that counts its calls."""

from __future__ import annotations

import json
import multiprocessing
import time
from dataclasses import replace

import pytest

from cts_dataset.models.base import ChatRequest, Message, Sampling, StructuredOutput
from cts_dataset.models.cache import ResponseCache
from cts_dataset.models.registry import LoadedModel
from cts_dataset.models.scripted import ScriptedModel
from cts_dataset.models.spec import ModelSpec
from cts_dataset.models.trace import read_traces

SPEC = ModelSpec(backend="transformers", model="/m", chat_template_kwargs={"enable_thinking": False})
IDENTITY = {"backend": "transformers", "model": "/m", "files": "f1"}


def counting_model(cache, mode="use", trace=None, identity=IDENTITY):
    backend = ScriptedModel(default=lambda r: f"<think>hmm</think>answer {len(r.messages[-1].content)}",
                            spec="transformers:/m")
    return LoadedModel(backend, SPEC, identity, cache=cache, cache_mode=mode, trace=trace), backend


def request(text="What is the capital of France?", **kwargs):
    return ChatRequest.of([{"role": "system", "content": "Be brief."}, {"role": "user", "content": text}],
                          role="clarifier", **kwargs)


def test_an_identical_batch_makes_no_second_call(tmp_path):
    model, backend = counting_model(ResponseCache(tmp_path / "c.sqlite"))
    batch = [request(), request("Name a river.")]
    first = model.complete(batch)
    assert backend.batches == [2] and not any(r.cached for r in first)
    second = model.complete(batch)
    assert backend.batches == [2], "the rerun called the model"
    assert all(r.cached for r in second)
    assert [(r.text, r.reasoning, r.usage, r.raw) for r in second] == [(r.text, r.reasoning, r.usage, r.raw) for r in first]
    assert (model.stats.hits, model.stats.misses) == (2, 2)
    # Only the new requests of a mixed batch go to the model, as one batch, each distinct one once.
    mixed = model.complete([request(), request("new one"), request("Name a river."), request("new one")])
    assert backend.batches == [2, 1] and mixed[1] == mixed[3]


@pytest.mark.parametrize("change", [
    {"messages": (Message("user", "What is the capital of France?"),)},
    {"sampling": Sampling(temperature=0.7)},
    {"sampling": Sampling(top_p=0.9)},
    {"sampling": Sampling(max_tokens=64)},
    {"sampling": Sampling(stop=("\n",))},
    {"sampling": Sampling(seed=1)},
    {"structured": StructuredOutput(choice=("yes", "no"))},
    {"structured": StructuredOutput(json_schema={"type": "object"})},
    {"chat_template_kwargs": (("enable_thinking", True),)},
    {"sample_index": 1},
])
def test_any_changed_field_misses(tmp_path, change):
    model, backend = counting_model(ResponseCache(tmp_path / "c.sqlite"))
    model.complete([request()])
    model.complete([replace(request(), **change)])
    assert backend.batches == [1, 1]


def test_labels_do_not_change_the_answer_but_the_model_does(tmp_path):
    cache = ResponseCache(tmp_path / "c.sqlite")
    model, backend = counting_model(cache)
    model.complete([request()])
    model.complete([replace(request(), role="judge", tag="x")])
    assert backend.batches == [1]
    other, other_backend = counting_model(cache, identity={**IDENTITY, "files": "f2"})
    other.complete([request()])
    assert other_backend.batches == [1], "another model's files must not share answers"


def test_spec_template_defaults_are_part_of_the_key(tmp_path):
    model, backend = counting_model(ResponseCache(tmp_path / "c.sqlite"))
    model.complete([request()])
    # Stating the default explicitly is the same request; overriding it is another.
    model.complete([request(chat_template_kwargs={"enable_thinking": False})])
    model.complete([request(chat_template_kwargs={"enable_thinking": True})])
    assert backend.batches == [1, 1]
    assert dict(backend.calls[0].chat_template_kwargs) == {"enable_thinking": False}


def test_refresh_recomputes_and_off_neither_reads_nor_writes(tmp_path):
    cache = ResponseCache(tmp_path / "c.sqlite")
    model, _ = counting_model(cache)
    model.complete([request()])
    refresh, refreshed = counting_model(cache, mode="refresh")
    assert not refresh.complete([request()])[0].cached and refreshed.batches == [1]
    off, off_backend = counting_model(cache, mode="off")
    off.complete([request("never stored")])
    assert off_backend.batches == [1] and cache.count() == 1
    assert counting_model(cache)[0].complete([request()])[0].cached
    assert cache.stats.hits == 1 and cache.stats.misses == 3
    with pytest.raises(ValueError, match="cache_mode"):
        counting_model(cache, mode="bypass")


def test_the_cache_mode_can_come_from_the_environment(tmp_path, monkeypatch):
    from cts_dataset.models import load_model

    monkeypatch.setenv("CTSBENCH_CACHE_MODE", "refresh")
    model = load_model({"backend": "openai", "model": "m", "base_urls": ["http://127.0.0.1:9/v1"]},
                       cache=tmp_path / "c.sqlite")
    assert model.cache_mode == "refresh"
    assert load_model(model.model_spec, cache=tmp_path / "c.sqlite", cache_mode="use").cache_mode == "use"


def test_the_cache_survives_a_new_process_object(tmp_path):
    model, _ = counting_model(ResponseCache(tmp_path / "c.sqlite"))
    model.complete([request()])
    again, again_backend = counting_model(ResponseCache(tmp_path / "c.sqlite"))
    assert again.complete([request()])[0].cached and again_backend.batches == []


def _writer(path: str, worker: int, n: int, barrier, spans) -> None:
    model, _ = counting_model(ResponseCache(path))
    barrier.wait(timeout=60)  # both start writing at the same moment
    started = time.time()
    for start in range(0, n, 5):  # many small transactions, interleaved with the other writer
        model.complete([request(f"worker {worker} question {i}") for i in range(start, start + 5)])
    spans.put((started, time.time()))


def test_two_processes_writing_at_once_lose_nothing(tmp_path):
    path, n = str(tmp_path / "shared.sqlite"), 600
    context = multiprocessing.get_context("spawn")
    barrier, spans = context.Barrier(2), context.Queue()
    workers = [context.Process(target=_writer, args=(path, w, n, barrier, spans)) for w in range(2)]
    for process in workers:
        process.start()
    for process in workers:
        process.join(timeout=120)
        assert process.exitcode == 0
    (start_a, end_a), (start_b, end_b) = spans.get(timeout=5), spans.get(timeout=5)
    assert start_a < end_b and start_b < end_a, "the writers did not overlap"
    cache = ResponseCache(path)
    assert cache.count() == 2 * n
    model, backend = counting_model(cache)
    model.complete([request(f"worker {w} question {i}") for w in range(2) for i in range(n)])
    assert backend.batches == [] and model.stats.hits == 2 * n


def test_every_call_is_traced_with_its_cache_hit(tmp_path):
    from cts_dataset.models.trace import TraceWriter

    writer = TraceWriter(tmp_path / "trace.jsonl")
    model, _ = counting_model(ResponseCache(tmp_path / "c.sqlite"), trace=writer)
    model.complete([request(sampling=Sampling(max_tokens=7))])
    model.complete([request(sampling=Sampling(max_tokens=7))])
    writer.close()
    first, second = read_traces(tmp_path / "trace.jsonl")
    assert first.role == "clarifier" and first.model == "transformers:/m"
    assert first.params["sampling"]["max_tokens"] == 7
    assert first.params["chat_template_kwargs"] == {"enable_thinking": False}
    assert first.messages[1] == {"role": "user", "content": "What is the capital of France?"}
    assert first.raw.startswith("<think>hmm</think>") and first.text.startswith("answer") and first.reasoning == "hmm"
    assert first.usage["completion_tokens"] > 0
    assert (first.cache_hit, second.cache_hit) == (False, True) and first.cache_key == second.cache_key
    for line in (tmp_path / "trace.jsonl").read_text().splitlines():
        json.loads(line)
