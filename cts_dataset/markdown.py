"""Markdown pieces shared by the summary renderers (``ctsbench score``, ``run`` and ``agree``)."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

from cts_dataset.judges.factory import OFFLINE_JUDGES

OFFLINE_NOTE = ("The {judge} judge is an offline approximation for smoke runs and cheap bounds; "
                "its scores are not comparable with published restore_score numbers.")


def fmt(value: float | None, digits: int = 2) -> str:
    """A number with ``digits`` decimals; ``n/a`` for None or NaN."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "n/a"
    return f"{value:.{digits}f}"


def table(headers: Sequence[str], rows: Iterable[Sequence[object]]) -> list[str]:
    """The lines of a markdown table; cells are written as given (``|`` escaped)."""
    def line(cells: Sequence[object]) -> str:
        return "| " + " | ".join(str(c).replace("|", "\\|") for c in cells) + " |"

    return [line(headers), "|" + "---|" * len(headers), *(line(row) for row in rows)]


def offline_judge_note(judge_name: str) -> str | None:
    """The caveat printed under the numbers of an offline judge; None for any other judge."""
    return OFFLINE_NOTE.format(judge=judge_name) if judge_name in OFFLINE_JUDGES else None
