"""`ctsbench run` against a real HTTP server on 127.0.0.1: a hosted-style clarifier spec reads the OpenAI
environment variables, and one request that fails for good loses nothing else."""

import json

from cts_dataset.data import load
from tests.conftest import run_cli
from tests.fake_openai_server import FakeOpenAIServer


def lines(path):
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_a_hosted_clarifier_spec_uses_the_openai_env_and_one_failed_request_is_retried_alone(tmp_path, fresh_hf_env):
    failing = load()[1]  # its clarifier request is refused (as a content filter would) every time
    with FakeOpenAIServer(rules={failing.blurred_query: "400"}) as server:
        env = {**fresh_hf_env, "OPENAI_BASE_URL": server.url, "OPENAI_API_KEY": "sk-test-key-123"}
        args = ["run", "--clarifier", "openai:gpt-4.1", "--limit", "3", "--budgets", "1", "--user-answerer",
                "smollm2-135m", "--rewriter", "smollm2-135m", "--out-dir", str(tmp_path / "run"), "--quiet"]
        first = run_cli(*args, env=env)
        assert first.returncode == 1, first.stderr[-3000:]
        assert "retries only the failed requests" in first.stderr and "HTTP 400" in first.stderr
        assert {h["authorization"] for h in server.headers} == {"Bearer sk-test-key-123"}
        asked = lines(tmp_path / "run" / "clarify.jsonl")
        assert len(asked) == 3 and [a["instance"] for a in asked if a["error"]] == [failing.id]
        summary = json.loads((tmp_path / "run" / "summary.json").read_text())
        assert summary["errors"]["clarify"] == 1 and summary["clarifier"] == "openai:gpt-4.1"
        assert summary["conditions"]["clarify@1"]["scored_instances"] == 2
        sent = len(server.bodies)
        second = run_cli(*args, env=env)
        assert second.returncode == 1
        retried = server.bodies[sent:]
        assert len(retried) == 1 and failing.blurred_query in retried[0]["messages"][-1]["content"]
    assert len(lines(tmp_path / "run" / "clarify.jsonl")) == 4  # the retried request's record replaces the first
