"""The one judge-and-score path: records, JudgeCall logs, input keys, identities, strict counts."""

import dataclasses
import json

import pytest

from cts_dataset.judges import JudgeCall, Judgement, make_judge
from cts_dataset.judges.llm import LLMJudge
from cts_dataset.log import open_log
from cts_dataset.models.scripted import ScriptedModel
from cts_dataset.scoring.judging import JudgeJob, judge_identity, judge_items

JOB = JudgeJob("a", "Tangshan deaths?", "The official count gave 242,469 deaths.",
               ("The official count gave 242,469 deaths.", "It struck on 28 July 1976."), (2.0, 1.0))


def test_records_carry_labels_scores_judge_prompt_and_input_key(tmp_path):
    model = ScriptedModel(default='{"labels": ["full", "partial"]}')
    log = open_log(tmp_path / "judge_calls.jsonl")
    [record] = judge_items(LLMJudge(model), [JOB], log)
    assert record["labels"] == ["full", "partial"] and record["restore_score_100"] == pytest.approx(250 / 3)
    assert record["strict_100"] == pytest.approx(200 / 3) and record["n_unscored"] == 0
    assert (record["judge"], record["judge_prompt"]) == ("llm:scripted@coverage-v1", "coverage-v1")
    assert len(record["judge_prompt_hash"]) == 16 and record["input_key"] == JOB.input_key
    assert record["raw"] == ['{"labels": ["full", "partial"]}'] and record["errors"] == []
    [(_, call)] = list(log.records())
    assert set(call) == {f.name for f in dataclasses.fields(JudgeCall)}
    assert call["input_key"] == JOB.input_key and call["item_id"] == "a" and call["prompt_id"] == "coverage-v1"
    log.close()

    [offline] = judge_items(make_judge("lexical"), [JOB], None)
    assert offline["judge_prompt"] is None and offline["judge_prompt_hash"] is None
    assert offline["labels"] == ["full", "none"] and offline["evidence"][0] == 1.0


def test_the_input_key_follows_everything_that_changes_a_score():
    keys = {dataclasses.replace(JOB, **change).input_key for change in (
        {}, {"id": "renamed"}, {"query": "other"}, {"answer": "other"}, {"nuggets": ("x", "y")}, {"weights": (1.0, 1.0)})}
    assert len(keys) == 5  # all but the id
    with pytest.raises(ValueError, match="2 nuggets but 1 weights"):
        JudgeJob("b", "q", "a", ("x", "y"), (1.0,))


class ShortJudge:
    name = "short"

    def judge(self, items):
        return [Judgement(labels=["full"]) for _ in items]


def test_a_judge_that_drops_items_or_labels_fails_loudly():
    with pytest.raises(RuntimeError, match="1 labels for the 2 nuggets of a"):
        judge_items(ShortJudge(), [JOB])

    class Dropping(ShortJudge):
        def judge(self, items):
            return []

    with pytest.raises(RuntimeError, match="0 judgements for 1 items"):
        judge_items(Dropping(), [JOB])


def test_identity_of_a_judge_object_without_a_description():
    identity = judge_identity(ShortJudge())
    assert identity == {"name": "short", "kind": f"{__name__}.ShortJudge"}
    llm = judge_identity(LLMJudge(ScriptedModel(default="")))
    assert llm["model"] == {"spec": "scripted", "identity": None} and json.loads(json.dumps(llm)) == llm
