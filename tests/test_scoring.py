"""restore_score_100 and its variants, means, intervals, paired tests and agreement, on hand-computed cases."""

import math

import pytest

from cts_dataset.scoring import (
    aggregate,
    bootstrap_ci,
    label_agreement,
    mean_score,
    paired_test,
    rank_agreement,
    restore_score,
    score_instance,
)


def test_partial_labels_earn_half_credit():
    s = score_instance([3, 2, 1], ["full", "partial", "none"])
    assert s.restore_score_100 == pytest.approx(100 * (3 + 1) / 6)  # 66.67
    assert s.strict_100 == pytest.approx(50.0)
    assert s.unweighted_100 == pytest.approx(50.0)


def test_unequal_weights_weigh_labels():
    s = score_instance([1, 4], ["none", "full"])
    assert s.restore_score_100 == pytest.approx(80.0)
    assert s.unweighted_100 == pytest.approx(50.0)
    assert score_instance([1, 4], ["full", "none"]).restore_score_100 == pytest.approx(20.0)


def test_a_zero_weight_nugget_counts_for_nothing_in_the_weighted_score():
    s = score_instance([0, 2], ["full", "partial"])
    assert s.restore_score_100 == pytest.approx(50.0)
    assert s.unweighted_100 == pytest.approx(75.0)
    assert not s.zero_weight


def test_zero_total_weight_is_undefined_not_zero():
    s = score_instance([0, 0], ["full", "none"])
    assert s.restore_score_100 is None and s.strict_100 is None
    assert s.zero_weight
    assert s.unweighted_100 == pytest.approx(50.0)


def test_unscored_nuggets_are_excluded_and_counted():
    s = score_instance([2, 2, 1], ["full", None, "none"])
    assert s.restore_score_100 == pytest.approx(100 * 2 / 3)
    assert (s.n_scored, s.n_unscored, s.scored_weight) == (2, 1, 3.0)
    assert score_instance([1, 1], [float("nan"), "partial"]).restore_score_100 == pytest.approx(50.0)


def test_an_instance_with_no_scored_nugget_is_unscored_and_left_out_of_the_mean():
    scores = [score_instance([1, 1], [None, None]), score_instance([1], ["full"]), score_instance([1], ["none"])]
    assert scores[0].restore_score_100 is None
    summary = aggregate(scores)
    assert summary.restore_score_100 == pytest.approx(50.0)
    assert (summary.n_instances, summary.n_scored_instances, summary.n_unscored_instances) == (3, 2, 1)
    assert summary.n_unscored_nuggets == 2


def test_empty_prediction_scores_zero_not_unscored():
    references = [[{"text": "Mercury is liquid at room temperature.", "weight": 2.0, "sources": []}]]
    result = restore_score([""], references, judge="lexical")
    assert result["per_instance"] == [0.0]
    assert result["restore_score_100"] == 0.0 and result["n_unscored_instances"] == 0


def test_restore_score_with_precomputed_labels():
    references = [[{"text": "a", "weight": 2.0}, {"text": "b", "weight": 1.0}], [{"text": "c", "weight": 1.0}]]
    result = restore_score(["x", "y"], references, labels=[["full", "partial"], ["unscored"]])
    assert result["restore_score_100"] == pytest.approx(250 / 3)
    assert result["strict_100"] == pytest.approx(200 / 3)
    assert result["per_instance"] == [pytest.approx(250 / 3), None]
    assert result["n_unscored_nuggets"] == 1 and result["judge"] == "precomputed"


@pytest.mark.parametrize("weights,labels", [([1], ["yes"]), ([-1], ["full"]), ([1, 2], ["full"])])
def test_bad_inputs_raise(weights, labels):
    with pytest.raises(ValueError):
        score_instance(weights, labels)


def test_restore_score_needs_labels_or_judge_not_both():
    with pytest.raises(ValueError, match="exactly one"):
        restore_score(["x"], [[{"text": "a", "weight": 1.0}]])
    with pytest.raises(ValueError, match="exactly one"):
        restore_score(["x"], [[{"text": "a", "weight": 1.0}]], labels=[["full"]], judge="lexical")


def test_mean_skips_none_and_nan():
    assert mean_score([None, 10.0, float("nan"), 30.0]) == 20.0
    assert mean_score([None]) is None


def test_bootstrap_interval_is_seeded_and_brackets_the_mean():
    values = [12.0, 55.5, 70.0, 0.0, 100.0, 33.3, None, 81.0]
    first, again = bootstrap_ci(values, seed=7), bootstrap_ci(values, seed=7)
    assert first == again
    assert first.n == 7 and first.mean == pytest.approx(sum(v for v in values if v is not None) / 7)
    assert first.low < first.mean < first.high
    assert bootstrap_ci([5.0]).low is None and bootstrap_ci([]).mean is None
    assert bootstrap_ci([4.0, 4.0, 4.0]).low == 4.0


def test_paired_test_exact_on_a_small_sample():
    a = [60, 70, 80, 90, 55, 65]
    b = [50, 60, 75, 70, 50, 60]
    result = paired_test(a, b)
    # All six differences are positive: only 2 of the 2**6 sign flips are as extreme (two-sided).
    assert result.p_value == pytest.approx(2 / 64)
    assert result.mean_difference == pytest.approx(sum(x - y for x, y in zip(a, b)) / 6)
    assert result.ci_low > 0
    assert paired_test(a, a).p_value == 1.0


def test_paired_test_drops_unscored_pairs():
    result = paired_test([10, None, 30, 40], [5, 20, None, 30])
    assert (result.n_pairs, result.n_dropped) == (2, 2)
    with pytest.raises(ValueError):
        paired_test([1, 2], [1])


def test_cohen_kappa_by_hand():
    a = ["full", "none", "partial", "full", None]
    b = ["full", "none", "none", "partial", "full"]
    result = label_agreement(a, b)
    # 4 compared, 2 agree; chance = (2*1 + 1*2 + 1*1) / 16 = 5/16; kappa = (1/2 - 5/16) / (11/16) = 3/11.
    assert (result.n_nuggets, result.n_compared) == (5, 4)
    assert result.percent_agreement == pytest.approx(50.0)
    assert result.cohen_kappa == pytest.approx(3 / 11)
    assert label_agreement(["full", "none"], ["full", "none"]).cohen_kappa == pytest.approx(1.0)
    assert label_agreement(["full"], ["full"]).cohen_kappa is None  # chance agreement is 1


def test_rank_agreement_of_system_means():
    result = rank_agreement({"a": 10.0, "b": 20.0, "c": 30.0}, {"a": 11.0, "b": 35.0, "c": 31.0, "d": 5.0})
    assert result.systems == ["a", "b", "c"]
    assert result.spearman == pytest.approx(0.5)
    assert result.kendall_tau == pytest.approx(1 / 3)
    assert rank_agreement({"a": 1.0}, {"a": 2.0}).spearman is None
    assert not math.isnan(rank_agreement({"a": 1, "b": 2}, {"a": 1, "b": 2}).spearman)


def test_markdown_helpers():
    from cts_dataset.markdown import fmt, offline_judge_note, table

    assert (fmt(None), fmt(float("nan")), fmt(62.5), fmt(0.12345, 3)) == ("n/a", "n/a", "62.50", "0.123")
    assert table(["a", "b"], [[1, "x|y"]]) == ["| a | b |", "|---|---|", "| 1 | x\\|y |"]
    assert "not comparable with published restore_score numbers" in offline_judge_note("lexical")
    assert offline_judge_note("embedding").startswith("The embedding judge")
    assert offline_judge_note("llm:openai:gpt-4.1@coverage-v1") is None
