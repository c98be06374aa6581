"""The `ctsbench` command: thin commands over the library (each imports what it needs lazily)."""

from __future__ import annotations

import click

from cts_dataset import __version__
from cts_dataset.cli.agree import agree
from cts_dataset.cli.build import build
from cts_dataset.cli.check_data import check_data
from cts_dataset.cli.diagnose import diagnose
from cts_dataset.cli.export import export
from cts_dataset.cli.hub import hub
from cts_dataset.cli.import_release import import_release
from cts_dataset.cli.info import info
from cts_dataset.cli.judge_check import judge_check
from cts_dataset.cli.models import models
from cts_dataset.cli.play import play
from cts_dataset.cli.report import report
from cts_dataset.cli.run import run
from cts_dataset.cli.score import score
from cts_dataset.cli.search import search
from cts_dataset.cli.validate import validate


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="ctsbench")
def main() -> None:
    """ctsbench: the Clarify-Then-Search benchmark."""


main.add_command(validate)
main.add_command(hub)
main.add_command(info)
main.add_command(check_data)
main.add_command(run)
main.add_command(score)
main.add_command(search)
main.add_command(agree)
main.add_command(models)
main.add_command(diagnose)
main.add_command(report)
main.add_command(export)
main.add_command(import_release)
main.add_command(build)
main.add_command(play)
main.add_command(judge_check)
