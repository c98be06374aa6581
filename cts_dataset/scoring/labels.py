"""Coverage labels and the credit each one earns."""

from __future__ import annotations

import math
from typing import Literal

Label = Literal["full", "partial", "none"]
LABELS: tuple[Label, ...] = ("full", "partial", "none")
# restore_score credit (the paper): full 1, partial 0.5, none 0. Strict counts full only.
CREDIT: dict[str, float] = {"full": 1.0, "partial": 0.5, "none": 0.0}
STRICT_CREDIT: dict[str, float] = {"full": 1.0, "partial": 0.0, "none": 0.0}


def normalise_label(value: object) -> Label | None:
    """A label from a judge or a file; None (unscored) for None/NaN; ValueError for anything else."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return None
    if isinstance(value, str):
        cleaned = value.strip().lower()
        if cleaned in CREDIT:
            return cleaned  # type: ignore[return-value]
        if cleaned in ("", "unscored"):
            return None
    raise ValueError(f"not a coverage label: {value!r} (expected one of {', '.join(LABELS)} or None)")
