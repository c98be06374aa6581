"""A run folder read back for the diagnostics by the pipeline's own rules: its dialogues are the ones the
pipeline showed the clarifier (the same turns, ending at a declined turn, absent while a turn failed), and
its record files are read as the logs read themselves (a torn last line tolerated, a corrupt or non-object
line in the middle an error naming file and line)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cts_dataset.diagnostics.runfolder import Run, read_jsonl, read_run
from cts_dataset.log import LogError
from cts_dataset.pipeline.dialogue import DialogueKey, history, turns_done
from cts_dataset.pipeline.store import RunStore
from cts_dataset.pipeline.turns import turn_key
from cts_dataset.search.corpus_tool import CorpusSearchTool
from cts_dataset.search.retrieval import RetrievalSearcher
from tests.diagnostics_runs import run
from tests.scripted_roles import make_models


class DeclinesAfterOne:
    """A clarifier that asks one question and then stops asking."""

    name = "declines-after-one"

    def ask(self, views):
        return ["Which year do you mean?" if not v.history else None for v in views]


@pytest.fixture(scope="module")
def searcher(tmp_path_factory):
    return RetrievalSearcher(CorpusSearchTool(cache_root=tmp_path_factory.mktemp("bm25")))


def lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def same_dialogues(folder: Path) -> int:
    """Assert the pipeline's and the diagnostics' dialogues agree for every instance, k and repeat;
    returns how many dialogues are done."""
    found = read_run(folder)
    store = RunStore(folder)
    done = 0
    try:
        for instance in found.instances:
            for k in found.budgets:
                for repeat in range(found.repeats):
                    key = DialogueKey(instance, k if found.show_budget else None, k, repeat)
                    turns = found.dialogue(instance.id, k, repeat)
                    assert turns_done(store, key, k) == (turns is not None)
                    if turns is None:
                        continue
                    done += 1
                    shown = [(qa.question, qa.answer) for qa in history(store, key, k)]
                    group = k if found.show_budget else None
                    assert shown == [(t.question, found.answer(turn_key(instance.id, group, t.turn, repeat))["answer"])
                                     for t in turns if t.asked]
    finally:
        store.close()
    return done


def test_a_hidden_budget_run_reads_back_the_dialogues_the_clarifier_saw(tmp_path, searcher):
    folder = tmp_path / "run"
    run(folder, searcher, limit=3, budgets=[1, 2, 3])
    assert same_dialogues(folder) == 9
    answer = next(r for r in lines(folder / "answer.jsonl") if r["turn"] == 2)
    with open(folder / "answer.jsonl", "a") as handle:  # a later line of the key wins: the turn failed
        handle.write(json.dumps({**answer, "error": "timeout"}) + "\n")
    assert same_dialogues(folder) == 7  # that instance's k=2 and k=3 dialogues wait for a rerun


def test_a_declining_clarifier_with_the_budget_shown_ends_its_dialogues_alike(tmp_path, searcher):
    models = make_models()
    models["clarifier"] = DeclinesAfterOne()
    folder = tmp_path / "run"
    run(folder, searcher, models, limit=2, budgets=[1, 3], show_budget=True)
    assert same_dialogues(folder) == 4
    found: Run = read_run(folder)
    turns = found.dialogue(found.instances[0].id, 3, 0)
    assert turns is not None and [t.status for t in turns] == ["answered", "declined"]


def test_a_torn_last_line_is_a_write_in_flight(tmp_path):
    path = tmp_path / "judge.jsonl"
    path.write_text('{"instance": "a"}\n\n{"instance": "b"}\n{"instance": "c", "cond')
    assert read_jsonl(path) == [{"instance": "a"}, {"instance": "b"}]
    assert read_jsonl(tmp_path / "missing.jsonl") == []


@pytest.mark.parametrize(("middle", "what"), [("{not json", "corrupt record"), ("[1, 2]", "expected a JSON object"),
                                               ('"text"', "expected a JSON object")])
def test_a_corrupt_or_non_object_middle_line_names_file_and_line(tmp_path, middle, what):
    path = tmp_path / "judge.jsonl"
    path.write_text(f'{{"instance": "a"}}\n{middle}\n{{"instance": "b"}}\n')
    with pytest.raises(LogError, match=rf"judge\.jsonl:2: .*{what}"):
        read_jsonl(path)
