"""`ctsbench check-data [FILE]`: content checks of an instance file and its data report."""

from __future__ import annotations

from pathlib import Path

import click


@click.command("check-data")
@click.argument("file", required=False, metavar="[FILE or SPLIT]")
@click.option("--report", "report_path", type=click.Path(dir_okay=False, path_type=Path), help="Also write the markdown report here.")
@click.option("-k", "k", default=10, show_default=True, help="Cut-off for the retrieval headroom recall.")
@click.option("--min-fused", default=0.8, show_default=True, help="Lowest acceptable mean fused recall@k.")
@click.option("--min-gap", default=0.3, show_default=True, help="Lowest acceptable fused - blurred recall@k.")
@click.option("--evidence", "evidence_file", type=click.Path(dir_okay=False, path_type=Path),
              help="Evidence records (JSONL, one per instance: readings and a supporting sentence per nugget and "
                   "source); default: FILE's name with .evidence.jsonl, when that file exists.")
def check_data(file: str | None, report_path: Path | None, k: int, min_fused: float, min_gap: float,
               evidence_file: Path | None) -> None:
    """Check instances beyond the schema and print the data report: of FILE, or of a shipped split by name
    (demo, test, smoke; default: demo). A split's name wins over a file of that name, as in `ctsbench run`.

    Checks: cited documents exist; each removed constraint occurs in the fused query and not in the
    blurred one; no near-duplicates; nuggets grounded in their sources; BM25 retrieval headroom; with
    evidence records, each nugget's supporting sentence is word for word in each cited document and the
    blurred query has two readings. Exits 1 on any error.
    """
    from cts_dataset.corpus import corpus_index
    from cts_dataset.data import SPLITS, evidence_beside, instances_path
    from cts_dataset.quality.report import build_report, render_markdown

    path = instances_path(file or "demo")
    if not path.is_file():
        raise click.ClickException(f"{path}: no such file (shipped splits: {', '.join(SPLITS)})")
    beside = evidence_beside(path)
    evidence_path = evidence_file or (beside if beside.is_file() else None)
    instances = _read(path, "instance")
    evidence = _read(evidence_path, "evidence") if evidence_path else None
    report = build_report(instances, corpus_index(), k=k, min_fused=min_fused, min_gap=min_gap, evidence=evidence,
                          evidence_file=str(evidence_path) if evidence_path else None)
    markdown = render_markdown(report, title=f"Data report: {path.name}")
    click.echo(markdown)
    if report_path:
        report_path.write_text(markdown, encoding="utf-8")
    if not report.ok:
        raise SystemExit(1)


def _read(path: Path, kind: str) -> list:
    """A record file's records, or an error naming the file and every bad line."""
    from cts_dataset.jsonl import RecordFileError, read_records

    try:
        return read_records(path, kind)
    except RecordFileError as error:
        raise click.ClickException(f"{path}: {error}") from None
