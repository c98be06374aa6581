"""The dataset card's reference leaderboard is the committed report of the whole track, on the shipped data."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from cts_dataset.hf.regenerate import TrackReportError, leaderboard_body, track_leaderboard_path

REPORT = Path(__file__).resolve().parents[1] / "docs" / "track_report"


def test_the_cards_leaderboard_is_the_committed_track_report_of_the_shipped_data():
    # leaderboard_body refuses a report of another split or data revision: a change to the data fails here
    # until the track is rerun (the commands are in the card's section).
    assert track_leaderboard_path().read_text(encoding="utf-8") == leaderboard_body(REPORT), (
        "run: python -m cts_dataset.hf.regenerate --track-report docs/track_report")


@pytest.mark.parametrize(("field", "value"), [("dataset", "smoke"), ("dataset_revision", "0000000000000000")])
def test_a_report_of_another_split_or_revision_is_refused(tmp_path, field, value):
    folder = tmp_path / "report"
    folder.mkdir()
    shutil.copy(REPORT / "leaderboard.md", folder)
    summary = json.loads((REPORT / "leaderboard.json").read_text(encoding="utf-8"))
    summary["protocol"][field] = value
    (folder / "leaderboard.json").write_text(json.dumps(summary), encoding="utf-8")
    with pytest.raises(TrackReportError, match=rf"protocol\.{field} is '{value}'"):
        leaderboard_body(folder)


def test_a_folder_without_a_report_names_the_command_that_writes_one(tmp_path):
    with pytest.raises(TrackReportError, match=r"leaderboard\.json: no such file .*ctsbench report"):
        leaderboard_body(tmp_path)
