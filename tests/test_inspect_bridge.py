"""The inspect_ai bridge, run for real offline: inspect's mock model is the clarifier, the packaged small
model answers and rewrites, BM25 searches, the lexical judge scores."""

import json

from inspect_ai import eval as inspect_eval
from inspect_ai.model import ModelOutput, ModelUsage, get_model

from cts_dataset.inspect_tasks import clarify_then_search


def test_inspect_eval_plays_the_protocol_with_the_mock_model_as_clarifier(tmp_path):
    def question():
        output = ModelOutput.from_content(model="mockllm", content="Which year do you mean?")
        output.usage = ModelUsage(input_tokens=50, output_tokens=6)  # else mockllm counts with tiktoken (online)
        return output

    model = get_model("mockllm/model", custom_outputs=[question() for _ in range(8)])
    task = clarify_then_search(budget=1, limit=2, user_answerer="smollm2-135m", rewriter="smollm2-135m",
                               out_dir=str(tmp_path / "runs"))
    (log,) = inspect_eval(task, model=model, log_dir=str(tmp_path / "logs"), display="none")
    assert log.status == "success", log.error
    assert [s.id for s in log.samples] == ["demo-0001", "demo-0002"]
    for sample in log.samples:
        score = sample.scores["restore_score"]
        assert set(score.metadata) == {"baseline", "clarify@1", "oracle"}
        assert score.value == score.metadata["clarify@1"]
        asked = [json.loads(line) for line in
                 (tmp_path / "runs" / "mockllm-model" / sample.id / "clarify.jsonl").read_text().splitlines()]
        assert [a["question"] for a in asked] == ["Which year do you mean?"] and asked[0]["model"] == "inspect:mockllm/model"
    assert log.results.scores[0].metrics["mean"].value >= 0


def test_the_inspect_cli_runs_the_task_against_a_model_server(tmp_path, fresh_hf_env):
    """`inspect eval` in a subprocess, its clarifier an OpenAI-compatible server on 127.0.0.1."""
    import subprocess
    import sys

    from tests.conftest import REPO
    from tests.fake_openai_server import FakeOpenAIServer

    with FakeOpenAIServer() as server:
        env = {**fresh_hf_env, "FAKE_BASE_URL": server.url, "FAKE_API_KEY": "sk-test"}
        result = subprocess.run(
            [sys.executable, "-m", "inspect_ai", "eval", str(REPO / "cts_dataset" / "inspect_tasks.py@clarify_then_search"),
             "--model", "openai-api/fake/asker", "-T", "budget=1", "-T", "limit=1", "-T", "user_answerer=smollm2-135m",
             "-T", "rewriter=smollm2-135m", "-T", f"out_dir={tmp_path / 'runs'}", "--log-dir", str(tmp_path / "logs"),
             "--display", "plain"], env=env, cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    assert server.bodies and "Search query: How many people died" in server.bodies[0]["messages"][-1]["content"]
    folder = tmp_path / "runs" / "openai-api-fake-asker" / "demo-0001"
    asked = [json.loads(line) for line in (folder / "clarify.jsonl").read_text().splitlines()]
    assert asked[0]["model"] == "inspect:openai-api/fake/asker" and asked[0]["question"].startswith("echo: Search query")
    assert list((tmp_path / "logs").glob("*.eval"))
