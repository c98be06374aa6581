"""One score per instance from its repeats: the mean over the repeats that have a defined score.

Every place that reports a clarifier's score with repeats (the run summary, the diagnostics, the report
frame and the leaderboard) takes its instance scores from :func:`instance_means`, so the one rule holds
everywhere: undefined scores (None or NaN: an unscored judgement) are left out of an instance's mean,
and an instance with no defined score is left out altogether (unscored, never 0).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from cts_dataset.scoring.restore import mean_score


def instance_means(scores: Iterable[tuple[str, float | None]] | Mapping[str, Iterable[float | None]]
                   ) -> dict[str, float]:
    """Instance -> mean of its defined repeat scores, from (instance, score) pairs or a mapping
    instance -> repeat scores; instances in the order first seen, those with no defined score left out."""
    grouped: dict[str, list[float | None]] = {}
    if isinstance(scores, Mapping):
        for instance, values in scores.items():
            grouped.setdefault(str(instance), []).extend(values)
    else:
        for instance, value in scores:
            grouped.setdefault(str(instance), []).append(value)
    means = {instance: mean_score(float(v) if v is not None else None for v in values)
             for instance, values in grouped.items()}
    return {instance: value for instance, value in means.items() if value is not None}
