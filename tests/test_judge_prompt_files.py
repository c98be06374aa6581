"""A user's judge prompt file: named by its own id (never exactly like the shipped prompt it copies), and
read again when it changes, even within one long process."""

from __future__ import annotations

import os
from pathlib import Path

from cts_dataset.judges.base import JudgeItem
from cts_dataset.judges.llm import LLMJudge
from cts_dataset.judges.prompts import load_prompt
from cts_dataset.models.scripted import ScriptedModel


def _copy_of_the_shipped_prompt(folder: Path) -> Path:
    mine = folder / "coverage-v1.yaml"
    mine.write_text(Path(load_prompt("coverage-v1").source).read_text(encoding="utf-8"), encoding="utf-8")
    return mine


def test_an_edited_copy_of_the_shipped_prompt_is_never_named_like_it(tmp_path):
    mine = _copy_of_the_shipped_prompt(tmp_path)
    mine.write_text(mine.read_text(encoding="utf-8").replace("strict", "lenient"), encoding="utf-8")
    judge = LLMJudge(ScriptedModel(default='{"labels": ["support"]}'), prompt_id=str(mine))
    shipped = LLMJudge(ScriptedModel(default='{"labels": ["support"]}'))
    assert judge.prompt.id != "coverage-v1" and judge.prompt.id.startswith("coverage-v1+")
    assert judge.prompt.id == f"coverage-v1+{judge.prompt.hash[:8]}"
    assert judge.name != shipped.name and judge.identity()["prompt"]["id"] == judge.prompt.id
    [result] = judge.judge([JudgeItem(answer="yes", nuggets=("yes",), query="q?")])
    assert result.calls[0].prompt_id == judge.prompt.id


def test_a_changed_prompt_file_is_read_again_in_the_same_process(tmp_path):
    mine = _copy_of_the_shipped_prompt(tmp_path)
    before = load_prompt(str(mine))
    stat = mine.stat()
    mine.write_text(mine.read_text(encoding="utf-8").replace("strict", "very lenient"), encoding="utf-8")
    os.utime(mine, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000))  # a later mtime even on coarse clocks
    after = load_prompt(str(mine))
    assert after.hash != before.hash and "very lenient" in after.system + after.user
    assert after.id != before.id
    assert load_prompt(str(mine)) is after  # an unchanged file is not read again
