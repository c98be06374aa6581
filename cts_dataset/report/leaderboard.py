"""A leaderboard over runs of one protocol: per clarifier and budget k the score with its 95% CI, the
gain over the baseline, restoration, unknown, all-unknown and region-only rates and cost; and paired
tests between clarifiers on their common instances, Holm-corrected across the comparisons shown.

The rank within each k is taken on the instances every ranked run scored at k (``common_*`` columns; a
warning names the runs whose sets differ). Reference clarifiers that see hidden information are listed
apart and never ranked. Each run's own scores, CIs and gains are its summary.json numbers (never
recomputed, so the two agree); the gains' p values are also given Holm-adjusted across the run's gains.
Restoration, region-only and cost come from the diagnostics (summary.json ``diagnostics`` when present,
else recomputed from the folder).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cts_dataset.errors import CtsbenchError
from cts_dataset.report.ranking import (
    common_scores,
    comparisons,
    gains_holm,
    holm,
    instance_scores,
    is_reference,
    rank,
)
from cts_dataset.report.tables import p_text, render_markdown

if TYPE_CHECKING:
    import pandas as pd

# What makes two runs' numbers comparable: everything but the clarifier under test.
FIXED_ROLES = ("user_answerer", "rewriter")
# Protocol keys that describe the clarifier rather than the protocol.
_CLARIFIER_PROTOCOL_KEYS = ("clarifier_sees",)

ROW_COLUMNS = (
    "rank", "clarifier", "run", "k", "common_score_100", "common_ci_low", "common_ci_high", "common_n",
    "restore_score_100", "ci_low", "ci_high", "n", "gain_over_baseline",
    "gain_ci_low", "gain_ci_high", "gain_p_value", "gain_p_holm", "gain_pairs", "restoration_rate", "restoration_low",
    "restoration_high", "restoration_defined", "unknown_rate", "all_unknown_rate", "region_only_rate",
    "questions_asked", "calls_per_instance", "tokens_per_instance", "seconds_per_instance",
    "extra_tokens_per_instance", "tokens_per_point", "reference",
)
__all__ = ["COMPARISON_COLUMNS", "ROW_COLUMNS", "Leaderboard", "ProtocolMismatch", "RunInfo", "build", "comparisons",
           "holm", "instance_scores", "p_text", "render_markdown", "write"]
COMPARISON_COLUMNS = ("k", "a", "b", "n_pairs", "mean_a", "mean_b", "mean_difference", "ci_low", "ci_high",
                      "p_value", "p_holm", "significant")


class ProtocolMismatch(CtsbenchError, ValueError):
    """Runs whose numbers are not comparable (another preset, judge, dataset or fixed role)."""


@dataclass
class RunInfo:
    """One run folder as the report reads it."""

    folder: Path
    name: str  # the clarifier, with the folder name where two runs share a clarifier
    clarifier: str
    summary: dict[str, Any]
    identity: dict[str, Any]
    config: dict[str, Any]
    diagnostics: dict[str, Any]
    frame: pd.DataFrame

    @property
    def budgets(self) -> list[int]:
        return sorted(int(label.split("@", 1)[1]) for label in self.summary["conditions"] if label.startswith("clarify@"))

    def condition(self, label: str) -> dict[str, Any]:
        return self.summary["conditions"].get(label) or {}


@dataclass
class Leaderboard:
    runs: list[RunInfo]
    rows: pd.DataFrame
    references: pd.DataFrame
    comparisons: pd.DataFrame
    protocol: dict[str, Any]
    warnings: list[str] = field(default_factory=list)


def protocol_of(identity: dict[str, Any]) -> dict[str, Any]:
    """The comparable part of a run identity: protocol switches (preset included), judge, dataset revision,
    searcher and the fixed roles' models, generation settings and prompts."""
    protocol = {k: v for k, v in (identity.get("protocol") or {}).items() if k not in _CLARIFIER_PROTOCOL_KEYS}
    roles = identity.get("roles") or {}
    return {"protocol": protocol, "judge": identity.get("judge"), "dataset_revision": identity.get("dataset_revision"),
            "searcher": identity.get("searcher"), "roles": {role: roles.get(role) for role in FIXED_ROLES}}


def protocol_differences(runs: Sequence[RunInfo]) -> list[str]:
    """What differs between the first run's protocol and each other's, path by path."""
    from cts_dataset.differences import differences

    first = protocol_of(runs[0].identity)
    found = []
    for run in runs[1:]:
        found += [f"{run.folder} vs {runs[0].folder}: {d}" for d in differences(first, protocol_of(run.identity))]
    return found


def read_run_info(folder: Path, name: str | None = None) -> RunInfo:
    from cts_dataset.report.frame import clarifier_label, load_run

    folder = Path(folder)
    for needed in ("config.json", "summary.json"):
        if not (folder / needed).is_file():
            raise CtsbenchError(f"{folder}: no {needed}; is it a finished run folder (`ctsbench run`)?")
    summary = json.loads((folder / "summary.json").read_text(encoding="utf-8"))
    stored = json.loads((folder / "config.json").read_text(encoding="utf-8"))
    diagnostics = summary.get("diagnostics")
    if not _complete(diagnostics, summary) or not _current(diagnostics):
        from cts_dataset.diagnostics import diagnose

        diagnostics = diagnose(folder)
    clarifier = clarifier_label(folder)
    return RunInfo(folder=folder, name=name or clarifier, clarifier=clarifier, summary=summary,
                   identity=stored.get("identity") or {}, config=stored.get("config") or {},
                   diagnostics=diagnostics, frame=load_run(folder, name=name or clarifier))


def _complete(diagnostics: Any, summary: dict[str, Any]) -> bool:
    """Whether a summary's diagnostics hold what the report reads (a trimmed copy is recomputed)."""
    if not isinstance(diagnostics, dict) or "cost" not in diagnostics:
        return False
    if not any(label.startswith("clarify@") for label in summary.get("conditions", {})):
        return True
    restoration = _get(diagnostics, "utility", "restoration_rate") or {}
    return (all(key in diagnostics for key in ("question_types", "elicitation", "utility"))
            and all("per_instance" in entry for entry in restoration.values()))


def _current(diagnostics: Any) -> bool:
    """Diagnostics of this version: older ones averaged per-instance restoration ratios and counted cost
    per point with every repeat, so they are recomputed rather than shown."""
    from cts_dataset.diagnostics.core import VERSION

    return isinstance(diagnostics, dict) and diagnostics.get("version") == VERSION


def read_runs(folders: Sequence[Path], allow_mixed: bool = False) -> tuple[list[RunInfo], list[str]]:
    """The runs, named uniquely, and the warnings; refuses runs of different protocols unless ``allow_mixed``."""
    if not folders:
        raise CtsbenchError("no run folder given")
    labels = [_clarifier_of(Path(f)) for f in folders]
    names = [label if labels.count(label) == 1 else f"{label} [{Path(f).name}]" for f, label in zip(folders, labels, strict=True)]
    names = [n if names.count(n) == 1 else f"{n} #{i + 1}" for i, n in enumerate(names)]
    runs = [read_run_info(Path(f), n) for f, n in zip(folders, names, strict=True)]
    warnings = []
    differing = protocol_differences(runs)
    if differing:
        shown = "\n  ".join(differing[:20]) + (f"\n  ... and {len(differing) - 20} more" if len(differing) > 20 else "")
        if not allow_mixed:
            raise ProtocolMismatch("these runs do not share a protocol (preset, judge, dataset revision, searcher, "
                                   f"user answerer and rewriter), so their numbers do not compare:\n  {shown}\n"
                                   "Pass --allow-mixed-protocol to report them anyway, with this warning.")
        warnings.append(f"MIXED PROTOCOL: the runs differ in what must be fixed; numbers do not compare:\n  {shown}")
    versions = sorted({str(r.identity.get("ctsbench_version")) for r in runs})
    if len(versions) > 1:
        warnings.append(f"the runs were made by different ctsbench versions: {', '.join(versions)}")
    for run in runs:
        if is_reference(run):
            warnings.append(f"{run.name} is a reference clarifier that sees {run.summary['declared_leakage']}: "
                            "an upper reference for question choice, listed apart and not ranked")
        if any((run.summary.get("errors") or {}).values()):
            warnings.append(f"{run.name}: failed requests stand in {run.folder} (summary errors); rerun it to retry them")
    return runs, warnings


def _clarifier_of(folder: Path) -> str:
    from cts_dataset.report.frame import clarifier_label

    if not (folder / "config.json").is_file():
        raise CtsbenchError(f"{folder}: not a run folder (no config.json)")
    return clarifier_label(folder)


def _get(mapping: Any, *path: str) -> Any:
    for key in path:
        if not isinstance(mapping, dict):
            return None
        mapping = mapping.get(key)
    return mapping


def unknown_rate(frame: pd.DataFrame, label: str) -> float | None:
    """Unknown answers over questions asked in the first k turns of the dialogues clarify@k rewrote."""
    rows = frame[(frame["label"] == label) & frame["questions_asked"].notna()]
    asked = int(rows["questions_asked"].sum())
    return int(rows["unknown_answers"].sum()) / asked if asked else None


def _row(run: RunInfo, k: int, common: dict[str, Any], p_holm: dict[str, float | None]) -> dict[str, Any]:
    label = f"clarify@{k}"
    entry, diagnostics = run.condition(label), run.diagnostics
    score, gain = entry.get("restore_score_100") or {}, entry.get("gain_over_baseline") or {}
    restoration = _get(diagnostics, "utility", "restoration_rate", label) or {}
    cost = _get(diagnostics, "cost", "per_point", label) or {}
    rows = run.frame[run.frame["label"] == label]
    count = len(rows) or 1
    traced = bool(rows["calls"].notna().any())  # no calls.jsonl: the cost is unknown, not zero
    return {
        "clarifier": run.name, "run": str(run.folder), "k": k, **common,
        "restore_score_100": score.get("mean"), "ci_low": score.get("low"), "ci_high": score.get("high"),
        "n": score.get("n"), "gain_over_baseline": gain.get("mean_difference"), "gain_ci_low": gain.get("ci_low"),
        "gain_ci_high": gain.get("ci_high"), "gain_p_value": gain.get("p_value"),
        "gain_p_holm": p_holm.get(label), "gain_pairs": gain.get("n_pairs"),
        "restoration_rate": restoration.get("mean"), "restoration_low": restoration.get("low"),
        "restoration_high": restoration.get("high"), "restoration_defined": restoration.get("defined"),
        "unknown_rate": unknown_rate(run.frame, label),
        "all_unknown_rate": _get(run.summary, "dialogue", "all_unknown_rate_at_k", str(k)),
        "region_only_rate": _get(diagnostics, "question_types", "region_only", str(k), "rate"),
        "questions_asked": entry.get("questions_asked"),
        "calls_per_instance": float(rows["calls"].sum()) / count if traced else None,
        "tokens_per_instance": float(rows["prompt_tokens"].sum() + rows["completion_tokens"].sum()) / count
        if traced else None,
        "seconds_per_instance": float(rows["seconds"].sum()) / count if traced else None,
        "extra_tokens_per_instance": _get(cost, "extra_per_instance", "tokens"),
        "tokens_per_point": _get(cost, "per_point", "tokens"),
        "reference": is_reference(run),
    }


def references(runs: Sequence[RunInfo]) -> list[dict[str, Any]]:
    """Each run's baseline (blurred query) and oracle (the intent): the floor and ceiling of its k rows."""
    found = []
    for run in runs:
        for label in ("baseline", "oracle"):
            score = run.condition(label).get("restore_score_100")
            if score:
                found.append({"clarifier": run.name, "condition": label, "restore_score_100": score.get("mean"),
                              "ci_low": score.get("low"), "ci_high": score.get("high"), "n": score.get("n")})
    return found


def build(folders: Sequence[Path], allow_mixed: bool = False) -> Leaderboard:
    import pandas as pd

    runs, warnings = read_runs(folders, allow_mixed)
    common, differing = common_scores(runs)
    if differing:
        warnings.append("the runs scored different instances, so each k is ranked on the instances every ranked run "
                        "scored there (own scores and n stand beside): " + "; ".join(differing))
    rows = pd.DataFrame([_row(run, k, common[(run.name, k)], gains_holm(run.summary)) for run in runs for k in run.budgets],
                        columns=[c for c in ROW_COLUMNS if c != "rank"])
    rows = rank(rows) if len(rows) else pd.DataFrame(columns=list(ROW_COLUMNS))
    first = runs[0]
    protocol = {"preset": _get(first.identity, "protocol", "preset"), "judge": _get(first.identity, "judge", "name"),
                "judge_identity": first.identity.get("judge"), "dataset": first.config.get("dataset"),
                "dataset_revision": first.identity.get("dataset_revision"), "searcher": first.summary.get("searcher"),
                "user_answerer": _get(first.summary, "models", "user_answerer"),
                "rewriter": _get(first.summary, "models", "rewriter")}
    return Leaderboard(runs=runs, rows=rows, references=pd.DataFrame(references(runs)),
                       comparisons=pd.DataFrame(comparisons(runs), columns=list(COMPARISON_COLUMNS)),
                       protocol=protocol, warnings=warnings)


def as_json(board: Leaderboard) -> dict[str, Any]:
    from cts_dataset.report.frame import json_records

    return {"protocol": board.protocol, "warnings": board.warnings,
            "runs": [{"name": r.name, "clarifier": r.clarifier, "folder": str(r.folder),
                      "instances": r.summary.get("instances"), "budgets": r.budgets} for r in board.runs],
            "leaderboard": json_records(board.rows), "references": json_records(board.references),
            "comparisons": json_records(board.comparisons),
            "method": {"ci": "95% percentile bootstrap of the mean over instances (the run's summary)",
                       "rank": "within each k, by the mean on the instances every ranked run scored at k (common_*); "
                               "reference clarifiers (declared leakage) are not ranked",
                       "gain_p_holm": "Holm step-down across each run's gains over its baseline",
                       "restoration": "ratio of mean gains over the instances with headroom; percentile bootstrap CI",
                       "paired_test": "two-sided sign-flip permutation test on the instances both runs scored; "
                                      "percentile bootstrap CI of the mean difference (cts_dataset.scoring.stats)",
                       "multiple_comparisons": "Holm step-down over every comparison listed"}}


def write(board: Leaderboard, out: Path) -> dict[str, Path]:
    """leaderboard.md, leaderboard.csv, comparisons.csv and leaderboard.json under ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    paths = {"markdown": out / "leaderboard.md", "csv": out / "leaderboard.csv",
             "comparisons_csv": out / "comparisons.csv", "json": out / "leaderboard.json"}
    paths["markdown"].write_text(render_markdown(board), encoding="utf-8")
    board.rows.to_csv(paths["csv"], index=False)
    board.comparisons.to_csv(paths["comparisons_csv"], index=False)
    paths["json"].write_text(json.dumps(as_json(board), indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return paths
