"""`ctsbench score`: judge a candidates file against gold into a folder (the official eval_gold.py's job)."""

from __future__ import annotations

from pathlib import Path

import click


@click.command()
@click.option("--gold", "gold", required=True, type=click.Path(dir_okay=False, path_type=Path),
              help="Gold JSONL (id, query, nuggets), or an instances file.")
@click.option("--candidates", required=True, type=click.Path(dir_okay=False, path_type=Path),
              help="Candidate JSONL (id, answer): the search outputs to score.")
@click.option("--out-dir", required=True, type=click.Path(file_okay=False, path_type=Path),
              help="Folder for items.jsonl, judge_calls.jsonl, summary.json and summary.md; reruns resume here.")
@click.option("--judge", "judge_spec", default="lexical", show_default=True,
              help="lexical | embedding | a model spec for the LLM judge (e.g. openai:ernie-4.5-turbo-128k).")
@click.option("--judge-prompt", default=None,
              help="LLM judge: a shipped judge prompt id (default coverage-v1) or a YAML file of that format.")
@click.option("--nuggets-per-call", default=10, show_default=True, help="LLM judge: nuggets in one call.")
@click.option("--max-attempts", default=3, show_default=True, help="LLM judge: attempts before a chunk is unscored.")
@click.option("--items-per-batch", default=32, show_default=True,
              help="Items judged (and written) together; a killed run loses at most one batch.")
@click.option("--retry-unscored", is_flag=True, help="Judge again the items that have unscored nuggets.")
@click.option("--seed", default=0, show_default=True, help="Seed of the bootstrap interval.")
@click.option("--weight-map", "weight_map", multiple=True, metavar="LABEL=NUMBER",
              help="Release files only: the number of a nugget weight given as a label (e.g. --weight-map vital=1); "
                   "labels are never guessed.")
def score(gold: Path, candidates: Path, out_dir: Path, judge_spec: str, judge_prompt: str | None,
          nuggets_per_call: int, max_attempts: int, items_per_batch: int, retry_unscored: bool, seed: int,
          weight_map: tuple[str, ...]) -> None:
    """Score CANDIDATES against GOLD: per-item labels and scores, and a summary with a 95% CI.

    Lines that break the schema are reported as `file:line: field: problem` and skipped (exit status 1
    after everything else is written); candidates without gold and gold without a candidate are listed.
    A rerun resumes the folder, and refuses a judge of another identity (model, prompt, settings).
    """
    from cts_dataset.errors import CtsbenchError
    from cts_dataset.judges import OFFLINE_JUDGES, make_judge
    from cts_dataset.judges.factory import is_model_spec
    from cts_dataset.scoring.score_run import run_score

    options: dict[str, object] = {}
    if not is_model_spec(judge_spec):
        if judge_prompt:
            raise click.UsageError(f"--judge-prompt is for the LLM judge; the {judge_spec} judge has no prompt")
    else:
        options = {"batch_size": nuggets_per_call, "max_attempts": max_attempts}
        if judge_prompt:
            options["prompt_id"] = judge_prompt
    try:
        judge = make_judge(judge_spec, **options)
    except (CtsbenchError, ValueError, ImportError) as problem:
        raise click.ClickException(str(problem)) from None
    if judge_spec in OFFLINE_JUDGES:
        click.echo(f"note: the {judge_spec} judge is for smoke runs and cheap bounds, not published numbers", err=True)
    try:
        from cts_dataset.release.candidates import (
            adapt_score_inputs,  # the release's own gold/candidate files
        )
        from cts_dataset.release.gold import MappingOptions
        from cts_dataset.release.values import parse_weight_map

        mapping = MappingOptions(weight_map=parse_weight_map(weight_map))
        gold, candidates = adapt_score_inputs(gold, candidates, out_dir, note=lambda m: click.echo(m, err=True),
                                              options=mapping)
        summary = run_score(gold, candidates, out_dir, judge, batch_items=items_per_batch,
                            retry_unscored=retry_unscored, seed=seed)
    except (CtsbenchError, ValueError) as problem:
        raise click.ClickException(str(problem)) from None
    for line in summary["input_problems"]:
        click.echo(line, err=True)
    for key, what in (("candidates_without_gold", "candidate(s) without gold"),
                      ("gold_without_candidate", "gold record(s) without a candidate")):
        if summary[key]:
            shown = ", ".join(summary[key][:10]) + (" ..." if len(summary[key]) > 10 else "")
            click.echo(f"warning: {len(summary[key])} {what}, not scored: {shown}", err=True)
    if summary.get("failed_items"):
        click.echo(f"warning: {len(summary['failed_items'])} item(s) unscored because a judge request failed; "
                   "run the same command again to judge them again", err=True)
    value = summary["restore_score_100"]
    low, high = summary["restore_score_100_ci95"]
    interval = f" (95% CI {low:.2f}-{high:.2f})" if low is not None else ""
    click.echo(f"restore_score_100 = {'n/a' if value is None else f'{value:.2f}'}{interval} over "
               f"{summary['n_scored_items']} scored item(s); {summary['n_unscored_items']} unscored item(s), "
               f"{summary['n_unscored_nuggets']} unscored nugget(s); judged {summary['n_judged_this_run']} now")
    click.echo(f"wrote {out_dir}/summary.json and summary.md")
    if summary["input_problems"]:
        raise SystemExit(1)
