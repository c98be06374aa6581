"""The run summary, recomputed from the stage files: scores with confidence intervals, gains over the
baseline with a paired test (Holm-adjusted across the run's gains), the dialogue diagnostics (unknown
rates, all-unknown at k), the answer channel (unparsed answers, disclosure), the prompt audit, errors per
stage, and what produced it all. Its markdown is :mod:`cts_dataset.pipeline.summary_markdown`.

Every count covers the instances the summary reports: a folder may also hold records of other instances
(an earlier, larger --limit or other --ids), which are kept for a later run but never counted here."""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from itertools import pairwise
from pathlib import Path
from typing import Any

from cts_dataset.jsonl import write_atomic, write_json
from cts_dataset.pipeline.store import RunStore, record_key
from cts_dataset.pipeline.summary_markdown import render_markdown
from cts_dataset.records import Instance
from cts_dataset.scoring.repeats import instance_means


def condition_names(config: Any) -> list[tuple[str, str, int | None]]:
    """(label, condition, budget) in report order: baseline, clarify@k..., oracle."""
    names = []
    if "baseline" in config.conditions:
        names.append(("baseline", "baseline", None))
    if "clarify" in config.conditions:
        names += [(f"clarify@{k}", "clarify", k) for k in config.budgets]
    if "oracle" in config.conditions:
        names.append(("oracle", "oracle", None))
    return names


def _judged(store: RunStore, instance: Instance, condition: str, budget: int | None, repeat: int = 0) -> dict | None:
    return store["judge"].get(record_key({"instance": instance.id, "condition": condition, "budget": budget,
                                          "repeat": repeat}))


def _mean(values: Sequence[float | None]) -> float | None:
    present = [v for v in values if v is not None]
    return sum(present) / len(present) if present else None


def scores_in_order(store: RunStore, instances: Sequence[Instance], condition: str, budget: int | None,
                    repeats: int, field: str = "restore_score_100") -> list[float | None]:
    """One score per instance, in order (None: unscored); for clarify@k with repeats, the mean over the
    repeats judged (:func:`~cts_dataset.scoring.repeats.instance_means`)."""
    rounds = range(repeats) if condition == "clarify" else range(1)
    means = instance_means((instance.id, r[field]) for instance in instances for rep in rounds
                           if (r := _judged(store, instance, condition, budget, rep)) is not None)
    return [means.get(instance.id) for instance in instances]


def _answers(store: RunStore, config: Any, instance: Instance, k: int, repeat: int) -> list[dict[str, Any]]:
    group = k if config.show_budget else None
    found = [store["answer"].get(record_key({"instance": instance.id, "condition": "clarify", "budget": group,
                                             "turn": t, "repeat": repeat})) for t in range(1, k + 1)]
    return [a for a in found if a is not None]


def _was_asked(answer: dict[str, Any]) -> bool:
    return not answer.get("invalid_question") and not answer.get("declined")


def _rate(count: int, total: int) -> float | None:
    return count / total if total else None


def dialogue_diagnostics(config: Any, instances: Sequence[Instance], store: RunStore) -> dict[str, Any]:
    """Unknown rate per turn (over valid questions), all-unknown at each k, and the answer channel.

    With a shown budget, per-turn figures come from the dialogues of the largest budget."""
    if "clarify" not in config.conditions:
        return {}
    top = max(config.budgets)
    rows = {k: [_answers(store, config, i, k, r) for r in range(config.repeats) for i in instances]
            for k in sorted({*config.budgets, top})}
    per_turn = {}
    for turn in range(1, top + 1):
        source = rows[top] if config.show_budget else rows.get(turn) or rows[top]
        at_turn = [r[turn - 1] for r in source if len(r) >= turn and _was_asked(r[turn - 1])]
        per_turn[str(turn)] = _rate(sum(a["unknown"] for a in at_turn), len(at_turn))
    all_unknown = {}
    for k in config.budgets:  # over dialogues that asked at least one question by k
        complete = [[a for a in r if _was_asked(a)] for r in rows[k] if len(r) == k or (r and r[-1].get("declined"))]
        complete = [r for r in complete if r]
        all_unknown[str(k)] = _rate(sum(all(a["unknown"] for a in r) for r in complete), len(complete))
    asked = [a for r in rows[top] for a in r if not a.get("declined")]
    valid = [a for a in asked if _was_asked(a)]
    answered = [a for a in valid if not a["unknown"]]
    shares = [a["disclosure"]["intent_share"] for a in answered if a.get("disclosure")]
    revealing = [a for a in answered if a.get("disclosure", {}).get("constraints")]
    beyond = [a for a in answered if a.get("disclosure", {}).get("beyond_question")]
    questions = {str(k): _mean([float(sum(_was_asked(a) for a in r)) for r in rows[k]]) for k in config.budgets}
    return {
        "questions_asked_per_instance_at_k": questions,
        "unknown_rate_per_turn": per_turn,
        "all_unknown_rate_at_k": all_unknown,
        "answers": len(asked),
        "invalid_questions": len(asked) - len(valid),
        "unparsed_answers": sum(1 for a in valid if a.get("unparsed")),
        "unfaithful_answers": sum(bool(a["unsupported"]) for a in answered),
        "unfaithful_rate": _rate(sum(bool(a["unsupported"]) for a in answered), len(answered)),
        "disclosure": {
            "answers_revealing_a_constraint": len(revealing),
            "constraints_revealed_per_question": _rate(sum(len(a["disclosure"]["constraints"]) for a in answered),
                                                       len(valid)),
            "mean_intent_share_per_answer": _mean(shares),
            "answers_beyond_the_question": len(beyond),
            "beyond_the_question_rate": _rate(len(beyond), len(answered)),
        },
    }


def reported(store: RunStore, stage: str, instances: Sequence[Instance]) -> list[dict[str, Any]]:
    """A stage's records (the later line of a key wins) of the instances reported."""
    known = {i.id for i in instances}
    return [r for r in store[stage].records.values() if r.get("instance") in known]


def stage_errors(store: RunStore, instances: Sequence[Instance]) -> dict[str, list[dict[str, Any]]]:
    """The failed requests standing for the instances reported, per stage."""
    return {stage: [r for r in reported(store, stage, instances) if r.get("error")] for stage in store.stages}


def audit_summary(store: RunStore, instances: Sequence[Instance]) -> dict[str, Any]:
    """Clarifier and rewriter requests that held intent words the dialogue does not explain."""
    found: dict[str, Any] = {}
    for stage, role in (("clarify", "clarifier"), ("rewrite", "rewriter")):
        records = reported(store, stage, instances)
        leaking = [r for r in records if r.get("leaks")]
        found[role] = {"requests": len(records), "leaking": len(leaking),
                       "examples": [{"key": record_key(r), "words": r["leaks"]} for r in leaking[:5]]}
    found["leaks"] = found["clarifier"]["leaking"] + found["rewriter"]["leaking"]
    return found


def guard_counts(store: RunStore, instances: Sequence[Instance]) -> dict[str, int]:
    """What the role guards did: re-asked and still invalid questions, replaced answers, guarded rewrites."""
    clarify, answers, rewrites = (reported(store, stage, instances) for stage in ("clarify", "answer", "rewrite"))
    return {
        "questions_reasked": sum(1 for r in clarify if r.get("reasked")),
        "questions_invalid_after_reask": sum(1 for r in clarify if r.get("reasked") and not r.get("valid")),
        "questions_invalid": sum(1 for r in clarify if not r.get("valid") and not r.get("error")),
        "answers_unparsed": sum(1 for r in answers if r.get("unparsed")),
        "answers_replaced_by_unknown": sum(1 for r in answers if r.get("replaced")),
        "answers_by_rule": sum(1 for r in answers if r.get("decided_by")),
        "answers": sum(1 for r in answers if not r.get("invalid_question") and not r.get("declined")),
        "rewrites_guarded": sum(1 for r in rewrites if r.get("guarded")),
        "rewrites_nothing_elicited": sum(1 for r in rewrites if r.get("nothing_elicited")),
    }


def length_limited(store: RunStore, instances: Sequence[Instance]) -> dict[str, int]:
    """Replies that hit max_tokens with no content, per role (a reasoning model with too small a cap)."""
    stages = {"clarifier": "clarify", "user_answerer": "answer", "rewriter": "rewrite"}
    return {role: sum(1 for r in reported(store, stage, instances) if r.get("empty_at_length"))
            for role, stage in stages.items()}


def _repeat_spread(store: RunStore, instances: Sequence[Instance], budget: int, repeats: int) -> dict[str, Any]:
    means = [_mean([r["restore_score_100"] for i in instances if (r := _judged(store, i, "clarify", budget, rep))])
             for rep in range(repeats)]
    present = [m for m in means if m is not None]
    return {"repeats": repeats, "mean_per_repeat": means,
            "sd_of_repeat_means": statistics.stdev(present) if len(present) > 1 else None}


def _searcher_kind(run: Any) -> str | None:
    searcher = run.run_identity.get("searcher")
    return searcher.get("kind") if isinstance(searcher, dict) else None


def summarise(run: Any, store: RunStore) -> dict[str, Any]:
    """The summary of a run (``run`` is the Experiment: config, instances, models, searcher, judge)."""
    from cts_dataset.judges.agreement import AGENT_ANSWERS, judge_validation
    from cts_dataset.markdown import offline_judge_note
    from cts_dataset.scoring.stats import bootstrap_ci, paired_test

    config, instances = run.config, run.instances
    conditions: dict[str, Any] = {}
    per_label: dict[str, list[float | None]] = {}
    baseline = scores_in_order(store, instances, "baseline", None, 1) if "baseline" in config.conditions else None
    for label, condition, budget in condition_names(config):
        scores = per_label[label] = scores_in_order(store, instances, condition, budget, config.repeats)
        rounds = range(config.repeats) if condition == "clarify" else range(1)
        judged = [r for i in instances for rep in rounds if (r := _judged(store, i, condition, budget, rep))]
        entry: dict[str, Any] = {
            "restore_score_100": bootstrap_ci(scores).as_dict(),
            "strict_100": _mean(scores_in_order(store, instances, condition, budget, config.repeats, "strict_100")),
            "unweighted_100": _mean(scores_in_order(store, instances, condition, budget, config.repeats, "unweighted_100")),
            "instances": len(instances),
            "scored_instances": sum(1 for s in scores if s is not None),
            "unscored_instances": sum(1 for s in scores if s is None),
            "unscored_nuggets": sum(r["n_unscored"] for r in judged),
        }
        if baseline is not None and condition != "baseline":
            pairs = sum(1 for a, b in zip(scores, baseline, strict=True) if a is not None and b is not None)
            entry["gain_over_baseline"] = {**paired_test(scores, baseline).as_dict(), "n_pairs": pairs}
        if condition == "clarify" and budget is not None:
            entry["questions_asked"] = _questions_asked(store, config, instances, budget)
            gain = (entry.get("gain_over_baseline") or {}).get("mean_difference")
            entry["gain_per_question"] = gain / entry["questions_asked"] if gain is not None and entry["questions_asked"] else None
        if condition == "clarify" and config.repeats > 1 and budget is not None:
            entry["repeats"] = _repeat_spread(store, instances, budget, config.repeats)
        conditions[label] = entry
    holm_gains(conditions)
    curve = budget_curve(per_label, config)
    judge = run.run_identity["judge"]
    judge_name = judge.get("name") if isinstance(judge, dict) else str(judge)
    audit, empty, failed = audit_summary(store, instances), length_limited(store, instances), stage_errors(store, instances)
    errors = {stage: len(found) for stage, found in failed.items()}
    return {
        "run": str(run.folder),
        "clarifier": run.clarifier_label,
        "declared_leakage": run.run_identity["protocol"].get("clarifier_sees"),
        "models": {**{role: model.spec for role, model in run.models.items()}, "clarifier": run.clarifier_label},
        "searcher": _searcher_label(run.run_identity["searcher"]),
        "judge": judge_name,
        "judge_prompt": _judge_prompt(judge),
        "judge_note": offline_judge_note(judge_name or ""),
        "judge_validation": judge_validation(judge if isinstance(judge, dict) else None,
                                             AGENT_ANSWERS if _searcher_kind(run) == "react" else "all"),
        "preset": config.preset,
        "dataset": config.dataset,
        "dataset_revision": run.run_identity["dataset_revision"],
        "ctsbench_version": run.run_identity["ctsbench_version"],
        "instances": len(instances),
        "repeats": config.repeats,
        "conditions": conditions,
        "budget_curve": curve,
        "dialogue": dialogue_diagnostics(config, instances, store),
        "audit": audit,
        "guards": {"answer_mode": config.answer_mode, "clarifier_reask": config.clarifier_reask,
                   "rewriter_guard": config.rewriter_guard, **guard_counts(store, instances)},
        "empty_at_length": empty,
        "errors": errors,
        "error_examples": {stage: [{"key": record_key(r), "error": str(r["error"])[:300]} for r in found[:3]]
                           for stage, found in failed.items() if found},
        "warnings": warnings(audit, empty, errors, config) + determinism_warnings(run.run_identity),
        "determinism": {role: run.run_identity["roles"][role].get("determinism")
                        for role in ("user_answerer", "rewriter")},
    }


def _judge_prompt(judge: Any) -> str | None:
    prompt = judge.get("prompt") if isinstance(judge, dict) else None
    if isinstance(prompt, dict):
        return f"{prompt.get('id')} {str(prompt.get('hash'))[:12]}"
    return None


def _questions_asked(store: RunStore, config: Any, instances: Sequence[Instance], k: int) -> float | None:
    """Mean questions actually asked by budget k (a clarifier may stop early or fail to ask)."""
    counts = [sum(1 for a in _answers(store, config, i, k, r) if _was_asked(a))
              for r in range(config.repeats) for i in instances]
    return sum(counts) / len(counts) if counts else None


def holm_gains(conditions: dict[str, Any]) -> None:
    """Add ``p_holm`` to every gain over the baseline: Holm's step-down adjustment across the run's gains
    (clarify@k for each k and the oracle), since a run reports several at once."""
    from cts_dataset.report.ranking import holm  # pure Python: no report extra needed

    gains = [entry["gain_over_baseline"] for entry in conditions.values() if "gain_over_baseline" in entry]
    for gain, adjusted in zip(gains, holm([g.get("p_value") for g in gains]), strict=True):
        gain["p_holm"] = adjusted
        gain["holm_tests"] = sum(g.get("p_value") is not None for g in gains)


def budget_curve(scores: dict[str, list[float | None]], config: Any) -> dict[str, Any] | None:
    """The area under restore_score vs budget (k = 0 is the baseline), per unit of budget, and its gain
    over the baseline: one number for a clarifier across budgets, fair to one that asks only when it helps.

    Every point is a mean over the same instances: those scored at the baseline and at every k (``n``)."""
    labels = ["baseline", *(f"clarify@{k}" for k in config.budgets)]
    if "clarify" not in config.conditions or any(label not in scores for label in labels):
        return None
    common = [i for i in range(len(scores["baseline"])) if all(scores[label][i] is not None for label in labels)]
    if not common:
        return None
    means = [sum(scores[label][i] for i in common) / len(common) for label in labels]  # type: ignore[misc]
    points = list(zip([0, *config.budgets], means, strict=True))
    area = sum((k2 - k1) * (v1 + v2) / 2 for (k1, v1), (k2, v2) in pairwise(points))
    top, base = points[-1][0], means[0]
    return {"budgets": [k for k, _ in points], "scores": means, "n": len(common), "auc_per_budget": area / top,
            "auc_gain_over_baseline": area / top - base}


def _searcher_label(described: Any) -> str:
    if isinstance(described, dict):
        parts = [str(described.get("kind", "")), str(described.get("model") or ""), str(described.get("tool") or "")]
        return " ".join(p for p in parts if p)
    return str(described)


def determinism_warnings(identity: dict[str, Any]) -> list[str]:
    """A fixed role whose engine does not promise one request the same bytes in any batch."""
    from cts_dataset.models.determinism import not_batch_invariant

    return [f"not reproducible: the {role}'s engine may give the same request other bytes in another batch or "
            f"order ({(identity['roles'][role].get('determinism') or {}).get('why', '')}); two runs, or two "
            "labs, can measure a clarifier with different rulers" for role in not_batch_invariant(identity)]


def warnings(audit: dict[str, Any], empty: dict[str, int], errors: dict[str, int], config: Any) -> list[str]:
    """What a reader of the numbers must know first."""
    found = []
    if audit["leaks"]:
        found.append(f"LEAK: {audit['leaks']} clarifier/rewriter request(s) held words of the hidden intent that the "
                     "dialogue does not explain; see summary.json audit and the records' `leaks` fields")
    for role, count in empty.items():
        if count:
            cap = (config.generation.get(role).max_tokens if config.generation.get(role) else None) or "the default"
            found.append(f"{role}: {count} repl(ies) hit max_tokens ({cap}) with no content: a reasoning model? "
                         f"raise it with --generation {role}.max_tokens=N")
    if any(errors.values()):
        shown = ", ".join(f"{stage} {n}" for stage, n in errors.items() if n)
        found.append(f"errors: {shown} request(s) failed after retries; rerun the same command to retry only them")
    return found


def write_summary(folder: Path, summary: dict[str, Any]) -> None:
    """summary.json and summary.md, each written atomically (a kill leaves the old file or the new one)."""
    write_json(folder / "summary.json", summary)
    write_atomic(folder / "summary.md", render_markdown(summary))
