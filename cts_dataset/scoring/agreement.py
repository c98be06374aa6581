"""How far two judges agree: over nugget labels (agreement, Cohen's kappa) and over system rankings."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Literal

import numpy as np

from cts_dataset.scoring.labels import Label, normalise_label

# The labels in credit order: the rows and columns of a confusion matrix and the scale of weighted kappa.
ORDERED_LABELS: tuple[Label, ...] = ("none", "partial", "full")
KappaWeights = Literal["unweighted", "linear", "quadratic"]
KAPPA_WEIGHTS: tuple[str, ...] = ("unweighted", "linear", "quadratic")


@dataclass(frozen=True)
class LabelAgreement:
    """Agreement over the nuggets both judges labelled (unscored on either side is left out)."""

    n_nuggets: int
    n_compared: int
    percent_agreement: float | None
    cohen_kappa: float | None
    confusion: dict[str, int]

    def as_dict(self) -> dict:
        return asdict(self)


def label_agreement(labels_a: Sequence[object], labels_b: Sequence[object]) -> LabelAgreement:
    """Percent agreement and Cohen's kappa of two label sequences over the same nuggets.

    Kappa (:func:`kappa_of_confusion`) is written out rather than taken from scikit-learn to keep that
    out of the core dependencies. Kappa is None when chance agreement is 1 (both judges used one same label).
    """
    if len(labels_a) != len(labels_b):
        raise ValueError(f"the judges labelled different nugget counts: {len(labels_a)} vs {len(labels_b)}")
    pairs = [(normalise_label(a), normalise_label(b)) for a, b in zip(labels_a, labels_b, strict=True)]
    pairs = [(a, b) for a, b in pairs if a is not None and b is not None]
    confusion = Counter(f"{a}/{b}" for a, b in pairs)
    n = len(pairs)
    if n == 0:
        return LabelAgreement(len(labels_a), 0, None, None, {})
    observed = sum(1 for a, b in pairs if a == b) / n
    kappa = kappa_of_confusion(confusion_matrix([a for a, _ in pairs], [b for _, b in pairs]))
    return LabelAgreement(len(labels_a), n, 100.0 * observed, kappa, dict(sorted(confusion.items())))


def disagreement_weights(weights: KappaWeights = "unweighted", k: int = len(ORDERED_LABELS)) -> np.ndarray:
    """The k x k cost of each (a, b) disagreement over ordered categories: 0 on the diagonal, 1 off it
    (unweighted), |i-j|/(k-1) (linear) or ((i-j)/(k-1))^2 (quadratic)."""
    if weights not in KAPPA_WEIGHTS:
        raise ValueError(f"kappa weights must be one of {', '.join(KAPPA_WEIGHTS)}, not {weights!r}")
    distance = np.abs(np.subtract.outer(np.arange(k), np.arange(k))) / max(1, k - 1)
    if weights == "unweighted":
        return (distance > 0).astype(float)
    return distance if weights == "linear" else distance ** 2


def confusion_matrix(labels_a: Sequence[object], labels_b: Sequence[object]) -> np.ndarray:
    """3 x 3 counts over :data:`ORDERED_LABELS` (rows = ``labels_a``); a pair unscored on either side is left out."""
    index = {label: i for i, label in enumerate(ORDERED_LABELS)}
    matrix = np.zeros((len(ORDERED_LABELS),) * 2, dtype=int)
    for a, b in zip(labels_a, labels_b, strict=True):
        a, b = normalise_label(a), normalise_label(b)
        if a is not None and b is not None:
            matrix[index[a], index[b]] += 1
    return matrix


def kappa_of_confusion(matrix: np.ndarray, weights: KappaWeights = "unweighted") -> float | None:
    """Cohen's kappa, 1 - observed / chance-expected disagreement cost, from a square confusion matrix.

    Unweighted it is (p_o - p_e) / (1 - p_e). None when nothing is counted or no disagreement is possible
    by chance (both sides used one same category).
    """
    matrix = np.asarray(matrix, dtype=float)
    n = matrix.sum()
    if n == 0:
        return None
    cost = disagreement_weights(weights, matrix.shape[0])
    expected = np.outer(matrix.sum(axis=1), matrix.sum(axis=0)) / (n * n)
    expected_cost = float((cost * expected).sum())
    if math.isclose(expected_cost, 0.0, abs_tol=1e-12):
        return None
    return 1.0 - float((cost * matrix / n).sum()) / expected_cost


def cohen_kappa(labels_a: Sequence[object], labels_b: Sequence[object], weights: KappaWeights = "unweighted") -> float | None:
    """Cohen's kappa of two coverage-label sequences, weighted over none < partial < full when asked."""
    return kappa_of_confusion(confusion_matrix(labels_a, labels_b), weights)


@dataclass(frozen=True)
class RankAgreement:
    """Rank correlation of per-system mean scores under two judges."""

    systems: list[str]
    spearman: float | None
    kendall_tau: float | None

    def as_dict(self) -> dict:
        return asdict(self)


def rank_agreement(means_a: Mapping[str, float | None], means_b: Mapping[str, float | None]) -> RankAgreement:
    """Spearman and Kendall correlation (scipy.stats) over systems with a mean under both judges.

    None when fewer than two systems remain or one judge gives every system the same mean.
    """
    from scipy.stats import kendalltau, spearmanr

    systems = sorted(s for s in means_a if s in means_b and means_a[s] is not None and means_b[s] is not None)
    a = [float(means_a[s]) for s in systems]  # type: ignore[arg-type]
    b = [float(means_b[s]) for s in systems]  # type: ignore[arg-type]
    if len(systems) < 2 or len(set(a)) < 2 or len(set(b)) < 2:
        return RankAgreement(systems, None, None)
    return RankAgreement(systems, float(spearmanr(a, b).statistic), float(kendalltau(a, b).statistic))
