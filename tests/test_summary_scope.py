"""What the run summary counts and how it reads its gains: the counts (audit, guards, replies cut at
max_tokens, errors) cover only the instances reported, so `ctsbench run` exits 0 when those are complete
although the folder holds a failure of another instance; the gains over the baseline carry Holm-adjusted
p values; the budget curve is a mean over one set of instances.

Scripted roles, the real BM25 retrieval searcher and the lexical judge (tests/diagnostics_runs.py).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from cts_dataset.cli import main
from cts_dataset.data import load
from cts_dataset.judges.lexical import LexicalJudge
from cts_dataset.pipeline.store import RunStore
from cts_dataset.search.corpus_tool import CorpusSearchTool
from cts_dataset.search.records import Termination
from cts_dataset.search.retrieval import RetrievalSearcher
from tests.diagnostics_runs import run
from tests.scripted_roles import make_models

COUNTS = ("audit", "guards", "empty_at_length", "errors", "error_examples", "warnings")


@pytest.fixture(scope="module")
def searcher(tmp_path_factory):
    return RetrievalSearcher(CorpusSearchTool(cache_root=tmp_path_factory.mktemp("bm25")))


def lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def append(folder: Path, stage: str, instance: str, **changes: Any) -> None:
    """A later line for the first record of ``instance`` in a stage file (the later line of a key wins)."""
    record = next(r for r in lines(folder / f"{stage}.jsonl") if r["instance"] == instance)
    with (folder / f"{stage}.jsonl").open("a") as log:
        log.write(json.dumps({**record, **changes}) + "\n")


def spoil(folder: Path, instance: str) -> None:
    """What an earlier run may have left for an instance: a failed judgement, a leaking clarifier request cut
    at max_tokens and re-asked, a replaced answer and a guarded, leaking rewrite."""
    append(folder, "judge", instance, error="HTTP 500: judge down")
    append(folder, "clarify", instance, leaks=["tangshan"], reasked=True, valid=False, empty_at_length=True)
    append(folder, "answer", instance, replaced=True, unparsed=True)
    append(folder, "rewrite", instance, guarded=True, leaks=["tangshan"])


def test_the_counts_cover_only_the_instances_reported(tmp_path, searcher):
    folder = tmp_path / "reused"
    run(folder, searcher, limit=8)
    spoil(folder, "demo-0008")
    append(folder, "clarify", "demo-0002", leaks=["1976"])  # a reported instance's leak is counted
    summary = run(folder, searcher, limit=6)
    fresh = run(tmp_path / "fresh", searcher, limit=6)
    assert summary["errors"] == dict.fromkeys(RunStore.STAGES, 0) and summary["error_examples"] == {}
    assert summary["audit"]["leaks"] == 1 and summary["audit"]["clarifier"]["examples"][0]["key"].startswith("demo-0002|")
    assert summary["audit"]["rewriter"] == fresh["audit"]["rewriter"]
    assert summary["audit"]["clarifier"]["requests"] == fresh["audit"]["clarifier"]["requests"] == 6 * 3
    for key in ("guards", "empty_at_length", "errors", "error_examples"):
        assert summary[key] == fresh[key], key
    assert [w for w in summary["warnings"] if not w.startswith("LEAK: 1 ")] == [] == fresh["warnings"]
    assert summary["diagnostics"]["errors"] == fresh["diagnostics"]["errors"]


def test_ctsbench_run_exits_0_when_every_reported_instance_is_complete(tmp_path, searcher, monkeypatch):
    from cts_dataset.pipeline import experiment

    folder = tmp_path / "run"
    run(folder, searcher, limit=8)
    spoil(folder, "demo-0008")

    class Scripted(experiment.Experiment):  # the command as typed, with the scripted roles of these tests
        def __init__(self, config: Any, progress: bool = True) -> None:
            super().__init__(config, models=make_models(), searcher=searcher, judge=LexicalJudge(), progress=False)

    monkeypatch.setattr(experiment, "Experiment", Scripted)
    result = CliRunner().invoke(main, ["run", "--limit", "6", "--answer-mode", "replace", "--prompt",
                                       "user_answerer=v2", "--out-dir", str(folder), "--quiet"])
    assert result.exit_code == 0, result.output
    assert "some requests failed" not in result.output and "WARNING" not in result.output
    assert lines(folder / "judge.jsonl")[-1]["error"]  # demo-0008's failure stays for a run that reports it


def test_the_gains_over_the_baseline_carry_holm_adjusted_p_values(tmp_path, searcher):
    from cts_dataset.report.leaderboard import holm

    summary = run(tmp_path / "r", searcher)
    gains = {label: e["gain_over_baseline"] for label, e in summary["conditions"].items() if "gain_over_baseline" in e}
    assert list(gains) == ["clarify@1", "clarify@2", "clarify@3", "oracle"]
    raw = [g["p_value"] for g in gains.values()]
    assert [g["p_holm"] for g in gains.values()] == pytest.approx(holm(raw))
    assert all(g["holm_tests"] == 4 and g["p_holm"] >= g["p_value"] for g in gains.values())
    smallest = min(gains.values(), key=lambda g: g["p_value"])
    assert smallest["p_holm"] == pytest.approx(min(1.0, 4 * smallest["p_value"]))  # Holm's first step: m * p
    markdown = (tmp_path / "r" / "summary.md").read_text()
    assert "| p | p Holm |" in markdown and "adjusted (Holm) for the 4 gains over the baseline" in markdown
    pytest.importorskip("pandas")
    from cts_dataset.report.leaderboard import build

    rows = build([tmp_path / "r"]).rows
    assert rows["gain_p_holm"].tolist() == pytest.approx([gains[f"clarify@{k}"]["p_holm"] for k in (1, 2, 3)])


class FailsOnce:
    """The retrieval searcher, except that one tagged query fails (its record is an error: unscored)."""

    def __init__(self, searcher: Any, tag: str) -> None:
        self.searcher, self.tag = searcher, tag

    def describe(self) -> dict[str, Any]:
        return self.searcher.describe()

    def search(self, queries: list[str], tags: list[str]) -> list[Any]:
        outputs = self.searcher.search(queries, tags=tags)
        failed = {"termination": Termination.error, "error": "HTTP 503: search down"}
        return [o.model_copy(update=failed) if t == self.tag else o
                for o, t in zip(outputs, tags, strict=True)]


def test_the_budget_curve_is_a_mean_over_the_instances_scored_at_every_k(tmp_path, searcher):
    folder = tmp_path / "r"
    summary = run(folder, FailsOnce(searcher, "demo-0003|clarify|2|"))
    assert summary["conditions"]["clarify@2"]["restore_score_100"]["n"] == 5
    assert summary["conditions"]["baseline"]["restore_score_100"]["n"] == 6
    judged = {(j["instance"], j["condition"], j["budget"]): j["restore_score_100"] for j in lines(folder / "judge.jsonl")
              if not j.get("error")}
    five = [i.id for i in load()[:6] if i.id != "demo-0003"]
    points = [("baseline", None), ("clarify", 1), ("clarify", 2), ("clarify", 3)]
    expected = [sum(judged[(i, *p)] for i in five) / 5 for p in points]
    curve = summary["budget_curve"]
    assert curve["scores"] == pytest.approx(expected)
    assert curve["n"] == 5 and curve["budgets"] == [0, 1, 2, 3]
    s0, s1, s2, s3 = expected  # trapezoids of width 1, over the budget 3
    assert curve["auc_per_budget"] == pytest.approx(((s0 + s1) / 2 + (s1 + s2) / 2 + (s2 + s3) / 2) / 3)
    assert "on the 5 instances scored at every k" in (folder / "summary.md").read_text()
