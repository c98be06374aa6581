"""restore_score_100 and its variants, per instance and as a mean over instances.

restore_score_100 = 100 * sum(w_i * s_i) / sum(w_i) with s = 1 full, 0.5 partial, 0 none (the paper).
Nuggets the judge could not label are *unscored*: left out of both sums and counted. An instance with
no scored nugget is unscored (None), never 0. When the scored nuggets' weights sum to 0 the weighted
ratio is 0/0: the weighted variants are None for that instance (flagged ``zero_weight``) while the
unweighted one is still defined.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, fields

from cts_dataset.scoring.labels import CREDIT, STRICT_CREDIT, normalise_label

VARIANTS = ("restore_score_100", "strict_100", "unweighted_100")


@dataclass(frozen=True)
class InstanceScore:
    """Scores of one instance (None = undefined: nothing scored, or zero scored weight)."""

    restore_score_100: float | None
    strict_100: float | None
    unweighted_100: float | None
    n_nuggets: int
    n_scored: int
    n_unscored: int
    scored_weight: float
    zero_weight: bool

    def as_dict(self) -> dict:
        # Every field is a scalar: no deep copy (dataclasses.asdict) is needed, and one runs per judgement.
        return {name: getattr(self, name) for name in _SCORE_FIELDS}


_SCORE_FIELDS = tuple(f.name for f in fields(InstanceScore))


def score_instance(weights: Sequence[float], labels: Sequence[object]) -> InstanceScore:
    """Score one instance from its nugget weights and labels (same length, same order)."""
    if len(weights) != len(labels):
        raise ValueError(f"{len(weights)} weights but {len(labels)} labels")
    scored = []
    for weight, raw in zip(weights, labels, strict=True):
        weight = float(weight)
        if weight < 0 or math.isnan(weight) or math.isinf(weight):
            raise ValueError(f"nugget weight must be a finite number >= 0, got {weight!r}")
        label = normalise_label(raw)
        if label is not None:
            scored.append((weight, label))
    n_scored = len(scored)
    total = sum(w for w, _ in scored)
    weighted = strict = unweighted = None
    if n_scored:
        unweighted = 100.0 * sum(CREDIT[label] for _, label in scored) / n_scored
        if total > 0:
            weighted = 100.0 * sum(w * CREDIT[label] for w, label in scored) / total
            strict = 100.0 * sum(w * STRICT_CREDIT[label] for w, label in scored) / total
    return InstanceScore(
        restore_score_100=weighted, strict_100=strict, unweighted_100=unweighted,
        n_nuggets=len(labels), n_scored=n_scored, n_unscored=len(labels) - n_scored,
        scored_weight=total, zero_weight=n_scored > 0 and total == 0,
    )


def mean_score(values: Iterable[float | None]) -> float | None:
    """Mean over defined values (None and NaN are left out); None when nothing is defined."""
    defined = [v for v in values if v is not None and not math.isnan(v)]
    return sum(defined) / len(defined) if defined else None


@dataclass(frozen=True)
class Aggregate:
    """Means of every variant over instances, with what was left out and why."""

    restore_score_100: float | None
    strict_100: float | None
    unweighted_100: float | None
    n_instances: int
    n_scored_instances: int
    n_unscored_instances: int
    n_zero_weight_instances: int
    n_unscored_nuggets: int

    def as_dict(self) -> dict:
        return asdict(self)


def aggregate(scores: Sequence[InstanceScore]) -> Aggregate:
    """Mean of each variant over the instances where it is defined."""
    scored = sum(1 for s in scores if s.restore_score_100 is not None)
    return Aggregate(
        restore_score_100=mean_score(s.restore_score_100 for s in scores),
        strict_100=mean_score(s.strict_100 for s in scores),
        unweighted_100=mean_score(s.unweighted_100 for s in scores),
        n_instances=len(scores),
        n_scored_instances=scored,
        n_unscored_instances=len(scores) - scored,
        n_zero_weight_instances=sum(1 for s in scores if s.zero_weight),
        n_unscored_nuggets=sum(s.n_unscored for s in scores),
    )


def score_instances(weights: Sequence[Sequence[float]], labels: Sequence[Sequence[object]]) -> list[InstanceScore]:
    """Score many instances (parallel lists)."""
    if len(weights) != len(labels):
        raise ValueError(f"{len(weights)} instances of weights but {len(labels)} of labels")
    return [score_instance(w, lab) for w, lab in zip(weights, labels, strict=True)]
