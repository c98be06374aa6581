"""`ctsbench judge-check`: metrics by hand, the properties they must keep, the pairs file's errors, the
constant judges, the CLI in a subprocess and the LLM judge's calls through the response cache."""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

from cts_dataset.jsonl import RecordFileError
from cts_dataset.judges import JudgeItem, Judgement, make_judge
from cts_dataset.judges.check import check_judge, group_jobs, run_judge
from cts_dataset.judges.check_metrics import label_metrics, restore_bias, run_agreement
from cts_dataset.judges.llm import LLMJudge
from cts_dataset.judges.pairs import PAIRS_ENV, LabelledPair, read_pairs
from cts_dataset.models.cache import ResponseCache
from cts_dataset.models.registry import LoadedModel
from cts_dataset.models.scripted import ScriptedModel
from cts_dataset.models.spec import ModelSpec
from cts_dataset.scoring.agreement import cohen_kappa
from tests.conftest import run_cli

# (human, judge, weight) of the hand-computed set; the last pair the judge left unscored.
HAND = [("full", "full", 1), ("full", "partial", 1), ("full", "full", 1), ("partial", "partial", 1),
        ("partial", "none", 1), ("none", "none", 1), ("none", "full", 2), ("none", "none", 1),
        ("partial", None, 1)]


class ScriptedJudge:
    """Labels each nugget by a table from nugget text to label (None = unscored)."""

    name = "scripted-table"

    def __init__(self, table: dict[str, str | None]) -> None:
        self.table = table

    def judge(self, items):
        return [Judgement(labels=[self.table[n] for n in item.nuggets]) for item in items]


def write_pairs(path, rows) -> None:
    path.write_text("".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows))


def hand_file(tmp_path):
    """The HAND set as a pairs file (two nuggets share each output) and the judge that gives its labels."""
    rows = [{"output": f"output {i // 2}", "nugget": f"nugget {i}", "label": h, "weight": w, "id": f"p{i}"}
            for i, (h, _, w) in enumerate(HAND)]
    path = tmp_path / "pairs.jsonl"
    write_pairs(path, rows)
    return path, ScriptedJudge({f"nugget {i}": j for i, (_, j, _) in enumerate(HAND)})


def test_hand_computed_metrics(tmp_path):
    """Over the 8 labelled pairs (rows human none/partial/full, columns judge none/partial/full):

        none    [2, 0, 1]    row sums 3, 2, 3; column sums 3, 2, 3
        partial [1, 1, 0]
        full    [0, 1, 2]

    accuracy 5/8. Linear disagreement weights |i-j|/2: observed cost (1*1 + 1*0.5 + 1*0.5)/8 = 0.25;
    chance cost sum w*r_i*c_j/64 = (3+9+3+3+9+3)/64 = 30/64; weighted kappa = 1 - 0.25/(30/64) = 7/15.
    Unweighted: p_o = 40/64, p_e = (9+4+9)/64 = 22/64, kappa = 18/42 = 3/7.
    Bias (no instance: weighted over pairs, weights 1 but pair 7 has 2, total 9): label restore
    100*4/9, judge restore 100*5/9, bias 100/9.
    """
    path, judge = hand_file(tmp_path)
    report = check_judge(judge, read_pairs(path), n_resamples=200)
    m = report.labels
    assert (m.n_pairs, m.n_compared, m.n_unscored) == (9, 8, 1)
    assert m.accuracy == pytest.approx(5 / 8)
    assert m.kappa_weights == "linear" and m.weighted_kappa == pytest.approx(7 / 15)
    assert m.unweighted_kappa == pytest.approx(3 / 7)
    assert m.confusion == {"none": {"none": 2, "partial": 0, "full": 1}, "partial": {"none": 1, "partial": 1, "full": 0},
                           "full": {"none": 0, "partial": 1, "full": 2}}
    assert m.precision == pytest.approx({"none": 2 / 3, "partial": 1 / 2, "full": 2 / 3})
    assert m.recall == pytest.approx({"none": 2 / 3, "partial": 1 / 2, "full": 2 / 3})
    low, high = m.weighted_kappa_ci95
    assert low < 7 / 15 < high and m.bootstrap["n_resamples"] == 200
    assert check_judge(judge, read_pairs(path), n_resamples=200).labels.weighted_kappa_ci95 == (low, high)  # seeded
    b = report.bias
    assert b.over == "pairs" and b.n == 8
    assert (b.label_restore_100, b.judge_restore_100, b.bias_100) == pytest.approx((400 / 9, 500 / 9, 100 / 9))
    assert report.label_counts == {"full": 3, "partial": 3, "none": 3} and report.n_pairs == 9
    assert report.cost.n_items == 5 and report.cost.seconds_per_label == pytest.approx(report.cost.seconds / 9)
    assert report.runs.kendall_tau is None and "0 system(s)" in report.runs.reason
    assert len(report.disagreements) == 4 and report.pairs_sha256 == read_pairs(path).sha256[:12]


def test_kappa_weights_penalise_none_vs_full_more_than_none_vs_partial():
    """Two judges with the same marginals and the same number of misses: one misses by one step (none vs
    partial), the other by two (none vs full). Unweighted kappa cannot tell them apart; ours must."""
    human = ["none", "none", "partial", "partial", "full", "full"]
    near = ["partial", "none", "none", "partial", "full", "full"]
    far = ["full", "none", "partial", "partial", "none", "full"]
    assert cohen_kappa(human, near) == pytest.approx(cohen_kappa(human, far))  # the unweighted blind spot
    assert label_metrics(human, near).weighted_kappa > label_metrics(human, far).weighted_kappa + 0.1


def test_bias_is_a_mean_over_instances_not_over_pairs():
    """Instance a: labels full, none (50), judge full, full (100): +50. Instance b: full vs full: 0.
    Mean over instances 25; pooling the three pairs would give 100/3."""
    human, judged = ["full", "none", "full"], ["full", "full", "full"]
    found = restore_bias(human, judged, [1, 1, 1], ["a", "a", "b"])
    assert found.over == "instances" and found.n == 2 and found.bias_100 == pytest.approx(25.0)
    assert restore_bias(human, judged, [1, 1, 1], [None] * 3).bias_100 == pytest.approx(100 / 3)


def test_kendall_tau_over_systems_whose_order_is_built():
    """Labels rank the systems s1 100 > s2 75 > s3 50 > s4 0; the judge swaps s2 (25) and s3 (50):
    one discordant pair of six, tau = (5-1)/6 = 2/3; Spearman 1 - 6*2/(4*15) = 0.8."""
    rows = {"s1": (["full", "full"], ["full", "full"]), "s2": (["full", "partial"], ["none", "partial"]),
            "s3": (["partial", "partial"], ["full", "none"]), "s4": (["none", "none"], ["none", "none"])}
    human = [h for hs, _ in rows.values() for h in hs]
    judged = [j for _, js in rows.values() for j in js]
    systems = [s for s in rows for _ in range(2)]
    found = run_agreement(human, judged, [1.0] * 8, systems, ["i1"] * 8)
    assert found.label_means == {"s1": 100, "s2": 75, "s3": 50, "s4": 0}
    assert found.judge_means == {"s1": 100, "s2": 25, "s3": 50, "s4": 0}
    assert found.n_systems == 4 and found.reason is None
    assert found.kendall_tau == pytest.approx(2 / 3) and found.spearman == pytest.approx(0.8)
    one = run_agreement(human[:2], judged[:2], [1.0] * 2, ["s1"] * 2, [None] * 2)
    assert one.kendall_tau is None and one.spearman is None and "1 system(s)" in one.reason


def test_unscored_judge_labels_are_counted_and_left_out():
    found = label_metrics(["full", "none", "partial"], ["full", None, None])
    assert (found.n_compared, found.n_unscored, found.accuracy) == (1, 2, 1.0)
    assert found.weighted_kappa is None  # one pair: no chance disagreement to compare with


def test_constant_full_recalls_full_only_and_has_kappa_zero(tmp_path):
    path, _ = hand_file(tmp_path)
    report = check_judge(make_judge("constant:full"), read_pairs(path), n_resamples=50)
    m = report.labels
    assert m.recall == {"full": 1.0, "partial": 0.0, "none": 0.0}
    assert m.precision == {"full": pytest.approx(3 / 9), "partial": None, "none": None}
    assert m.weighted_kappa == pytest.approx(0.0) and m.unweighted_kappa == pytest.approx(0.0)
    assert report.judge == "constant:full" and report.judge_identity["kind"] == "constant"
    assert make_judge("constant:none").judge([JudgeItem("a", ("x", "y"))])[0].labels == ["none", "none"]
    with pytest.raises(ValueError, match="constant:xyz.*constant:full, constant:partial, constant:none"):
        make_judge("constant:xyz")


@pytest.mark.parametrize("line,field,message", [
    ('{"output": "o", "nugget": "n", "label": "full"', "(json)", "not valid JSON"),
    ('{"output": "o", "nugget": "n"}', "label", "missing"),
    ('{"output": "o", "nugget": "n", "label": "mostly"}', "label", "unknown label 'mostly'"),
    ('{"output": 3, "nugget": "n", "label": "none"}', "output", "expected a string"),
    ('{"output": "o", "nugget": "n", "label": "none", "weight": "high"}', "weight", "number"),
    ('{"output": "o", "nugget": "n", "label": "none", "split": "test"}', "split", "unknown split"),
])
def test_a_bad_line_names_file_line_and_field(tmp_path, line, field, message):
    path = tmp_path / "bad.jsonl"
    path.write_text('{"output": "o", "nugget": "first", "label": "full"}\n\n' + line + "\n")
    with pytest.raises(RecordFileError) as error:
        read_pairs(path)
    assert f"{path}:3: {field}: " in str(error.value) and message in str(error.value)


def test_splits_default_to_heldout_and_grouping_keeps_each_pairs_label(tmp_path):
    path = tmp_path / "split.jsonl"
    write_pairs(path, [{"output": "o", "nugget": "a", "label": "full", "split": "dev"},
                       {"output": "o", "nugget": "b", "label": "none", "split": "heldout"},
                       {"output": "o", "nugget": "c", "label": "partial", "split": "heldout", "query": "q"}])
    report = check_judge(make_judge("constant:none"), read_pairs(path), n_resamples=10)
    assert report.split == "heldout" and report.n_pairs == 2
    assert check_judge(make_judge("constant:none"), read_pairs(path), "all", n_resamples=10).n_pairs == 3
    pairs = [LabelledPair("o", "a", "full"), LabelledPair("p", "b", "none"), LabelledPair("o", "c", "none")]
    assert [(job.answer, job.nuggets, members) for job, members in group_jobs(pairs)] == [
        ("o", ("a", "c"), [[0], [2]]), ("p", ("b",), [[1]])]


def test_a_pair_that_several_systems_share_is_judged_once_and_counted_once(tmp_path):
    # Two systems returned the same output: its pairs are one labelled fact each, listed under both.
    path = tmp_path / "shared.jsonl"
    write_pairs(path, [{"output": "o", "nugget": "a", "label": "full", "system": "s1", "instance": "i"},
                       {"output": "o", "nugget": "b", "label": "none", "system": "s1", "instance": "i"},
                       {"output": "o", "nugget": "a", "label": "full", "system": "s2", "instance": "i"},
                       {"output": "o", "nugget": "b", "label": "none", "system": "s2", "instance": "i"},
                       {"output": "p", "nugget": "a", "label": "partial", "system": "s3", "instance": "i"}])
    seen = []

    class Recording:
        name = "recording"

        def judge(self, items):
            seen.extend(n for item in items for n in item.nuggets)
            return [Judgement(labels=["full"] * len(item.nuggets)) for item in items]

    report = check_judge(Recording(), read_pairs(path), "all", n_resamples=10)
    assert sorted(seen) == ["a", "a", "b"]  # (o, a), (o, b), (p, a): each distinct pair once
    assert (report.n_pairs, report.n_lines) == (3, 5) and report.cost.n_pairs == 3
    assert report.label_counts == {"full": 1, "partial": 1, "none": 1}
    assert report.labels.confusion["none"]["full"] == 1 and report.labels.n_compared == 3
    assert report.runs.n_systems == 3  # the ranking still sees every system's lines


def test_cli_in_a_subprocess(tmp_path):
    path, _ = hand_file(tmp_path)
    done = run_cli("judge-check", "--judge", "lexical", "--pairs", str(path), "--json", "--out", str(tmp_path / "r.json"))
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["judge"] == "lexical" and report["n_pairs"] == 9 and report["labels"]["kappa_weights"] == "linear"
    assert report["judge_identity"]["thresholds"] and json.loads((tmp_path / "r.json").read_text()) == report
    text = CliRunner().invoke(_main(), ["judge-check", "--judge", "constant:partial", "--pairs", str(path)])
    assert text.exit_code == 0, text.output
    assert "judge: constant:partial" in text.output and read_pairs(path).sha256[:12] in text.output
    assert "weighted kappa (linear weights)" in text.output and "label \\ judge" in text.output


def test_cli_without_a_shipped_set_says_so_with_exit_2(tmp_path):
    import os

    env = {**os.environ, PAIRS_ENV: str(tmp_path / "nowhere" / "pairs.jsonl")}
    done = run_cli("judge-check", "--judge", "lexical", env=env)
    assert done.returncode == 2
    assert "no shipped calibration set is installed" in done.stderr and "--pairs" in done.stderr


def _main():
    from cts_dataset.cli import main

    return main


def labels_for(request) -> str:
    """The scripted LLM judge: the label each nugget's text names (nuggets read 'full ...' etc.)."""
    nuggets = re.findall(r"^\d+\. (.*)$", request.messages[-1].content, flags=re.MULTILINE)
    return json.dumps({"labels": [{"nugget": i, "label": n.split()[0]} for i, n in enumerate(nuggets, start=1)]})


def cached_judge(cache_path, reply=labels_for):
    backend = ScriptedModel(default=reply, spec="transformers:/m")
    model = LoadedModel(backend, ModelSpec(backend="transformers", model="/m"),
                        {"backend": "transformers", "model": "/m", "files": "f1"}, cache=ResponseCache(cache_path))
    return LLMJudge(model, batch_size=2), backend


def llm_pairs(tmp_path):
    rows = [{"output": f"answer {i}", "nugget": f"{label} fact {i}", "label": label, "query": "q"}
            for i, label in enumerate(["full", "partial", "none", "full", "none", "partial"])]
    path = tmp_path / "llm.jsonl"
    write_pairs(path, rows)
    return read_pairs(path)


def test_llm_judge_calls_are_cached_and_a_killed_run_resumes(tmp_path):
    pairs = llm_pairs(tmp_path)
    cache = tmp_path / "responses.sqlite"
    calls = {"n": 0}

    def dies_on_the_third(request):
        calls["n"] += 1
        if calls["n"] == 3:
            raise KeyboardInterrupt  # the run is killed mid-way
        return labels_for(request)

    dying, _ = cached_judge(cache, dies_on_the_third)
    with pytest.raises(KeyboardInterrupt):
        run_judge(dying, pairs.pairs, batch_items=1)

    judge, backend = cached_judge(cache)
    report = check_judge(judge, pairs, n_resamples=20)
    assert len(backend.calls) == 4  # the two answered before the kill came from the cache
    assert report.labels.accuracy == 1.0 and report.cost.n_calls == 6
    assert (report.cost.cache_hits, report.cost.cache_misses) == (2, 4)
    assert report.judge_prompt == "coverage-v1" and report.judge_identity["model"]["identity"]["files"] == "f1"

    again, again_backend = cached_judge(cache)
    second = check_judge(again, pairs, n_resamples=20)
    assert again_backend.calls == [] and (second.cost.cache_hits, second.cost.cache_misses) == (6, 0)
    assert second.labels.as_dict() == report.labels.as_dict()
