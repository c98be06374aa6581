"""Uncertainty of a mean score and paired significance between two systems (scipy.stats).

Both are seeded, so the same inputs and seed give the same interval and p-value on every run.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass

import numpy as np

DEFAULT_RESAMPLES = 10_000


@dataclass(frozen=True)
class Interval:
    """A percentile bootstrap confidence interval of a mean."""

    mean: float | None
    low: float | None
    high: float | None
    n: int
    confidence: float

    def as_dict(self) -> dict:
        return asdict(self)


def _defined(values: Sequence[float | None]) -> np.ndarray:
    return np.asarray([v for v in values if v is not None and not math.isnan(v)], dtype=float)


def bootstrap_ci(values: Sequence[float | None], confidence: float = 0.95,
                 n_resamples: int = DEFAULT_RESAMPLES, seed: int = 0) -> Interval:
    """Percentile bootstrap CI of the mean of the defined values (None/NaN are unscored, left out).

    Percentile rather than BCa because BCa is undefined on constant data, which small smoke runs produce.
    Fewer than two values give no interval (low = high = None).
    """
    from scipy.stats import bootstrap

    data = _defined(values)
    if data.size == 0:
        return Interval(None, None, None, 0, confidence)
    mean = float(data.mean())
    if data.size < 2:
        return Interval(mean, None, None, 1, confidence)
    if np.all(data == data[0]):
        return Interval(mean, mean, mean, int(data.size), confidence)
    result = bootstrap((data,), np.mean, confidence_level=confidence, n_resamples=n_resamples,
                       method="percentile", rng=np.random.default_rng(seed))
    ci = result.confidence_interval
    return Interval(mean, float(ci.low), float(ci.high), int(data.size), confidence)


@dataclass(frozen=True)
class StatisticInterval:
    """A percentile bootstrap confidence interval of any statistic of n resampled units (pairs, items).

    ``n_undefined``: resamples on which the statistic was undefined (None), left out of the percentiles.
    """

    estimate: float | None
    low: float | None
    high: float | None
    n: int
    confidence: float
    n_resamples: int
    n_undefined: int

    def as_dict(self) -> dict:
        return asdict(self)


def bootstrap_statistic(n: int, statistic: Callable[[np.ndarray], float | None], confidence: float = 0.95,
                        n_resamples: int = 1000, seed: int = 0) -> StatisticInterval:
    """Resample ``n`` units with replacement; ``statistic`` takes an index array (all of ``range(n)`` for
    the estimate) and returns a number or None. Seeded: the same inputs give the same interval.

    For statistics that are not a mean (a kappa), which :func:`bootstrap_ci` does not cover.
    """
    estimate = statistic(np.arange(n)) if n else None
    if n < 2 or estimate is None:
        return StatisticInterval(estimate, None, None, n, confidence, 0, 0)
    rng = np.random.default_rng(seed)
    values = [statistic(rng.integers(0, n, size=n)) for _ in range(n_resamples)]
    defined = np.asarray([v for v in values if v is not None and not math.isnan(v)], dtype=float)
    if defined.size == 0:
        return StatisticInterval(estimate, None, None, n, confidence, n_resamples, n_resamples)
    tail = 100.0 * (1.0 - confidence) / 2.0
    low, high = np.percentile(defined, [tail, 100.0 - tail])
    return StatisticInterval(float(estimate), float(low), float(high), n, confidence, n_resamples,
                             n_resamples - int(defined.size))


@dataclass(frozen=True)
class PairedResult:
    """System A minus system B on the instances both scored."""

    mean_a: float | None
    mean_b: float | None
    mean_difference: float | None
    ci_low: float | None
    ci_high: float | None
    p_value: float | None
    n_pairs: int
    n_dropped: int
    method: str = "paired sign-flip permutation test (two-sided); percentile bootstrap CI of the difference"

    def as_dict(self) -> dict:
        return asdict(self)


def paired_test(scores_a: Sequence[float | None], scores_b: Sequence[float | None], confidence: float = 0.95,
                n_resamples: int = DEFAULT_RESAMPLES, seed: int = 0) -> PairedResult:
    """Is A's mean different from B's on the same instances (same order)?

    Pairs where either side is unscored are dropped and counted. The p-value comes from
    ``scipy.stats.permutation_test`` with ``permutation_type="samples"``: under the null each pair's two
    scores are exchangeable, i.e. each difference's sign is random (exact for n <= 13 or so).
    """
    from scipy.stats import permutation_test

    if len(scores_a) != len(scores_b):
        raise ValueError(f"paired test needs the same instances: {len(scores_a)} vs {len(scores_b)} scores")
    pairs = [(a, b) for a, b in zip(scores_a, scores_b, strict=True)
             if a is not None and b is not None and not math.isnan(a) and not math.isnan(b)]
    dropped = len(scores_a) - len(pairs)
    if not pairs:
        return PairedResult(None, None, None, None, None, None, 0, dropped)
    a = np.asarray([p[0] for p in pairs], dtype=float)
    b = np.asarray([p[1] for p in pairs], dtype=float)
    diff = a - b
    interval = bootstrap_ci(diff.tolist(), confidence, n_resamples, seed)
    if np.all(diff == 0):
        p_value = 1.0
    elif len(pairs) < 2:  # one pair: no permutation distribution
        p_value = None
    else:
        result = permutation_test(
            (a, b), lambda x, y, axis: np.mean(x - y, axis=axis), permutation_type="samples",
            vectorized=True, n_resamples=n_resamples, alternative="two-sided", rng=np.random.default_rng(seed))
        p_value = float(result.pvalue)
    return PairedResult(float(a.mean()), float(b.mean()), float(diff.mean()), interval.low, interval.high,
                        p_value, len(pairs), dropped)  # type: ignore[arg-type]
