"""What each question is worth: the score gain of budget k over k-1, split by the type of question k and
whether it was answered, and the restoration rate: over the instances where the oracle beats the
baseline, the mean gain of clarify@k over the baseline divided by the mean gain of the oracle.

The restoration rate is a ratio of means, never a mean of per-instance ratios: an instance with a small
headroom (discrete nugget scores make 2.5 points common) would give an unbounded ratio that dominates
the mean. The per-instance ratios are kept only to show their spread."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from cts_dataset.diagnostics.runfolder import Run, mean
from cts_dataset.diagnostics.types import QUESTION_TYPES

# What became of question k: answered, unknown, invalid (no question), or declined (the clarifier had
# stopped asking by turn k).
STATUSES = ("answered", "unknown", "invalid", "declined")


@dataclass(frozen=True)
class Step:
    """The gain one question brought: clarify@k minus clarify@(k-1) (or the baseline at k = 1)."""

    instance: str
    repeat: int
    k: int
    type: str
    status: str
    gain: float


# Why there are no steps with a shown budget (said wherever the per-question gain is reported).
SHOWN_BUDGET_NOTE = ("not computed: with the budget shown, clarify@k and clarify@(k-1) are two different "
                     "dialogues, so their difference is not what question k brought")


def steps(run: Run, types: Mapping[str, str]) -> list[Step]:
    """Every (instance, repeat, k) whose k and previous step are both judged. Only consecutive budgets
    say what one question brought, so k whose k-1 is not a budget (nor the baseline at k = 1) is skipped;
    with a shown budget every k is a dialogue of its own, so there is no step at all."""
    if run.show_budget:
        return []
    found = []
    budgets = set(run.budgets)
    for k in run.budgets:
        if k - 1 not in budgets and not (k == 1 and "baseline" in run.conditions):
            continue
        for instance in run.instances:
            for repeat in range(run.repeats):
                after = run.score(instance.id, "clarify", k, repeat)
                before = (run.score(instance.id, "baseline", None) if k == 1
                          else run.score(instance.id, "clarify", k - 1, repeat))
                turns = run.dialogue(instance.id, k, repeat)
                if after is None or before is None or turns is None:
                    continue
                last = turns[-1]
                if last.turn != k or last.declined:
                    found.append(Step(instance.id, repeat, k, "none", "declined", after - before))
                    continue
                kind = types[last.question] if last.asked else "none"
                found.append(Step(instance.id, repeat, k, kind, last.status, after - before))
    return found


def _summary(values: list[float]) -> dict[str, Any]:
    return {"n": len(values), "mean": mean(values)}


def marginal_gain(found: list[Step], budgets: list[int]) -> dict[str, Any]:
    """Per k: the mean gain, and per type of question k and its status (answered, unknown, invalid)."""
    table: dict[str, Any] = {}
    for k in budgets:
        at_k = [s for s in found if s.k == k]
        if not at_k:
            continue
        by_type: dict[str, Any] = {}
        for kind in QUESTION_TYPES:
            of_type = [s for s in at_k if s.type == kind]
            if of_type:
                by_type[kind] = {**_summary([s.gain for s in of_type]),
                                 **{status: _summary([s.gain for s in of_type if s.status == status])
                                    for status in STATUSES}}
        table[str(k)] = {**_summary([s.gain for s in at_k]),
                         "by_status": {status: _summary([s.gain for s in at_k if s.status == status])
                                       for status in STATUSES},
                         "by_type": by_type}
    return table


def ratio_of_means(gains: Sequence[float], headroom: Sequence[float], confidence: float = 0.95,
                   n_resamples: int = 10_000, seed: int = 0) -> dict[str, Any]:
    """mean(gains) / mean(headroom) with a percentile bootstrap CI that resamples instances (pairs kept)."""
    import numpy as np
    from scipy.stats import bootstrap

    if not gains or sum(headroom) <= 0:
        return {"mean": None, "low": None, "high": None, "confidence": confidence}
    g, h = np.asarray(gains, dtype=float), np.asarray(headroom, dtype=float)
    value = float(g.mean() / h.mean())
    if len(g) < 2 or np.all(g / h == g[0] / h[0]):  # no spread to resample
        low = high = value if len(g) > 1 else None
        return {"mean": value, "low": low, "high": high, "confidence": confidence}

    def statistic(a: np.ndarray, b: np.ndarray, axis: int = -1) -> np.ndarray:
        return a.mean(axis=axis) / b.mean(axis=axis)  # every headroom is > 0, so no resample divides by 0

    result = bootstrap((g, h), statistic, paired=True, vectorized=True, confidence_level=confidence,
                       n_resamples=n_resamples, method="percentile", rng=np.random.default_rng(seed))
    return {"mean": value, "low": float(result.confidence_interval.low), "high": float(result.confidence_interval.high),
            "confidence": confidence}


def restoration(run: Run) -> dict[str, Any]:
    """Per clarify@k, over the instances where the oracle beats the baseline (elsewhere there is no
    headroom to restore): mean(clarify - baseline) / mean(oracle - baseline), with a bootstrap CI."""
    if not {"baseline", "clarify", "oracle"} <= set(run.conditions):
        return {}
    found: dict[str, Any] = {}
    for k in run.budgets:
        per_instance: dict[str, float] = {}
        gains: list[float] = []
        headroom: list[float] = []
        no_headroom = missing = 0
        for instance in run.instances:
            base = run.instance_score(instance.id, "baseline", None)
            oracle = run.instance_score(instance.id, "oracle", None)
            clarify = run.instance_score(instance.id, "clarify", k)
            if base is None or oracle is None or clarify is None:
                missing += 1
            elif oracle - base <= 0:
                no_headroom += 1
            else:
                gains.append(clarify - base)
                headroom.append(oracle - base)
                per_instance[instance.id] = (clarify - base) / (oracle - base)
        interval = ratio_of_means(gains, headroom)
        found[f"clarify@{k}"] = {"estimator": "ratio of mean gains", "defined": len(per_instance),
                                 "no_headroom": no_headroom, "unscored": missing,
                                 "mean_gain": sum(gains) / len(gains) if gains else None,
                                 "mean_headroom": sum(headroom) / len(headroom) if headroom else None,
                                 **interval, "per_instance": per_instance}
    return found


def gains_over_baseline(run: Run) -> dict[str, float | None]:
    """Mean paired gain of clarify@k over the baseline, per k (the denominator of cost per point)."""
    found: dict[str, float | None] = {}
    for k in run.budgets:
        pairs = [c - b for i in run.instances
                 if (c := run.instance_score(i.id, "clarify", k)) is not None
                 and (b := run.instance_score(i.id, "baseline", None)) is not None]
        found[f"clarify@{k}"] = mean(pairs)
    return found
