"""Diagnostics checked against numbers worked out by hand on small made-up run folders (judged scores
and a call trace written here, no pipeline): the restoration rate as a ratio of mean gains with its
bootstrap interval, and the cost of clarification per instance and per point with repeats."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from cts_dataset.data import load
from cts_dataset.diagnostics.cost import per_point
from cts_dataset.diagnostics.runfolder import STAGES, Run
from cts_dataset.diagnostics.utility import gains_over_baseline, restoration
from cts_dataset.pipeline.store import record_key

IDS = [i.id for i in load()[:4]]


def hand_run(scores: dict[tuple[str, str, int | None, int], float], calls: Sequence[dict[str, Any]] = (),
             repeats: int = 1, budgets: tuple[int, ...] = (1,)) -> Run:
    """A run of the first instances with these judged scores ((instance, condition, budget, repeat) -> score)."""
    judged = {}
    for (instance, condition, budget, repeat), score in scores.items():
        record = {"instance": instance, "condition": condition, "budget": budget, "repeat": repeat,
                  "restore_score_100": score}
        judged[record_key(record)] = record
    records = {stage: {} for stage in STAGES}
    records["judge"] = judged
    ids = sorted({key[0] for key in scores})
    return Run(config={"budgets": list(budgets), "repeats": repeats, "conditions": ["baseline", "clarify", "oracle"]},
               records=records, calls=list(calls), instances=[i for i in load() if i.id in ids])


def test_the_restoration_rate_is_the_ratio_of_mean_gains_not_a_mean_of_ratios():
    # the review's four instances, (baseline, oracle, clarify@1): the first has 2.5 points of headroom
    triples = [(40, 42.5, 70), (40, 80, 60), (30, 70, 50), (50, 90, 70)]
    scores = {}
    for instance, (base, oracle, clarify) in zip(IDS, triples, strict=True):
        scores |= {(instance, "baseline", None, 0): base, (instance, "oracle", None, 0): oracle,
                   (instance, "clarify", 1, 0): clarify}
    found = restoration(hand_run(scores))["clarify@1"]
    # gains 30 + 20 + 20 + 20 = 90, headroom 2.5 + 40 + 40 + 40 = 122.5: 90 / 122.5 = 0.735
    # (the mean of the per-instance ratios 12, 0.5, 0.5, 0.5 would be 3.375)
    assert found["mean"] == pytest.approx(90 / 122.5) and round(found["mean"], 3) == 0.735
    assert (found["mean_gain"], found["mean_headroom"]) == pytest.approx((22.5, 30.625))
    assert found["defined"] == 4 and found["no_headroom"] == 0
    assert found["per_instance"][IDS[0]] == pytest.approx(12.0)  # kept for the spread only
    assert found["low"] <= found["mean"] <= found["high"] < 3


def test_the_restoration_interval_resamples_instances_with_their_headroom():
    # two instances with headroom, gains 10 and 30 over headroom 20 and 40; an instance without headroom
    # (oracle = baseline) and an unscored one are left out and counted.
    scores = {(IDS[0], "baseline", None, 0): 50, (IDS[0], "oracle", None, 0): 70, (IDS[0], "clarify", 1, 0): 60,
              (IDS[1], "baseline", None, 0): 20, (IDS[1], "oracle", None, 0): 60, (IDS[1], "clarify", 1, 0): 50,
              (IDS[2], "baseline", None, 0): 90, (IDS[2], "oracle", None, 0): 90, (IDS[2], "clarify", 1, 0): 95,
              (IDS[3], "baseline", None, 0): 10, (IDS[3], "oracle", None, 0): 90}
    found = restoration(hand_run(scores))["clarify@1"]
    assert (found["defined"], found["no_headroom"], found["unscored"]) == (2, 1, 1)
    assert found["mean"] == pytest.approx(40 / 60)  # the mean of the ratios would be (0.5 + 0.75) / 2
    # a resample is both of the first (10/20), both of the second (30/40), or one of each (40/60): a quarter
    # of the resamples sit at each end, so the 2.5% and 97.5% percentiles are the ends themselves
    assert (found["low"], found["high"]) == pytest.approx((0.5, 0.75))


def call(tag: str, role: str, prompt: int, completion: int, seconds: float) -> dict[str, Any]:
    return {"tag": tag, "role": role, "usage": {"prompt_tokens": prompt, "completion_tokens": completion},
            "latency_s": seconds}


def test_the_cost_per_instance_counts_each_repeat_once_here_and_in_the_report_frame():
    from cts_dataset.report.frame import run_rows

    # Per instance and repeat, clarify@1 (budget hidden) runs one dialogue turn (a clarifier and an
    # answerer call, tagged with no budget), a rewrite and a search; the baseline a search only. The judge
    # is the evaluation, never the system's cost.
    calls = []
    for instance in IDS[:2]:
        calls.append(call(f"{instance}|baseline|None|", "search_agent", 20, 0, 0.5))
        for repeat in (0, 1):
            r = f"|r{repeat}" if repeat else ""
            calls += [call(f"{instance}|clarify|None|1{r}", "clarifier", 100, 10, 1.0),
                      call(f"{instance}|clarify|None|1{r}", "user_answerer", 50, 5, 0.5),
                      call(f"{instance}|clarify|1|{r}", "rewriter", 30, 3, 0.25),
                      call(f"{instance}|clarify|1|{r}", "search_agent", 20, 0, 0.5),
                      call(f"{instance}|clarify|1|{r}", "judge", 999, 99, 9.0)]
    scores = {(IDS[0], "baseline", None, 0): 50, (IDS[0], "clarify", 1, 0): 60, (IDS[0], "clarify", 1, 1): 70,
              (IDS[1], "baseline", None, 0): 80, (IDS[1], "clarify", 1, 0): 80, (IDS[1], "clarify", 1, 1): 90,
              (IDS[0], "oracle", None, 0): 90, (IDS[1], "oracle", None, 0): 90}
    run = hand_run(scores, calls, repeats=2)
    gains = gains_over_baseline(run)
    assert gains["clarify@1"] == pytest.approx(10.0)  # instance means 65 and 85 over 50 and 80
    found = per_point(run, gains)["clarify@1"]
    # a clarify@1 row: 4 calls, 110 + 55 + 33 + 20 = 218 tokens, 2.25 s; a baseline row: 1 call, 20 tokens, 0.5 s
    assert found["extra_per_instance"] == pytest.approx({"calls": 3, "tokens": 198, "seconds": 1.75})
    assert found["per_point"] == pytest.approx({"calls": 0.3, "tokens": 19.8, "seconds": 0.175})
    rows = [r for r in run_rows(run, "hand", "hand") if r["label"] in ("baseline", "clarify@1")]
    assert {(r["label"], r["repeat"], r["calls"], r["prompt_tokens"] + r["completion_tokens"]) for r in rows} == {
        ("baseline", 0, 1, 20), ("clarify@1", 0, 4, 218), ("clarify@1", 1, 4, 218)}
