"""benchmarks/replay_answers.py: a run's questions answered again by the installed answerer, for a diff."""

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "benchmarks" / "replay_answers.py"
_spec = importlib.util.spec_from_file_location("replay_answers", BENCH)
replay_answers = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(replay_answers)

# demo-0001: "How many people died in the 1976 earthquake in Tangshan, Hebei, and how strong was it?"
QUESTIONS = ["Which year?", "Do you mean a particular earthquake?"]


def record(question: str, raw: str = "", **more) -> str:
    return json.dumps({"instance": "demo-0001", "question": question, "prompt": "answerer/v3/en", "raw": raw} | more)


def run_folder(tmp_path: Path, lines: list[str], mode: str = "choose") -> Path:
    folder = tmp_path / "run"
    folder.mkdir(parents=True)
    config = {"config": {"dataset": "demo"}, "identity": {"protocol": {"answer_mode": mode}}}
    (folder / "config.json").write_text(json.dumps(config), encoding="utf-8")
    (folder / "answer.jsonl").write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return folder


def test_a_run_folder_is_replayed_with_its_recorded_replies(tmp_path):
    folder = run_folder(tmp_path, [record("Which year?"), record("Do you mean a particular earthquake?", '{"answer": "Tangshan, Hebei"}'),
                                   record("Is it a list?", invalid_question=True), record("")])
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "HF_EVALUATE_OFFLINE": "1"}
    done = subprocess.run([sys.executable, str(BENCH), str(folder)], capture_output=True, text=True, env=env,
                          check=True)
    by_question = {line[1]: line for line in map(json.loads, done.stdout.splitlines())}
    assert sorted(by_question) == sorted(QUESTIONS)  # an invalid or empty question never reaches the answerer
    assert by_question["Which year?"][2:] == ["1976", "typed", "", [], []]  # a rule: no model request
    model_asked = by_question["Do you mean a particular earthquake?"]
    assert model_asked[2:4] == ["Yes, Tangshan, Hebei", ""] and len(model_asked[6]) == 1  # the recorded reply, through the rules
    assert "2 questions, 1 settled by the rules" in done.stderr


def test_a_changed_rule_changes_the_replay(tmp_path, monkeypatch):
    from cts_dataset.protocol import answer_rules

    asked, version = replay_answers.asked_in_run(run_folder(tmp_path, [record(q) for q in QUESTIONS]))
    before = replay_answers.replay(asked, version)
    monkeypatch.setattr(answer_rules, "decide", lambda *args, **kwargs: None)  # no rule settles anything
    after = replay_answers.replay(asked, version)
    assert before != after and all(line[3] == "" and line[6] for line in after)


def test_a_malformed_record_is_named_by_file_and_line(tmp_path):
    folder = run_folder(tmp_path, [record("Which year?"), "{oops"])
    with pytest.raises(SystemExit, match=r"answer\.jsonl:2: "):
        replay_answers.asked_in_run(folder)


def test_a_run_of_another_answer_mode_is_refused(tmp_path):
    with pytest.raises(SystemExit, match=r"config\.json: identity\.protocol\.answer_mode 'replace'"):
        replay_answers.asked_in_run(run_folder(tmp_path, [record("Which year?")], mode="replace"))


def test_a_folder_without_an_answer_mode_or_with_an_own_prompt_file_is_refused_by_name(tmp_path):
    folder = run_folder(tmp_path, [record("Which year?")])
    (folder / "config.json").write_text(json.dumps({"config": {"dataset": "demo"}}), encoding="utf-8")
    with pytest.raises(SystemExit, match=r"config\.json: identity\.protocol\.answer_mode None"):
        replay_answers.asked_in_run(folder)
    own = run_folder(tmp_path / "own", [record("Which year?", prompt="answerer/my.yaml/en")])
    with pytest.raises(SystemExit, match=r"answer\.jsonl:1: prompt 'answerer/my\.yaml/en'"):
        replay_answers.asked_in_run(own)


def test_a_turn_an_older_folder_marks_skipped_is_not_replayed(tmp_path):
    asked, _ = replay_answers.asked_in_run(run_folder(tmp_path, [record("Which year?"), record("Is it?", skipped=True)]))
    assert list(asked) == [("demo-0001", "Which year?")]


def test_a_report_page_is_replayed(tmp_path):
    data = {"instances": {"i1": {"intent": "Who shared the 1903 Nobel Prize in Physics?",
                                 "blurred_query": "Who shared the Nobel Prize in Physics?"}},
            "rows": [{"instance": "i1", "questions": ["Which year?", "Is it?"], "turn_status": ["answered", "invalid"]},
                     {"instance": "i1", "questions": None, "turn_status": None},  # a failed dialogue
                     {"instance": "i1", "questions": [""], "turn_status": ["declined"]}]}
    page = tmp_path / "report.html"
    page.write_text(f'<script id="report-data" type="application/json">{json.dumps(data)}</script>', encoding="utf-8")
    assert replay_answers.replay(replay_answers.asked_in_report(page)) == [["i1", "Which year?", "1903", "typed", "", [], []]]
