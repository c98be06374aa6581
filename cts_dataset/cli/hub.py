"""`ctsbench hub install|export`: the Hugging Face dataset folders, locally and for upload."""

from __future__ import annotations

from pathlib import Path

import click


@click.group()
def hub() -> None:
    """Make the datasets loadable by name offline, or write the folders to upload."""


@hub.command()
@click.option("--no-verify", is_flag=True, help="Skip the offline check in a fresh process.")
def install(no_verify: bool) -> None:
    """Prepare `ctsbench` and `ctsbench-corpus` in the local HF cache.

    Afterwards `datasets.load_dataset("ctsbench")` and `datasets.load_dataset("ctsbench-corpus")`
    load offline (HF_HUB_OFFLINE=1) from any directory.
    """
    from cts_dataset.hf.install import datasets_cache_root
    from cts_dataset.hf.install import install as run_install

    counts = run_install(verify=not no_verify)
    for name, splits in counts.items():
        rows = ", ".join(f"{split}: {n} rows" for split, n in splits.items())
        click.echo(f"{name}: {rows}")
    click.echo(f"prepared in {datasets_cache_root()}" + ("" if no_verify else "; verified offline by bare name"))


@hub.command()
@click.argument("directory", type=click.Path(file_okay=False, path_type=Path))
def export(directory: Path) -> None:
    """Write DIRECTORY/ctsbench and DIRECTORY/ctsbench-corpus, the exact folders to upload."""
    from cts_dataset.hf.folders import export as run_export

    for name, folder in run_export(directory).items():
        click.echo(f"{name}: {folder}")
    click.echo(f"upload with: hf upload ORG/<name> {directory}/<name> --repo-type dataset")
