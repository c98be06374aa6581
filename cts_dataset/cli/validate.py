"""`ctsbench validate FILE...`: check record files and report `file:line: field: problem`."""

from __future__ import annotations

import click

from cts_dataset.records import RECORD_KINDS


@click.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option("--kind", type=click.Choice(sorted(RECORD_KINDS)), help="Record kind (guessed from the keys if not given).")
@click.option("--max-problems", default=50, show_default=True, help="Problems to print per file.")
def validate(files: tuple[str, ...], kind: str | None, max_problems: int) -> None:
    """Check JSONL files of instances, gold records, corpus documents, candidates or evidence records.

    Exits 1 when any file has a problem; each problem is printed as `file:line: field: problem`.
    """
    from cts_dataset.jsonl import check_records

    failed = False
    for path in files:
        found_kind, good, problems = check_records(path, kind)
        for problem in problems[:max_problems]:
            click.echo(str(problem), err=True)
        if len(problems) > max_problems:
            click.echo(f"{path}: ... and {len(problems) - max_problems} more problem(s)", err=True)
        if problems:
            failed = True
            click.echo(f"{path}: FAILED: {len(problems)} problem(s), {len(good)} good {found_kind or 'record'}(s)")
        else:
            click.echo(f"{path}: ok: {len(good)} {found_kind or 'record'}(s)")
    if failed:
        raise SystemExit(1)
