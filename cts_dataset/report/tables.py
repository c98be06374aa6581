"""The leaderboard as it is read: the markdown of ``ctsbench report`` and the cells of the report page's
tables (one formatting for both), with ranked rows and reference clarifiers shown apart."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cts_dataset.report.leaderboard import Leaderboard


def p_text(value: Any, digits: int = 3) -> str:
    """A p-value as read: ``<0.001`` rather than a rounded 0.000."""
    from cts_dataset.markdown import fmt

    if value is None or math.isnan(float(value)):
        return "n/a"
    return f"<{10 ** -digits:.{digits}f}" if float(value) < 10 ** -digits else fmt(float(value), digits)


def _pct(value: Any) -> str:
    from cts_dataset.markdown import fmt

    return "n/a" if value is None or math.isnan(float(value)) else f"{fmt(100 * float(value), 1)}%"


# The leaderboard as read (markdown and the report page): the columns that fit a screen.
LEADERBOARD_HEADERS = ("rank", "k", "clarifier", "score on common instances [95% CI]", "common n",
                       "own score [95% CI] (n)", "gain vs baseline (p Holm)", "restoration", "unknown", "all-unknown",
                       "region-only", "questions", "tokens/inst")
LEADERBOARD_NOTE = ("Ranked within each k on the instances every ranked run scored at k (common n); own score: "
                    "the run's summary over the instances it scored. Gain: paired against the run's own baseline, "
                    "p Holm-adjusted across that run's gains over the baseline (clarify@k for each k and the oracle). "
                    "Restoration: mean(clarify@k - baseline) / mean(oracle - baseline) over the instances where the "
                    "oracle beats the baseline (the ratio of mean gains); unknown: unknown answers over questions "
                    "asked by turn k; all-unknown: dialogues whose every question got unknown; region-only: dialogues "
                    "whose every question asked about a place; tokens: system model calls (judge excluded) per "
                    "instance and repeat.")


def leaderboard_cells(r: dict[str, Any]) -> list[str]:
    """One leaderboard row as the text of its cells (``LEADERBOARD_HEADERS``)."""
    from cts_dataset.markdown import fmt

    return ["-" if r["rank"] is None else str(r["rank"]), str(r["k"]), r["clarifier"],
            f"{fmt(r['common_score_100'])} [{fmt(r['common_ci_low'])}, {fmt(r['common_ci_high'])}]", str(r["common_n"]),
            f"{fmt(r['restore_score_100'])} [{fmt(r['ci_low'])}, {fmt(r['ci_high'])}] ({r['n']})",
            f"{fmt(r['gain_over_baseline'])} (p Holm {p_text(r['gain_p_holm'])})",
            _pct(r["restoration_rate"]), _pct(r["unknown_rate"]), _pct(r["all_unknown_rate"]),
            _pct(r["region_only_rate"]), fmt(r["questions_asked"]), fmt(r["tokens_per_instance"], 0)]


def ranked_and_references(board: Leaderboard) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The leaderboard's ranked rows and its reference-clarifier rows (shown apart)."""
    from cts_dataset.report.frame import json_records

    records = json_records(board.rows)
    return [r for r in records if not r["reference"]], [r for r in records if r["reference"]]


REFERENCE_TITLE = ("Reference clarifiers (not ranked: they see what a real clarifier must not; an upper reference "
                   "for question choice)")


def render_markdown(board: Leaderboard) -> str:
    from cts_dataset.markdown import fmt, offline_judge_note, table
    from cts_dataset.report.frame import json_records

    p = board.protocol
    lines = ["# ctsbench leaderboard", "",
             (f"Protocol: preset `{p['preset']}`, judge `{p['judge']}`, dataset `{p['dataset']}` rev "
             f"`{p['dataset_revision']}`, searcher `{p['searcher']}`, user answerer `{p['user_answerer']}`, rewriter "
             f"`{p['rewriter']}`; {len(board.runs)} run(s)."), ""]
    lines += [f"> **warning** {w}" for w in board.warnings] + ([""] if board.warnings else [])
    note = offline_judge_note(str(p["judge"] or ""))
    if note:
        lines += [note, ""]
    ranked, apart = ranked_and_references(board)
    lines += table(LEADERBOARD_HEADERS, [leaderboard_cells(r) for r in ranked])
    if apart:
        lines += ["", REFERENCE_TITLE + ":", ""]
        lines += table(LEADERBOARD_HEADERS, [leaderboard_cells(r) for r in apart])
    if len(board.references):
        lines += ["", "References (baseline: the blurred query; oracle: the hidden intent):", ""]
        lines += table(["clarifier run", "condition", "restore_score_100 [95% CI]", "n"],
                       [[r["clarifier"], r["condition"], (f"{fmt(r['restore_score_100'])} [{fmt(r['ci_low'])}, "
                         f"{fmt(r['ci_high'])}]"), r["n"]] for r in json_records(board.references)])
    if len(board.comparisons):
        lines += ["", ("Paired comparisons (A minus B on the instances both scored; p: sign-flip permutation test; "
                      "p Holm: adjusted across every row below):"), ""]
        lines += table(["k", "A", "B", "pairs", "A - B [95% CI]", "p", "p Holm", "significant (0.05)"],
                       [[r["k"], r["a"], r["b"], r["n_pairs"],
                         f"{fmt(r['mean_difference'])} [{fmt(r['ci_low'])}, {fmt(r['ci_high'])}]",
                         p_text(r["p_value"], 4), p_text(r["p_holm"], 4), "yes" if r["significant"] else "no"]
                        for r in json_records(board.comparisons)])
    lines += ["", LEADERBOARD_NOTE]
    return "\n".join(lines) + "\n"
