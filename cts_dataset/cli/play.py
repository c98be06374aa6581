"""`ctsbench play`: a person takes the user-answerer (or the clarifier) role in the terminal."""

from __future__ import annotations

from pathlib import Path

import click


@click.command(context_settings={"show_default": True})
@click.option("--role", type=click.Choice(["user_answerer", "clarifier"]), default="user_answerer",
              help="The role the person plays; the preset's models play the others.")
@click.option("--ids", required=True, help="Comma-separated instance ids, e.g. demo-0001,demo-0002.")
@click.option("--dataset", default="demo", help="A shipped split or an instances JSONL file.")
@click.option("--budgets", default="1,2,3", help="Clarification budgets k.")
@click.option("--clarifier", help="The clarifier when the person answers (default: the preset's default).")
@click.option("--user-answerer", help="The user answerer when the person asks.")
@click.option("--rewriter", help="Override the preset's rewriter.")
@click.option("--preset", default="cpu-smoke", help="The protocol preset of the other roles.")
@click.option("--out-dir", type=click.Path(file_okay=False, path_type=Path), required=True,
              help="The run folder (the same files as `ctsbench run`; resumed if it exists).")
def play(role: str, ids: str, dataset: str, budgets: str, clarifier: str | None, user_answerer: str | None,
         rewriter: str | None, preset: str, out_dir: Path) -> None:
    """Play one role of the protocol for chosen instances; every record is written as in a run."""
    from cts_dataset.clarifiers.human import HumanAnswerer, HumanClarifier
    from cts_dataset.errors import CtsbenchError
    from cts_dataset.pipeline.config import load_config
    from cts_dataset.pipeline.experiment import Experiment
    from cts_dataset.pipeline.summary import render_markdown

    try:
        config = load_config(
            None, preset=preset, dataset=dataset, ids=[i.strip() for i in ids.split(",") if i.strip()],
            budgets=[int(b) for b in budgets.replace(",", " ").split()], clarifier=clarifier,
            user_answerer=user_answerer, rewriter=rewriter, out_dir=out_dir,
            answer_mode="off" if role == "user_answerer" else None)
        if role == "clarifier":
            experiment = Experiment(config, clarifier=HumanClarifier(), progress=False)
        else:
            experiment = Experiment(config, models={"user_answerer": HumanAnswerer()}, progress=False)
        summary = experiment.run()
    except (CtsbenchError, ValueError, FileNotFoundError) as error:
        raise click.ClickException(str(error)) from None
    click.echo(render_markdown(summary))
    click.echo(f"run folder: {experiment.folder}")
