"""Model specs: strings name backend and model only; options come from registry YAML, files or overrides."""

from __future__ import annotations

import pytest
import yaml

from cts_dataset.models.registry import load_model, resolve_spec
from cts_dataset.models.spec import BACKENDS, ModelSpec, registry_entries


def test_spec_strings_name_a_backend_and_a_model():
    spec = ModelSpec.parse("transformers:/models/my model:v2")
    assert (spec.backend, spec.model, spec.label) == ("transformers", "/models/my model:v2", "transformers:/models/my model:v2")
    assert ModelSpec.parse("default").label == "default"
    with pytest.raises(ValueError, match="unknown backend 'vlm'"):
        ModelSpec.parse("vlm:Qwen/Qwen3-8B")
    with pytest.raises(ValueError, match="registry name"):
        ModelSpec.parse("no-such-model")


def test_a_known_model_id_brings_its_registry_settings():
    spec = ModelSpec.parse("vllm:Qwen/Qwen3-8B")
    assert spec.name == "qwen3-8b" and spec.chat_template_kwargs == {"enable_thinking": False}
    assert spec.engine_args["enable_prefix_caching"] is True and spec.engine_args["max_model_len"] == 32768
    assert ModelSpec.parse("qwen3-8b") == spec
    # The same weights behind a server keep the template kwargs but not the engine args.
    served = ModelSpec.parse("openai:Qwen/Qwen3-8B", base_urls=["http://127.0.0.1:8000/v1"])
    assert served.chat_template_kwargs == {"enable_thinking": False} and served.engine_args == {}
    assert served.base_urls == ("http://127.0.0.1:8000/v1",)


def test_hosted_entries_name_their_key_variable_not_a_key():
    spec = ModelSpec.parse("openai:ernie-4.5-turbo-128k")
    assert spec.api_key_env == "QIANFAN_API_KEY" and spec.base_urls == ("https://qianfan.baidubce.com/v2",)
    assert spec.to_dict()["api_key_env"] == "QIANFAN_API_KEY" and "api_key" not in spec.to_dict()


def test_registry_covers_the_models_users_run():
    entries = registry_entries()
    for name in ("qwen3-0.6b", "qwen3-1.7b", "qwen3-4b", "qwen3-8b", "qwen3-14b", "qwen3-32b", "ernie-4.5-0.3b",
                 "ernie-4.5-21b-a3b", "deepseek-r1-distill-qwen-7b", "webdancer-32b"):
        assert name in entries, name
    for spec in entries.values():
        assert spec.backend in BACKENDS and spec.model
        if spec.backend == "vllm":
            assert {"tensor_parallel_size", "max_model_len", "dtype", "gpu_memory_utilization",
                    "enable_prefix_caching"} <= set(spec.engine_args), spec.name


def test_yaml_and_dict_configs_and_overrides(tmp_path):
    path = tmp_path / "judge.yaml"
    path.write_text(yaml.safe_dump({"backend": "openai", "model": "m", "base_urls": ["http://127.0.0.1:1/v1/"],
                                    "api_key_env": "MY_KEY", "max_retries": 1}))
    spec = ModelSpec.from_yaml(path)
    assert spec.base_urls == ("http://127.0.0.1:1/v1",) and spec.max_retries == 1
    assert resolve_spec(str(path), timeout_s=3.0).timeout_s == 3.0
    assert resolve_spec({"backend": "transformers", "model": "x"}).model == "x"
    with pytest.raises(ValueError, match="unknown model spec fields"):
        ModelSpec.from_dict({"backend": "vllm", "model": "x", "tp": 2})
    with pytest.raises(ValueError, match="needs a model"):
        ModelSpec(backend="vllm")


def test_identity_ignores_throughput_settings_but_not_the_weights():
    spec = ModelSpec.parse("vllm:Qwen/Qwen3-8B")
    assert spec.identity_hash() == spec.replace(engine_args={**spec.engine_args, "tensor_parallel_size": 4}).identity_hash()
    assert spec.identity_hash() != spec.replace(engine_args={**spec.engine_args, "dtype": "float16"}).identity_hash()
    assert spec.identity_hash() != spec.replace(revision="abc123").identity_hash()


def test_scripted_is_built_in_code():
    with pytest.raises(ValueError, match="ScriptedModel"):
        load_model("scripted")


def test_missing_sdks_say_what_to_install(monkeypatch):
    import builtins

    real_import = builtins.__import__

    def no_vllm(name, *args, **kwargs):
        if name.split(".")[0] == "vllm":
            raise ImportError("No module named 'vllm'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_vllm)
    with pytest.raises(ImportError, match=r"pip install \"ctsbench\[vllm\]\""):
        load_model("vllm:some/model", cache=False)


def test_the_server_runner_turns_registry_engine_args_into_vllm_flags():
    from cts_dataset.local_models.serve import server_command

    spec = ModelSpec.parse("qwen3-32b").replace(engine_args={**ModelSpec.parse("qwen3-32b").engine_args,
                                                             "enforce_eager": False})
    command = server_command(spec, 6002, python="py")
    assert command[:3] == ["py", "-m", "vllm.entrypoints.openai.api_server"]
    text = " ".join(command)
    assert "--model Qwen/Qwen3-32B --served-model-name Qwen/Qwen3-32B --host 127.0.0.1 --port 6002" in text
    assert "--tensor-parallel-size 2" in text and "--max-model-len 32768" in text and "--dtype bfloat16" in text
    assert "--enable-prefix-caching" in command and "--no-enforce-eager" in command


def test_a_hub_model_is_keyed_on_the_cached_commit(tmp_path, monkeypatch):
    import huggingface_hub.constants

    from cts_dataset.models.registry import model_fingerprint

    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_CACHE", str(tmp_path))
    spec = ModelSpec.parse("vllm:Qwen/Qwen3-8B")
    assert model_fingerprint(spec) == "unpinned"
    refs = tmp_path / "models--Qwen--Qwen3-8B" / "refs"
    refs.mkdir(parents=True)
    (refs / "main").write_text("0123abcd\n")
    assert model_fingerprint(spec) == "0123abcd"
    assert model_fingerprint(spec.replace(revision="feedbeef")) == "feedbeef"
