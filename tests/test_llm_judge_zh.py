"""The LLM judge's Chinese prompt: chosen for Chinese items, recorded in every call and in the identity."""

from __future__ import annotations

import json
import re
from pathlib import Path

from cts_dataset.judges import JudgeItem
from cts_dataset.judges.llm import LLMJudge
from cts_dataset.judges.prompts import load_prompt
from cts_dataset.models.scripted import ScriptedModel


def labels(request) -> str:
    count = len(re.findall(r"^\d+\. ", request.messages[-1].content, flags=re.MULTILINE))
    return json.dumps({"labels": [{"nugget": i, "label": "full"} for i in range(1, count + 1)]})


def test_the_chinese_prompt_matches_the_english_one():
    en, zh = load_prompt("coverage-v1"), load_prompt("coverage-v1-zh")
    assert zh.placeholders == en.placeholders and zh.hash != en.hash
    assert '"full"' in zh.user and '"partial"' in zh.user and '"none"' in zh.user and "信息点" in zh.user


def test_chinese_items_are_judged_with_the_chinese_prompt_and_say_so():
    model = ScriptedModel(default=labels)
    judge = LLMJudge(model)
    items = [JudgeItem(answer="青松市常住人口为128万人。", nuggets=("2021年青松市常住人口为128万人。",),
                       query="2021年青松市的常住人口是多少？", id="zh"),
             JudgeItem(answer="It is 6,300 km long.", nuggets=("The Yangtze is 6,300 km long.",),
                       query="How long is the Yangtze?", id="en")]
    zh, en = judge.judge(items)
    prompts = {c.tag.split("#")[0]: c.messages[0].content for c in model.calls}
    assert prompts["zh"].startswith("你是一名细致、严格的搜索答案评审员") and prompts["en"].startswith("You are")
    assert (zh.calls[0].prompt_id, en.calls[0].prompt_id) == ("coverage-v1-zh", "coverage-v1")
    assert zh.calls[0].prompt_hash == load_prompt("coverage-v1-zh").hash and zh.labels == ["full"]
    assert judge.identity()["prompt_zh"] == {"id": "coverage-v1-zh", "hash": load_prompt("coverage-v1-zh").hash}


def test_a_users_prompt_file_has_no_chinese_version(tmp_path):
    source = load_prompt("coverage-v1").source
    mine = tmp_path / "coverage-v1.yaml"
    mine.write_text(Path(source).read_text(encoding="utf-8"), encoding="utf-8")
    judge = LLMJudge(ScriptedModel(default=labels), prompt_id=str(mine))
    assert judge.prompt_zh is None and "prompt_zh" not in judge.identity()
    [result] = judge.judge([JudgeItem(answer="是", nuggets=("是",), query="问题？")])
    assert result.calls[0].prompt_id == f"coverage-v1+{judge.prompt.hash[:8]}"  # never the shipped id
