"""What the cache and the run identity are keyed on must not move when the code is reorganised: request
fingerprints, cache keys, a loaded model's identity and the seed each backend sends, as literal values.

A changed literal here means every cached answer and every run folder of that kind is orphaned: change
one only on purpose, and say so in the release notes.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from cts_dataset.models.base import ChatRequest, Sampling, StructuredOutput
from cts_dataset.models.cache import ResponseCache, cache_key
from cts_dataset.models.registry import identity_of, load_model
from cts_dataset.models.spec import ModelSpec
from tests.fake_openai_server import FakeOpenAIServer

MESSAGES = [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Where is the Yangtze?"}]
REQUESTS = {
    "plain": ChatRequest.of(MESSAGES),
    "seeded": ChatRequest.of(MESSAGES, sampling=Sampling(temperature=0.7, seed=7, max_tokens=64), sample_index=3,
                             role="clarifier", tag="t"),
    "big_seed": ChatRequest.of(MESSAGES, sampling=Sampling(temperature=0.7, seed=0xFFFFFFFE), sample_index=5),
    "schema": ChatRequest.of(MESSAGES, structured=StructuredOutput(json_schema={"type": "object"}),
                             chat_template_kwargs={"enable_thinking": False}),
    "choice": ChatRequest.of(MESSAGES, structured=StructuredOutput(choice=("a", "b"))),
    "grammar": ChatRequest.of(MESSAGES, structured=StructuredOutput(grammar='root ::= "x"'),
                              sampling=Sampling(stop=("\n",))),
}
FINGERPRINTS = {
    "big_seed": "6f4798e49ed4bcd7db02bccf4a483ab1ad7c4fa21a71e848e4d6fd17bab802d9",
    "choice": "3fb0bef2d388dcd13a6270abf41ef1cf4acc43072448aa54e2b40f7bfe48c504",
    "grammar": "f26875a3dc0ad370cb47c828d9be90eacbe446ee17a8fccf1ec22320cfa570c3",
    "plain": "a05c33569ad7dbd140d55de26dfbeae2d355ae9c0feb7c882fc9935bb9500607",
    "schema": "c1433823747834d5e22d4aa08cfbff03c6644d755ee703be046a2a4a972501da",
    "seeded": "fcf407b8042e490acd98a2dfbd6c1ed931063f3e4d88f01c29543417aea8be20",
}
COMMIT = "a" * 40


def test_request_fingerprints_are_unchanged():
    assert {name: r.fingerprint() for name, r in REQUESTS.items()} == FINGERPRINTS


def test_a_hub_model_identity_and_its_cache_keys_are_unchanged():
    spec = ModelSpec.parse("transformers:org/model", revision=COMMIT, engine_args={"dtype": "bfloat16"})
    identity = identity_of(spec, SimpleNamespace(spec="transformers:org/model"), files=COMMIT)
    assert identity == {"backend": "transformers", "chat_template_kwargs": {}, "engine_args": {"dtype": "bfloat16"},
                        "files": COMMIT, "gguf_file": None, "identity": None, "label": "transformers:org/model",
                        "model": "org/model", "revision": COMMIT}
    keys = {name: cache_key(identity, r) for name, r in REQUESTS.items()}
    assert keys["plain"] == "3fa3f574986f0eb53d37914b8a36a5aa525c3f913359e14b2d32d55e02c8483c"
    assert keys["seeded"] == "510e1400b52a0e860032a5fbcae1c6b39a0d84fba947810401b637d2a5bce41a"
    assert keys["grammar"] == "f437e918dbee948390eee6a5584023b6388a7106214b0415e7a5de5cc7333b72"


def test_a_loaded_served_model_identity_and_its_cache_keys_are_unchanged(tmp_path):
    with FakeOpenAIServer(roots={"test-model": "/weights/qwen"}) as server:
        model = load_model({"backend": "openai", "model": "test-model", "base_urls": [server.url], "max_retries": 0},
                           cache=ResponseCache(tmp_path / "cache.sqlite"))
        seeds = {name: model.backend._arguments(r).get("seed") for name, r in REQUESTS.items()}
    assert model.identity == {"backend": "openai", "chat_template_kwargs": {}, "engine_args": {}, "files": "unpinned",
                              "gguf_file": None, "identity": None, "label": "openai:test-model",
                              "model": "test-model", "revision": None, "served": "/weights/qwen",
                              "structured_output": "json_schema"}
    keys = {name: cache_key(model.identity, model.with_defaults(r)) for name, r in REQUESTS.items()}
    assert keys["plain"] == "27c233a02f2417782374cc293bb0497fa6646ef9daf03db40b9003fd7730170e"
    assert keys["schema"] == "c8adcbed87b6704bbff9b12390ec2631f427c58b7555e6acbe30c49939f24e3a"
    assert keys["seeded"] == "fa655d031cee7cdf6265edf60fca4499ca3c5f12ad138572cf10541c82cd944c"
    assert seeds == {"plain": None, "seeded": 10, "big_seed": 4294967299, "schema": None, "choice": None,
                     "grammar": None}


def test_every_backend_sends_the_seed_it_always_sent():
    from cts_dataset.executors.ray import vllm_sampling
    from cts_dataset.models.llamacpp_backend import request_body
    from cts_dataset.models.vllm_backend import VLLMModel

    plain = {"seeded": 10, "big_seed": 4294967299}  # seed + sample index
    assert {n: REQUESTS[n].sample_seed() for n in plain} == plain
    assert {n: vllm_sampling(REQUESTS[n])["seed"] for n in plain} == plain
    # llama.cpp reads 0xFFFFFFFF as "pick a random seed": its seeds are reduced below it.
    assert {n: request_body(REQUESTS[n])["seed"] for n in plain} == {"seeded": 10, "big_seed": 4}
    assert "seed" not in request_body(REQUESTS["plain"]) and REQUESTS["plain"].sample_seed() is None
    engine = object.__new__(VLLMModel)  # the SamplingParams it builds, without vLLM
    engine._vllm, engine._structured = SimpleNamespace(SamplingParams=dict), dict
    assert {n: engine._sampling(REQUESTS[n])["seed"] for n in plain} == plain
    assert "seed" not in engine._sampling(REQUESTS["plain"])


@pytest.mark.parametrize(("name", "identity_hash"), [
    ("default", "812ae6ee9a463687937c8bb123e9b8a433207b7602f7cec6e8b94ebf2f8da5b6"),
    ("smollm2-135m", "8cb8f42f9b2792bce792f4b8ddd6ec9b7010df0e74fabbe398997340d204aded"),
    ("qwen2.5-coder-1.5b", "321a314e61b13ea656dc7faf0043c6704e2b60993fbbdd739fc767de26b4579e"),
])
def test_the_packaged_models_keep_their_spec_identity(name, identity_hash):
    from cts_dataset.executors.ray import backend_label
    from cts_dataset.models.default_model import DEFAULT_LABEL, default_spec
    from cts_dataset.models.registry import resolve_spec

    spec = resolve_spec(name)
    assert spec.identity_hash() == identity_hash
    assert DEFAULT_LABEL == "llamacpp:qwen2.5-coder-1.5b-instruct-q4_k_m" == backend_label(resolve_spec("default"))
    assert default_spec() == resolve_spec("qwen2.5-coder-1.5b")  # the engine the default backend shares
