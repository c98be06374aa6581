"""What each question is worth: the score gain of budget k over k-1, split by the type of question k and
whether it was answered, and the restoration rate (clarify@k - baseline) / (oracle - baseline)."""

from __future__ import annotations

from collections.abc import Mapping
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


def steps(run: Run, types: Mapping[str, str]) -> list[Step]:
    """Every (instance, repeat, k) whose k and previous step are both judged. Only consecutive budgets
    say what one question brought, so k whose k-1 is not a budget (nor the baseline at k = 1) is skipped."""
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


def restoration(run: Run) -> dict[str, Any]:
    """Per clarify@k: the share of the oracle's headroom the clarification restored, per instance where
    the oracle beats the baseline (elsewhere there is no headroom to restore), and its mean with a CI."""
    from cts_dataset.scoring.stats import bootstrap_ci

    if not {"baseline", "clarify", "oracle"} <= set(run.conditions):
        return {}
    found: dict[str, Any] = {}
    for k in run.budgets:
        per_instance: dict[str, float] = {}
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
                per_instance[instance.id] = (clarify - base) / (oracle - base)
        interval = bootstrap_ci(list(per_instance.values())).as_dict()
        found[f"clarify@{k}"] = {"defined": len(per_instance), "no_headroom": no_headroom, "unscored": missing,
                                 "mean": interval["mean"], "low": interval["low"], "high": interval["high"],
                                 "confidence": interval["confidence"], "per_instance": per_instance}
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
