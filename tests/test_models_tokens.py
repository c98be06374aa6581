"""Token accounting for context limits: ``LoadedModel.count_tokens`` and ``max_model_len`` per backend."""

from __future__ import annotations

import pytest
import transformers  # noqa: F401  (the dev extra installs it: a broken install must fail, not skip)

from cts_dataset.models.base import ChatRequest, Sampling
from cts_dataset.models.registry import load_model
from tests.fake_openai_server import FakeOpenAIServer
from tests.tiny_models import build_tiny_qwen3

MESSAGES = [{"role": "system", "content": "You answer."},
            {"role": "user", "content": "the quick brown fox jumps over the lazy dog " * 4}]


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    folder = build_tiny_qwen3(tmp_path_factory.mktemp("tiny") / "qwen3")
    return load_model(f"transformers:{folder}", cache=False, chat_template_kwargs={"enable_thinking": False})


def test_transformers_counts_the_prompt_it_generates_from(tiny):
    [response] = tiny.complete([ChatRequest.of(MESSAGES, sampling=Sampling(max_tokens=2))])
    counted = tiny.count_tokens(MESSAGES)
    assert counted == response.usage.prompt_tokens > 20
    # The spec's template defaults apply (thinking off adds an empty think block); a caller may override.
    assert tiny.count_tokens(MESSAGES, chat_template_kwargs={"enable_thinking": True}) < counted
    assert tiny.max_model_len == 512  # the tiny config's max_position_embeddings


def test_an_http_model_knows_its_limit_but_not_its_tokens(tmp_path):
    with FakeOpenAIServer() as server:
        spec = {"backend": "openai", "model": "m", "base_urls": [server.url]}
        model = load_model({**spec, "engine_args": {"max_model_len": 32768}}, cache=False)
        assert model.count_tokens(MESSAGES) is None and model.max_model_len == 32768
        assert load_model(spec, cache=False).max_model_len is None  # not vLLM: no /v1/models to ask
    with FakeOpenAIServer(roots={"m": "/weights/m"}, max_model_len=8192) as vllm:
        assert load_model({**spec, "base_urls": [vllm.url]}, cache=False).max_model_len == 8192
