"""The diagnostics as the markdown a reader of summary.md expects: question types x unknown rate, the
region-only rate, elicitation by constraint type, per-question utility, restoration rate, cost, search."""

from __future__ import annotations

from typing import Any

from cts_dataset.diagnostics.utility import STATUSES
from cts_dataset.markdown import fmt, table


def _pct(value: float | None) -> str:
    return "n/a" if value is None else f"{100 * value:.1f}%"


def _question_types(q: dict[str, Any]) -> list[str]:
    lines = ["### Question types", "",
             (f"Classifier `{q['classifier']}`: {q['questions']} questions asked; nothing asked at {q['invalid_questions']} "
              f"invalid replies and {q['declined']} declined turns; unknown rate {fmt(q['unknown_rate'], 3)}."), ""]
    rows = [[kind, r["asked"], _pct(r["share"]), fmt(r["unknown_rate"], 3), fmt(r["gain_when_asked"]["mean"]),
             r["gain_when_asked"]["n"]] for kind, r in q["per_type"].items() if r["asked"]]
    lines += table(["type", "asked", "share", "unknown rate", "gain when asked", "n (gain)"], rows)
    lines += [""]
    lines += table(["turn", "questions", "unknown rate", "types (share, unknown rate)"],
                   [[turn, r["questions"], fmt(r["unknown_rate"], 3),
                     ", ".join(f"{k} {_pct(v['share'])} ({fmt(v['unknown_rate'], 2)})" for k, v in r["types"].items())]
                    for turn, r in q["by_turn"].items()])
    lines += ["", "Region-only dialogues (every question about region):", ""]
    lines += table(["budget k", "dialogues", "region-only", "rate", "unknown rate of their questions"],
                   [[k, r["dialogues"], r["region_only"], fmt(r["rate"], 3), fmt(r["unknown_rate"], 3)]
                    for k, r in q["region_only"].items()])
    llm = q.get("llm_classifier")
    if llm:
        a = llm["agreement_with_rules"]
        lines += ["", (f"LLM classifier `{llm['classifier']}` on {llm['questions']} questions: agreement with the rules "
                       f"{fmt(a['percent_agreement'], 1)}%, Cohen's kappa {fmt(a['cohen_kappa'], 3)} over {a['n']} "
                       f"labelled ({a['unlabelled']} unparsed).")]
    return lines


def _elicitation(e: dict[str, Any], budgets: list[int]) -> list[str]:
    lines = ["### Elicitation by removed-constraint type", "",
             "Share of dialogues where some question targeted the type / where an answer revealed its value.", ""]
    headers = ["constraint type", "instances", *(f"targeted@{k}" for k in budgets), *(f"revealed@{k}" for k in budgets)]
    rows = [[kind, r["instances"], *(_pct(r["at_k"][str(k)]["targeted_rate"]) for k in budgets),
             *(_pct(r["at_k"][str(k)]["revealed_rate"]) for k in budgets)]
            for kind, r in e["by_constraint_type"].items() if r["instances"]]
    lines += table(headers, rows)
    red = e["redundant"]
    lines += ["", "Redundant questions (a type the dialogue already asked): " + "; ".join(
        f"k={k}: {r['redundant']} of {r['later_questions']} later questions ({fmt(r['rate'], 3)})" for k, r in red.items())
        + "."]
    d = e["over_disclosure"]
    lines += ["", (f"Over-disclosure: of {d['answers']} answers, {d['beyond_question']} went beyond the question "
                   f"({fmt(d['beyond_question_rate'], 3)}) and {d['revealed_unasked_type']} revealed a constraint of a "
                   f"type the question did not ask ({fmt(d['revealed_unasked_type_rate'], 3)}).")]
    return lines


def _utility(u: dict[str, Any]) -> list[str]:
    lines = ["### Per-question utility", "",
             "Score gain of clarify@k over clarify@(k-1) (the baseline at k = 1), by what became of question k:", ""]
    rows = []
    for k, r in u["marginal_gain"].items():
        status = r["by_status"]
        rows.append([k, r["n"], fmt(r["mean"]), *(f"{fmt(status[s]['mean'])} ({status[s]['n']})"
                                                   for s in STATUSES)])
    if u.get("marginal_gain_note"):
        lines += [f"Per-question gain {u['marginal_gain_note']}."]
    else:
        lines += table(["k", "pairs", "mean gain", *STATUSES], rows)
    if u["restoration_rate"]:
        lines += ["", ("Restoration rate, where the oracle beats the baseline: mean(clarify@k - baseline) / "
                       "mean(oracle - baseline), the ratio of mean gains (95% CI: bootstrap over instances):"), ""]
        lines += table(["condition", "defined", "mean gain", "mean headroom", "rate", "95% CI", "no headroom"],
                       [[label, r["defined"], fmt(r.get("mean_gain")), fmt(r.get("mean_headroom")), fmt(r["mean"], 3),
                         f"[{fmt(r['low'], 3)}, {fmt(r['high'], 3)}]", r["no_headroom"]]
                        for label, r in u["restoration_rate"].items()])
    return lines


def _cost(c: dict[str, Any]) -> list[str]:
    lines = ["### Cost", ""]
    if not c["total"]["calls"]:
        return lines + ["No model calls in calls.jsonl (scripted roles or an offline searcher and judge)."]
    def row(name: str, r: dict[str, Any]) -> list[object]:
        return [name, r["calls"], r["prompt_tokens"], r["completion_tokens"], fmt(r["seconds"], 1), r["cache_hits"],
                r["errors"]]
    headers = ["role", "calls", "prompt tokens", "completion tokens", "seconds", "cache hits", "errors"]
    lines += table(headers, [*(row(n, r) for n, r in c["by_role"].items()), row("total", c["total"])])
    lines += [""]
    lines += table(["condition", *headers[1:]], [row(n, r) for n, r in c["by_condition"].items()])
    if c["per_point"]:
        lines += ["", "Extra cost of clarify@k over the baseline, per instance and per point gained (judge left out):", ""]
        rows = []
        for label, r in c["per_point"].items():
            extra, point = r["extra_per_instance"], r["per_point"] or {}
            rows.append([label, fmt(r["gain"]), fmt(extra["calls"]), fmt(extra["tokens"], 0), fmt(extra["seconds"]),
                         fmt(point.get("tokens"), 0), fmt(point.get("seconds"), 3)])
        lines += table(["condition", "gain", "calls", "tokens", "seconds", "tokens per point", "seconds per point"], rows)
    return lines


def _search(s: dict[str, Any]) -> list[str]:
    rows = [[label, r["trajectories"], r["errors"], fmt(r["tool_calls_per_trajectory"]["search"]),
             fmt(r["tool_calls_per_trajectory"]["visit"]), fmt(r["tool_calls_per_trajectory"]["summaries"]),
             fmt(r["llm_calls_per_trajectory"]), fmt(r["gold_recall_retrieved"], 3), fmt(r["all_gold_retrieved_rate"], 3),
             ", ".join(f"{k} {v}" for k, v in r["termination"].items())] for label, r in s.items()]
    return ["### Search", ""] + table(["condition", "trajectories", "errors", "searches", "visits", "summaries",
                                       "llm calls", "gold recall", "all gold retrieved", "termination"], rows)


def render_markdown(diagnostics: dict[str, Any]) -> str:
    """The diagnostics as markdown (a section to append to summary.md)."""
    lines = ["## Diagnostics", ""]
    errors = {k: v for k, v in diagnostics.get("errors", {}).items() if v}
    if errors:
        lines += ["Failed requests (counted, their content unused): "
                  + ", ".join(f"{stage} {n}" for stage, n in errors.items()) + ".", ""]
    if diagnostics.get("question_types"):
        lines += _question_types(diagnostics["question_types"]) + [""]
    if diagnostics.get("elicitation"):
        lines += _elicitation(diagnostics["elicitation"], diagnostics["run"]["budgets"]) + [""]
    if diagnostics.get("utility"):
        lines += _utility(diagnostics["utility"]) + [""]
    lines += _cost(diagnostics["cost"]) + [""]
    if diagnostics.get("search"):
        lines += _search(diagnostics["search"]) + [""]
    return "\n".join(lines)
