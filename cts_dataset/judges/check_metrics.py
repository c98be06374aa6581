"""How far a judge's labels agree with reference labels (a labelled set): pure functions over label lists.

``human`` labels are always set; a ``judged`` label of None is unscored (a judge failure): counted and
left out of every metric, on both sides. Labels are ordered none < partial < full
(:data:`~cts_dataset.scoring.agreement.ORDERED_LABELS`).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from cts_dataset.scoring.agreement import ORDERED_LABELS, confusion_matrix, kappa_of_confusion, rank_agreement
from cts_dataset.scoring.labels import Label
from cts_dataset.scoring.restore import mean_score, score_instance
from cts_dataset.scoring.stats import bootstrap_statistic

KAPPA_WEIGHTS = "linear"  # none-vs-full costs twice none-vs-partial: the labels are a credit scale
KENDALL_VARIANT = "tau-b"  # scipy.stats.kendalltau's default


@dataclass(frozen=True)
class LabelMetrics:
    """Agreement over the pairs the judge labelled. ``confusion[human][judge]``; precision and recall per
    label are None where their denominator is 0."""

    n_pairs: int
    n_compared: int
    n_unscored: int
    accuracy: float | None
    kappa_weights: str
    weighted_kappa: float | None
    weighted_kappa_ci95: tuple[float | None, float | None]
    unweighted_kappa: float | None
    confusion: dict[str, dict[str, int]]
    precision: dict[str, float | None]
    recall: dict[str, float | None]
    bootstrap: dict[str, Any]

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def _ratio(num: int, den: int) -> float | None:
    return num / den if den else None


def label_metrics(human: Sequence[Label], judged: Sequence[Label | None], seed: int = 0,
                  n_resamples: int = 1000) -> LabelMetrics:
    """Accuracy, linear-weighted kappa with a bootstrap 95% CI over pairs, unweighted kappa, the 3x3
    confusion matrix and per-label precision / recall."""
    if len(human) != len(judged):
        raise ValueError(f"{len(human)} reference labels but {len(judged)} judge labels")
    matrix = confusion_matrix(human, judged)
    n = int(matrix.sum())
    index = {label: i for i, label in enumerate(ORDERED_LABELS)}
    compared = [(index[h], index[j]) for h, j in zip(human, judged, strict=True) if j is not None]
    codes_h = np.asarray([h for h, _ in compared], dtype=int)
    codes_j = np.asarray([j for _, j in compared], dtype=int)
    k = len(ORDERED_LABELS)

    def kappa_of(rows: np.ndarray) -> float | None:
        counts = np.bincount(codes_h[rows] * k + codes_j[rows], minlength=k * k).reshape(k, k)
        return kappa_of_confusion(counts, KAPPA_WEIGHTS)

    interval = bootstrap_statistic(n, kappa_of, n_resamples=n_resamples, seed=seed)
    diagonal = int(np.trace(matrix))
    return LabelMetrics(
        n_pairs=len(human), n_compared=n, n_unscored=len(human) - n, accuracy=_ratio(diagonal, n),
        kappa_weights=KAPPA_WEIGHTS, weighted_kappa=kappa_of_confusion(matrix, KAPPA_WEIGHTS),
        weighted_kappa_ci95=(interval.low, interval.high), unweighted_kappa=kappa_of_confusion(matrix),
        confusion={h: {j: int(matrix[a, b]) for b, j in enumerate(ORDERED_LABELS)} for a, h in enumerate(ORDERED_LABELS)},
        precision={label: _ratio(int(matrix[i, i]), int(matrix[:, i].sum())) for label, i in index.items()},
        recall={label: _ratio(int(matrix[i, i]), int(matrix[i, :].sum())) for label, i in index.items()},
        bootstrap={"resample": "pairs", "method": "percentile", "n_resamples": interval.n_resamples,
                   "n_undefined": interval.n_undefined, "seed": seed, "confidence": interval.confidence})


def _groups(keys: Sequence[Hashable | None], judged: Sequence[Label | None]) -> dict[Hashable, list[int]]:
    """Scored pair indices by instance key; a pair without a key is an instance of its own."""
    found: dict[Hashable, list[int]] = {}
    for i, (key, label) in enumerate(zip(keys, judged, strict=True)):
        if label is not None:
            found.setdefault(("pair", i) if key is None else ("instance", key), []).append(i)
    return found


def _restores(indices: Sequence[int], human: Sequence[Label], judged: Sequence[Label | None],
              weights: Sequence[float]) -> tuple[float | None, float | None]:
    """(restore under the labels, restore under the judge) of one instance's scored pairs."""
    w = [weights[i] for i in indices]
    return (score_instance(w, [human[i] for i in indices]).restore_score_100,
            score_instance(w, [judged[i] for i in indices]).restore_score_100)


@dataclass(frozen=True)
class RestoreBias:
    """Judge restore minus label restore (points of restore_score_100): > 0 when the judge is lenient."""

    bias_100: float | None
    label_restore_100: float | None
    judge_restore_100: float | None
    over: str  # "instances", or "pairs" (weighted) when no pair names an instance
    n: int

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def restore_bias(human: Sequence[Label], judged: Sequence[Label | None], weights: Sequence[float],
                 instances: Sequence[Hashable | None]) -> RestoreBias:
    """Mean over instances of the weighted (judge - label) value x 100; a pair without an instance is
    one of its own. When no pair names an instance: the weight-weighted mean over pairs."""
    if not any(key is not None for key in instances):
        scored = [i for i, label in enumerate(judged) if label is not None]
        label_value, judge_value = _restores(scored, human, judged, weights) if scored else (None, None)
        bias = None if label_value is None or judge_value is None else judge_value - label_value
        return RestoreBias(bias, label_value, judge_value, "pairs", len(scored))
    pairs = [_restores(g, human, judged, weights) for g in _groups(instances, judged).values()]
    pairs = [(a, b) for a, b in pairs if a is not None and b is not None]
    label_mean, judge_mean = mean_score(a for a, _ in pairs), mean_score(b for _, b in pairs)
    bias = mean_score(b - a for a, b in pairs)
    return RestoreBias(bias, label_mean, judge_mean, "instances", len(pairs))


@dataclass(frozen=True)
class RunAgreement:
    """Rank agreement of the systems' mean restore under the labels and under the judge; the
    correlations are None with ``reason`` when they cannot be computed."""

    n_systems: int
    systems: list[str]
    label_means: dict[str, float | None]
    judge_means: dict[str, float | None]
    kendall_tau: float | None
    spearman: float | None
    kendall_variant: str
    n_pairs_without_system: int
    reason: str | None

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def run_agreement(human: Sequence[Label], judged: Sequence[Label | None], weights: Sequence[float],
                  systems: Sequence[str | None], instances: Sequence[Hashable | None]) -> RunAgreement:
    """Per system: the mean over its instances of restore_score_100 (each instance over the pairs the
    judge scored) under the labels and under the judge; then Kendall and Spearman over the systems."""
    names = sorted({s for s in systems if s is not None})
    label_means: dict[str, float | None] = {}
    judge_means: dict[str, float | None] = {}
    for name in names:
        keys = [(name, key) if key is not None else None for key in instances]
        members = [i for i, s in enumerate(systems) if s == name]
        groups = _groups([keys[i] for i in members], [judged[i] for i in members]).values()
        found = [_restores([members[i] for i in g], human, judged, weights) for g in groups]
        found = [(a, b) for a, b in found if a is not None and b is not None]
        label_means[name], judge_means[name] = mean_score(a for a, _ in found), mean_score(b for _, b in found)
    rank = rank_agreement(label_means, judge_means)
    reason = None
    if len(names) < 2:
        reason = f"{len(names)} system(s) named in the pairs' system field: a ranking needs at least 2"
    elif len(rank.systems) < 2:
        reason = "fewer than 2 systems have a scored pair"
    elif rank.kendall_tau is None:
        reason = "the labels or the judge give every system the same mean restore"
    return RunAgreement(len(names), names, label_means, judge_means, rank.kendall_tau, rank.spearman,
                        KENDALL_VARIANT, sum(1 for s in systems if s is None), reason)
