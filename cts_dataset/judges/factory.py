"""Build a coverage judge from a spec string: ``lexical``, ``embedding``, ``constant:<label>`` or a
chat-model spec."""

from __future__ import annotations

from typing import Any

from cts_dataset.judges.base import CoverageJudge

OFFLINE_JUDGES = ("lexical", "embedding")


def is_model_spec(spec: str) -> bool:
    """Whether ``make_judge(spec)`` builds the LLM judge (which alone takes prompt and batching options)."""
    return spec not in OFFLINE_JUDGES and not spec.startswith("constant:")


def make_judge(spec: str | CoverageJudge, **options: Any) -> CoverageJudge:
    """A judge by name (``constant:full|partial|none`` label everything alike); any other string is a
    model spec for the LLM judge (``llm:`` prefix optional).

    ``options`` go to the judge's constructor (thresholds, ``batch_size``, ``max_attempts``...). A judge
    object is returned as it is. Model backends are imported only here, when an LLM judge is asked for.
    """
    if not isinstance(spec, str):
        if isinstance(spec, CoverageJudge):
            return spec
        raise TypeError(f"a judge is a spec string or an object with name and judge(items), not {type(spec).__name__}")
    if spec == "lexical":
        from cts_dataset.judges.lexical import LexicalJudge

        return LexicalJudge(**options)
    if spec == "embedding":
        from cts_dataset.judges.embedding import EmbeddingJudge

        return EmbeddingJudge(**options)
    if spec.startswith("constant:"):
        from cts_dataset.judges.constant import ConstantJudge

        return ConstantJudge(spec.removeprefix("constant:"), **options)
    from cts_dataset.judges.llm import LLMJudge
    from cts_dataset.models.registry import load_model

    return LLMJudge(load_model(spec.removeprefix("llm:")), **options)
