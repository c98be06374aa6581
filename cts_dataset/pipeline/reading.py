"""A run's summary read in plain words: what clarification restored, where there was anything to restore,
and why questions went unanswered. The last lines of every summary, terminal and summary.md alike."""

from __future__ import annotations

from typing import Any

from cts_dataset.markdown import fmt

MOST_UNKNOWN_TYPES = 3  # the question types named as the causes of the unknowns


def _pct(share: float) -> str:
    return f"{100 * share:.0f}%"


def plain_reading(summary: dict[str, Any]) -> list[str]:
    """Sentences for a person; empty when the run has no baseline, clarify@k and oracle to compare."""
    conditions = summary.get("conditions", {})
    budgets = sorted(int(label.split("@")[1]) for label in conditions if label.startswith("clarify@"))
    if not budgets or "baseline" not in conditions or "oracle" not in conditions:
        return []
    mean = {label: entry["restore_score_100"]["mean"] for label, entry in conditions.items()}
    budgets = [k for k in budgets if mean[f"clarify@{k}"] is not None]  # a condition with nothing scored says nothing
    base, oracle = mean["baseline"], mean["oracle"]
    if not budgets or base is None or oracle is None:
        return []
    headroom = oracle - base
    sentences = []
    restoration = (summary.get("diagnostics") or {}).get("utility", {}).get("restoration_rate", {})
    top = f"clarify@{budgets[-1]}"
    room = restoration.get(top, {})
    with_room = room.get("defined")
    where = (f" The oracle beat the baseline on {with_room} of {with_room + room.get('no_headroom', 0)} instances; "
             "on the others there was nothing to restore." if with_room else "")
    if headroom <= 0:
        sentences.append(f"The oracle ({fmt(oracle)}) did not beat the baseline ({fmt(base)}): on these instances "
                         "there was no headroom for clarification to restore." + where)
    else:
        rates = {k: (restoration.get(f"clarify@{k}") or {}).get("mean") for k in budgets}
        if all(rate is not None for rate in rates.values()):  # the diagnostics' figure: instances with headroom
            shares = ", ".join(f"{_pct(rates[k])} at k = {k}" for k in budgets)
            how = "the ratio of mean gains over the instances where the oracle beat the baseline"
        else:
            shares = ", ".join(f"{_pct((mean[f'clarify@{k}'] - base) / headroom)} at k = {k}" for k in budgets)
            how = f"the ratio of mean gains: clarify@k minus the baseline {fmt(base)}, over the oracle {fmt(oracle)} minus the baseline"
        sentences.append(f"Clarification restored {shares} of the oracle's headroom ({how})." + where)
    sentences += _unknowns(summary)
    return ["## Reading", "", *(line for sentence in sentences for line in (sentence, ""))][:-1]


def _unknowns(summary: dict[str, Any]) -> list[str]:
    dialogue = summary.get("dialogue", {})
    per_turn = dialogue.get("unknown_rate_per_turn", {})
    if not per_turn:
        return []
    rates = ", ".join(f"{_pct(rate)} of the questions at turn {turn}" for turn, rate in per_turn.items() if rate is not None)
    if not rates:
        return []
    all_unknown = dialogue.get("all_unknown_rate_at_k", {})
    last = max(all_unknown, key=int) if all_unknown else None
    text = f"The user answered `unknown` to {rates}"
    if last is not None and all_unknown[last] is not None:
        text += f"; {_pct(all_unknown[last])} of the dialogues at k = {last} elicited nothing"
    types = (summary.get("diagnostics") or {}).get("question_types", {}).get("per_type", {})
    causes = sorted(((t, v["unknown"], v["asked"]) for t, v in types.items() if v.get("unknown")), key=lambda x: -x[1])
    total = sum(n for _, n, _ in causes)
    if causes:
        named = ", ".join(f"{t} ({n} of {asked} asked)" for t, n, asked in causes[:MOST_UNKNOWN_TYPES])
        text += f". Most unknowns ({sum(n for _, n, _ in causes[:MOST_UNKNOWN_TYPES])} of {total}) followed questions about {named}"
    return [text + "."]
