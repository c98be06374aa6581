"""`ctsbench export`: a run folder as one table (one row per instance, condition, budget and repeat)."""

from __future__ import annotations

from pathlib import Path

import click


@click.command()
@click.argument("run_folder", type=click.Path(file_okay=False, exists=True, path_type=Path))
@click.option("--format", "kind", type=click.Choice(["csv", "parquet", "jsonl"]), default="csv", show_default=True,
              help="csv writes list columns as JSON text; parquet keeps them as lists.")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path),
              help="The file to write (default: RUN_FOLDER/results.<format>).")
def export(run_folder: Path, kind: str, out: Path | None) -> None:
    """Scores, nugget labels, the dialogue (questions, answers, question types), the rewrite, the search
    (answer, retrieved ids, termination) and the cost of every row of RUN_FOLDER, as `load_run` gives them.
    """
    from cts_dataset.cli.report import require

    require("pandas")
    from cts_dataset.errors import CtsbenchError
    from cts_dataset.report.frame import export as write
    from cts_dataset.report.frame import load_run

    try:
        frame = load_run(run_folder)
        path = write(frame, out or run_folder / f"results.{kind}", kind)
    except (CtsbenchError, FileNotFoundError, ValueError) as problem:
        raise click.ClickException(str(problem)) from None
    click.echo(f"wrote {len(frame)} rows x {len(frame.columns)} columns to {path}")
