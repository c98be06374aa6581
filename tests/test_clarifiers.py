"""Clarifiers of every kind through the same run: a user's Python class by import path, the reference
clarifiers that calibrate the protocol, and one that stops asking early."""

import json
import textwrap

import pytest

from cts_dataset.clarifiers.loading import ClarifierLoadError, load_clarifier
from cts_dataset.clarifiers.reference import TEMPLATES
from cts_dataset.data import load
from cts_dataset.judges.lexical import LexicalJudge
from cts_dataset.pipeline.config import load_config
from cts_dataset.pipeline.experiment import Experiment
from cts_dataset.search.corpus_tool import CorpusSearchTool
from cts_dataset.search.retrieval import RetrievalSearcher
from tests.scripted_roles import make_models

N = 12


@pytest.fixture(scope="module")
def searcher(tmp_path_factory):
    return RetrievalSearcher(CorpusSearchTool(cache_root=tmp_path_factory.mktemp("bm25")))


def run(folder, searcher, clarifier_ref, n=N, **overrides):
    """The run as `ctsbench run --clarifier REF` builds it, with scripted answerer and rewriter."""
    models = make_models()
    del models["clarifier"]
    config = load_config(out_dir=folder, limit=n, clarifier=clarifier_ref, **overrides)
    return Experiment(config, models=models, searcher=searcher, judge=LexicalJudge(), progress=False).run()


def means(summary):
    return {label: entry["restore_score_100"]["mean"] for label, entry in summary["conditions"].items()}


def test_none_never_asks_and_equals_the_baseline(tmp_path, searcher):
    summary = run(tmp_path / "none", searcher, "none")
    scores = means(summary)
    assert scores["clarify@1"] == scores["clarify@3"] == scores["baseline"]
    assert summary["conditions"]["clarify@3"]["questions_asked"] == 0
    assert summary["clarifier"] == "reference:none"


def test_templates_ask_one_fixed_question_and_oracle_types_follows_the_instance(tmp_path, searcher):
    run(tmp_path / "region", searcher, "template:region", budgets=[1])
    asked = [json.loads(line) for line in (tmp_path / "region" / "clarify.jsonl").read_text().splitlines()]
    assert {a["question"] for a in asked} == {TEMPLATES["region"]["en"]}
    oracle = run(tmp_path / "oracle", searcher, "oracle-types")
    asked = [json.loads(line) for line in (tmp_path / "oracle" / "clarify.jsonl").read_text().splitlines()]
    for instance in load()[:N]:
        types = list(dict.fromkeys(c.type.value for c in instance.removed_constraints))
        mine = sorted((a for a in asked if a["instance"] == instance.id), key=lambda a: a["turn"])
        assert [a["question"] for a in mine if not a["declined"]] == [TEMPLATES[t]["en"] for t in types[:3]]
    assert oracle["declared_leakage"].startswith("the types of the removed constraints")
    assert "Reference clarifier" in (tmp_path / "oracle" / "summary.md").read_text()


def test_the_references_order_as_the_protocol_predicts(tmp_path, searcher):
    # The scripted user states only years: a time question elicits, a region one never does. Its answers are
    # forwarded as written (free-form answerer): answer mode choose would answer a place question by a place.
    free = {"answer_mode": "replace", "prompts": {"user_answerer": "v2"}}
    none = means(run(tmp_path / "none", searcher, "none", **free))
    time = means(run(tmp_path / "time", searcher, "template:time", **free))
    region = run(tmp_path / "region", searcher, "template:region", **free)
    assert region["dialogue"]["unknown_rate_per_turn"]["1"] == 1.0
    assert means(region)["clarify@1"] == none["baseline"]
    assert time["clarify@1"] >= none["clarify@1"]


def test_a_users_clarifier_class_runs_by_import_path_through_the_cli(tmp_path, fresh_hf_env):
    from tests.conftest import run_cli

    (tmp_path / "my_clarifiers.py").write_text(textwrap.dedent('''
        class AskOnce:
            """Asks about the year once, then stops."""
            name = "my-ask-once"

            def __init__(self, question="Which year do you mean?"):
                self.question = question

            @property
            def identity(self):
                return {"question": self.question}

            def ask(self, views):
                return [self.question if v.turn == 1 else None for v in views]
    '''))
    folder = tmp_path / "run"
    result = run_cli("run", "--clarifier", "my_clarifiers:AskOnce", "--limit", "2", "--out-dir", str(folder),
                     "--user-answerer", "default", "--quiet", env=fresh_hf_env, cwd=tmp_path)
    assert result.returncode == 0, result.stderr[-3000:]
    summary = json.loads((folder / "summary.json").read_text())
    assert summary["clarifier"] == "my-ask-once"
    assert summary["conditions"]["clarify@3"]["questions_asked"] == 1
    config = json.loads((folder / "config.json").read_text())
    assert config["identity"]["roles"]["clarifier"]["model"]["identity"] == {"question": "Which year do you mean?"}


def test_bad_import_paths_name_what_is_wrong(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ClarifierLoadError, match="cannot import 'no_such_module'"):
        load_clarifier("no_such_module:Thing")
    (tmp_path / "half.py").write_text("class Thing:\n    pass\n")
    with pytest.raises(ClarifierLoadError, match="no ask"):
        load_clarifier("half:Thing")
    assert load_clarifier("openai:gpt-4.1") is None and load_clarifier("default") is None
