"""`ctsbench diagnose`: recompute a finished run's diagnostics from its folder, without any model call."""

from __future__ import annotations

import json
from pathlib import Path

import click


@click.command()
@click.argument("run_folder", type=click.Path(file_okay=False, exists=True, path_type=Path))
@click.option("--llm-classifier", "llm_spec", metavar="SPEC",
              help="Also label the questions with this model (enum-constrained) and report its agreement with the rules.")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path),
              help="Folder for diagnostics.json and diagnostics.md (default: the run folder).")
def diagnose(run_folder: Path, llm_spec: str | None, out: Path | None) -> None:
    """Question types and the region-only rate, constraint elicitation, per-question utility and
    restoration rate, cost per role and condition, and search statistics of RUN_FOLDER.

    The instances come from the dataset and limit in the folder's config.json.
    """
    from cts_dataset.diagnostics import diagnose as run_diagnose
    from cts_dataset.diagnostics import render_markdown
    from cts_dataset.errors import CtsbenchError

    try:
        classifier = None
        if llm_spec:
            from cts_dataset.diagnostics.llm import LLMClassifier

            classifier = LLMClassifier.from_spec(llm_spec)
        found = run_diagnose(run_folder, llm_classifier=classifier)
    except (CtsbenchError, FileNotFoundError, ValueError) as problem:
        raise click.ClickException(str(problem)) from None
    target = out or run_folder
    target.mkdir(parents=True, exist_ok=True)
    markdown = render_markdown(found)
    (target / "diagnostics.json").write_text(json.dumps(found, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    (target / "diagnostics.md").write_text(markdown, encoding="utf-8")
    click.echo(markdown)
    click.echo(f"wrote {target / 'diagnostics.json'} and {target / 'diagnostics.md'}")
