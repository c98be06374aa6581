"""Resuming a run folder: a Python clarifier's options are part of what the folder holds, config.json is
never left half written (and a damaged one is refused by name), and --retry-unscored never trades a
scored judgement for a worse one.

Scripted interaction models, the real BM25 retrieval searcher, the real lexical and LLM judges."""

import json
import os

import pytest

from cts_dataset.errors import CtsbenchError
from cts_dataset.judges.lexical import LexicalJudge
from cts_dataset.judges.llm import LLMJudge
from cts_dataset.models.base import ChatResponse
from cts_dataset.models.scripted import ScriptedModel
from cts_dataset.pipeline.config import load_config
from cts_dataset.pipeline.experiment import Experiment
from cts_dataset.pipeline.identity import IdentityMismatch
from cts_dataset.search.corpus_tool import CorpusSearchTool
from cts_dataset.search.retrieval import RetrievalSearcher
from tests.scripted_roles import make_models


@pytest.fixture(scope="module")
def searcher(tmp_path_factory):
    return RetrievalSearcher(CorpusSearchTool(cache_root=tmp_path_factory.mktemp("bm25")))


def run(folder, searcher, judge=None, **overrides):
    config = load_config(out_dir=folder, **{"limit": 2, "budgets": [1], **overrides})
    return Experiment(config, models=make_models(), searcher=searcher, judge=judge or LexicalJudge(),
                      progress=False).run()


def latest(folder, stage):
    found = {}
    for line in (folder / f"{stage}.jsonl").read_text().splitlines():
        record = json.loads(line)
        found[(record["instance"], record["condition"], record["budget"])] = record
    return found


# -- a Python clarifier's options ---------------------------------------------------------------------
SWEEP = '''
class Asker:
    """Its temperature picks its wording, as a sampled model's would; it states no identity of its own."""

    def __init__(self, temperature=0.0):
        self.temperature = temperature

    def ask(self, views):
        question = "Which year do you mean?" if self.temperature < 0.5 else "Roughly when, which decade?"
        return [question if v.turn == 1 else None for v in views]
'''


def test_each_point_of_an_options_sweep_gets_its_own_folder_and_a_resume_with_other_options_is_refused(
        tmp_path, searcher, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "sweep_asker.py").write_text(SWEEP)

    def point(temperature, **overrides):
        models = make_models()
        del models["clarifier"]
        config = load_config(limit=2, budgets=[1], **overrides,
                             clarifier={"import": "sweep_asker:Asker", "options": {"temperature": temperature}})
        return Experiment(config, models=models, searcher=searcher, judge=LexicalJudge(), progress=False)

    low = point(0.2)
    low.run()
    with pytest.raises(IdentityMismatch, match=r"roles\.clarifier\.import\.options\.temperature: 0\.2 -> 0\.9"):
        point(0.9, out_dir=low.folder)
    identity = json.loads((low.folder / "config.json").read_text())["identity"]
    assert identity["roles"]["clarifier"]["import"] == {"import": "sweep_asker:Asker", "options": {"temperature": 0.2}}
    high = point(0.9)
    assert high.folder != low.folder, "a sweep's points must not resume each other"
    assert low.folder.name.startswith("Asker-") and low.folder.name.endswith("__cpu-smoke")
    assert point(0.2).folder == low.folder, "the same options resume the same folder"


# -- config.json ----------------------------------------------------------------------------------------
def test_a_damaged_config_json_is_refused_with_a_message_naming_it(tmp_path, searcher):
    run(tmp_path / "r", searcher)
    path = tmp_path / "r" / "config.json"
    path.write_text(path.read_text()[:200])  # a write cut short
    with pytest.raises(CtsbenchError, match=r"r/config\.json: not valid JSON"):
        run(tmp_path / "r", searcher)


class Killed(BaseException):
    """The process dies (SIGKILL, power cut) at this point."""


def test_a_kill_while_config_json_is_written_leaves_the_previous_one_whole(tmp_path, searcher, monkeypatch):
    run(tmp_path / "r", searcher)
    path = tmp_path / "r" / "config.json"
    before = path.read_text()
    real = os.replace

    def dies_before_the_rename(source, target):
        if os.path.basename(target) == "config.json":
            raise Killed
        real(source, target)

    monkeypatch.setattr(os, "replace", dies_before_the_rename)
    with pytest.raises(Killed):
        run(tmp_path / "r", searcher)
    monkeypatch.undo()
    assert path.read_text() == before and not list(path.parent.glob(".config.json*"))
    run(tmp_path / "r", searcher)
    assert json.loads(path.read_text())["invocations"] == 2


# -- --retry-unscored -----------------------------------------------------------------------------------
def first_chunk_only(request):
    """Labels a judge request's first one-nugget chunk; later chunks get a reply that does not parse."""
    return '{"labels": ["full"]}' if request.tag.endswith("#0") else "I cannot say."


class Down(ScriptedModel):
    """The judge's model after the server went away: every request fails after its retries."""

    def complete(self, requests):
        self.calls.extend(requests)
        return [ChatResponse.failure("HTTP 503: service unavailable", model=self.spec) for _ in requests]


def judge(model):
    return LLMJudge(model, batch_size=1, max_attempts=1)


def test_a_retry_whose_request_fails_keeps_the_scored_judgement(tmp_path, searcher):
    folder = tmp_path / "r"
    first = run(folder, searcher, judge(ScriptedModel(default=first_chunk_only, spec="judge-model")))
    scored = latest(folder, "judge")
    assert all(r["n_unscored"] == r["n_nuggets"] - 1 and r["restore_score_100"] == 100 for r in scored.values())
    down = Down(spec="judge-model")
    retried = run(folder, searcher, judge(down), retry_unscored=True, max_errors=1000)
    assert down.calls, "the unscored nuggets were asked again"
    for label, condition in first["conditions"].items():
        assert retried["conditions"][label]["scored_instances"] == condition["scored_instances"] == 2, label
        assert retried["conditions"][label]["restore_score_100"] == condition["restore_score_100"]
    assert latest(folder, "judge") == scored
    # A retry that does better replaces the judgement.
    better = run(folder, searcher, judge(ScriptedModel(default='{"labels": ["none"]}', spec="judge-model")),
                 retry_unscored=True)
    assert all(r["n_unscored"] == 0 and not r["error"] for r in latest(folder, "judge").values())
    assert better["conditions"]["baseline"]["scored_instances"] == 2
