"""The two summary modules: the run summary (pipeline) and the scored folder's summary (scoring, its names
saying ``scores``) write their files the same way, atomically, and the older names still import."""

from __future__ import annotations

import json

from cts_dataset.pipeline import summary as run_summary
from cts_dataset.pipeline.summary_markdown import render_markdown
from cts_dataset.scoring import summary as scores_summary


def test_the_older_names_still_import():
    assert run_summary.render_markdown is render_markdown
    assert scores_summary.summarise is scores_summary.summarise_scores
    assert scores_summary.markdown is scores_summary.scores_markdown
    assert scores_summary.write_summary is scores_summary.write_scores_summary


def test_the_run_summary_files_are_written_whole_in_their_format(tmp_path):
    summary = {"run": str(tmp_path), "clarifier": "template:year", "models": {}, "preset": "demo",
               "instances": 1, "conditions": {}, "note": "é"}
    run_summary.write_summary(tmp_path, summary)
    assert (tmp_path / "summary.json").read_text(encoding="utf-8") == json.dumps(summary, indent=2,
                                                                                 ensure_ascii=False) + "\n"
    assert (tmp_path / "summary.md").read_text(encoding="utf-8") == render_markdown(summary)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["summary.json", "summary.md"]  # no temporary left


def test_the_unfaithful_answer_count_is_shown_as_measured_only_where_no_guard_zeroes_it(tmp_path):
    from cts_dataset.search.corpus_tool import CorpusSearchTool
    from cts_dataset.search.retrieval import RetrievalSearcher
    from tests.diagnostics_runs import run as scripted_run

    searcher = RetrievalSearcher(CorpusSearchTool(cache_root=tmp_path / "bm25"))
    shown = {}
    for mode in ("off", "replace"):
        summary = scripted_run(tmp_path / mode, searcher, limit=2, answer_mode=mode)
        shown[mode] = render_markdown(summary)
        counted = summary["dialogue"]["unfaithful_answers"]
        assert (f"answers with words the intent does not contain: {counted} (rate" in shown[mode]) is (mode == "off")
    assert "none pass the `replace` guard" in shown["replace"]
