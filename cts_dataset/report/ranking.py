"""The statistics of the leaderboard: the ranking within each k on the instances every ranked run
scored, Holm's adjustment, and the paired tests between runs on their common instances.

A run's own mean is over the instances it scored; two runs on different instance sets (another --limit,
--ids, or failed requests) do not compare on those means, so the rank is taken on the common instances
and the report says how many they are and which runs scored others. Reference clarifiers that see what a
real clarifier must not (summary ``declared_leakage``) are never ranked.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import TYPE_CHECKING, Any

from cts_dataset.report.frame import label_scores

if TYPE_CHECKING:
    import pandas as pd

    from cts_dataset.report.leaderboard import RunInfo


def holm(p_values: Sequence[float | None]) -> list[float | None]:
    """Holm's step-down adjusted p-values (None stays None and is not counted among the tests).

    A few lines rather than statsmodels: the method is short and exact, and the report extra stays small."""
    ordered = sorted((p, i) for i, p in enumerate(p_values) if p is not None)
    adjusted: list[float | None] = [None] * len(p_values)
    running = 0.0
    for rank, (p, i) in enumerate(ordered):
        running = max(running, min(1.0, (len(ordered) - rank) * p))  # monotone: never below a smaller p's
        adjusted[i] = running
    return adjusted


def gains_holm(summary: dict[str, Any]) -> dict[str, float | None]:
    """Label -> Holm-adjusted p of its gain over the baseline, across the run's gains (as the summary
    adjusts them; recomputed so that summaries written before the adjustment get it too)."""
    labels = [label for label, entry in summary["conditions"].items() if "gain_over_baseline" in entry]
    found = holm([summary["conditions"][label]["gain_over_baseline"].get("p_value") for label in labels])
    return dict(zip(labels, found, strict=True))


def is_reference(run: RunInfo) -> bool:
    """A clarifier that sees what a real one must not: shown apart, never ranked."""
    return bool(run.summary.get("declared_leakage"))


def instance_scores(frame: pd.DataFrame, label: str) -> dict[str, float]:
    """Instance -> score at a label (the mean over repeats, as the summary takes it)."""
    return label_scores(frame, label)


def common_scores(runs: Sequence[RunInfo]) -> tuple[dict[tuple[str, int], dict[str, Any]], list[str]]:
    """Per (run name, k): the mean score and CI on the instances every ranked run at k scored (a reference
    run: on those of them it scored), and a description of each k whose ranked runs scored different sets."""
    from cts_dataset.scoring.stats import bootstrap_ci

    found: dict[tuple[str, int], dict[str, Any]] = {}
    differing: dict[str, list[int]] = {}  # description -> the budgets it holds at
    for k in sorted({k for run in runs for k in run.budgets}):
        at_k = [run for run in runs if k in run.budgets]
        scores = {run.name: instance_scores(run.frame, f"clarify@{k}") for run in at_k}
        ranked = [run for run in at_k if not is_reference(run)]
        common = set.intersection(*(set(scores[run.name]) for run in ranked)) if ranked else set()
        if any(set(scores[run.name]) != common for run in ranked):
            counts = ", ".join(f"{run.name} {len(scores[run.name])}" for run in ranked)
            differing.setdefault(f"{len(common)} common ({counts})", []).append(k)
        for run in at_k:
            shared = sorted(common & set(scores[run.name]))
            interval = bootstrap_ci([scores[run.name][i] for i in shared])
            found[(run.name, k)] = {"common_score_100": interval.mean, "common_ci_low": interval.low,
                                    "common_ci_high": interval.high, "common_n": len(shared)}
    return found, [f"k={', '.join(map(str, ks))}: {text}" for text, ks in differing.items()]


def rank(rows: pd.DataFrame) -> pd.DataFrame:
    """Rank within each k by the score on the common instances (equal scores share a rank); reference
    rows last, unranked."""
    import pandas as pd

    rows = rows.sort_values(["k", "reference", "common_score_100"], ascending=[True, True, False],
                            na_position="last", kind="stable").reset_index(drop=True)
    ranked = rows[~rows["reference"].astype(bool)]
    # rounded: the same scores summed in another order must not split a tie
    ranks = ranked["common_score_100"].round(9).groupby(ranked["k"]).rank(method="min", ascending=False)
    rows.insert(0, "rank", pd.array([pd.NA] * len(rows), dtype="Int64"))
    rows.loc[ranks.index, "rank"] = pd.array(ranks, dtype="Int64")
    return rows


def comparisons(runs: Sequence[RunInfo], alpha: float = 0.05) -> list[dict[str, Any]]:
    """A minus B per k for every pair of runs, on the instances both scored at k (paired test and
    bootstrap CI from cts_dataset.scoring.stats), then Holm across every comparison listed."""
    from cts_dataset.scoring.stats import paired_test

    found = []
    budgets = sorted({k for run in runs for k in run.budgets})
    for k in budgets:
        label = f"clarify@{k}"
        for a, b in combinations([r for r in runs if k in r.budgets], 2):
            scores_a, scores_b = instance_scores(a.frame, label), instance_scores(b.frame, label)
            common = sorted(set(scores_a) & set(scores_b))
            result = paired_test([scores_a[i] for i in common], [scores_b[i] for i in common])
            found.append({"k": k, "a": a.name, "b": b.name, "n_pairs": result.n_pairs, "mean_a": result.mean_a,
                          "mean_b": result.mean_b, "mean_difference": result.mean_difference,
                          "ci_low": result.ci_low, "ci_high": result.ci_high, "p_value": result.p_value})
    for row, adjusted in zip(found, holm([r["p_value"] for r in found]), strict=True):
        row["p_holm"] = adjusted
        row["significant"] = adjusted is not None and adjusted < alpha
    return found
