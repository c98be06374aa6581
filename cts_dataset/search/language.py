"""Which language a query is in, for callers that do not say: the prompts have an English and a Chinese
version, and a Hard518 query is Chinese while a demo query is English."""

from __future__ import annotations

import re
from collections.abc import Sequence

LANGUAGES = ("en", "zh")
_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_LATIN = re.compile(r"[A-Za-z]")
# A Chinese query often carries Latin names or units ("2023年iPhone销量"): a fifth of CJK letters is enough.
ZH_SHARE = 0.2


def detect_language(text: str) -> str:
    """``zh`` when at least a fifth of the letters are CJK characters, else ``en``."""
    cjk, latin = len(_CJK.findall(text)), len(_LATIN.findall(text))
    return "zh" if cjk and cjk >= ZH_SHARE * (cjk + latin) else "en"


def languages_of(queries: Sequence[str], languages: Sequence[str] | None = None) -> list[str]:
    """The given languages (one per query, each ``en`` or ``zh``), else each query's detected language."""
    if languages is None:
        return [detect_language(q) for q in queries]
    found = list(languages)
    if len(found) != len(queries):
        raise ValueError(f"give one language per query: {len(found)} for {len(queries)} queries")
    unknown = sorted({lang for lang in found if lang not in LANGUAGES})
    if unknown:
        raise ValueError(f"unknown language(s) {unknown}; prompts exist for {', '.join(LANGUAGES)}")
    return found
