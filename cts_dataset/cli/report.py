"""`ctsbench report`: compare runs of one protocol (leaderboard, paired tests, plots, a report page)."""

from __future__ import annotations

from pathlib import Path

import click


def require(*modules: str) -> None:
    """Fail with the install line, not a traceback, when the report extra is missing."""
    from importlib.util import find_spec

    missing = [m for m in modules if find_spec(m) is None]
    if missing:
        raise click.ClickException(f"{', '.join(missing)} not installed: pip install 'ctsbench[report]'")


@click.command()
@click.argument("runs", nargs=-1, required=True, type=click.Path(file_okay=False, exists=True, path_type=Path))
@click.option("--out", required=True, type=click.Path(file_okay=False, path_type=Path),
              help="Folder for leaderboard.md/.csv/.json, comparisons.csv, plots/*.png and report.html.")
@click.option("--allow-mixed-protocol", is_flag=True,
              help="Report runs whose preset, judge, dataset revision, searcher, user answerer or rewriter differ "
                   "(refused by default: their numbers do not compare); the report then carries a warning.")
@click.option("--no-html", is_flag=True, help="Skip report.html.")
def report(runs: tuple[Path, ...], out: Path, allow_mixed_protocol: bool, no_html: bool) -> None:
    """A leaderboard of RUNS (finished run folders): per clarifier and k the score with its 95% CI, the
    gain over the baseline (p Holm-adjusted within the run), restoration, unknown, all-unknown and
    region-only rates and cost; paired tests between clarifiers on their common instances with a Holm
    correction; plots and report.html.

    Each k is ranked on the instances every ranked run scored there (a warning names runs whose sets
    differ); reference clarifiers that see hidden information are listed apart, never ranked.
    """
    require("pandas", "matplotlib")
    from cts_dataset.errors import CtsbenchError
    from cts_dataset.report.build import write_report
    from cts_dataset.report.leaderboard import render_markdown

    try:
        board, paths = write_report(list(runs), out, allow_mixed=allow_mixed_protocol, page=not no_html)
    except (CtsbenchError, FileNotFoundError, ValueError) as problem:
        raise click.ClickException(str(problem)) from None
    for warning in board.warnings:
        click.echo(f"warning: {warning}", err=True)
    click.echo(render_markdown(board))
    click.echo(f"wrote {len(paths)} files under {out}" + (f"; open {paths['html']}" if "html" in paths else ""))
