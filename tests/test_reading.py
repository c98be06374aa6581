"""The plain reading that ends every run summary: figures checked against hand-computed values."""

from cts_dataset.pipeline.reading import plain_reading


def summary(**means):
    conditions = {label: {"restore_score_100": {"mean": value}} for label, value in means.items()}
    per_type = {"region": {"asked": 10, "unknown": 9}, "time": {"asked": 6, "unknown": 2}, "scope": {"asked": 4, "unknown": 0}}
    return {"conditions": conditions,
            "dialogue": {"unknown_rate_per_turn": {"1": 0.75, "2": 0.5}, "all_unknown_rate_at_k": {"1": 0.75, "2": 0.4}},
            "diagnostics": {"utility": {"restoration_rate": {"clarify@2": {"defined": 12, "no_headroom": 8}}},
                            "question_types": {"per_type": per_type}}}


def test_the_reading_states_the_restored_headroom_where_it_was_and_the_unknowns():
    text = "\n".join(plain_reading(summary(baseline=40.0, **{"clarify@1": 50.0, "clarify@2": 60.0}, oracle=80.0)))
    # (50 - 40) / (80 - 40) = 25%, (60 - 40) / 40 = 50%
    assert "Clarification restored 25% at k = 1, 50% at k = 2 of the oracle's headroom" in text
    assert "The oracle beat the baseline on 12 of 20 instances" in text
    assert "`unknown` to 75% of the questions at turn 1, 50% of the questions at turn 2" in text
    assert "40% of the dialogues at k = 2 elicited nothing" in text
    assert "Most unknowns (11 of 11) followed questions about region (9 of 10 asked), time (2 of 6 asked)" in text


def test_no_headroom_and_nothing_scored_are_said_plainly():
    flat = "\n".join(plain_reading(summary(baseline=70.0, **{"clarify@1": 70.0, "clarify@2": 70.0}, oracle=70.0)))
    assert "did not beat the baseline" in flat and "no headroom" in flat
    assert plain_reading(summary(baseline=None, **{"clarify@1": None, "clarify@2": None}, oracle=None)) == []
    assert plain_reading({"conditions": {"baseline": {"restore_score_100": {"mean": 1.0}}}}) == []
