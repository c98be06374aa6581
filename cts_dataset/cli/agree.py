"""`ctsbench agree`: how far two judges agree, over nugget labels and over system rankings."""

from __future__ import annotations

import json
from pathlib import Path

import click


@click.command()
@click.option("--a", "dirs_a", multiple=True, required=True, type=click.Path(file_okay=False, exists=True, path_type=Path),
              help="A folder scored by judge A (`ctsbench score --out-dir`); repeat once per system.")
@click.option("--b", "dirs_b", multiple=True, required=True, type=click.Path(file_okay=False, exists=True, path_type=Path),
              help="The folder of the same system scored by judge B; paired with --a in order.")
@click.option("--name", "names", multiple=True, help="System names, in order (default: the --a folder names).")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), help="Also write the result as JSON here.")
def agree(dirs_a: tuple[Path, ...], dirs_b: tuple[Path, ...], names: tuple[str, ...], out: Path | None) -> None:
    """Percent agreement and Cohen's kappa over nuggets (per system and pooled), and Spearman/Kendall
    correlation of the systems' mean restore_score_100 under the two judges.

    Only nuggets both judges labelled on the same inputs count; unscored nuggets are left out.
    """
    from cts_dataset.markdown import fmt
    from cts_dataset.scoring.agree_runs import agree as run_agree

    if len(dirs_a) != len(dirs_b):
        raise click.UsageError(f"--a given {len(dirs_a)} times but --b {len(dirs_b)} times")
    try:
        result = run_agree(list(zip(dirs_a, dirs_b, strict=True)), list(names) or None)
    except ValueError as problem:
        raise click.ClickException(str(problem)) from None
    for row in result["systems"]:
        if row["judge_names"][0] == row["judge_names"][1]:
            click.echo(f"warning: {row['system']}: both folders were judged by {row['judge_names'][0]}", err=True)
        click.echo(f"{row['system']}: {row['n_compared']} nuggets, agreement {fmt(row['percent_agreement'], 1)}%, "
                   f"kappa {fmt(row['cohen_kappa'], 3)}, means {fmt(row['mean_a'], 2)} vs {fmt(row['mean_b'], 2)}"
                   + (f", {len(row['items_not_aligned'])} item(s) not aligned" if row["items_not_aligned"] else ""))
    pooled, rank = result["pooled"], result["rank"]
    click.echo(f"pooled: {pooled['n_compared']} nuggets, agreement {fmt(pooled['percent_agreement'], 1)}%, "
               f"kappa {fmt(pooled['cohen_kappa'], 3)}")
    click.echo(f"ranking of {len(rank['systems'])} system(s): Spearman {fmt(rank['spearman'], 3)}, "
               f"Kendall tau {fmt(rank['kendall_tau'], 3)}")
    if out:
        out.write_text(json.dumps(result, indent=2) + "\n")
