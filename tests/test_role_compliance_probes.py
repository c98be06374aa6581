"""The role-compliance probes (benchmarks/probes/) are held out from the demo data and sized as documented."""

import importlib.util
import re
from collections import Counter
from pathlib import Path

from cts_dataset.data import load

BENCH = Path(__file__).resolve().parents[1] / "benchmarks" / "role_compliance.py"
_spec = importlib.util.spec_from_file_location("role_compliance", BENCH)
role_compliance = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(role_compliance)


def probes(name: str) -> list[dict]:
    return role_compliance.read_probes(name, "all")


def test_probes_copy_nothing_of_the_demo_split():
    assert role_compliance.held_out_problems(probes("answerer.jsonl"), probes("clarifier.jsonl"),
                                             probes("rewriter.jsonl")) == []


def test_probe_sets_per_language():
    answers = probes("answerer.jsonl")
    for language in ("en", "zh"):
        rows = [r for r in answers if r["language"] == language]
        unknown = sum(r["expected"] == "unknown" for r in rows)
        assert len(rows) >= 60 and 0.4 <= unknown / len(rows) <= 0.6
        assert len({r["type"] for r in rows}) >= 6, "varied question types"
        for name in ("clarifier.jsonl", "rewriter.jsonl"):
            assert sum(r["language"] == language for r in probes(name)) >= 30


def test_a_third_is_held_back():
    for name in ("answerer.jsonl", "clarifier.jsonl", "rewriter.jsonl"):
        splits = Counter(r["split"] for r in probes(name) if r["split"] != "fresh")
        assert set(splits) == {"dev", "final"} and 0.25 <= splits["final"] / sum(splits.values()) <= 0.4
    # The answerer probes are held back by intent: no intent is in both parts.
    answers = probes("answerer.jsonl")
    assert not {r["intent"] for r in answers if r["split"] == "dev"} & {r["intent"] for r in answers if r["split"] == "final"}


def test_the_fresh_answerer_probes_share_no_intent_with_the_others():
    answers = probes("answerer.jsonl")
    fresh = {r["intent"] for r in answers if r["split"] == "fresh"}
    assert len(fresh) >= 80 and not fresh & {r["intent"] for r in answers if r["split"] != "fresh"}
    assert all(r["expected"] == "unknown" or r["expected"] in r["intent"] for r in answers)


def test_the_realistic_answerer_probes_are_labelled_spans_split_by_intent():
    dev, heldout = (role_compliance.read_probes("answerer.jsonl", f"realistic-{s}") for s in ("dev", "heldout"))
    assert role_compliance.realistic_problems(dev + heldout) == []
    for language in ("en", "zh"):
        rows = [r for r in heldout if r["language"] == language]
        assert len(rows) >= 130, "enough held-out probes per language"
        styles = Counter(r["style"] for r in rows)
        assert {"paraphrase", "confirm_yes", "confirm_no", "unanswerable", "region_unstated"} <= set(styles)
        assert sum(r["expected"] == "unknown" for r in rows) >= 40 and sum(r["expected"] != "unknown" for r in rows) >= 60
    broken = [{**dev[0], "expected": "not in the intent"}, {**dev[1], "split": "heldout"}]
    assert len(role_compliance.realistic_problems(broken + dev[2:])) == 2  # the check can fail


def test_the_second_held_out_set_holds_new_intents_only():
    dev, heldout, second = (role_compliance.read_probes("answerer.jsonl", s)
                            for s in ("realistic-dev", "realistic-heldout", "heldout2"))
    assert role_compliance.realistic_problems(dev + heldout + second) == []
    assert len({r["intent"] for r in second if r["language"] == "en"}) >= 40
    assert not {r["intent"] for r in second} & {r["intent"] for r in dev + heldout}
    copied = {**second[0], "intent": dev[0]["intent"], "expected": "unknown"}
    copied.pop("source", None)
    assert any("a demo instance's intent" in p for p in role_compliance.realistic_problems([copied]))


def test_the_third_held_out_set_holds_track_intents_none_of_the_earlier_sets_has():
    earlier = [r for s in ("realistic-dev", "realistic-heldout", "heldout2")
               for r in role_compliance.read_probes("answerer.jsonl", s)]
    third = role_compliance.read_probes("answerer.jsonl", "heldout3")
    assert len(third) == 300 and role_compliance.realistic_problems(third) == []
    assert not {r["intent"] for r in third} & {r["intent"] for r in earlier}
    track = {i.fused_query for i in load("test")}
    assert {r["intent"] for r in third} <= track
    assert 0.25 <= sum(r["expected"] == "unknown" for r in third) / len(third) <= 0.45


def test_an_expected_value_of_stop_words_is_matched_by_its_words():
    """"for whom" has no content word: it is matched as written, not counted wrong whatever the answer."""
    probe = {"expected": "for whom"}
    assert role_compliance.right("for whom", probe)
    assert role_compliance.right("For whom?", probe)
    assert not role_compliance.right("unknown", probe)
    assert not role_compliance.right("for what", probe)
    assert role_compliance.right("Africa", {"expected": "Africa"}) and not role_compliance.right("Asia", {"expected": "Africa"})


def test_no_intent_is_in_a_tuning_set_and_a_held_out_set():
    sets = {name: role_compliance.read_probes("answerer.jsonl", name) for name in role_compliance.REALISTIC}
    written = [name for name in sets if re.fullmatch(r"(?:dev|heldout)\d+", name) and int(re.sub(r"\D", "", name)) >= 5]
    assert {"heldout16", "dev24", "heldout17", "dev25", "heldout18", "dev26"} <= set(written)
    assert all(sets[name] for name in written)
    tuning = {r["intent"] for name, rows in sets.items() if "dev" in name for r in rows}
    held = {r["intent"] for name, rows in sets.items() if "held" in name for r in rows}
    assert not tuning & held
    for name in written:  # the sets written from one prompt, in both languages (dev13 and dev15: Chinese only)
        assert role_compliance.realistic_problems(sets[name]) == []
        languages = {"zh"} if name in ("dev13", "dev15") else {"en", "zh"}  # Chinese search needs only
        assert {r["language"] for r in sets[name]} == languages and all(r["split"] == name for r in sets[name])
