"""One error policy for a judgement with a failed model request, in all three places that judge: the
instance is unscored (never scored on the chunks that did answer) and a rerun judges it again, in
`ctsbench run`, in `ctsbench score` and in the evaluate metric."""

import json
from pathlib import Path

import cts_dataset
from cts_dataset.judges import Judgement
from cts_dataset.pipeline.config import load_config
from cts_dataset.pipeline.experiment import Experiment
from cts_dataset.scoring.score_run import run_score
from cts_dataset.search.corpus_tool import CorpusSearchTool
from cts_dataset.search.retrieval import RetrievalSearcher
from tests.scripted_roles import make_models

NUGGETS = [{"text": "The official count gave 242,469 deaths.", "weight": 2.0, "sources": ["d"]},
           {"text": "It struck on 28 July 1976.", "weight": 1.0, "sources": ["d"]}]
ANSWER = "The official count gave 242,469 deaths; it struck on 28 July 1976."


class HalfDown:
    """A judge whose model labelled each item's first chunk and failed on the rest after its retries
    (an API that went away in the middle of a batch)."""

    name = "half-down"

    def __init__(self) -> None:
        self.judged: list[str] = []

    def judge(self, items):
        self.judged += [item.id for item in items]
        return [Judgement(labels=["full"] + [None] * (len(item.nuggets) - 1),
                          errors=["chunk 1 attempt 2: HTTP 503: service unavailable"]) for item in items]


def test_the_metric_reports_a_failed_judgement_as_unscored():
    import evaluate

    metric = evaluate.load(cts_dataset.metric_path())
    result = metric.compute(predictions=[ANSWER], references=[NUGGETS], judge=HalfDown())
    assert result["per_instance"] == [None] and result["restore_score_100"] is None
    assert result["n_unscored_instances"] == 1 and result["n_unscored_nuggets"] == 2
    assert result["judge_errors"] == [["chunk 1 attempt 2: HTTP 503: service unavailable"]]


def test_score_leaves_a_failed_judgement_unscored_and_judges_it_again(tmp_path: Path):
    gold = tmp_path / "gold.jsonl"
    gold.write_text(json.dumps({"id": "g1", "query": "Tangshan 1976?", "nuggets": NUGGETS}) + "\n")
    candidates = tmp_path / "candidates.jsonl"
    candidates.write_text(json.dumps({"id": "g1", "answer": ANSWER}) + "\n")
    judge = HalfDown()
    summary = run_score(gold, candidates, tmp_path / "out", judge, progress=False)
    assert summary["restore_score_100"] is None and summary["unscored_items"] == ["g1"]
    assert summary["failed_items"] == ["g1"]
    [item] = [json.loads(line) for line in (tmp_path / "out" / "items.jsonl").read_text().splitlines()]
    assert item["labels"] == ["full", None], "the labels are kept as the judge gave them"
    assert item["restore_score_100"] is None and item["error"]
    run_score(gold, candidates, tmp_path / "out", judge, progress=False)
    assert judge.judged == ["g1", "g1"]


def test_a_run_leaves_a_failed_judgement_unscored_and_judges_it_again(tmp_path: Path):
    searcher = RetrievalSearcher(CorpusSearchTool(cache_root=tmp_path / "bm25"))
    judge = HalfDown()

    def run():
        config = load_config(out_dir=tmp_path / "r", limit=1, budgets=[1], max_errors=100)
        return Experiment(config, models=make_models(), searcher=searcher, judge=judge, progress=False).run()

    summary = run()
    assert all(c["scored_instances"] == 0 for c in summary["conditions"].values())
    asked = len(judge.judged)
    run()
    assert len(judge.judged) == 2 * asked == 6  # baseline, clarify@1 and oracle, once more

