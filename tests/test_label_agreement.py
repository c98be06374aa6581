"""The second labelling of held-out answerer probes, and the script that weighs it against the first."""

import importlib.util
import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "benchmarks" / "label_agreement.py"
_spec = importlib.util.spec_from_file_location("label_agreement", SCRIPT)
label_agreement = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(label_agreement)
role_compliance = sys.modules["role_compliance"]
HELD_OUT = label_agreement.SAMPLED_FROM


def rows():
    return label_agreement.read_labels(label_agreement.SECOND_LABELS)


def test_second_labels_are_spans_of_their_probes_intents_and_weigh_up_to_the_held_out_sets():
    labels = rows()
    assert len(labels) == len({r["id"] for r in labels}) == 600
    assert {r["split"] for r in labels} == set(HELD_OUT)
    assert set(HELD_OUT) <= {s for s in role_compliance.REALISTIC if "heldout" in s}
    for r in labels:
        assert r["language"] == r["probe"]["language"]
        assert all(v in r["probe"]["intent"] for v in label_agreement.values(r) if v != "unknown"), r["id"]
        assert r.get("yes_no") in (None, "yes", "no")
    assert Counter((r["language"], r["stratum"]) for r in labels) == {
        (lang, s): 150 for lang in ("en", "zh") for s in ("answered_right", "answered_wrong")}
    held_out = Counter(p["language"] for s in HELD_OUT for p in role_compliance.read_probes("answerer.jsonl", s))
    for language in ("en", "zh"):  # the weights make the sample stand for every held-out probe of its language
        assert round(sum(r["weight"] for r in labels if r["language"] == language)) == held_out[language]


@pytest.mark.parametrize("first, second, same", [
    ("unknown", "unknown", True), ("1976", "unknown", False), ("unknown", "2019年", False),
    ("2019", "2019年", True), ("women's singles", "the women's singles", True), ("1976", "1980", False),
    ("上海市", "上海", True), ("北京市", "上海市", False),
])
def test_agreement_of_two_labels(first, second, same):
    assert label_agreement.agree({"expected": first}, {"expected": second}) is same


def test_accepted_forms_count_as_the_same_answer():
    assert label_agreement.agree({"expected": "UK", "accept": ["United Kingdom"]}, {"expected": "the United Kingdom"})


def run(tmp_path, labels, *args):
    path = tmp_path / "labels.jsonl"
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in labels), encoding="utf-8")
    out = tmp_path / "figures.json"
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    done = subprocess.run([sys.executable, str(SCRIPT), "--labels", str(path), "--json", str(out), *args],
                          capture_output=True, text=True, env=env, cwd=ROOT, check=False)
    return done, (json.loads(out.read_text()) if out.is_file() else None)


def copied(label, expected):
    return {k: v for k, v in label.items() if k not in ("probe", "expected", "accept", "yes_no")} | {"expected": expected}


def test_a_labelling_that_copies_the_first_agrees_fully_and_one_that_leaves_answers_out_does_not(tmp_path):
    labels = rows()
    done, figures = run(tmp_path, [copied(r, r["probe"]["expected"]) for r in labels])
    assert done.returncode == 0, done.stderr
    assert figures["en"] == figures["zh"] | {"probes": 300} and figures["en"]["agreement"] == 100.0
    assert figures["en"]["second_answered"] == figures["en"]["second_unknown"] == 100.0
    assert "en: 300 probes, agreement 100.0%" in done.stdout
    # every English answerable probe of the sample labelled unknown: no English answer agrees, nor is answered
    lazy = [copied(r, "unknown" if r["language"] == "en" else r["probe"]["expected"]) for r in labels]
    done, figures = run(tmp_path, lazy)
    assert figures["en"]["second_answered"] == 0.0 and figures["en"]["second_unknown"] == 100.0
    assert 0 < figures["en"]["agreement"] < 50 and figures["zh"]["agreement"] == 100.0


def test_answers_are_scored_against_both_labellings(tmp_path):
    labels = rows()
    first_right = [r for r in labels if r["language"] == "en"][:2]
    answers = {"answerer": {"modes": {"choose": {"items": [
        {"id": first_right[0]["probe"]["id"], "answer": first_right[0]["probe"]["expected"]},  # right on both
        {"id": first_right[1]["probe"]["id"], "answer": "Zanzibar"},  # right on neither (no intent says it)
    ]}}}}
    path = tmp_path / "answers.json"
    path.write_text(json.dumps(answers), encoding="utf-8")
    done, figures = run(tmp_path, [copied(r, r["probe"]["expected"]) for r in labels], "--answers", str(path))
    assert done.returncode == 0, done.stderr
    en = figures["en"]
    assert en["misses_sampled"] == 1 and en["misses_second_sides_with_answer"] == 0
    assert 0 < en["answer_right_first"] == en["answer_right_second"] < 100
    assert "answer_right_first" not in figures["zh"]


def test_a_label_of_no_held_out_probe_is_named_by_file_and_line(tmp_path):
    good = copied(rows()[0], "unknown")
    done, _ = run(tmp_path, [good, good | {"id": "no-such-probe"}])
    assert done.returncode != 0 and "labels.jsonl:2: not a second label of a held-out probe" in done.stderr


def test_figures_weigh_each_stratum_by_its_size_over_the_held_out_sets(tmp_path):
    # the second labelling disagrees on every probe of the answerer's misses: agreement is the share of probes
    # the answerer got right over all held-out probes (1,854 of 2,199 in English), not the sample's half
    labels = rows()
    differing = [copied(r, r["probe"]["expected"]) if r["stratum"] == "answered_right" else
                 copied(r, "unknown" if r["probe"]["expected"] != "unknown" else r["probe"]["intent"].split()[0])
                 for r in labels]
    _, figures = run(tmp_path, differing)
    assert figures["en"]["agreement"] == round(100 * 1854 / 2199, 1)
    assert figures["zh"]["agreement"] == round(100 * 1236 / 1413, 1)
