"""The summary of a scored folder (``ctsbench score``: judged candidate answers against gold nuggets), as
JSON and markdown, recomputed from its items on every run.

Not the run summary (:mod:`cts_dataset.pipeline.summary`, a benchmark run's conditions and gains): the
names here say ``scores`` so the two are not mistaken for each other. Both write their two files the same
way (:func:`cts_dataset.jsonl.write_json` and :func:`cts_dataset.jsonl.write_atomic`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cts_dataset.jsonl import write_atomic, write_json
from cts_dataset.markdown import fmt, offline_judge_note, table
from cts_dataset.scoring.restore import mean_score
from cts_dataset.scoring.stats import bootstrap_ci


def summarise_scores(records: list[dict[str, Any]], *, judge: str, gold: str, candidates: str, n_gold: int,
              n_candidates: int, candidates_without_gold: list[str], gold_without_candidate: list[str],
              problems: list[str], seed: int = 0) -> dict[str, Any]:
    """Means, CI and counts over the judged items of the current inputs, plus what could not be scored."""
    restore = [r["restore_score_100"] for r in records]
    interval = bootstrap_ci(restore, seed=seed)
    scored = [v for v in restore if v is not None]
    missing_as_zero = mean_score(scored + [0.0] * len(gold_without_candidate))
    systems = sorted({r.get("system") for r in records if r.get("system")})
    return {
        "judge": judge, "gold": gold, "candidates": candidates, "systems": systems,
        "restore_score_100": interval.mean,
        "restore_score_100_ci95": [interval.low, interval.high],
        "strict_100": mean_score(r["strict_100"] for r in records),
        "unweighted_100": mean_score(r["unweighted_100"] for r in records),
        "restore_score_100_missing_as_zero": missing_as_zero,
        "n_gold": n_gold, "n_candidates": n_candidates, "n_judged": len(records),
        "n_scored_items": len(scored), "n_unscored_items": len(records) - len(scored),
        "n_zero_weight_items": sum(1 for r in records if r.get("zero_weight")),
        "n_nuggets": sum(r["n_nuggets"] for r in records),
        "n_unscored_nuggets": sum(r["n_unscored"] for r in records),
        "unscored_items": [r["id"] for r in records if r["restore_score_100"] is None],
        # A failed judge request leaves the item unscored; the next run judges it again.
        "failed_items": [r["id"] for r in records if r.get("error") or r.get("errors")],
        "candidates_without_gold": candidates_without_gold,
        "gold_without_candidate": gold_without_candidate,
        "input_problems": problems,
    }


def scores_markdown(summary: dict[str, Any]) -> str:
    low, high = summary["restore_score_100_ci95"]
    prompt = summary.get("judge_prompt")
    lines = [
        "# restore_score summary", "",
        f"- judge: `{summary['judge']}`" + (f" (prompt `{prompt}`, hash `{summary.get('judge_prompt_hash')}`)"
                                            if prompt else ""),
        f"- gold: `{summary['gold']}`", f"- candidates: `{summary['candidates']}`", "",
        *table(["metric", "value"], [
            ["restore_score_100", f"{fmt(summary['restore_score_100'])} (95% CI {fmt(low)}-{fmt(high)})"],
            ["strict_100", fmt(summary["strict_100"])],
            ["unweighted_100", fmt(summary["unweighted_100"])],
            ["restore_score_100, missing candidates as 0", fmt(summary["restore_score_100_missing_as_zero"])],
            ["items judged / scored / unscored",
             f"{summary['n_judged']} / {summary['n_scored_items']} / {summary['n_unscored_items']}"],
            ["nuggets / unscored", f"{summary['n_nuggets']} / {summary['n_unscored_nuggets']}"],
            ["gold / candidates", f"{summary['n_gold']} / {summary['n_candidates']}"],
        ]), "",
    ]
    if note := offline_judge_note(summary["judge"]):
        lines += [note, ""]
    for key, title in (("candidates_without_gold", "Candidates without gold (not scored)"),
                       ("gold_without_candidate", "Gold without a candidate (not scored)"),
                       ("unscored_items", "Unscored items (no nugget could be labelled, or a judge request failed)"),
                       ("failed_items", "Items whose judge request failed (unscored; a rerun judges them again)"),
                       ("input_problems", "Input problems (lines skipped)")):
        if summary[key]:
            lines += [f"## {title}: {len(summary[key])}", ""] + [f"- {v}" for v in summary[key][:200]] + [""]
    return "\n".join(lines)


def write_scores_summary(out_dir: Path, summary: dict[str, Any]) -> None:
    """summary.json and summary.md of a scored folder, each written atomically."""
    write_json(out_dir / "summary.json", summary)
    write_atomic(out_dir / "summary.md", scores_markdown(summary))


# The names this module had before its functions said what they summarise.
summarise = summarise_scores
markdown = scores_markdown
write_summary = write_scores_summary
