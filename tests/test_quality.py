"""The data validator: each content check on crafted instances, and the report on real data."""

from cts_dataset.corpus import corpus_index
from cts_dataset.data import load
from cts_dataset.quality.checks import (
    check_blurring,
    check_duplicates,
    check_sources,
    grounding,
    nugget_grounding,
)
from cts_dataset.quality.headroom import headroom
from cts_dataset.quality.report import build_report, render_markdown
from cts_dataset.records import Instance
from tests.conftest import run_cli


def instance(**changes) -> Instance:
    base = dict(
        id="q-1", language="en",
        fused_query="How many people died in the 1976 Tangshan earthquake?",
        blurred_query="How many people died in the earthquake?",
        removed_constraints=[{"type": "time", "value": "1976"}, {"type": "region", "value": "Tangshan"}],
        nuggets=[{"text": "The official count gave 242,469 deaths.", "weight": 3, "sources": ["1976_Tangshan_earthquake"]}],
    )
    return Instance.model_validate({**base, **changes})


def test_blurring_errors_name_the_constraint():
    bad = instance(blurred_query="How many people died in the 1976 earthquake?",
                   removed_constraints=[{"type": "time", "value": "1976"}, {"type": "scope", "value": "in China"}])
    errors = check_blurring([bad]).errors
    assert errors == ["q-1: removed_constraints[0].value: '1976' still in blurred_query",
                      "q-1: removed_constraints[1].value: 'in China' not in fused_query"]
    same = instance(blurred_query="How many people died in the 1976 Tangshan earthquake?")
    assert "identical to fused_query" in check_blurring([same]).errors[0]


def test_unknown_sources_and_near_duplicates_are_errors():
    index = corpus_index()
    ghost = instance(nuggets=[{"text": "x", "weight": 1, "sources": ["No_Such_Page"]}])
    assert check_sources([ghost], index).errors == ["q-1: nuggets[0].sources: unknown document id 'No_Such_Page'"]
    twin = instance(id="q-2", fused_query="How many people died in the Tangshan earthquake of 1976?")
    assert check_duplicates([instance(), twin]).errors == ["q-2: fused_query: near-duplicate of q-1"]


def test_grounding_measures_nugget_words_in_cited_text():
    document = corpus_index()["1976_Tangshan_earthquake"]
    score, missing = grounding("The official count gave 242,469 deaths.", [document])
    assert score >= 0.8 and missing == ["gave"]
    score, missing = grounding("Volcanic ash buried Pompeii.", [document])
    assert score == 0 and set(missing) == {"volcan", "ash", "buri", "pompeii"}


def test_headroom_shows_the_gold_lost_by_blurring():
    [row] = headroom([instance()])
    assert row.fused_recall == 1.0
    vague = instance(blurred_query="How many people died?")
    [row] = headroom([vague])
    assert row.blurred_recall == 0.0 and row.gap == 1.0


def test_report_on_the_shipped_split_meets_its_targets():
    instances = load()
    report = build_report(instances, corpus_index())
    assert report.ok, report.findings.errors
    assert report.fused_recall >= 0.8 and report.fused_recall - report.blurred_recall >= 0.3
    weakest = nugget_grounding(instances, corpus_index())[0][0]
    assert weakest >= 0.6
    markdown = render_markdown(report)
    assert "## Removed constraint types" in markdown and "| fused |" in markdown


def test_check_data_cli_fails_on_a_bad_file(tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_text(instance(blurred_query="How many people died in the 1976 earthquake?").model_dump_json() + "\n")
    result = run_cli("check-data", str(path), "--report", str(tmp_path / "report.md"))
    assert result.returncode == 1
    assert "'1976' still in blurred_query" in result.stdout
    assert (tmp_path / "report.md").read_text().startswith("# Data report: bad.jsonl")
