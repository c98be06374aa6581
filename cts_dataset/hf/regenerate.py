"""Regenerate the derived files kept in the repository: `python -m cts_dataset.hf.regenerate`.

The schema files and the repository's dataset folder card are derived from the records, the
features and ``cards/``; tests fail when these files drift from their sources.

``--track-report DIR`` first takes the card's reference leaderboard from a `ctsbench report` folder
of the whole track (``DIR/leaderboard.md``), refusing a report of another split or data revision.
"""

from __future__ import annotations

import argparse
import json
from importlib import resources
from pathlib import Path

from cts_dataset.data import DATASET_NAME, dataset_revision
from cts_dataset.hf.folders import TRACK_LEADERBOARD, TRACK_SPLIT, instances_card
from cts_dataset.schemas import write_schemas


def repository_card_path() -> Path:
    return Path(str(resources.files("cts_dataset.loaders").joinpath(DATASET_NAME, "README.md")))


def track_leaderboard_path() -> Path:
    return Path(str(resources.files("cts_dataset.cards").joinpath(TRACK_LEADERBOARD)))


class TrackReportError(ValueError):
    """A report folder that cannot be the card's reference leaderboard."""


def leaderboard_body(report: Path) -> str:
    """The leaderboard of a report folder, without its title, checked to be of the shipped track."""
    summary, table = report / "leaderboard.json", report / "leaderboard.md"
    for path in (summary, table):
        if not path.is_file():
            raise TrackReportError(f"{path}: no such file (write it with `ctsbench report RUNS --out {report}`)")
    protocol = json.loads(summary.read_text(encoding="utf-8")).get("protocol")
    if not isinstance(protocol, dict):
        raise TrackReportError(f"{summary}: no protocol object: not a `ctsbench report` leaderboard")
    expected = {"dataset": TRACK_SPLIT, "dataset_revision": dataset_revision(TRACK_SPLIT)}
    for field, value in expected.items():
        if protocol.get(field) != value:
            raise TrackReportError(f"{summary}: protocol.{field} is {protocol.get(field)!r}, the shipped track's is "
                                   f"{value!r}: rerun the track (the commands are in the dataset card, under "
                                   f"'Reference leaderboard on `{TRACK_SPLIT}`')")
    lines = table.read_text(encoding="utf-8").splitlines()
    if lines and lines[0].startswith("# "):
        lines = lines[1:]
    return "\n".join(lines).strip() + "\n"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m cts_dataset.hf.regenerate", description=__doc__.split("\n\n")[0])
    parser.add_argument("--track-report", type=Path, help="a `ctsbench report` folder of the whole track")
    args = parser.parse_args(argv)
    if args.track_report is not None:
        path = track_leaderboard_path()
        path.write_text(leaderboard_body(args.track_report), encoding="utf-8")
        print(path)
    for path in write_schemas():
        print(path)
    path = repository_card_path()
    path.write_text(instances_card(), encoding="utf-8")
    print(path)


if __name__ == "__main__":
    main()
