"""The run summary as markdown (summary.md, and what ``ctsbench run`` and ``ctsbench play`` print)."""

from __future__ import annotations

from typing import Any

from cts_dataset.markdown import fmt, table


def render_markdown(summary: dict[str, Any]) -> str:
    """summary.md: the run summary (:func:`cts_dataset.pipeline.summary.summarise`) as markdown, then its
    diagnostics when it holds them and the plain-words reading of the numbers."""
    lines = [f"# ctsbench run: {summary['run']}", ""]
    lines += [f"> **warning** {w}" for w in summary.get("warnings", [])]
    if summary.get("warnings"):
        lines.append("")
    models = summary.get("models", {})
    mode = (summary.get("guards") or {}).get("answer_mode")
    lines += [f"Clarifier `{summary['clarifier']}`, user answerer `{models.get('user_answerer')}`"
              + (f" (answer mode `{mode}`)" if mode else "") + ", rewriter "
              f"`{models.get('rewriter')}`, searcher `{summary.get('searcher')}`, judge `{summary.get('judge')}`"
              + (f" (prompt `{summary['judge_prompt']}`)" if summary.get("judge_prompt") else "") + "; preset "
              f"`{summary['preset']}`, dataset `{summary.get('dataset')}` rev `{summary.get('dataset_revision')}`, "
              f"{summary['instances']} instances" + (f", {summary['repeats']} repeats" if summary.get("repeats", 1) > 1 else "")
              + f"; ctsbench {summary.get('ctsbench_version')}.", ""]
    fixed = [d for d in (summary.get("determinism") or {}).values() if d]
    if fixed and all(d.get("batch_invariant") for d in fixed):
        hows = sorted({d.get("how", "") for d in fixed} - {""})
        lines += ["Fixed roles reproducible: the same request gets the same bytes in any batch and order"
                  + (f" ({'; '.join(hows)})" if hows else "") + ".", ""]
    if summary.get("judge_note"):
        lines += [summary["judge_note"], ""]
    if summary.get("judge_validation"):
        lines += [summary["judge_validation"], ""]
    rows = []
    for label, entry in summary["conditions"].items():
        score = entry["restore_score_100"]
        gain = entry.get("gain_over_baseline") or {}
        rows.append([label, fmt(score["mean"]), f"[{fmt(score['low'])}, {fmt(score['high'])}]", fmt(entry["strict_100"]),
                     fmt(entry["unweighted_100"]), fmt(gain.get("mean_difference")), fmt(gain.get("p_value"), 3),
                     fmt(gain.get("p_holm"), 3), str(gain.get("n_pairs", "-")), fmt(entry.get("questions_asked"), 2),
                     fmt(entry.get("gain_per_question")), f"{entry['unscored_instances']}/{entry['unscored_nuggets']}"])
    lines += table(["condition", "restore_score_100", "95% CI", "strict", "unweighted", "gain vs baseline", "p",
                    "p Holm", "pairs", "questions asked", "gain per question", "unscored (inst/nuggets)"], rows)
    tests = next((g["holm_tests"] for e in summary["conditions"].values() if (g := e.get("gain_over_baseline"))
                  and "holm_tests" in g), None)
    if tests:
        lines += ["", f"p Holm: the gains' p values adjusted (Holm) for the {tests} gains over the baseline shown."]
    curve = summary.get("budget_curve")
    if curve:
        lines += ["", (f"Area under score vs budget (k = 0 is the baseline), per unit of budget, on the "
                      f"{curve.get('n', '?')} instances scored at every k: {fmt(curve['auc_per_budget'])} "
                      f"({fmt(curve['auc_gain_over_baseline'])} over the baseline).")]
    if summary.get("declared_leakage"):
        lines += ["", (f"**Reference clarifier**: it sees {summary['declared_leakage']}; an upper reference for "
                      "question choice, not a leaderboard entry.")]
    dialogue = summary.get("dialogue") or {}
    if dialogue:
        lines += ["", "## Dialogue", ""]
        lines += table(["turn", "unknown rate"], [[t, fmt(v, 3)] for t, v in dialogue["unknown_rate_per_turn"].items()])
        lines.append("")
        lines += table(["budget k", "all-unknown rate"], [[k, fmt(v, 3)] for k, v in dialogue["all_unknown_rate_at_k"].items()])
        d = dialogue["disclosure"]
        lines += ["", (f"Answers: {dialogue['answers']}; invalid questions (not asked, counted apart from unknown): "
                      f"{dialogue['invalid_questions']}; unparsed answers (treated as unknown, never forwarded): "
                      f"{dialogue['unparsed_answers']}; " + _unfaithful(dialogue, mode) + "."),
                  "", (f"Disclosure: {d['answers_revealing_a_constraint']} answers revealed a removed constraint "
                      f"({fmt(d['constraints_revealed_per_question'], 3)} per question); mean share of the intent's "
                      f"hidden words per answer {fmt(d['mean_intent_share_per_answer'], 3)}; answers revealing more "
                      f"than the question asked: {d['answers_beyond_the_question']} "
                      f"(rate {fmt(d['beyond_the_question_rate'], 3)}).")]
    audit = summary.get("audit") or {}
    if audit:
        lines += ["", (f"Prompt audit: {audit['clarifier']['leaking']} of {audit['clarifier']['requests']} clarifier and "
                      f"{audit['rewriter']['leaking']} of {audit['rewriter']['requests']} rewriter requests held "
                      "intent words the dialogue does not explain.")]
    guards = summary.get("guards") or {}
    if guards:
        lines += ["", (f"Role guards (answer mode `{guards['answer_mode']}`): questions re-asked "
                       f"{guards['questions_reasked']}, invalid {guards['questions_invalid']}; answers unparsed "
                       f"{guards['answers_unparsed']}, replaced by unknown {guards['answers_replaced_by_unknown']}"
                       + (f", settled by the answerer's rules without a model call {guards['answers_by_rule']} of "
                          f"{guards['answers']}" if guards.get("answers_by_rule") else "") + "; "
                       f"rewrites replaced by the deterministic rewrite {guards['rewrites_guarded']}, kept as the "
                       f"query with nothing elicited {guards['rewrites_nothing_elicited']}.")]
    errors = summary.get("errors") or {}
    if any(errors.values()):
        lines += ["", "Errors (failed after retries; a rerun retries them): "
                  + ", ".join(f"{stage} {n}" for stage, n in errors.items() if n) + "."]
    text = "\n".join(lines) + "\n"
    if summary.get("diagnostics"):
        from cts_dataset.diagnostics import render_markdown as diagnostics_markdown

        text += "\n" + diagnostics_markdown(summary["diagnostics"])
    from cts_dataset.pipeline.reading import plain_reading

    reading = plain_reading(summary)
    return text + ("\n" + "\n".join(reading) + "\n" if reading else "")


def _unfaithful(dialogue: dict[str, Any], mode: str | None) -> str:
    # Under a guarding answer mode an answer with words the intent lacks never reaches the rewriter, so the
    # count is zero by construction: say so rather than print a zero that looks measured.
    if mode not in (None, "off"):  # every answer mode but off guards the answer
        return (f"answers with words the intent does not contain: none pass the `{mode}` guard (those it "
                "replaced are counted under Role guards)")
    return (f"answers with words the intent does not contain: {dialogue['unfaithful_answers']} "
            f"(rate {fmt(dialogue['unfaithful_rate'], 3)})")
