"""`ctsbench judge-check`: measure a coverage judge against labelled (output, nugget) pairs."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click


def _identity_line(report: dict[str, Any]) -> str:
    identity = report["judge_identity"]
    parts = [f"judge: {report['judge']}"]
    if report.get("judge_prompt"):
        parts.append(f"prompt {report['judge_prompt']} (hash {report['judge_prompt_hash']})")
    model = identity.get("model") if isinstance(identity, dict) else None
    if isinstance(model, dict) and model.get("identity"):
        parts.append("model " + json.dumps(model["identity"], sort_keys=True, ensure_ascii=False))
    return "; ".join(parts)


def render(report: dict[str, Any]) -> str:
    """The report as readable text: the headline numbers, the confusion matrix and per-label P/R."""
    from cts_dataset.markdown import fmt, table
    from cts_dataset.scoring.agreement import ORDERED_LABELS

    labels, bias, runs, cost = report["labels"], report["bias"], report["runs"], report["cost"]
    counts = ", ".join(f"{label} {n}" for label, n in report["label_counts"].items())
    low, high = labels["weighted_kappa_ci95"]
    kappa = fmt(labels["weighted_kappa"], 3) + (f" [95% CI {fmt(low, 3)}, {fmt(high, 3)}]" if low is not None else "")
    tau = (f"{fmt(runs['kendall_tau'], 3)} (Spearman {fmt(runs['spearman'], 3)}) over {runs['n_systems']} systems"
           if runs["reason"] is None else f"n/a: {runs['reason']}")
    calls = (f"; {cost['n_calls']} calls, {cost['prompt_tokens']}+{cost['completion_tokens']} tokens"
             if cost["n_calls"] else "")
    if cost["cache_hits"] is not None:
        calls += f", {cost['cache_hits']} cached / {cost['cache_misses']} sent"
    accuracy = None if labels["accuracy"] is None else 100 * labels["accuracy"]
    lines = [
        _identity_line(report),
        (f"pairs: {report['pairs_file']} (sha256 {report['pairs_sha256']}), split {report['split']}: "
         f"{report['n_pairs']} distinct pairs ({counts}), {report['n_lines']} lines"), "",
        *table(["metric", "value"], [
            ["accuracy", f"{fmt(accuracy, 1)}% of {labels['n_compared']} labelled pairs"],
            [f"weighted kappa ({labels['kappa_weights']} weights)", kappa],
            ["unweighted kappa", fmt(labels["unweighted_kappa"], 3)],
            ["bias (judge - labels, restore points)", f"{fmt(bias['bias_100'], 2)} over {bias['n']} {bias['over']}"],
            [f"Kendall tau ({runs['kendall_variant']})", tau],
            ["seconds per label", f"{fmt(cost['seconds_per_label'], 4)} ({fmt(cost['seconds'], 2)} s{calls})"],
            ["unscored by the judge", str(labels["n_unscored"])],
        ]), "",
        "confusion (rows = reference label, columns = judge label):",
        *table(["label \\ judge", *ORDERED_LABELS],
               [[h, *(labels["confusion"][h][j] for j in ORDERED_LABELS)] for h in ORDERED_LABELS]), "",
        *table(["label", "precision", "recall"],
               [[label, fmt(labels["precision"][label], 3), fmt(labels["recall"][label], 3)] for label in ORDERED_LABELS]),
    ]
    return "\n".join(lines)


@click.command("judge-check")
@click.option("--judge", "judge_spec", required=True,
              help="lexical | embedding | constant:full|partial|none | a model spec for the LLM judge.")
@click.option("--pairs", "pairs_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Labelled pairs JSONL (output, nugget, label, ...). Default: the shipped calibration set.")
@click.option("--split", type=click.Choice(["heldout", "dev", "all"]), default=None,
              help="Pairs to measure on. Default: heldout when the file has a split field, else all.")
@click.option("--judge-prompt", default=None, help="LLM judge: a shipped judge prompt id or a YAML prompt file.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), help="Also write the report as JSON here.")
def judge_check(judge_spec: str, pairs_path: Path | None, split: str | None, judge_prompt: str | None,
                as_json: bool, out: Path | None) -> None:
    """Accuracy, linear-weighted kappa (bootstrap 95% CI), confusion, per-label precision/recall, restore
    bias and system-ranking agreement of a judge against reference labels, with its cost per label.

    LLM judge calls go through the model's response cache: a rerun, or a run after a kill, sends only
    what the cache lacks.
    """
    from cts_dataset.errors import CtsbenchError
    from cts_dataset.jsonl import write_json
    from cts_dataset.judges import make_judge
    from cts_dataset.judges.check import check_judge
    from cts_dataset.judges.factory import is_model_spec
    from cts_dataset.judges.pairs import PAIRS_ENV, default_pairs_path, read_pairs

    if pairs_path is None:
        pairs_path = default_pairs_path()
        if not pairs_path.is_file():
            click.echo(f"no shipped calibration set is installed ({pairs_path} is missing; ${PAIRS_ENV} can "
                       "name another): pass --pairs FILE.jsonl", err=True)
            raise SystemExit(2)
    if judge_prompt and not is_model_spec(judge_spec):
        raise click.UsageError(f"--judge-prompt is for the LLM judge; the {judge_spec} judge has no prompt")
    try:
        pairs_file = read_pairs(pairs_path)
        judge = make_judge(judge_spec, **({"prompt_id": judge_prompt} if judge_prompt else {}))
        report = check_judge(judge, pairs_file, split, progress=True).as_dict()
    except (CtsbenchError, ValueError, ImportError) as problem:
        raise click.ClickException(str(problem)) from None
    if out:
        write_json(out, report)
    click.echo(json.dumps(report, indent=2, ensure_ascii=False) if as_json else render(report))
