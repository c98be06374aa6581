"""A run killed mid-stage keeps what an engine that serves one request at a time had answered: the pipeline
writes its records in small batches for such an engine (without the response cache a kill loses the batch).

Scripted interaction models, the real BM25 retrieval searcher and lexical judge."""

import json

import pytest

from cts_dataset.judges.lexical import LexicalJudge
from cts_dataset.models.base import serves_one_at_a_time
from cts_dataset.models.scripted import ScriptedModel
from cts_dataset.pipeline.config import load_config
from cts_dataset.pipeline.experiment import BATCH, ONE_AT_A_TIME_BATCH, Experiment
from cts_dataset.pipeline.progress import Recorder
from cts_dataset.search.corpus_tool import CorpusSearchTool
from cts_dataset.search.retrieval import RetrievalSearcher
from tests.scripted_roles import make_models

INSTANCES = 50
KILLED_AT = 45  # the clarifier's request during which the run is killed


class OneAtATime(ScriptedModel):
    one_at_a_time = True


class Killed(Exception):
    """Stands for the kill: nothing after it runs."""


@pytest.fixture(scope="module")
def searcher(tmp_path_factory):
    return RetrievalSearcher(CorpusSearchTool(cache_root=tmp_path_factory.mktemp("bm25")))


def killed_run(folder, searcher, engine: type[ScriptedModel], **overrides) -> list[dict]:
    """Runs until the clarifier's KILLED_AT-th request; returns the clarify records on disk."""
    asked = []

    def ask(request):
        asked.append(request)
        if len(asked) == KILLED_AT:
            raise Killed
        return "Which year do you mean?"

    models = {**make_models(), "clarifier": engine(default=ask)}
    config = load_config(out_dir=folder, **{"limit": INSTANCES, "budgets": [1], **overrides})
    with pytest.raises(Killed):
        Experiment(config, models=models, searcher=searcher, judge=LexicalJudge(), progress=False).run()
    path = folder / "clarify.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def test_a_kill_loses_at_most_one_small_batch_of_a_one_at_a_time_engine(tmp_path, searcher):
    kept = killed_run(tmp_path / "small", searcher, OneAtATime)
    assert KILLED_AT - 1 - ONE_AT_A_TIME_BATCH < len(kept) <= KILLED_AT - 1
    assert len({r["instance"] for r in kept}) == len(kept)
    # A batch engine keeps one batch for the whole stage: the kill loses every answer of it.
    assert killed_run(tmp_path / "large", searcher, ScriptedModel) == []
    # A batch_size the config sets wins over both.
    assert len(killed_run(tmp_path / "set", searcher, ScriptedModel, batch_size=10)) == 40


def test_an_engine_is_seen_to_serve_one_at_a_time_through_its_wrappers():
    class Loaded:  # how a role's model holds its engine
        def __init__(self, backend):
            self.backend, self.spec = backend, "wrapped"

    assert serves_one_at_a_time(Recorder(Loaded(OneAtATime())))
    assert not serves_one_at_a_time(Recorder(Loaded(ScriptedModel()))) and not serves_one_at_a_time(None)
    assert ONE_AT_A_TIME_BATCH < BATCH
