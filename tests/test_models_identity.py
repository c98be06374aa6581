"""Spec resolution and model identity: hosted defaults, registry defaults for every spec form, what the
cache key holds (the user's identity label, served weights; not the servers' URLs), expiry of hosted aliases, file
hashing of big weights, and JSON mode for providers without json_schema."""

from __future__ import annotations

import json
import os
import time

import pytest
import yaml

from cts_dataset.models.base import ChatRequest, StructuredOutput
from cts_dataset.models.cache import ResponseCache, cache_key
from cts_dataset.models.registry import files_hash, load_model, resolve_spec
from cts_dataset.models.spec import HOSTED_ALIAS_TTL_S, ModelSpec
from tests.fake_openai_server import FakeOpenAIServer

SCHEMA = {"type": "object", "properties": {"answer": {"type": "string"}}, "required": ["answer"]}


def ask(text: str, **kwargs) -> ChatRequest:
    return ChatRequest.of([{"role": "system", "content": "Be brief."}, {"role": "user", "content": text}], **kwargs)


def local(server: FakeOpenAIServer, tmp_path, **options):
    spec = {"backend": "openai", "model": "test-model", "base_urls": [server.url], "max_retries": 0, **options}
    return load_model(spec, cache=ResponseCache(tmp_path / "cache.sqlite"))


# -- hosted and local defaults --------------------------------------------------------------------------

def test_a_bare_openai_model_reads_the_sdk_environment(monkeypatch):
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    spec = ModelSpec.parse("openai:gpt-4.1")
    assert spec.base_urls == ("https://api.openai.com/v1",) and spec.api_key_env == "OPENAI_API_KEY"
    monkeypatch.setenv("OPENAI_BASE_URL", "https://gateway.example.com/v1/")
    assert ModelSpec.parse("openai:gpt-4.1").base_urls == ("https://gateway.example.com/v1",)
    # Naming OpenAI's URL explicitly still uses its key variable, never the placeholder key.
    assert resolve_spec({"backend": "openai", "model": "gpt-4.1",
                         "base_urls": ["https://api.openai.com/v1"]}).api_key_env == "OPENAI_API_KEY"


def test_a_missing_openai_key_fails_at_load(monkeypatch):
    from cts_dataset.models.openai_backend import ModelCallError

    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    with pytest.raises(ModelCallError, match="OPENAI_API_KEY"):
        load_model("openai:gpt-4.1", cache=False)


def test_a_local_server_gets_the_placeholder_key(tmp_path, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-never-sent-to-local-servers")
    with FakeOpenAIServer() as server:
        for spec in (ModelSpec.parse("openai:Qwen/Qwen3-8B", base_urls=[server.url]),
                     resolve_spec({"backend": "openai", "model": "m", "base_urls": [server.url]})):
            assert spec.api_key_env is None
            load_model(spec, cache=False).complete([ask("hi")])
    assert [h["authorization"] for h in server.headers] == ["Bearer EMPTY"] * 2


def test_dict_and_yaml_specs_get_the_registry_defaults_of_the_string_form(tmp_path):
    string = ModelSpec.parse("openai:Qwen/Qwen3-8B", base_urls=["http://127.0.0.1:6001/v1"])
    as_dict = resolve_spec({"backend": "openai", "model": "Qwen/Qwen3-8B", "base_urls": ["http://127.0.0.1:6001/v1"]})
    path = tmp_path / "served.yaml"
    path.write_text(yaml.safe_dump({"backend": "openai", "model": "Qwen/Qwen3-8B",
                                    "base_urls": ["http://127.0.0.1:6001/v1"]}))
    assert as_dict == string == resolve_spec(str(path))
    assert as_dict.chat_template_kwargs == {"enable_thinking": False} and as_dict.name == "qwen3-8b"
    # The user's own fields win over the entry's.
    mine = resolve_spec({"backend": "vllm", "model": "Qwen/Qwen3-8B", "chat_template_kwargs": {"enable_thinking": True},
                         "engine_args": {"max_model_len": 8192}})
    assert mine.chat_template_kwargs == {"enable_thinking": True} and mine.engine_args == {"max_model_len": 8192}
    # A hosted entry matched by its model id brings its URL, key variable and JSON mode.
    hosted = resolve_spec({"backend": "openai", "model": "deepseek-chat"})
    assert hosted.api_key_env == "DEEPSEEK_API_KEY" and hosted.structured_output == "json_object"


def test_another_backend_keeps_the_entry_revision(monkeypatch):
    from cts_dataset.models import spec as spec_module

    entries = dict(spec_module.registry_entries())
    entries["pinned"] = ModelSpec(backend="vllm", model="org/pinned", name="pinned", revision="abc123",
                                  engine_args={"dtype": "bfloat16"}, chat_template_kwargs={"enable_thinking": False})
    monkeypatch.setattr(spec_module, "registry_entries", lambda: entries)
    served = ModelSpec.parse("openai:org/pinned", base_urls=["http://127.0.0.1:1/v1"])
    assert (served.revision, served.name, served.engine_args) == ("abc123", "pinned", {})
    assert ModelSpec.parse("transformers:pinned").model == "org/pinned"


def test_write_spec_keeps_revision_answer_changing_engine_args_and_template_kwargs(tmp_path):
    from cts_dataset.local_models.serve import served_spec

    spec = ModelSpec.parse("qwen3-8b").replace(revision="feedbeef")
    written = tmp_path / "qwen3-8b.yaml"
    written.write_text(yaml.safe_dump(served_spec(spec, ["http://127.0.0.1:6001/v1"]).to_dict(), sort_keys=False))
    loaded = resolve_spec(str(written))
    assert (loaded.backend, loaded.model, loaded.revision) == ("openai", "Qwen/Qwen3-8B", "feedbeef")
    assert loaded.engine_args == {"max_model_len": 32768, "dtype": "bfloat16"}  # no throughput-only args
    assert loaded.chat_template_kwargs == {"enable_thinking": False} and loaded.api_key_env is None
    assert not loaded.hosted_alias and loaded.cache_max_age_s is None


# -- the identity and the cache key ---------------------------------------------------------------------

def test_the_servers_urls_are_not_the_model_but_the_users_weights_label_tells_servers_apart(tmp_path):
    with FakeOpenAIServer() as one, FakeOpenAIServer() as two:
        first, second = local(one, tmp_path), local(two, tmp_path)
        first.complete([ask("same question")])
        # Not vLLM (nothing says what they serve): one model name, one model, whichever server answers.
        assert "base_urls" not in first.identity and second.identity == first.identity
        assert second.complete([ask("same question")])[0].cached
        other = local(two, tmp_path, weights_label="other-weights")
        assert not other.complete([ask("same question")])[0].cached
        assert len(one.bodies) == len(two.bodies) == 1


def test_the_users_weights_label_changes_the_key_and_its_first_name_is_still_read(tmp_path):
    with FakeOpenAIServer() as server:
        step_1000 = local(server, tmp_path, weights_label="ckpt-1000")
        step_1000.complete([ask("q")])
        assert step_1000.complete([ask("q")])[0].cached
        step_2000 = local(server, tmp_path, weights_label="ckpt-2000")
        assert step_2000.identity["identity"] == "ckpt-2000"
        assert not step_2000.complete([ask("q")])[0].cached and len(server.bodies) == 2
        # A config.json written before the rename names the label `identity`: the same model, the same key.
        older = local(server, tmp_path, identity="ckpt-2000")
        assert older.model_spec.weights_label == "ckpt-2000" and older.complete([ask("q")])[0].cached


def test_a_vllm_servers_weights_path_is_part_of_the_identity(tmp_path):
    with FakeOpenAIServer(roots={"test-model": "/ckpt/step-1000"}, max_model_len=2048) as server:
        before = local(server, tmp_path)
        assert server.model_queries == 1, "one /v1/models request at load"
        assert before.identity["served"] == "/ckpt/step-1000" and before.max_model_len == 2048
        before.complete([ask("q")])
        server.roots["test-model"] = "/ckpt/step-2000"  # the server restarted on other weights
        after = local(server, tmp_path)
        assert not after.complete([ask("q")])[0].cached
    with FakeOpenAIServer() as plain:  # not vLLM (no /v1/models): nothing is recorded
        assert "served" not in local(plain, tmp_path).identity


def test_the_identity_names_everything_that_changes_answers(tmp_path):
    with FakeOpenAIServer() as server:
        identity = local(server, tmp_path, chat_template_kwargs={"enable_thinking": False},
                         engine_args={"dtype": "bfloat16", "max_num_seqs": 8}, structured_output="json_object").identity
    assert {"backend", "model", "revision", "files", "label", "engine_args", "chat_template_kwargs",
            "structured_output", "identity"} <= set(identity)
    assert identity["engine_args"] == {"dtype": "bfloat16"} and identity["structured_output"] == "json_object"
    assert identity["chat_template_kwargs"] == {"enable_thinking": False} and identity["files"] == "unpinned"
    json.dumps(identity)


# -- expiry of hosted aliases ---------------------------------------------------------------------------

def test_hosted_aliases_expire_and_pinned_or_local_models_do_not():
    assert ModelSpec.parse("deepseek-v3").cache_max_age_s == HOSTED_ALIAS_TTL_S
    assert ModelSpec.parse("deepseek-v3", revision="2025-03-24").cache_max_age_s is None
    assert ModelSpec.parse("deepseek-v3", cache_ttl_s=60).cache_max_age_s == 60
    assert ModelSpec.parse("deepseek-v3", cache_ttl_s=float("inf")).cache_max_age_s is None
    assert ModelSpec.parse("openai:m", base_urls=["http://localhost:8000/v1"]).cache_max_age_s is None
    assert ModelSpec.parse("vllm:Qwen/Qwen3-8B").cache_max_age_s is None
    with pytest.raises(ValueError, match="cache_ttl_s"):
        ModelSpec.parse("deepseek-v3", cache_ttl_s=0)


def test_an_entry_older_than_its_ttl_is_a_miss(tmp_path):
    with FakeOpenAIServer() as server:
        model = local(server, tmp_path, cache_ttl_s=3600)
        model.complete([ask("q")])
        assert model.complete([ask("q")])[0].cached
        key = cache_key(model.identity, model.with_defaults(ask("q")))
        conn = model.cache._connection()
        conn.execute("UPDATE responses SET created = ? WHERE key = ?", (time.time() - 7200, key))
        assert not model.complete([ask("q")])[0].cached and len(server.bodies) == 2
        assert key in model.cache.get_many([key]), "without an expiry the old row still counts"


# -- hashing big weight files ---------------------------------------------------------------------------

def test_a_big_file_changed_in_the_middle_changes_its_hash(tmp_path, monkeypatch):
    from cts_dataset.models import weights

    shard = tmp_path / "model-00001.safetensors"
    shard.write_bytes(os.urandom(1 << 20) + bytes(22 << 20) + os.urandom(1 << 20))
    stat = shard.stat()
    before = files_hash(shard)
    assert files_hash(shard) == before
    with shard.open("r+b") as handle:  # 1 MiB of new weights, far from both ends
        handle.seek(11 << 20)
        handle.write(os.urandom(1 << 20))
    os.utime(shard, ns=(stat.st_atime_ns, stat.st_mtime_ns))  # even when the copy kept the old mtime
    monkeypatch.setattr(weights, "_FINGERPRINTS", {})  # a new process: same stats, no memo
    sampled = files_hash(shard)
    assert sampled != before
    os.utime(shard, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1))  # a touched file counts as changed too
    assert files_hash(shard) != sampled


# -- JSON mode for providers without json_schema --------------------------------------------------------

def test_json_object_mode_sends_the_schema_in_the_system_message(tmp_path):
    structured = StructuredOutput(json_schema=SCHEMA)
    with FakeOpenAIServer(json_object_only=("test-model",)) as server:
        strict = local(server, tmp_path)
        [refused] = strict.complete([ask("q", structured=structured)])
        assert refused.failed and "HTTP 400" in refused.error and "json_schema is not supported" in refused.error
        json_mode = local(server, tmp_path, structured_output="json_object")
        [answer] = json_mode.complete([ask("q", structured=structured)])
        no_system = local(server, tmp_path, structured_output="none")
        no_system.complete([ChatRequest.of([{"role": "user", "content": "r"}], structured=structured)])
    assert not answer.failed and json.loads(answer.text) == {"echo": "q"}
    body = server.bodies[1]
    assert body["response_format"] == {"type": "json_object"}
    system = body["messages"][0]
    assert system["role"] == "system" and system["content"].startswith("Be brief.")
    assert json.dumps(SCHEMA) in system["content"] and "JSON" in system["content"]
    assert [m["role"] for m in body["messages"]] == ["system", "user"]
    last = server.bodies[2]
    assert "response_format" not in last and last["messages"][0]["role"] == "system"
    assert json.dumps(SCHEMA) in last["messages"][0]["content"]
