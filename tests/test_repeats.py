"""One rule for an instance's score with repeats (the mean over its repeats scored; an instance with none
left out), and the four places that report it agree on a scripted run with two repeats: the run summary,
the diagnostics' run folder, the report frame and the leaderboard's ranking."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from cts_dataset.scoring.repeats import instance_means
from cts_dataset.search.corpus_tool import CorpusSearchTool
from cts_dataset.search.retrieval import RetrievalSearcher
from tests.diagnostics_runs import run


def test_the_mean_over_repeats_leaves_out_unscored_repeats_and_unscored_instances():
    pairs = [("a", 60.0), ("a", None), ("b", None), ("b", None), ("c", 40.0), ("c", 50.0), ("d", math.nan)]
    assert instance_means(pairs) == {"a": 60.0, "c": 45.0}
    assert instance_means({"a": [60.0, None], "b": [None], "c": [40.0, 50.0], "d": []}) == {"a": 60.0, "c": 45.0}
    assert list(instance_means([("z", 1.0), ("a", 2.0)])) == ["z", "a"]  # the order first seen


def _append(folder: Path, stage: str, match: dict[str, Any], **changes: Any) -> None:
    """A later line for the record matching ``match`` (the later line of a key wins)."""
    path = folder / f"{stage}.jsonl"
    records = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    record = next(r for r in records if all((r.get(k) or 0) == v if k == "repeat" else r.get(k) == v
                                            for k, v in match.items()))
    with path.open("a") as log:
        log.write(json.dumps({**record, **changes}) + "\n")


@pytest.fixture(scope="module")
def repeated(tmp_path_factory) -> Path:
    """Three instances, clarify@1 and @2 twice each; then a repeat rescored, one unscored, one instance
    unscored in both repeats, so the mean over repeats differs from a mean over rows."""
    searcher = RetrievalSearcher(CorpusSearchTool(cache_root=tmp_path_factory.mktemp("bm25")))
    folder = tmp_path_factory.mktemp("repeats") / "run"
    run(folder, searcher, limit=3, budgets=[1, 2], repeats=2)
    ids = sorted({json.loads(line)["instance"] for line in (folder / "judge.jsonl").read_text().splitlines()})
    first, second, third = ids
    _append(folder, "judge", {"instance": first, "condition": "clarify", "budget": 1, "repeat": 1},
            restore_score_100=12.5)
    _append(folder, "judge", {"instance": second, "condition": "clarify", "budget": 1, "repeat": 0},
            restore_score_100=None)
    for repeat in (0, 1):
        _append(folder, "judge", {"instance": third, "condition": "clarify", "budget": 2, "repeat": repeat},
                restore_score_100=None)
    return folder


def test_the_summary_the_diagnostics_the_frame_and_the_ranking_agree(repeated):
    from cts_dataset.diagnostics.runfolder import read_run
    from cts_dataset.pipeline.store import RunStore
    from cts_dataset.pipeline.summary import scores_in_order
    from cts_dataset.report.frame import condition_means, load_run
    from cts_dataset.report.ranking import instance_scores as ranking_scores
    from cts_dataset.scoring.restore import mean_score

    folder = read_run(repeated)
    frame = load_run(repeated)
    means = condition_means(frame)
    store = RunStore(repeated)
    try:
        for k in (1, 2):
            label = f"clarify@{k}"
            summary = scores_in_order(store, folder.instances, "clarify", k, 2)
            diagnostics = [folder.instance_score(i.id, "clarify", k) for i in folder.instances]
            assert summary == diagnostics
            by_instance = {i.id: s for i, s in zip(folder.instances, summary, strict=True) if s is not None}
            assert ranking_scores(frame, label) == by_instance
            assert means[label] == mean_score(summary)
    finally:
        store.close()
    rows = frame[(frame["label"] == "clarify@1")]["restore_score_100"].dropna()
    assert len(rows) == 5 and means["clarify@1"] != pytest.approx(float(rows.mean()))  # not a mean over rows
    ids = [i.id for i in folder.instances]
    assert folder.instance_score(ids[0], "clarify", 1) == pytest.approx(
        (12.5 + folder.score(ids[0], "clarify", 1, 0)) / 2)
    assert folder.instance_score(ids[1], "clarify", 1) == folder.score(ids[1], "clarify", 1, 1)
    assert folder.instance_score(ids[2], "clarify", 2) is None
    assert ids[2] not in ranking_scores(frame, "clarify@2")
