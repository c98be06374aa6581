"""The evaluate module: loaded by path in the repository, by the package's path, and by bare name offline."""

import json
import subprocess
import sys

import pytest

import cts_dataset
from tests.conftest import REPO, run_cli

REFERENCES = [
    [{"text": "The official count gave 242,469 deaths.", "weight": 3.0, "sources": ["1976_Tangshan_earthquake"]},
     {"text": "It struck on 28 July 1976.", "weight": 1.0, "sources": ["1976_Tangshan_earthquake"]}],
    [{"text": "Mercury is liquid at room temperature.", "weight": 1.0, "sources": ["Mercury_(element)"]}],
    [{"text": "Kinshasa is the capital.", "weight": 0.0, "sources": []}],
]
LABELS = [["partial", "full"], [None], ["full"]]


def test_metric_loads_from_the_repository_folder_and_the_package_path():
    import evaluate

    for path in (str(REPO / "metric" / "restore_score"), cts_dataset.metric_path()):
        metric = evaluate.load(path)
        result = metric.compute(predictions=["a", "b", "c"], references=REFERENCES, labels=LABELS)
        # (3 * 0.5 + 1 * 1) / 4 = 62.5; instance 2 all unscored; instance 3 weighs 0 in total.
        assert result["restore_score_100"] == pytest.approx(62.5)
        assert result["strict_100"] == pytest.approx(25.0)
        assert result["per_instance"] == [pytest.approx(62.5), None, None]
        assert result["per_instance_unweighted"] == [pytest.approx(75.0), None, pytest.approx(100.0)]
        assert (result["n_unscored_instances"], result["n_zero_weight_instances"], result["n_unscored_nuggets"]) == (2, 1, 1)


def test_metric_runs_a_judge_given_at_compute_or_at_load():
    import evaluate

    predictions = ["The official count gave 242,469 deaths.", "", "Kinshasa is the capital."]
    by_compute = evaluate.load(cts_dataset.metric_path()).compute(
        predictions=predictions, references=REFERENCES, judge="lexical")
    by_load = evaluate.load(cts_dataset.metric_path(), judge="lexical").compute(
        predictions=predictions, references=REFERENCES)
    assert by_compute["labels"] == by_load["labels"] == [["full", "none"], ["none"], ["full"]]
    assert by_compute["per_instance"] == [pytest.approx(75.0), 0.0, None]
    assert by_compute["judge"] == "lexical"


def test_metric_gives_the_queries_to_the_llm_judge():
    import evaluate

    from cts_dataset.judges.llm import LLMJudge
    from cts_dataset.models.scripted import ScriptedModel

    def labels(request) -> str:
        count = int(request.messages[-1].content.split("Nuggets (")[1].split(")")[0])
        return json.dumps({"labels": ["full"] * count})

    metric = evaluate.load(cts_dataset.metric_path())
    predictions = ["242,469 deaths on 28 July 1976.", "Mercury is liquid.", "Kinshasa."]
    queries = ["How many died in Tangshan in 1976?", "Is mercury liquid?", "Capital of the DR Congo?"]
    model = ScriptedModel(default=labels)
    given = metric.compute(predictions=predictions, references=REFERENCES, queries=queries, judge=LLMJudge(model))
    prompts = [request.messages[-1].content for request in model.calls]
    assert [p.splitlines()[0] for p in prompts] == [f"Question the answer responds to: {q}" for q in queries]
    assert given["queries_given"] is True and given["restore_score_100"] == pytest.approx(100.0)
    assert (given["judge"], given["judge_prompt"]) == ("llm:scripted@coverage-v1", "coverage-v1")
    assert len(given["judge_prompt_hash"]) == 16 and "judge_errors" not in given

    plain = ScriptedModel(default=labels)
    missing = metric.compute(predictions=predictions, references=REFERENCES, judge=LLMJudge(plain))
    assert missing["queries_given"] is False
    assert all("responds to: (not given)" in request.messages[-1].content for request in plain.calls)
    with pytest.raises(ValueError, match="3 predictions but 2 queries"):
        metric.compute(predictions=predictions, references=REFERENCES, queries=queries[:2], judge="lexical")


def test_metric_rejects_references_that_do_not_mirror_the_nugget_struct():
    import evaluate

    metric = evaluate.load(cts_dataset.metric_path())
    with pytest.raises((KeyError, ValueError, TypeError)):
        metric.compute(predictions=["a"], references=[[{"text": "x", "weight": 1.0}]], labels=[["full"]])


def test_metric_module_has_one_import_per_line():
    source = (REPO / "metric" / "restore_score" / "restore_score.py").read_text()
    imports = [line for line in source.splitlines() if line.startswith("import ")]
    assert imports and all("," not in line for line in imports)


OFFLINE_SNIPPET = """
import doctest, importlib.util, json, sys
import evaluate
metric = evaluate.load("restore_score")
result = metric.compute(predictions=["a", "b", "c"], references=json.loads(sys.argv[1]), labels=json.loads(sys.argv[2]))
spec = importlib.util.spec_from_file_location("card", sys.argv[3])
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
test = doctest.DocTestParser().get_doctest(module._KWARGS_DESCRIPTION, {}, "restore_score", None, 0)
outcome = doctest.DocTestRunner().run(test)
print(json.dumps({"score": result["restore_score_100"], "doctest": [outcome.failed, outcome.attempted]}))
"""


@pytest.mark.slow
def test_bare_name_loads_offline_from_another_directory_after_hub_install(fresh_hf_env, tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    args = [sys.executable, "-c", OFFLINE_SNIPPET, json.dumps(REFERENCES), json.dumps(LABELS),
            str(REPO / "metric" / "restore_score" / "restore_score.py")]
    before = subprocess.run(args, cwd=elsewhere, env=fresh_hf_env, capture_output=True, text=True, timeout=300, check=False)
    assert before.returncode != 0 and "restore_score" in before.stderr  # not found before the install

    installed = run_cli("hub", "install", env=fresh_hf_env)
    assert installed.returncode == 0, installed.stderr[-2000:]
    after = subprocess.run(args, cwd=elsewhere, env=fresh_hf_env, capture_output=True, text=True, timeout=300, check=False)
    assert after.returncode == 0, after.stderr[-2000:]
    result = json.loads(after.stdout.strip().splitlines()[-1])
    assert result["score"] == pytest.approx(62.5)
    failed, attempted = result["doctest"]
    assert attempted >= 5 and failed == 0
