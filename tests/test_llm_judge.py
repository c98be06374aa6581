"""The LLM coverage judge against a scripted model: batching, strict parsing, retries, traces, prompts."""

import json
import re

import pytest

from cts_dataset.judges import JudgeItem, make_judge
from cts_dataset.judges.llm import LLMJudge
from cts_dataset.judges.parse import LabelParseError, labels_schema, parse_labels
from cts_dataset.judges.prompts import Prompt, PromptError, load_prompt
from cts_dataset.models.scripted import ScriptedModel


def labels_json(*labels: str) -> str:
    return json.dumps({"labels": [{"nugget": i, "label": lab} for i, lab in enumerate(labels, start=1)]})


def nuggets_in(request) -> list[str]:
    """The nugget lines of a rendered judge prompt."""
    return re.findall(r"^\d+\. (.*)$", request.messages[-1].content, flags=re.MULTILINE)


def by_keyword(request) -> str:
    """A well-behaved judge: full if the nugget says 'yes', partial for 'half', else none."""
    return labels_json(*["full" if "yes" in n else "partial" if "half" in n else "none" for n in nuggets_in(request)])


@pytest.mark.parametrize("text", [
    labels_json("full", "none"),
    "```json\n" + labels_json("full", "none") + "\n```",
    "Sure. Here is my judgement [1]:\n" + labels_json("full", "none") + "\nHope this helps!",
    '["FULL", " none "]',
])
def test_parser_tolerates_wrapping(text):
    assert parse_labels(text, 2) == ["full", "none"]


@pytest.mark.parametrize("text,problem", [
    (labels_json("full"), "expected 2 labels, got 1"),
    (labels_json("full", "none", "none"), "expected 2 labels, got 3"),
    ('{"labels": [{"nugget": 1, "label": "full"}, {"nugget": 2, "label": "none"', "no JSON"),
    ('{"labels": [{"nugget": 2, "label": "full"}, {"nugget": 1, "label": "none"}]}', "out of order"),
    ('{"labels": ["full", "yes"]}', "not one of"),
    ("The answer covers the first nugget fully and not the second.", "no JSON"),
])
def test_parser_rejects_malformed_outputs(text, problem):
    with pytest.raises(LabelParseError, match=problem):
        parse_labels(text, 2)


def test_one_batch_per_round_and_nuggets_chunked():
    model = ScriptedModel(default=by_keyword)
    judge = LLMJudge(model, batch_size=10)
    items = [JudgeItem("answer one", tuple(f"n{i} yes" if i % 2 else f"n{i} half" for i in range(25)), id="a"),
             JudgeItem("answer two", ("no", "yes"), id="b")]
    judgements = judge.judge(items)
    assert model.batches == [4]  # chunks of 10 + 10 + 5 nuggets, and 2 nuggets: one complete() call
    assert judgements[0].labels == ["partial" if i % 2 == 0 else "full" for i in range(25)]
    assert judgements[1].labels == ["none", "full"]
    request = model.calls[0]
    assert request.role == "judge" and request.sampling.temperature == 0.0
    schema = request.structured.json_schema
    assert schema == labels_schema(10)
    assert schema["properties"]["labels"]["items"]["properties"]["label"]["enum"] == ["full", "partial", "none"]


def test_wrong_count_is_retried_then_parsed():
    model = ScriptedModel({"judge": [labels_json("full"), "prose " + labels_json("full", "partial")]})
    judge = LLMJudge(model, max_attempts=3)
    [result] = judge.judge([JudgeItem("ans", ("a", "b"), id="x")])
    assert result.labels == ["full", "partial"]
    assert model.batches == [1, 1]
    retry = model.calls[1]
    assert retry.sample_index == 1 and retry.sampling.temperature > 0  # another sample, not a cache replay
    assert [(c.attempt, c.parsed) for c in result.calls] == [(0, False), (1, True)]
    assert "expected 2 labels, got 1" in result.calls[0].error
    assert result.raw == [labels_json("full"), "prose " + labels_json("full", "partial")]


def test_unparseable_after_all_attempts_is_unscored_with_raw_kept():
    garbage = ["not json", '{"labels": [', labels_json("full", "none", "none")]

    def first_chunk_breaks(request):
        return garbage[request.sample_index] if "a yes" in nuggets_in(request) else by_keyword(request)

    model = ScriptedModel(default=first_chunk_breaks)
    judge = LLMJudge(model, max_attempts=3, batch_size=2)
    [result] = judge.judge([JudgeItem("ans", ("a yes", "b", "c yes"), id="x")])
    assert result.labels == [None, None, "full"]  # chunk 0 unscored, chunk 1 judged
    assert model.batches == [2, 1, 1]
    assert set(garbage) <= set(result.raw)
    assert [(c.chunk, c.attempt, c.parsed) for c in result.calls] == [(0, 0, False), (1, 0, True), (0, 1, False), (0, 2, False)]
    assert all(c.prompt_id == "coverage-v1" and len(c.prompt_sha256) == 64 for c in result.calls)
    assert result.calls[0].raw_output == "not json" and result.calls[0].messages[0]["role"] == "system"


def test_failed_chunks_of_many_items_are_retried_together():
    calls = {"n": 0}

    def flaky(request):
        calls["n"] += 1
        return "oops" if calls["n"] <= 2 else by_keyword(request)

    model = ScriptedModel(default=flaky)
    results = LLMJudge(model).judge([JudgeItem("x", ("yes",), id=str(i)) for i in range(3)])
    assert model.batches == [3, 2]
    assert [r.labels for r in results] == [["full"]] * 3


def test_prompt_renders_with_every_placeholder_and_checks_them():
    prompt = load_prompt("coverage-v1")
    messages = prompt.render(query="q?", answer="the answer costs $5", nuggets="1. n", count=1)
    assert "the answer costs $5" in messages[1]["content"] and "${" not in messages[1]["content"]
    with pytest.raises(PromptError, match="missing values"):
        prompt.render(query="q", answer="a", nuggets="1. n")
    with pytest.raises(PromptError, match="unexpected values"):
        prompt.render(query="q", answer="a", nuggets="1. n", count=1, extra=2)
    with pytest.raises(PromptError, match="declares"):
        Prompt(id="bad", system="s", user="${answer} ${oops}", placeholders=frozenset({"answer"}), sha256="")
    with pytest.raises(PromptError, match="no prompt"):
        load_prompt("coverage-v999")


def test_factory_builds_the_llm_judge_through_the_model_registry(monkeypatch):
    from cts_dataset.models import registry

    seen = []
    monkeypatch.setattr(registry, "load_model", lambda spec: seen.append(spec) or ScriptedModel(default=by_keyword, spec=spec))
    judge = make_judge("llm:openai:some-model", batch_size=3)
    assert seen == ["openai:some-model"] and judge.name == "llm:openai:some-model" and judge.batch_size == 3
    assert make_judge("lexical").name == "lexical"
    assert make_judge(judge) is judge
    with pytest.raises(TypeError):
        make_judge(42)


def test_an_empty_answer_is_none_without_a_model_call():
    model = ScriptedModel(default=by_keyword)
    results = LLMJudge(model).judge([JudgeItem("  ", ("yes", "half"), id="e"), JudgeItem("text", ("yes",), id="t")])
    assert [r.labels for r in results] == [["none", "none"], ["full"]]
    assert model.batches == [1] and results[0].calls == []
