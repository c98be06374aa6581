"""The instances staged for the 518-instance track (authoring/track518): every one passes the data checks
and has evidence (a supporting sentence per nugget and source, word for word in its document, and two
readings), and the second reading's verdicts agree with what the files hold."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cts_dataset.corpus import corpus_index
from cts_dataset.data import load
from cts_dataset.jsonl import read_records
from cts_dataset.quality.checks import (
    GROUNDING_MIN,
    check_blurring,
    check_duplicates,
    check_sources,
    nugget_grounding,
)
from cts_dataset.quality.evidence import check_evidence

STAGING = Path(__file__).resolve().parents[1] / "authoring" / "track518"
# Each part: instances (STEM.jsonl), evidence (STEM.evidence.jsonl), second-reading verdicts (STEM.review.jsonl).
STEMS = {"new": STAGING / "new", "demo": STAGING / "demo", "headroom": STAGING / "headroom" / "instances",
         "growth": STAGING / "growth" / "instances"}
PARTS = tuple(STEMS)


@pytest.fixture(scope="module")
def staged():
    return {part: (read_records(f"{stem}.jsonl", "instance"), read_records(f"{stem}.evidence.jsonl", "evidence"),
                   [json.loads(line) for line in Path(f"{stem}.review.jsonl").read_text().splitlines()])
            for part, stem in STEMS.items()}


# The headroom rework keeps the ids of the instances it rewrites, so it is checked apart from them.
@pytest.mark.parametrize("parts", [("new", "demo"), ("headroom", "demo", "growth")])
def test_every_staged_instance_passes_the_data_checks_together(staged, parts):
    instances = [i for part in parts for i in staged[part][0]]
    index = corpus_index()
    for found in (check_sources(instances, index), check_blurring(instances), check_duplicates(instances)):
        assert found.errors == []
    assert min(score for score, *_ in nugget_grounding(instances, index)) >= GROUNDING_MIN


@pytest.mark.parametrize("part", PARTS)
def test_every_staged_instance_has_evidence_found_word_for_word_in_its_documents(staged, part):
    instances, evidence, _ = staged[part]
    found = check_evidence(instances, evidence, corpus_index())
    assert found.errors == [] and found.warnings == []


@pytest.mark.parametrize("part", PARTS)
def test_the_second_readings_verdicts_match_the_files(staged, part):
    instances, _, reviews = staged[part]
    verdicts = {r["id"]: r["verdict"] for r in reviews}
    assert set(verdicts.values()) <= {"keep", "fix", "drop"}
    assert {i.id for i in instances} == {i for i, v in verdicts.items() if v != "drop"}
    assert all(r["problems"] and r["changes"] for r in reviews if r["verdict"] == "fix")


def test_a_demo_instance_the_second_reading_kept_is_unchanged(staged):
    instances, _, reviews = staged["demo"]
    shipped = {i.id: i for i in load()}
    kept = {r["id"] for r in reviews if r["verdict"] == "keep"}
    assert {r["id"] for r in reviews} == set(shipped)
    assert [i.id for i in instances if i.id in kept and i != shipped[i.id]] == []


@pytest.mark.parametrize("part", ["headroom", "growth"])
def test_every_instance_of_the_headroom_rework_and_the_growth_round_has_retrieval_headroom(staged, part):
    from cts_dataset.quality.headroom import headroom

    rows = headroom(staged[part][0], k=10)
    assert len(rows) == len(staged[part][0])
    assert [r.instance_id for r in rows if not (r.fused_recall == 1.0 and r.blurred_recall < 1.0)] == []
