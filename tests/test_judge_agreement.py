"""The shipped calibration set and agreement table: what they hold, and how a run's summary reads them."""

from __future__ import annotations

from collections import Counter

import pytest

from cts_dataset.judges import make_judge
from cts_dataset.judges.agreement import (
    AGENT_ANSWERS,
    NOT_VALIDATED,
    fingerprint,
    judge_validation,
    load_table,
    row_for,
)
from cts_dataset.judges.check import distinct_pairs
from cts_dataset.judges.lexical import LexicalJudge
from cts_dataset.judges.pairs import SHIPPED_PAIRS, read_pairs
from cts_dataset.scoring.judging import judge_identity
from tests.conftest import REPO

# The labelled set is built from run folders (benchmarks/calibration_pairs.py); until it ships these
# tests have nothing to read. They run as soon as pairs.jsonl.gz exists.
shipped = pytest.mark.skipif(not SHIPPED_PAIRS.is_file(), reason="calibration set not shipped yet")

SECOND_PASS = SHIPPED_PAIRS.parent / "second_pass.jsonl.gz"
OFFLINE_ROWS = ("lexical", "embedding", "constant:full", "constant:partial", "constant:none")


def test_a_judge_is_found_by_what_changes_its_labels_not_by_its_name():
    table = {"rows": [{"row": "lexical", "fingerprint": fingerprint(LexicalJudge().identity())}]}
    assert row_for(LexicalJudge().identity(), table)["row"] == "lexical"
    assert row_for(LexicalJudge(full=0.95).identity(), table) is None
    llm = {"name": "llm", "kind": "llm", "prompt": {"id": "coverage-v1", "hash": "ab"},
           "model": {"spec": "default", "identity": {"files": "f1"}}}
    resolved = {**llm, "model": {"spec": "llamacpp:qwen", "identity": {"files": "f1"}}}
    other_prompt = {**llm, "prompt": {"id": "coverage-v1", "hash": "cd"}}
    assert fingerprint(llm) == fingerprint(resolved)  # one model, two spellings of it
    assert fingerprint(llm) != fingerprint(other_prompt)
    assert fingerprint({**llm, "model": {"spec": "default", "identity": {"files": "f2"}}}) != fingerprint(llm)


def test_a_run_reads_the_row_measured_on_what_its_searcher_writes():
    mark = fingerprint(LexicalJudge().identity())
    table = {"rows": [{"row": "lexical", "subset": "all", "fingerprint": mark},
                      {"row": "lexical", "subset": AGENT_ANSWERS, "fingerprint": mark}]}
    assert row_for(LexicalJudge().identity(), table)["subset"] == "all"
    assert row_for(LexicalJudge().identity(), table, AGENT_ANSWERS)["subset"] == AGENT_ANSWERS
    only_all = {"rows": table["rows"][:1]}
    assert row_for(LexicalJudge().identity(), only_all, AGENT_ANSWERS)["subset"] == "all"
    sampled = {"rows": [{"row": "lexical", "subset": "all", "per_system": 3, "fingerprint": mark},
                        {"row": "lexical", "subset": AGENT_ANSWERS, "per_system": 2, "fingerprint": mark}]}
    assert row_for(LexicalJudge().identity(), sampled)["per_system"] == 3
    assert row_for(LexicalJudge().identity(), sampled, AGENT_ANSWERS)["per_system"] == 2
    every_pair_too = {"rows": sampled["rows"] + table["rows"][:1]}
    assert row_for(LexicalJudge().identity(), every_pair_too).get("per_system") is None  # every pair wins
    assert row_for(LexicalJudge().identity(), every_pair_too, AGENT_ANSWERS).get("per_system") is None


@shipped
def test_a_sample_of_each_systems_outputs_keeps_n_outputs_of_every_system_with_all_their_pairs():
    import importlib.util

    spec = importlib.util.spec_from_file_location("judge_agreement", REPO / "benchmarks" / "judge_agreement.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    pairs = read_pairs(SHIPPED_PAIRS)
    chosen = bench.per_system(pairs, 2, "heldout")
    held = [p for p in pairs.pairs if p.split == "heldout"]
    systems = {p.system for p in held}
    assert Counter(system for system, _, _ in chosen) == {s: 2 for s in systems}  # every system has more than 2
    assert bench.per_system(pairs, 2, "heldout") == chosen  # by a hash: the same sample every time
    assert chosen < bench.per_system(pairs, 3, "heldout")  # a larger sample holds the smaller one
    kept = bench._subset(pairs, None, lambda p: (p.system, p.query or "", p.output) in chosen)
    outputs = {(p.system, p.query or "", p.output) for p in kept.pairs if p.split == "heldout"}
    assert outputs == chosen
    assert all(p in kept.pairs for p in held if (p.system, p.query or "", p.output) in chosen)


@shipped
def test_the_shipped_calibration_set_has_the_size_the_mix_and_the_panel_it_promises():
    pairs = read_pairs(SHIPPED_PAIRS)
    distinct = [pairs.pairs[i] for i in distinct_pairs(pairs.pairs)]
    assert len(distinct) >= 600
    assert min(Counter(p.label for p in distinct).values()) >= 100 and len({p.label for p in distinct}) == 3
    assert all(p.reason and p.split in ("dev", "heldout") and p.system and p.instance for p in pairs.pairs)
    # Both splits hold whole instances: no instance is in both.
    splits = {}
    for p in pairs.pairs:
        assert splits.setdefault(p.instance, p.split) == p.split, p.instance
    heldout = pairs.select("heldout")
    assert len({p.system for p in heldout}) >= 8
    assert {"bm25:baseline", "bm25:oracle"} <= {p.system for p in heldout}
    assert any(p.system.startswith("react:") for p in heldout)  # agent answers, not only passages
    second = read_pairs(SECOND_PASS)
    assert len(second.pairs) >= 150
    shipped = {(p.query, p.output, p.nugget) for p in distinct}
    assert all((p.query, p.output, p.nugget) in shipped for p in second.pairs)


@shipped
def test_the_table_measures_the_shipped_judges_as_they_are_today():
    # A changed threshold or prompt without a new judge-check run would leave the table describing
    # another judge: the row would no longer be found.
    table = load_table()
    assert table["pairs"]["sha256"] == read_pairs(SHIPPED_PAIRS).sha256[:12]
    names = {row["row"] for row in table["rows"]}
    assert set(OFFLINE_ROWS) <= names and "second annotator (blind)" in names
    for spec in OFFLINE_ROWS:
        judge = make_judge(spec)
        before = judge_identity(judge)
        if spec == "embedding":
            _ = judge.model  # loading the model must not change what the judge is called
        assert judge_identity(judge) == before, spec
        row = row_for(before, table)
        assert row is not None and row["row"] == spec and row["split"] == "heldout", spec
        assert row["n_pairs"] >= 250 and -1 <= row["weighted_kappa"] <= 1


@shipped
def test_a_runs_summary_names_its_judges_measured_agreement(tmp_path):
    from cts_dataset.pipeline.summary_markdown import render_markdown
    from cts_dataset.search.corpus_tool import CorpusSearchTool
    from cts_dataset.search.retrieval import RetrievalSearcher
    from tests.diagnostics_runs import run as scripted_run

    searcher = RetrievalSearcher(CorpusSearchTool(cache_root=tmp_path / "bm25"))
    measured = scripted_run(tmp_path / "shipped", searcher, limit=2)
    row = row_for(LexicalJudge().identity())
    assert measured["judge_validation"].startswith("Judge validated (lexical): accuracy ")
    assert f"{row['n_pairs']} held-out calibration pairs" in measured["judge_validation"]
    assert measured["judge_validation"] in render_markdown(measured)


def test_a_judge_missing_from_the_table_reads_not_validated(tmp_path):
    from cts_dataset.search.corpus_tool import CorpusSearchTool
    from cts_dataset.search.retrieval import RetrievalSearcher
    from tests.diagnostics_runs import run as scripted_run

    searcher = RetrievalSearcher(CorpusSearchTool(cache_root=tmp_path / "bm25"))
    other = scripted_run(tmp_path / "other", searcher, limit=2, judge=LexicalJudge(full=0.95, partial=0.5))
    assert other["judge_validation"] == NOT_VALIDATED
    assert judge_validation(None) == NOT_VALIDATED
