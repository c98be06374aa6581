"""The whole experiment with scripted interaction models, the real BM25 retrieval searcher and the
real lexical judge: stage batching, prefix reuse across budgets, resume and the summary."""

import json

import pytest

from cts_dataset.data import load
from cts_dataset.judges.lexical import LexicalJudge
from cts_dataset.models.scripted import ScriptedModel
from cts_dataset.pipeline.config import load_config
from cts_dataset.pipeline.experiment import Experiment
from cts_dataset.search.corpus_tool import CorpusSearchTool
from cts_dataset.search.retrieval import RetrievalSearcher


@pytest.fixture(scope="module")
def searcher(tmp_path_factory):
    return RetrievalSearcher(CorpusSearchTool(cache_root=tmp_path_factory.mktemp("bm25")))


def answer_from_intent(request):
    """A faithful scripted user: states the year if the intent has one, else unknown."""
    intent, question = request.messages[1].content.split("\n")[:2]
    if "year" not in question:
        return json.dumps({"answer": "unknown"})
    years = [w.strip(",.?") for w in intent.split() if w.strip(",.?").isdigit() and len(w.strip(",.?")) == 4]
    return json.dumps({"answer": years[0] if years else "unknown"})


def rewrite_with_answers(request):
    user = request.messages[1].content
    query = user.split("\n")[0].removeprefix("Original query: ")
    answers = [line.split(": ", 1)[1] for line in user.split("\n") if line.startswith("A") and ": " in line]
    return " ".join([query, *[a for a in answers if a != "unknown"]])


def make_models():
    clarifier = ScriptedModel(default=lambda r: "Which year do you mean?" if "question 1" in r.messages[1].content
                              else "Which place do you mean?")
    return {"clarifier": clarifier, "user_answerer": ScriptedModel(default=answer_from_intent),
            "rewriter": ScriptedModel(default=rewrite_with_answers)}


def run(tmp_path, searcher, models, **overrides):
    config = load_config(out_dir=tmp_path / "run", limit=6, **overrides)
    return Experiment(config, models=models, searcher=searcher, judge=LexicalJudge(), progress=False).run()


def test_scripted_run_batches_stages_and_reuses_dialogue_prefixes(tmp_path, searcher):
    models = make_models()
    summary = run(tmp_path, searcher, models)
    # one dialogue of 3 turns per instance serves k = 1, 2, 3: 3 clarifier batches of 6
    assert models["clarifier"].batches == [6, 6, 6]
    assert models["user_answerer"].batches == [6, 6, 6]
    assert models["rewriter"].batches == [18]
    folder = tmp_path / "run"
    answers = [json.loads(line) for line in (folder / "answer.jsonl").read_text().splitlines()]
    assert len(answers) == 18 and all(a["prompt"] == "answerer/v1/en" for a in answers)
    searches = (folder / "search.jsonl").read_text().splitlines()
    assert len(searches) == 6 * 5  # baseline + clarify@1..3 + oracle
    conditions = summary["conditions"]
    assert list(conditions) == ["baseline", "clarify@1", "clarify@2", "clarify@3", "oracle"]
    assert conditions["oracle"]["restore_score_100"]["mean"] >= conditions["baseline"]["restore_score_100"]["mean"]
    # turn 1 asks for a year: instances whose intent holds a year answer it
    with_year = sum(any(w.isdigit() and len(w) == 4 for w in i.fused_query.replace(",", " ").split()) for i in load()[:6])
    assert summary["dialogue"]["unknown_rate_per_turn"]["1"] == pytest.approx(1 - with_year / 6)
    assert summary["dialogue"]["unknown_rate_per_turn"]["2"] == 1.0
    assert "| clarify@1 |" in (folder / "summary.md").read_text()


def test_a_rerun_makes_no_model_call_and_changes_nothing(tmp_path, searcher):
    first = run(tmp_path, searcher, make_models())
    files = {p.name: p.read_text() for p in (tmp_path / "run").glob("*.jsonl")}
    models = make_models()
    second = run(tmp_path, searcher, models)
    assert all(m.calls == [] for m in models.values())
    assert second == first
    assert files == {p.name: p.read_text() for p in (tmp_path / "run").glob("*.jsonl")}


def test_shown_budget_runs_each_budget_as_its_own_dialogue(tmp_path, searcher):
    models = make_models()
    run(tmp_path, searcher, models, show_budget=True, budgets=[1, 2])
    assert models["clarifier"].batches == [12, 6]  # turn 1 of k=1 and k=2, then turn 2 of k=2
    prompt = models["clarifier"].calls[0].messages[1].content
    assert "question(s) in all" in prompt


def test_a_folder_holding_another_config_is_refused(tmp_path, searcher):
    run(tmp_path, searcher, make_models())
    with pytest.raises(ValueError, match="another config"):
        run(tmp_path, searcher, make_models(), budgets=[1])
