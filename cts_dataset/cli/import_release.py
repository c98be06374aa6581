"""`ctsbench import-release ZIP|DIR`: the official Clarify-Then-Search release as the local hard518 split."""

from __future__ import annotations

from pathlib import Path

import click


@click.command("import-release")
@click.argument("source", type=click.Path(path_type=Path))
@click.option("--queries", type=click.Path(dir_okay=False, path_type=Path),
              help="The queries CSV/TSV, if not at data/hard_518_queries.csv.")
@click.option("--gold", type=click.Path(dir_okay=False, path_type=Path),
              help="The gold JSONL, if not at data/gold_public_hard518.jsonl.")
@click.option("--map", "mappings", multiple=True, metavar="ROLE=FIELD",
              help="Name the field of a role, e.g. --map queries.fused_query=意图 --map nugget.weight=imp.")
@click.option("--default-weight", type=float, help="Weight of nuggets that have none (else such files stop the import).")
@click.option("--weight-map", "weight_map", multiple=True, metavar="LABEL=NUMBER",
              help="The number of a weight given as a label, e.g. --weight-map vital=1 --weight-map okay=0.5 "
                   "(required for label weights: their numbers are never guessed; recorded in manifest.json).")
@click.option("--no-sources", is_flag=True, help="Accept nuggets without source ids.")
@click.option("--allow-unmatched", is_flag=True, help="Skip query rows without gold (and gold without a query row).")
@click.option("--skip-candidates", is_flag=True, help="Do not import results/candidates/*.jsonl.")
@click.option("--dry-run", is_flag=True, help="Map and validate only; write nothing.")
@click.option("--no-verify", is_flag=True, help="Skip the offline load by name in a fresh process.")
def import_release(source: Path, queries: Path | None, gold: Path | None, mappings: tuple[str, ...],
                   default_weight: float | None, weight_map: tuple[str, ...], no_sources: bool,
                   allow_unmatched: bool, skip_candidates: bool, dry_run: bool, no_verify: bool) -> None:
    """Import SOURCE (clarify-then-search-518-release.zip or its release/ folder) as the hard518 split.

    Fields are mapped by their likely English or Chinese names; when one cannot be mapped the import
    stops, printing the file, the fields found and the fields needed, and writes nothing. Afterwards
    `datasets.load_dataset("ctsbench-hard518")` loads offline from any directory, `ctsbench run
    --dataset hard518` runs it, and `ctsbench score` scores the imported candidates.
    """
    from cts_dataset.errors import CtsbenchError
    from cts_dataset.release.fields import (
        CANDIDATE_ROLES,
        GOLD_ROLES,
        NUGGET_ROLES,
        QUERY_ROLES,
        known_roles,
        parse_overrides,
    )
    from cts_dataset.release.gold import MappingOptions
    from cts_dataset.release.importer import import_release as run_import
    from cts_dataset.release.values import parse_weight_map

    try:
        overrides = parse_overrides(mappings, known_roles(QUERY_ROLES, GOLD_ROLES, NUGGET_ROLES, CANDIDATE_ROLES))
        options = MappingOptions(overrides, default_weight, no_sources, parse_weight_map(weight_map))
        result, folder = run_import(source, options, queries=queries, gold=gold, allow_unmatched=allow_unmatched,
                                    skip_candidates=skip_candidates, dry_run=dry_run, verify=not no_verify)
    except CtsbenchError as error:
        raise click.ClickException(f"{error}\nnothing was written") from None
    for name, lines in result.mapping.items():
        click.echo(f"{name}: " + "; ".join(lines))
    labels = result.weights.get("labels_found") or {}
    if labels:
        click.echo("nugget weights: " + ", ".join(f"{label}={result.weights['weight_map'][label]:g} (x{count})"
                                                  for label, count in labels.items()) + " (--weight-map)")
    for warning in result.warnings:
        click.echo(f"warning: {warning}", err=True)
    candidates = ", ".join(f"{s} ({len(c)})" for s, c in result.candidates.items()) or "none"
    click.echo(f"hard518: {len(result.instances)} instances, {result.annotated} with removed-constraint "
               f"annotations; candidates: {candidates}")
    if folder is None:
        click.echo("dry run: nothing written")
        return
    click.echo(f"wrote {folder} (data/hard518.jsonl, gold.jsonl, candidates/, manifest.json, README.md)")
    click.echo('load with datasets.load_dataset("ctsbench-hard518") (offline, any directory)'
               + ("" if no_verify else "; verified in a fresh offline process"))
    click.echo(f"run with: ctsbench run --dataset hard518 ...; score with: ctsbench score --gold {folder}/gold.jsonl "
               f"--candidates {folder}/candidates/<system>.jsonl --out-dir DIR")
