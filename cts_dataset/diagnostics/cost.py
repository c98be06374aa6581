"""What the run cost, from its model-call trace (calls.jsonl): calls, prompt and completion tokens and
seconds per role and per condition (a call's tag is the key of the record it served), and the extra
cost of clarify@k over the baseline per point of restore_score gained.

Seconds are the sum of the calls' latencies: calls served concurrently overlap, so it can exceed the
wall time. The totals cover the whole trace; untagged calls (e.g. visit summaries made inside a search step) count
per role, under the condition ``untagged``. Cost per point counts the calls tagged with the run's
instances; the judge is the evaluation, not the system, so it is left out there.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from cts_dataset.diagnostics.runfolder import Run, Tag

FIELDS = ("calls", "prompt_tokens", "completion_tokens", "seconds", "cache_hits", "errors")
_EVALUATION_ROLES = ("judge",)


def _totals(calls: Iterable[dict[str, Any]]) -> dict[str, Any]:
    total: dict[str, Any] = dict.fromkeys(FIELDS, 0)
    total["seconds"] = 0.0
    for call in calls:
        usage = call.get("usage") or {}
        total["calls"] += 1
        total["prompt_tokens"] += int(usage.get("prompt_tokens") or 0)
        total["completion_tokens"] += int(usage.get("completion_tokens") or 0)
        total["seconds"] += float(call.get("latency_s") or 0.0)
        total["cache_hits"] += bool(call.get("cache_hit"))
        total["errors"] += bool(call.get("error"))
    return total


def _label(call: dict[str, Any]) -> str:
    tag = Tag.parse(str(call.get("tag") or ""))
    return tag.label if tag is not None else "untagged"


def _grouped(calls: list[dict[str, Any]], key: Callable[[dict[str, Any]], str]) -> dict[str, Any]:
    groups: dict[str, list[dict[str, Any]]] = {}
    for call in calls:
        groups.setdefault(key(call), []).append(call)
    return {name: _totals(groups[name]) for name in sorted(groups)}


def _serves(call: dict[str, Any], label: str, k: int | None, known: set[str]) -> bool:
    """Whether a system call served ``label`` for one of the run's instances (clarify@k also owns the
    hidden-budget dialogue's first k turns)."""
    if call.get("role") in _EVALUATION_ROLES:
        return False
    tag = Tag.parse(str(call.get("tag") or ""))
    if tag is None or tag.instance not in known:
        return False
    if tag.label == label:
        return True
    return k is not None and tag.label == "clarify dialogue" and tag.turn is not None and tag.turn <= k


def per_point(run: Run, gains: Mapping[str, float | None]) -> dict[str, Any]:
    """Per clarify@k: extra calls, tokens and seconds per instance over the baseline, and per point gained."""
    if "baseline" not in run.conditions:
        return {}
    n, known = len(run.instances) or 1, run.known
    base = _totals(c for c in run.calls if _serves(c, "baseline", None, known))
    found = {}
    for k in run.budgets:
        label = f"clarify@{k}"
        cost = _totals(c for c in run.calls if _serves(c, label, k, known))
        extra = {"calls": (cost["calls"] - base["calls"]) / n,
                 "tokens": (cost["prompt_tokens"] + cost["completion_tokens"]
                            - base["prompt_tokens"] - base["completion_tokens"]) / n,
                 "seconds": (cost["seconds"] - base["seconds"]) / n}
        gain = gains.get(label)
        found[label] = {"gain": gain, "extra_per_instance": extra,
                        "per_point": {name: value / gain for name, value in extra.items()} if gain and gain > 0 else None}
    return found


def cost(run: Run, gains: Mapping[str, float | None]) -> dict[str, Any]:
    calls = run.calls
    roles = sorted({str(c.get("role") or "") for c in calls})
    return {
        "source": "calls.jsonl",
        "total": _totals(calls),
        "by_role": _grouped(calls, lambda c: str(c.get("role") or "")),
        "by_condition": _grouped(calls, _label),
        "by_role_and_condition": {role: _grouped([c for c in calls if str(c.get("role") or "") == role], _label)
                                  for role in roles},
        "per_point": per_point(run, gains),
    }
