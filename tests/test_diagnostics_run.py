"""Diagnostics of scripted runs whose answers are known: the region-only bias, elicitation by constraint
type, per-question utility and restoration rate, cost from the trace, failed records, determinism and
the `ctsbench diagnose` command."""

import json
import shutil

import pytest

from cts_dataset.data import load
from cts_dataset.diagnostics import diagnose, render_markdown
from cts_dataset.search.corpus_tool import CorpusSearchTool
from cts_dataset.search.retrieval import RetrievalSearcher
from tests.diagnostics_runs import region_only_models, run, traced_models
from tests.scripted_roles import make_models


@pytest.fixture(scope="module")
def searcher(tmp_path_factory):
    return RetrievalSearcher(CorpusSearchTool(cache_root=tmp_path_factory.mktemp("bm25")))


@pytest.fixture(scope="module")
def six(tmp_path_factory, searcher):
    """demo-0001..0006 with the shared scripted roles: turn 1 asks for a year, turns 2-3 for a place."""
    folder = tmp_path_factory.mktemp("six") / "run"
    run(folder, searcher)
    return folder


def lines(path):
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def test_a_clarifier_asking_only_about_region_shows_the_region_only_bias(tmp_path, searcher):
    instances = load()[:20]
    run(tmp_path / "r", searcher, region_only_models(instances), limit=20, budgets=[1, 2])
    found = diagnose(tmp_path / "r")
    # The user states a region only when the intent has one: independently, from the removed constraints.
    no_region = sum(not any(c.type.value == "region" for c in i.removed_constraints) for i in instances) / 20
    assert 0 < no_region < 1
    types = found["question_types"]
    assert types["per_type"]["region"]["share"] == 1.0
    assert types["per_type"]["region"]["unknown_rate"] == pytest.approx(no_region)
    for k in ("1", "2"):
        region_only = types["region_only"][k]
        assert region_only["dialogues"] == 20 and region_only["rate"] == 1.0
        assert region_only["unknown_rate"] == pytest.approx(no_region)
    elicited = found["elicitation"]["by_constraint_type"]
    assert elicited["region"]["at_k"]["1"]["targeted_rate"] == 1.0
    assert elicited["region"]["at_k"]["1"]["revealed_rate"] == 1.0
    assert all(row["at_k"]["2"]["targeted"] == 0 for kind, row in elicited.items() if kind != "region")
    assert "| region |" in render_markdown(found)


def test_elicitation_by_constraint_type_matches_a_hand_count(six):
    found = diagnose(six)
    elicited = found["elicitation"]["by_constraint_type"]
    # time: demo-0001 (1976) and demo-0006 (2026), asked at turn 1 and answered
    assert elicited["time"]["instances"] == 2
    assert [(elicited["time"]["at_k"][k]["targeted"], elicited["time"]["at_k"][k]["revealed"]) for k in "123"] == [(2, 2)] * 3
    # region: demo-0001, 0005, 0006, asked from turn 2 ("which place"), never answered (the user states years only)
    assert elicited["region"]["instances"] == 3
    assert [(elicited["region"]["at_k"][k]["targeted"], elicited["region"]["at_k"][k]["revealed"]) for k in "123"] == \
        [(0, 0), (3, 0), (3, 0)]
    assert elicited["entity"]["instances"] == 2 and elicited["entity"]["at_k"]["3"]["targeted"] == 0
    assert elicited["scope"]["instances"] == 1 and elicited["number"]["instances"] == 0
    assert elicited["number"]["at_k"]["1"]["targeted_rate"] is None
    # turn 3 asks for a place again in every dialogue
    redundant = found["elicitation"]["redundant"]
    assert [(redundant[k]["later_questions"], redundant[k]["redundant"]) for k in "123"] == [(0, 0), (6, 0), (12, 6)]
    assert redundant["3"]["dialogues_with_redundant"] == 6
    assert found["elicitation"]["over_disclosure"] == {"answers": 2, "beyond_question": 0, "beyond_question_rate": 0.0,
                                                      "revealed_unasked_type": 0, "revealed_unasked_type_rate": 0.0}
    per_type = found["question_types"]["per_type"]
    assert (per_type["time"]["asked"], per_type["time"]["unknown"]) == (6, 4)
    assert (per_type["region"]["asked"], per_type["region"]["unknown"]) == (12, 12)
    assert found["question_types"]["by_turn"]["1"]["unknown_rate"] == pytest.approx(4 / 6)
    assert found["question_types"]["region_only"]["3"]["region_only"] == 0


def test_restoration_rate_and_per_question_gain_follow_the_judged_scores(six):
    found = diagnose(six)
    judged = {(r["instance"], r["condition"], r["budget"]): r["restore_score_100"] for r in lines(six / "judge.jsonl")}
    ids = [i.id for i in load()[:6]]
    for k in (1, 2, 3):
        gains, headroom = {}, {}
        for i in ids:
            base, oracle, clarify = judged[(i, "baseline", None)], judged[(i, "oracle", None)], judged[(i, "clarify", k)]
            if oracle > base:
                gains[i], headroom[i] = clarify - base, oracle - base
        got = found["utility"]["restoration_rate"][f"clarify@{k}"]
        assert got["per_instance"] == pytest.approx({i: gains[i] / headroom[i] for i in gains})
        assert got["defined"] == len(gains) and got["defined"] + got["no_headroom"] == 6
        # the ratio of the mean gains (tests/test_diagnostics_hand.py checks it and its CI by hand)
        assert got["mean"] == pytest.approx(sum(gains.values()) / sum(headroom.values()))
        assert got["low"] <= got["mean"] <= got["high"]
    gain = found["utility"]["marginal_gain"]["1"]
    answered = [judged[(i, "clarify", 1)] - judged[(i, "baseline", None)] for i in ("demo-0001", "demo-0006")]
    assert gain["n"] == 6 and gain["by_status"]["answered"]["mean"] == pytest.approx(sum(answered) / 2)
    assert gain["by_type"]["time"]["answered"]["n"] == 2 and gain["by_type"]["time"]["unknown"]["n"] == 4
    steps = found["utility"]["marginal_gain"]["2"]
    assert steps["by_type"]["region"]["unknown"]["n"] == 6
    assert steps["mean"] == pytest.approx(sum(judged[(i, "clarify", 2)] - judged[(i, "clarify", 1)] for i in ids) / 6)


def test_cost_per_role_and_condition_sums_the_trace(tmp_path, searcher):
    folder = tmp_path / "r"
    models = traced_models(folder)
    try:
        run(folder, searcher, models, limit=4, budgets=[1, 2])
    finally:
        for model in models.values():
            model.close()
    calls = lines(folder / "calls.jsonl")
    assert {c["role"] for c in calls} == {"clarifier", "user_answerer", "rewriter"}
    cost = diagnose(folder)["cost"]
    for role in ("clarifier", "user_answerer", "rewriter"):
        mine = [c for c in calls if c["role"] == role]
        assert cost["by_role"][role]["calls"] == len(mine)
        assert cost["by_role"][role]["prompt_tokens"] == sum(c["usage"]["prompt_tokens"] for c in mine) > 0
        assert cost["by_role"][role]["completion_tokens"] == sum(c["usage"]["completion_tokens"] for c in mine)
        assert cost["by_role"][role]["seconds"] == pytest.approx(0.25 * len(mine))
        assert sum(r["calls"] for r in cost["by_role_and_condition"][role].values()) == len(mine)
    assert cost["total"]["calls"] == len(calls) == sum(r["calls"] for r in cost["by_condition"].values())
    # hidden budget: the dialogue's turns are tagged with no budget, the rewrites with theirs
    assert cost["by_condition"]["clarify dialogue"]["calls"] == 2 * 4 * 2
    # clarify@1 owns turn 1 of every dialogue and its own rewrites; the baseline made no model call
    owned = [c for c in calls if c["tag"].split("|")[2] == "1" or (c["tag"].split("|")[2] == "None" and c["tag"].split("|")[3] == "1")]
    point = cost["per_point"]["clarify@1"]
    assert point["extra_per_instance"]["calls"] == pytest.approx(len(owned) / 4)
    # the four instances score at clarify@1 what they score at the baseline: no point gained, no cost per
    # point (tests/test_diagnostics_hand.py checks a cost per point gained by hand)
    judged = {(j["instance"], j["condition"], j["budget"]): j["restore_score_100"] for j in lines(folder / "judge.jsonl")}
    assert all(judged[(i.id, "clarify", 1)] == judged[(i.id, "baseline", None)] for i in load()[:4])
    assert point["gain"] == 0 and point["per_point"] is None


def test_a_copied_folder_gives_the_identical_dict(six, tmp_path):
    copy = tmp_path / "elsewhere" / "copy"
    shutil.copytree(six, copy)
    found = diagnose(six)
    assert diagnose(copy) == found == diagnose(six, load()[:6])
    assert json.loads(json.dumps(found)) == found, "plain JSON values only"


def test_failed_records_are_counted_and_never_used(six, tmp_path):
    folder = tmp_path / "r"
    shutil.copytree(six, folder)
    before = diagnose(folder)
    answer = lines(folder / "answer.jsonl")[0]
    with open(folder / "answer.jsonl", "a") as handle:  # a later line of the key wins: the turn failed
        handle.write(json.dumps({**answer, "answer": "LEAKEDTEXT", "unknown": False, "error": "timeout"}) + "\n")
        handle.write('{"instance": "demo-0001", "condi')  # a write in flight
    found = diagnose(folder)
    assert found["errors"]["answer"] == before["errors"]["answer"] + 1 == 1
    assert found["question_types"]["questions"] == before["question_types"]["questions"] - 1
    assert "LEAKEDTEXT" not in json.dumps(found)
    assert found["elicitation"]["by_constraint_type"]["time"]["at_k"]["1"]["dialogues"] == 1  # demo-0001's is not done


class DeclinesAfterOne:
    """A clarifier that asks one question and then stops asking."""

    name = "declines-after-one"

    def ask(self, views):
        return ["Which year do you mean?" if not v.history else None for v in views]


def test_a_clarifier_that_stops_asking_is_counted_apart(tmp_path, searcher):
    models = make_models()
    models["clarifier"] = DeclinesAfterOne()
    run(tmp_path / "r", searcher, models, limit=3, budgets=[1, 2, 3])
    found = diagnose(tmp_path / "r")
    types = found["question_types"]
    assert types["questions"] == 3 and types["declined"] == 3 and types["per_type"]["time"]["asked"] == 3
    assert found["utility"]["marginal_gain"]["2"]["by_status"]["declined"]["n"] == 3
    assert found["utility"]["marginal_gain"]["3"]["by_status"]["declined"]["n"] == 3
    assert found["elicitation"]["redundant"]["3"]["later_questions"] == 0


def test_ctsbench_diagnose_writes_json_and_markdown(six, tmp_path):
    from tests.conftest import run_cli

    folder = tmp_path / "run"
    shutil.copytree(six, folder)
    result = run_cli("diagnose", str(folder))
    assert result.returncode == 0, result.stderr[-2000:]
    written = json.loads((folder / "diagnostics.json").read_text())
    assert written == diagnose(six)
    markdown = (folder / "diagnostics.md").read_text()
    assert markdown == render_markdown(written) and "## Diagnostics" in markdown and "| time |" in markdown
    assert "Elicitation by removed-constraint type" in result.stdout
    out = run_cli("diagnose", str(folder), "--out", str(tmp_path / "elsewhere"))
    assert out.returncode == 0 and json.loads((tmp_path / "elsewhere" / "diagnostics.json").read_text()) == written
    missing = run_cli("diagnose", str(tmp_path))
    assert missing.returncode != 0 and "no config.json" in missing.stderr and "Traceback" not in missing.stderr


def test_the_whole_demo_run_is_diagnosed(tmp_path, searcher):
    # How long it takes: benchmarks/bench_test_timings.py (a figure, not a threshold a loaded machine misses).
    run(tmp_path / "all", searcher, limit=None)
    found = diagnose(tmp_path / "all")
    assert found["run"]["instances"] == 200 and found["question_types"]["questions"] == 600


def test_a_shown_budget_counts_the_dialogue_of_every_budget(tmp_path, searcher):
    run(tmp_path / "r", searcher, show_budget=True, budgets=[1, 2], limit=3)
    found = diagnose(tmp_path / "r")
    types = found["question_types"]
    # k=1: one question per instance (a year); k=2: a dialogue of its own, a year then a place
    assert types["questions"] == 3 + 6 and types["by_turn"]["2"]["questions"] == 3
    assert (types["per_type"]["time"]["asked"], types["per_type"]["region"]["asked"]) == (6, 3)
    assert found["elicitation"]["by_constraint_type"]["time"]["at_k"]["2"] == {
        "dialogues": 1, "targeted": 1, "targeted_rate": 1.0, "revealed": 1, "revealed_rate": 1.0}


def test_a_shown_budget_reports_no_per_question_gain_and_says_why(tmp_path, searcher):
    # each k is a dialogue of its own: clarify@2 - clarify@1 compares two dialogues, not what question 2 brought
    run(tmp_path / "r", searcher, show_budget=True, budgets=[1, 2], limit=3)
    found = diagnose(tmp_path / "r")
    assert found["utility"]["marginal_gain"] == {}
    assert "two different dialogues" in found["utility"]["marginal_gain_note"]
    assert all(row["gain_when_asked"] == {"n": 0, "mean": None} for row in found["question_types"]["per_type"].values())
    assert "Per-question gain not computed: with the budget shown" in render_markdown(found)
    run(tmp_path / "hidden", searcher, budgets=[1, 2], limit=3)  # one dialogue serves both k: the gain is defined
    hidden = diagnose(tmp_path / "hidden")["utility"]
    assert hidden["marginal_gain"]["2"]["n"] == 3 and "marginal_gain_note" not in hidden


def test_a_run_without_clarification_has_cost_and_search_only(tmp_path, searcher):
    run(tmp_path / "r", searcher, conditions=["baseline", "oracle"], limit=2)
    found = diagnose(tmp_path / "r")
    assert set(found) == {"version", "run", "errors", "cost", "search"}
    assert list(found["search"]) == ["baseline", "oracle"] and found["search"]["oracle"]["trajectories"] == 2
    assert "## Diagnostics" in render_markdown(found)
