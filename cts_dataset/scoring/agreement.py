"""How far two judges agree: over nugget labels (agreement, Cohen's kappa) and over system rankings."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass

from cts_dataset.scoring.labels import normalise_label


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

    Kappa is written out (ten lines) rather than taken from scikit-learn to keep that out of the
    core dependencies. Kappa is None when chance agreement is 1 (both judges used one same label).
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
    count_a = Counter(a for a, _ in pairs)
    count_b = Counter(b for _, b in pairs)
    expected = sum(count_a[label] * count_b[label] for label in count_a) / (n * n)
    kappa = None if math.isclose(expected, 1.0) else (observed - expected) / (1.0 - expected)
    return LabelAgreement(len(labels_a), n, 100.0 * observed, kappa, dict(sorted(confusion.items())))


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
