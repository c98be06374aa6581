"""Coverage judges: label each golden nugget full / partial / none against a search output.

The LLM judge (:mod:`.llm`) is the benchmark's judge; the lexical and embedding judges need no LLM and
serve smoke runs and cheap bounds, not published numbers. ``make_judge(spec)`` builds any of them.
"""

from cts_dataset.judges.base import CoverageJudge, JudgeCall, JudgeItem, Judgement
from cts_dataset.judges.factory import OFFLINE_JUDGES, make_judge

__all__ = ["OFFLINE_JUDGES", "CoverageJudge", "JudgeCall", "JudgeItem", "Judgement", "make_judge"]
