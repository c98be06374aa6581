"""The run summary, recomputed from the stage files: scores with confidence intervals, gains over the
baseline with a paired test, and the dialogue diagnostics (unknown rates, all-unknown at k)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from cts_dataset.pipeline.config import RunConfig
from cts_dataset.pipeline.store import RunStore, record_key
from cts_dataset.records import Instance


def condition_names(config: RunConfig) -> list[tuple[str, str, int | None]]:
    """(label, condition, budget) in report order: baseline, clarify@k..., oracle."""
    names = []
    if "baseline" in config.conditions:
        names.append(("baseline", "baseline", None))
    if "clarify" in config.conditions:
        names += [(f"clarify@{k}", "clarify", k) for k in config.budgets]
    if "oracle" in config.conditions:
        names.append(("oracle", "oracle", None))
    return names


def _scores(store: RunStore, instances: Sequence[Instance], condition: str, budget: int | None, field: str) -> list[float | None]:
    values = []
    for instance in instances:
        record = store["judge"].get(record_key({"instance": instance.id, "condition": condition, "budget": budget}))
        values.append(None if record is None else record[field])
    return values


def dialogue_diagnostics(config: RunConfig, instances: Sequence[Instance], store: RunStore) -> dict[str, Any]:
    """Unknown rate per turn and the all-unknown rate at each budget k."""
    if "clarify" not in config.conditions:
        return {}

    def answers(instance: Instance, k: int) -> list[dict[str, Any]]:
        group = k if config.show_budget else None
        found = [store["answer"].get(record_key({"instance": instance.id, "condition": "clarify", "budget": group, "turn": t}))
                 for t in range(1, k + 1)]
        return [a for a in found if a is not None]

    top = max(config.budgets)
    per_turn = {}
    for turn in range(1, top + 1):
        budget = top if config.show_budget else turn
        rows = [answers(i, budget) for i in instances]
        at_turn = [r[turn - 1] for r in rows if len(r) >= turn]
        per_turn[str(turn)] = sum(a["unknown"] for a in at_turn) / len(at_turn) if at_turn else None
    all_unknown = {}
    for k in config.budgets:
        rows = [answers(i, k) for i in instances]
        complete = [r for r in rows if len(r) == k]
        all_unknown[str(k)] = sum(all(a["unknown"] for a in r) for r in complete) / len(complete) if complete else None
    answered = [a for i in instances for a in answers(i, top) if not a["unknown"]]
    asked = [a for i in instances for a in answers(i, top)]
    return {
        "unknown_rate_per_turn": per_turn,
        "all_unknown_rate_at_k": all_unknown,
        "answers": len(asked),
        "invalid_questions": sum(a["skipped"] for a in asked),
        "unfaithful_answers": sum(bool(a["unsupported"]) for a in answered),
        "unfaithful_rate": sum(bool(a["unsupported"]) for a in answered) / len(answered) if answered else None,
    }


def summarise(config: RunConfig, instances: Sequence[Instance], store: RunStore) -> dict[str, Any]:
    from cts_dataset.scoring.restore import mean_score
    from cts_dataset.scoring.stats import bootstrap_ci, paired_test

    conditions: dict[str, Any] = {}
    baseline = _scores(store, instances, "baseline", None, "restore_score_100") if "baseline" in config.conditions else None
    for label, condition, budget in condition_names(config):
        scores = _scores(store, instances, condition, budget, "restore_score_100")
        judged = [store["judge"].get(record_key({"instance": i.id, "condition": condition, "budget": budget})) for i in instances]
        entry: dict[str, Any] = {
            "restore_score_100": bootstrap_ci(scores).as_dict(),
            "strict_100": mean_score(_scores(store, instances, condition, budget, "strict_100")),
            "unweighted_100": mean_score(_scores(store, instances, condition, budget, "unweighted_100")),
            "instances": len(instances),
            "unscored_instances": sum(1 for s in scores if s is None),
            "unscored_nuggets": sum(r["n_unscored"] for r in judged if r is not None),
        }
        if baseline is not None and condition != "baseline":
            entry["gain_over_baseline"] = paired_test(scores, baseline).as_dict()
        conditions[label] = entry
    return {
        "run": str(config.out_dir),
        "clarifier": config.clarifier if isinstance(config.clarifier, str) else config.clarifier.get("model", str(config.clarifier)),
        "preset": config.preset,
        "instances": len(instances),
        "conditions": conditions,
        "dialogue": dialogue_diagnostics(config, instances, store),
    }


def _fmt(value: float | None, digits: int = 1) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def render_markdown(summary: dict[str, Any]) -> str:
    lines = [f"# ctsbench run: {summary['run']}", "",
             f"Clarifier `{summary['clarifier']}`, preset `{summary['preset']}`, {summary['instances']} instances.", "",
             "| condition | restore_score_100 | 95% CI | strict | unweighted | gain vs baseline | p | unscored (inst/nuggets) |",
             "|---|---|---|---|---|---|---|---|"]
    for label, entry in summary["conditions"].items():
        score = entry["restore_score_100"]
        gain = entry.get("gain_over_baseline") or {}
        lines.append(f"| {label} | {_fmt(score['mean'])} | [{_fmt(score['low'])}, {_fmt(score['high'])}] | "
                     f"{_fmt(entry['strict_100'])} | {_fmt(entry['unweighted_100'])} | {_fmt(gain.get('mean_difference'))} | "
                     f"{_fmt(gain.get('p_value'), 3)} | {entry['unscored_instances']}/{entry['unscored_nuggets']} |")
    dialogue = summary.get("dialogue") or {}
    if dialogue:
        lines += ["", "## Dialogue", "", "| turn | unknown rate |", "|---|---|"]
        lines += [f"| {t} | {_fmt(v, 3)} |" for t, v in dialogue["unknown_rate_per_turn"].items()]
        lines += ["", "| budget k | all-unknown rate |", "|---|---|"]
        lines += [f"| {k} | {_fmt(v, 3)} |" for k, v in dialogue["all_unknown_rate_at_k"].items()]
        lines += ["", f"Answers: {dialogue['answers']}; invalid questions: {dialogue['invalid_questions']}; "
                      f"answers with words the intent does not contain: {dialogue['unfaithful_answers']} "
                      f"(rate {_fmt(dialogue['unfaithful_rate'], 3)})."]
    return "\n".join(lines) + "\n"


def write_summary(folder: Path, summary: dict[str, Any]) -> None:
    (folder / "summary.json").write_text(json.dumps(summary, indent=2, ensure_ascii=False) + "\n")
    (folder / "summary.md").write_text(render_markdown(summary))
