"""What the run cost, from its model-call trace (calls.jsonl): calls, prompt and completion tokens and
seconds per role and per condition (a call's tag is the key of the record it served), and the extra
cost of clarify@k over the baseline per point of restore_score gained.

Seconds are the sum of the calls' latencies: calls served concurrently overlap, so it can exceed the
wall time. The totals cover the whole trace; untagged calls (e.g. visit summaries made inside a search step) count
per role, under the condition ``untagged``. Cost per instance and per point is attributed by ``CallIndex``, the
one attribution the report's frame uses too: the system calls behind one row (instance, condition, budget,
repeat), averaged over the rows of a condition (instances x repeats for clarify@k, instances for the
baseline). The judge is the evaluation, not the system, so it is left out there.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from cts_dataset.diagnostics.runfolder import Run, Tag

FIELDS = ("calls", "prompt_tokens", "completion_tokens", "seconds", "cache_hits", "errors")
# The judge is the evaluation, not the system under test: its calls are not a row's cost.
EVALUATION_ROLES = ("judge",)


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


class CallIndex:
    """System model calls grouped by the record key they served: the cost of one row."""

    def __init__(self, calls: Sequence[dict[str, Any]]) -> None:
        self.by_key: dict[tuple[str, str, int | None, int], list[tuple[int | None, dict[str, Any]]]] = {}
        for call in calls:
            tag = Tag.parse(str(call.get("tag") or ""))
            if tag is None or call.get("role") in EVALUATION_ROLES:
                continue
            self.by_key.setdefault((tag.instance, tag.condition, tag.budget, tag.repeat), []).append((tag.turn, call))

    def calls(self, instance: str, condition: str, budget: int | None, repeat: int,
              hidden_budget: bool) -> list[dict[str, Any]]:
        """The calls behind one row; clarify@k in the hidden-budget mode also owns the first k turns of
        the shared dialogue of its repeat (tagged with no budget)."""
        found = [c for _, c in self.by_key.get((instance, condition, budget, repeat), [])]
        if condition == "clarify" and hidden_budget and budget is not None:
            found += [c for turn, c in self.by_key.get((instance, "clarify", None, repeat), [])
                      if turn is not None and turn <= budget]
        return found

    def served(self, instance: str, condition: str, budget: int | None, repeat: int,
               hidden_budget: bool) -> dict[str, Any]:
        """calls, prompt_tokens, completion_tokens and seconds of one row."""
        total = _totals(self.calls(instance, condition, budget, repeat, hidden_budget))
        return {name: total[name] for name in ("calls", "prompt_tokens", "completion_tokens", "seconds")}


def row_mean(run: Run, index: CallIndex, condition: str, budget: int | None) -> dict[str, float]:
    """The mean cost of a row of one condition: over instances x repeats for clarify@k, instances otherwise."""
    repeats = range(run.repeats) if condition == "clarify" else range(1)
    rows = [index.served(i.id, condition, budget, r, not run.show_budget) for i in run.instances for r in repeats]
    n = len(rows) or 1
    return {"calls": sum(r["calls"] for r in rows) / n,
            "tokens": sum(r["prompt_tokens"] + r["completion_tokens"] for r in rows) / n,
            "seconds": sum(r["seconds"] for r in rows) / n}


def _label(call: dict[str, Any]) -> str:
    tag = Tag.parse(str(call.get("tag") or ""))
    return tag.label if tag is not None else "untagged"


def _grouped(calls: list[dict[str, Any]], key: Callable[[dict[str, Any]], str]) -> dict[str, Any]:
    groups: dict[str, list[dict[str, Any]]] = {}
    for call in calls:
        groups.setdefault(key(call), []).append(call)
    return {name: _totals(groups[name]) for name in sorted(groups)}


def per_point(run: Run, gains: Mapping[str, float | None]) -> dict[str, Any]:
    """Per clarify@k: extra calls, tokens and seconds of a clarify@k row over a baseline row (per instance
    and repeat), and per point gained."""
    if "baseline" not in run.conditions:
        return {}
    index = CallIndex(run.calls)
    base = row_mean(run, index, "baseline", None)
    found = {}
    for k in run.budgets:
        label = f"clarify@{k}"
        cost = row_mean(run, index, "clarify", k)
        extra = {name: cost[name] - base[name] for name in ("calls", "tokens", "seconds")}
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
