"""Evidence records: each nugget's supporting sentence must be word for word in each document it cites, and
the blurred query must have two recorded readings (`ctsbench check-data --evidence`)."""

from __future__ import annotations

import json

import pytest

from cts_dataset.corpus import corpus_index
from cts_dataset.data import load
from cts_dataset.jsonl import RecordFileError, read_records
from cts_dataset.quality.evidence import check_evidence
from cts_dataset.records import InstanceEvidence
from tests.conftest import run_cli

TANGSHAN = "1976_Tangshan_earthquake"
# demo-0001's five nuggets, each with the sentence of its document that states it.
SENTENCES = [
    "The official count stated 242,469 deaths, while historians accepted at least 300,000 died",
    "The official count stated 242,469 deaths, while historians accepted at least 300,000 died",
    "A Mw 7.6 earthquake hit the region around Tangshan, Hebei, China, at 03:42:55 on 28 July 1976.",
    "A Mw 7.6 earthquake hit the region around Tangshan, Hebei, China, at 03:42:55 on 28 July 1976.",
    "In minutes, 85 percent of the buildings in Tangshan collapsed or were rendered unusable",
]


def evidence(**changes) -> dict:
    record = {"id": "demo-0001", "readings": ["the 1976 Tangshan earthquake", "the 2008 Sichuan earthquake"],
              "intent_states_place": True,
              "support": [{"nugget": n, "source": TANGSHAN, "sentence": s} for n, s in enumerate(SENTENCES)]}
    return {**record, **changes}


@pytest.fixture(scope="module")
def tangshan():
    return [next(i for i in load() if i.id == "demo-0001")]


def errors_of(instances, record: dict) -> list[str]:
    return check_evidence(instances, [InstanceEvidence.model_validate(record)], corpus_index()).errors


def test_a_record_whose_sentences_are_in_the_cited_document_passes(tangshan):
    assert errors_of(tangshan, evidence()) == []


def test_a_sentence_changed_by_one_word_is_not_in_the_document(tangshan):
    support = evidence()["support"]
    support[4] = {**support[4], "sentence": support[4]["sentence"].replace("85 percent", "95 percent")}
    found = errors_of(tangshan, evidence(support=support))
    assert len(found) == 1 and found[0].startswith(f"demo-0001: evidence.support: the sentence for nuggets[4] from "
                                                   f"{TANGSHAN} is not in its text")


def test_a_nugget_without_a_sentence_from_each_of_its_sources_is_an_error(tangshan):
    found = errors_of(tangshan, evidence(support=evidence()["support"][:3] + [{"nugget": 7, "source": TANGSHAN,
                                                                                "sentence": SENTENCES[0]}]))
    assert f"demo-0001: evidence.support: no sentence for nuggets[3] from {TANGSHAN}" in found
    assert f"demo-0001: evidence.support: no sentence for nuggets[4] from {TANGSHAN}" in found
    assert "demo-0001: evidence.support: nugget 7 does not exist" in found


def test_two_readings_that_are_the_same_are_one(tangshan):
    found = errors_of(tangshan, evidence(readings=["The 1976 earthquake", "the 1976  earthquake"]))
    assert found == ["demo-0001: evidence.readings: fewer than two distinct readings"]


def test_an_instance_without_a_record_is_an_error(tangshan):
    assert check_evidence(tangshan, [], corpus_index()).errors == ["demo-0001: evidence: no record"]


def test_a_record_with_one_reading_is_a_schema_error_naming_file_line_and_field(tmp_path):
    path = tmp_path / "demo.evidence.jsonl"
    path.write_text(json.dumps(evidence()) + "\n" + json.dumps(evidence(id="demo-0002", readings=["one"])) + "\n")
    with pytest.raises(RecordFileError) as raised:
        read_records(path, "evidence")
    assert f"{path}:2: readings:" in str(raised.value)


@pytest.mark.slow
def test_check_data_reads_the_evidence_beside_the_file_and_fails_on_a_sentence_not_in_its_document(tmp_path, tangshan):
    instances = tmp_path / "one.jsonl"
    instances.write_text(tangshan[0].model_dump_json() + "\n")
    beside = tmp_path / "one.evidence.jsonl"
    beside.write_text(json.dumps(evidence()) + "\n")
    loose = ["--min-fused", "0", "--min-gap", "-1"]  # one instance: the headroom targets are not the point here
    good = run_cli("check-data", str(instances), *loose)
    assert good.returncode == 0, good.stdout + good.stderr
    assert f"- evidence ({beside}): 1 of 1 instances have two readings" in good.stdout
    support = evidence()["support"]
    support[0] = {**support[0], "sentence": "The official count stated 242,000 deaths"}
    beside.write_text(json.dumps(evidence(support=support)) + "\n")
    bad = run_cli("check-data", str(instances), *loose)
    assert bad.returncode == 1 and f"the sentence for nuggets[0] from {TANGSHAN} is not in its text" in bad.stdout
    assert f"- evidence ({beside}): 0 of 1 instances" in bad.stdout


def test_a_sentence_too_short_to_state_anything_or_for_a_source_the_nugget_does_not_cite_is_an_error(tangshan):
    support = evidence()["support"]
    support[1] = {**support[1], "sentence": "  the  "}
    support[2] = {**support[2], "source": "Tangshan"}
    found = errors_of(tangshan, evidence(support=support))
    assert f"demo-0001: evidence.support: the sentence for nuggets[1] from {TANGSHAN} has fewer than 4 words: '  the  '" in found
    assert "demo-0001: evidence.support: the sentence for nuggets[2] from Tangshan: nuggets[2] does not cite Tangshan" in found
    assert f"demo-0001: evidence.support: no sentence for nuggets[2] from {TANGSHAN}" in found


def test_the_report_counts_supported_instances_by_id_even_when_an_id_holds_a_colon(tangshan):
    from cts_dataset.quality.report import build_report, render_markdown

    renamed = [tangshan[0].model_copy(update={"id": "track:0001"})]
    report = build_report(renamed, corpus_index(), evidence=[InstanceEvidence.model_validate(evidence())],
                          evidence_file="x.evidence.jsonl")
    assert "track:0001: evidence: no record" in report.findings.errors
    assert "- evidence (x.evidence.jsonl): 0 of 1 instances" in render_markdown(report)
