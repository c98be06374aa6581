"""The shipped track: `test` (518 instances) and `smoke` (20 of them) are exactly what the assembly rule makes
from the second-read staging, pass every data check with evidence for every nugget, and keep the mix the
track promises; `demo` stays as first published."""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from cts_dataset.data import dataset_revision, evidence_path, load, split_path, stratified_sample
from cts_dataset.jsonl import read_records
from cts_dataset.quality.headroom import gold_documents
from tests.conftest import REPO, run_cli

ASSEMBLE = REPO / "authoring" / "track518" / "assemble.py"
PROVENANCE = REPO / "authoring" / "track518" / "track_ids.tsv"
STAGING = REPO / "authoring" / "track518"
STAGED = {"demo": STAGING / "demo.jsonl", "new": STAGING / "new.jsonl",
          "rework": STAGING / "headroom" / "instances.jsonl", "growth": STAGING / "growth" / "instances.jsonl"}
# The demo split as first published: its figures (README, cards) were measured on these bytes.
DEMO_REVISION = "093234aa265c115d"


def _assemble(out: Path, ids: Path) -> None:
    result = subprocess.run([sys.executable, str(ASSEMBLE), "--out", str(out), "--ids", str(ids)],
                            check=False, cwd=REPO, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_the_shipped_splits_are_exactly_what_the_assembly_rule_makes(tmp_path):
    shutil.copyfile(PROVENANCE, tmp_path / "ids.tsv")  # the ids it fixes are read back
    _assemble(tmp_path, tmp_path / "ids.tsv")
    for split in ("test", "smoke"):
        for shipped in (split_path(split), evidence_path(split)):
            assert (tmp_path / shipped.name).read_bytes() == shipped.read_bytes(), f"{shipped.name}: rerun {ASSEMBLE}"
    assert (tmp_path / "ids.tsv").read_text() == PROVENANCE.read_text()


def test_an_instance_keeps_its_id_when_the_rule_runs_again(tmp_path):
    rows = PROVENANCE.read_text().splitlines()
    first, second = rows[1].split("\t"), rows[2].split("\t")
    first[0], second[0] = second[0], first[0]  # as if these two had been numbered the other way
    (tmp_path / "ids.tsv").write_text("\n".join([rows[0], "\t".join(first), "\t".join(second), *rows[3:]]) + "\n")
    _assemble(tmp_path, tmp_path / "ids.tsv")
    by_id = {json.loads(line)["id"]: json.loads(line) for line in (tmp_path / "test.jsonl").read_text().splitlines()}
    shipped = {i.id: i.model_dump(mode="json") for i in load("test")}
    assert by_id[first[0]] == {**shipped[second[0]], "id": first[0]}
    assert by_id[second[0]] == {**shipped[first[0]], "id": second[0]}


def test_check_data_passes_on_the_test_split_with_every_nugget_supported():
    result = run_cli("check-data", "test")
    assert result.returncode == 0, result.stdout + result.stderr
    n = len(load("test"))
    assert f"{n} of {n} instances have two readings" in result.stdout
    assert result.stdout.split("## Problems")[1].strip() == "- none"  # no error, no warning


def test_the_track_has_the_size_and_mix_it_promises():
    test = load("test")
    assert len(test) == 518 and len({i.id for i in test}) == 518
    assert [e.id for e in read_records(evidence_path("test"), "evidence")] == [i.id for i in test]
    types = Counter(c.type.value for i in test for c in i.removed_constraints)
    assert max(types.values()) / sum(types.values()) <= 0.30
    assert sum(len(gold_documents(i)) >= 2 for i in test) / len(test) >= 0.45
    no_place = sum(not e.intent_states_place for e in read_records(evidence_path("test"), "evidence"))
    assert no_place / len(test) >= 0.3  # asking "where?" is often unanswerable, as in the paper
    blurred = Counter(" ".join(i.blurred_query.lower().split()) for i in test)
    assert blurred.most_common(1)[0][1] == 1


def test_smoke_is_the_stratified_sample_of_test_and_demo_is_unchanged():
    assert load("smoke") == stratified_sample(load("test"), 20)
    assert len(load("demo")) == 200 and dataset_revision("demo") == DEMO_REVISION


def test_every_shipped_instance_is_its_staged_instance_under_its_new_id():
    rows = [line.split("\t") for line in PROVENANCE.read_text().splitlines()[1:]]
    assert [r[0] for r in rows] == [i.id for i in load("test")]
    staged = {source: {i.id: i for i in read_records(path, "instance")} for source, path in STAGED.items()}
    for (final, staged_id, source, *_), shipped in zip(rows, load("test"), strict=True):
        assert shipped == staged[source][staged_id].model_copy(update={"id": final}), final
    digest = [hashlib.sha256(r[1].encode()).hexdigest() for r in rows]
    assert digest == sorted(digest)  # the first numbering's order, so --limit N reads a mixed sample


@pytest.mark.parametrize("split", ["test", "smoke", "demo"])
def test_load_dataset_on_the_repository_folder_has_every_split(split):
    import datasets

    loaded = datasets.load_dataset(str(REPO / "loaders" / "ctsbench"), split=split)
    assert loaded.num_rows == len(load(split))
    assert loaded[0]["id"] == load(split)[0].id


def test_a_split_name_that_is_not_shipped_is_refused_with_the_shipped_names():
    with pytest.raises(ValueError, match="shipped splits: demo, test, smoke"):
        split_path("hard518x")


def test_check_data_reads_a_split_by_name_even_beside_a_folder_of_that_name(tmp_path):
    (tmp_path / "smoke").mkdir()
    result = run_cli("check-data", "smoke", cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "# Data report: smoke.jsonl" in result.stdout
    missing = run_cli("check-data", str(tmp_path / "nothing.jsonl"))
    assert missing.returncode != 0 and "nothing.jsonl: no such file" in missing.stderr
