"""`ctsbench import-release`: system names of candidate files, label weights given by the user (never
guessed), weights lists that must match the nuggets, archive limits and a swap that keeps the old split.
All on SYNTHETIC archives (tests/release_fixtures.py)."""

from __future__ import annotations

import json
import pathlib
import shutil
import zipfile

import pytest
from click.testing import CliRunner

from cts_dataset.cli import main
from cts_dataset.jsonl import RecordFileError
from cts_dataset.release import importer
from cts_dataset.release.candidates import system_name
from cts_dataset.release.fields import MappingError
from cts_dataset.release.gold import MappingOptions
from cts_dataset.release.importer import ReleaseError, import_release
from cts_dataset.release.store import load_imported
from tests.release_fixtures import write_release_dir, write_release_zip

CANDIDATES = pathlib.Path("results") / "candidates"


@pytest.fixture(autouse=True)
def data_root(tmp_path, monkeypatch):
    """Imports go to a temporary data root, never the user's."""
    root = tmp_path / "data-root"
    monkeypatch.setenv("CTSBENCH_DATA_DIR", str(root))
    return root


def test_system_names_keep_their_dots_and_two_files_of_one_name_are_refused(tmp_path):
    release = write_release_dir(tmp_path, "english")
    folder = release / CANDIDATES
    for system in ("gpt-4.1", "gpt-4.5", "qwen2.5-72b"):
        shutil.copy(folder / "synth1__cand_hard518.jsonl", folder / f"{system}__cand_hard518.jsonl")
    result, _ = import_release(release, dry_run=True)
    assert sorted(result.candidates) == ["gpt-4.1", "gpt-4.5", "qwen2.5-72b", "synth1"]
    assert all(c.system == name for name, found in result.candidates.items() for c in found)
    assert system_name(pathlib.Path("ebk1.v2.jsonl")) == "ebk1.v2"

    shutil.copy(folder / "synth1__cand_hard518.jsonl", folder / "gpt-4.1__cand_hard518_rerun.jsonl")
    with pytest.raises(ReleaseError) as error:
        import_release(release, dry_run=True)
    message = str(error.value)
    assert "gpt-4.1__cand_hard518.jsonl" in message and "gpt-4.1__cand_hard518_rerun.jsonl" in message
    assert "'gpt-4.1'" in message


def test_label_weights_need_a_weight_map_which_the_manifest_records(tmp_path, data_root):
    release = write_release_dir(tmp_path, "tsv_nested")  # TREC-style vital/okay labels
    with pytest.raises(MappingError) as error:
        import_release(release, dry_run=True)
    message = str(error.value)
    assert "gold_public_hard518.jsonl: nugget.weight: the weights are labels ('okay' x" in message
    assert "--weight-map okay=NUMBER --weight-map vital=NUMBER" in message and not data_root.exists()
    with pytest.raises(MappingError, match="--weight-map okay=NUMBER"):  # a partial map names what is left
        import_release(release, MappingOptions(weight_map={"vital": 2.0}), dry_run=True)

    options = MappingOptions(weight_map={"vital": 2.0, "okay": 1.0})
    _, folder = import_release(release, options, install=False)
    assert [n.weight for n in load_imported()[0].nuggets] == [2.0, 1.0]
    weights = json.loads((folder / "manifest.json").read_text())["weights"]
    assert weights == {"weight_map": {"vital": 2.0, "okay": 1.0}, "labels_found": {"vital": 5, "okay": 3},
                       "default_weight": None}
    assert "numbered at import (--weight-map, in manifest.json): vital = 2, okay = 1." in (folder / "README.md").read_text()

    shown = CliRunner().invoke(main, ["import-release", str(release), "--dry-run", "--weight-map", "Vital=2,okay=1"])
    assert shown.exit_code == 0, shown.output
    assert "nugget weights: vital=2 (x5), okay=1 (x3) (--weight-map)" in shown.output
    bad = CliRunner().invoke(main, ["import-release", str(release), "--dry-run", "--weight-map", "vital"])
    assert bad.exit_code == 1 and "--weight-map 'vital': expected LABEL=NUMBER" in bad.output


def test_a_weights_list_that_does_not_match_the_nuggets_is_an_error_naming_file_line_and_field(tmp_path):
    release = write_release_dir(tmp_path, "parallel_lists")  # plain-string nuggets, parallel weights lists
    gold = release / "data" / "gold_public_hard518.jsonl"
    records = [json.loads(line) for line in gold.read_text(encoding="utf-8").splitlines()]
    records[1]["weights"] = records[1]["weights"][:1]  # two nuggets, one weight
    gold.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    with pytest.raises(RecordFileError) as error:  # --default-weight must not fill the gap silently
        import_release(release, MappingOptions(default_weight=1.0), dry_run=True)
    [problem] = error.value.problems
    assert (problem.file, problem.line, problem.field) == (str(gold), 2, "weights")
    assert "1 entries for 2 nuggets" in problem.message


def test_an_archive_over_the_member_or_size_limit_is_refused_before_extraction(tmp_path, monkeypatch, data_root):
    archive = write_release_zip(tmp_path / "release.zip", "english")
    with zipfile.ZipFile(archive) as opened:
        members, size = len(opened.infolist()), sum(m.file_size for m in opened.infolist())
    monkeypatch.setattr(importer, "MAX_MEMBERS", members - 1, raising=False)
    with pytest.raises(ReleaseError, match=f"{members} members, more than the {members - 1} an import accepts"):
        import_release(archive, dry_run=True)
    monkeypatch.setattr(importer, "MAX_MEMBERS", members, raising=False)
    monkeypatch.setattr(importer, "MAX_UNPACKED_BYTES", size - 1, raising=False)
    with pytest.raises(ReleaseError, match="bytes once unpacked, more than the"):
        import_release(archive, dry_run=True)
    monkeypatch.setattr(importer, "MAX_UNPACKED_BYTES", size, raising=False)
    result, _ = import_release(archive, dry_run=True)
    assert len(result.instances) == 4


def test_a_failed_swap_keeps_the_split_that_was_there(tmp_path, monkeypatch, data_root):
    _, folder = import_release(write_release_dir(tmp_path / "a", "english"), install=False)
    rename = pathlib.Path.rename

    def refuse_the_swap_in(self, target):
        if pathlib.Path(target) == folder and self.name != f".{folder.name}.old":
            raise OSError("disk went away")
        return rename(self, target)

    monkeypatch.setattr(pathlib.Path, "rename", refuse_the_swap_in)
    with pytest.raises(OSError, match="disk went away"):
        import_release(write_release_dir(tmp_path / "b", "parallel_lists"), install=False)
    assert [i.id for i in load_imported()] == ["q1", "q2", "q3", "q4"]
    assert not [p for p in data_root.iterdir() if p.name.startswith(".")]


def test_score_on_release_files_with_label_weights_takes_the_weight_map(tmp_path):
    release = write_release_dir(tmp_path, "tsv_nested")
    gold = release / "data" / "gold_public_hard518.jsonl"
    candidates = release / "results" / "candidates" / "synth1__cand_hard518.jsonl"
    refused = CliRunner().invoke(main, ["score", "--gold", str(gold), "--candidates", str(candidates),
                                        "--out-dir", str(tmp_path / "refused")])
    assert refused.exit_code != 0 and "--weight-map" in refused.output
    scored = CliRunner().invoke(main, ["score", "--gold", str(gold), "--candidates", str(candidates),
                                       "--out-dir", str(tmp_path / "scored"), "--weight-map", "vital=2,okay=1"])
    assert scored.exit_code == 0, scored.output
    assert json.loads((tmp_path / "scored" / "summary.json").read_text())["n_scored_items"] > 0
