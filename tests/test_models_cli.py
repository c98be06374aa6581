"""`ctsbench models ...` in a subprocess: the registry, a resolved spec, the response cache."""

from __future__ import annotations

import yaml

from cts_dataset.models.base import ChatResponse
from cts_dataset.models.cache import ResponseCache
from tests.conftest import run_cli


def test_list_and_show_resolve_registry_entries():
    listed = run_cli("models", "list")
    assert listed.returncode == 0 and "qwen3-8b" in listed.stdout and "Qwen/Qwen3-8B" in listed.stdout
    shown = run_cli("models", "show", "vllm:Qwen/Qwen3-32B")
    assert shown.returncode == 0, shown.stderr
    spec = yaml.safe_load(shown.stdout)
    assert spec["engine_args"]["tensor_parallel_size"] == 2 and spec["chat_template_kwargs"] == {"enable_thinking": False}
    bad = run_cli("models", "show", "nope:x")
    assert bad.returncode != 0 and "unknown backend 'nope'" in bad.stderr


def test_cache_counts_and_clears(tmp_path):
    path = tmp_path / "responses.sqlite"
    ResponseCache(path).put_many([("k1", "vllm:a", ChatResponse(text="x")), ("k2", "vllm:b", ChatResponse(text="y"))])
    assert "2 responses" in run_cli("models", "cache", "--path", str(path)).stdout
    cleared = run_cli("models", "cache", "--path", str(path), "--clear", "--model", "vllm:a")
    assert "deleted 1 responses" in cleared.stdout and "1 responses" in cleared.stdout
