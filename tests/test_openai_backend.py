"""The openai backend against local HTTP servers on 127.0.0.1: retries, timeouts, spreading, keys.

A request that still fails after its retries comes back as a failure response (``error`` set); only a
rejected key fails the whole batch."""

from __future__ import annotations

import socket

import openai  # noqa: F401  (the dev extra installs it: a broken install must fail, not skip)
import pytest

from cts_dataset.models.base import ChatRequest, Sampling, StructuredOutput
from cts_dataset.models.openai_backend import ModelCallError, OpenAIModel
from cts_dataset.models.registry import load_model
from tests.fake_openai_server import FakeOpenAIServer


def ask(text: str, **kwargs) -> ChatRequest:
    return ChatRequest.of([{"role": "user", "content": text}], **kwargs)


def model(urls, **kwargs) -> OpenAIModel:
    options = {"max_retries": 3, "timeout_s": 5.0, "backoff_s": 0.01, "max_backoff_s": 0.05, **kwargs}
    return OpenAIModel("test-model", base_urls=urls, **options)


def test_429_and_500_are_retried_until_success():
    with FakeOpenAIServer(["429", "500", "500"]) as server:
        [response] = model([server.url]).complete([ask("hello")])
    assert response.text == "echo: hello" and response.reasoning == "thinking about hello"
    assert response.raw.startswith("<think>") and response.usage.completion_tokens == 5
    assert len(server.bodies) == 4


def test_retries_stop_at_the_cap_and_name_the_url():
    with FakeOpenAIServer(["500"] * 10) as server:
        [response] = model([server.url], max_retries=2).complete([ask("hello")])
    assert response.failed and response.text == "" and response.finish_reason == "error"
    assert len(server.bodies) == 3 and "gave up after 3" in response.error
    assert server.url in response.error and "HTTP 500" in response.error


def test_a_client_error_is_not_retried():
    with FakeOpenAIServer(["400"]) as server:
        [response] = model([server.url]).complete([ask("hello")])
    assert len(server.bodies) == 1
    assert response.failed and f"{server.url} answered HTTP 400" in response.error and "scripted 400" in response.error


def test_a_hanging_server_times_out_then_the_retry_succeeds():
    with FakeOpenAIServer(["hang"], hang_s=3.0) as server:
        [response] = model([server.url], timeout_s=0.5).complete([ask("late")])
    # Had the client waited out the hang, the server's late reply would be "too late".
    assert response.text == "echo: late" and len(server.bodies) == 2


def test_a_server_that_always_hangs_fails_with_the_url():
    with FakeOpenAIServer(["hang"] * 3, hang_s=2.0) as server:
        [response] = model([server.url], timeout_s=0.3, max_retries=1).complete([ask("late")])
    assert response.failed and "APITimeoutError" in response.error and server.url in response.error


def test_an_unreachable_server_fails_with_the_url_after_the_retries():
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{probe.getsockname()[1]}/v1"
    [response] = model([url], max_retries=2).complete([ask("anyone?")])
    assert "gave up after 3 attempts" in response.error
    assert url in response.error and "APIConnectionError" in response.error


def test_concurrency_is_bounded_and_requests_spread_over_servers():
    with FakeOpenAIServer(delay_s=0.2) as one, FakeOpenAIServer(delay_s=0.2) as two:
        responses = model([one.url, two.url], max_concurrency=2).complete([ask(f"q{i}") for i in range(12)])
    assert [r.text for r in responses] == [f"echo: q{i}" for i in range(12)]
    assert len(one.bodies) == len(two.bodies) == 6
    assert one.max_in_flight == two.max_in_flight == 2


def test_structured_output_template_kwargs_and_seed_reach_the_server():
    schema = {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}
    with FakeOpenAIServer() as server:
        model([server.url]).complete([
            ask("json", structured=StructuredOutput(json_schema=schema), sampling=Sampling(seed=7, stop=("\n",)),
                sample_index=2, chat_template_kwargs={"enable_thinking": False}),
            ask("choice", structured=StructuredOutput(choice=("yes", "no"))),
            ask("plain"),
        ])
    by_text = {b["messages"][-1]["content"]: b for b in server.bodies}
    first = by_text["json"]
    assert first["response_format"] == {"type": "json_schema", "json_schema": {"name": "output", "schema": schema,
                                                                               "strict": True}}
    assert first["chat_template_kwargs"] == {"enable_thinking": False} and first["seed"] == 9 and first["stop"] == ["\n"]
    assert by_text["choice"]["structured_outputs"] == {"choice": ["yes", "no"]}
    # Hosted APIs reject unknown fields: nothing extra is sent when nothing is asked.
    assert not {"chat_template_kwargs", "structured_outputs", "response_format", "seed"} & set(by_text["plain"])


def test_the_api_key_comes_from_the_environment_and_is_written_nowhere(tmp_path, monkeypatch):
    secret = "sk-test-0123456789abcdef"
    monkeypatch.setenv("CTSBENCH_TEST_KEY", secret)
    with FakeOpenAIServer(["500"]) as server:
        loaded = load_model({"backend": "openai", "model": "test-model", "base_urls": [server.url],
                             "api_key_env": "CTSBENCH_TEST_KEY"}, cache=tmp_path / "cache.sqlite",
                            trace=tmp_path / "trace.jsonl")
        loaded.complete([ask("hello")])
        assert loaded.complete([ask("hello")])[0].cached
    assert server.headers[0]["authorization"] == f"Bearer {secret}"
    loaded.trace.close()
    loaded.cache.close()
    for path in tmp_path.rglob("*"):
        assert secret.encode() not in path.read_bytes(), path


def test_a_missing_key_variable_is_named(monkeypatch):
    monkeypatch.delenv("CTSBENCH_ABSENT_KEY", raising=False)
    with pytest.raises(ModelCallError, match="CTSBENCH_ABSENT_KEY"):
        OpenAIModel("m", base_urls=["http://127.0.0.1:9/v1"], api_key_env="CTSBENCH_ABSENT_KEY")


def test_a_rejected_key_is_not_repeated_in_the_error(monkeypatch):
    secret = "sk-wrong-key-abcdef123456"
    monkeypatch.setenv("CTSBENCH_TEST_KEY", secret)
    with FakeOpenAIServer(["401"]) as server, pytest.raises(ModelCallError, match="CTSBENCH_TEST_KEY") as failure:
        model([server.url], api_key_env="CTSBENCH_TEST_KEY").complete([ask("hello")])
    assert len(server.bodies) == 1 and secret[-12:] not in str(failure.value) and failure.value.__cause__ is None
