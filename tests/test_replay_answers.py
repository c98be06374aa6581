"""benchmarks/replay_answers.py: a run's questions answered again by the installed rules, for a diff."""

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

QUESTIONS = ["Which year?", "Which earthquake did you mean?"]  # demo-0001: the 1976 earthquake in Tangshan


def run_folder(tmp_path: Path, lines: list[str]) -> Path:
    folder = tmp_path / "run"
    folder.mkdir()
    (folder / "config.json").write_text(json.dumps({"config": {"dataset": "demo"}}), encoding="utf-8")
    (folder / "answer.jsonl").write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return folder


def test_a_run_folder_is_replayed_through_the_rules_and_the_first_option(tmp_path):
    folder = run_folder(tmp_path, [json.dumps({"instance": "demo-0001", "question": q}) for q in QUESTIONS])
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "HF_EVALUATE_OFFLINE": "1"}
    done = subprocess.run([sys.executable, str(BENCH), str(folder)], capture_output=True, text=True, env=env,
                          check=True)
    by_question = {line[1]: line for line in map(json.loads, done.stdout.splitlines())}
    assert sorted(by_question) == sorted(QUESTIONS)
    assert by_question["Which year?"][2:] == ["1976", "typed", []]  # settled by a rule: no model request
    model_asked = by_question["Which earthquake did you mean?"]
    assert model_asked[3] == "" and len(model_asked[4]) == 1 and model_asked[2] != "unknown"
    assert "2 questions, 1 settled by the rules" in done.stderr


def test_a_changed_rule_changes_the_replay(tmp_path, monkeypatch):
    from cts_dataset.protocol import answer_rules

    views = replay_answers.asked_in_run(
        run_folder(tmp_path, [json.dumps({"instance": "demo-0001", "question": q}) for q in QUESTIONS]))
    before = replay_answers.replay(views)
    monkeypatch.setattr(answer_rules, "decide", lambda *args, **kwargs: None)  # no rule settles anything
    after = replay_answers.replay(views)
    assert before != after and all(line[3] == "" and line[4] for line in after)


def test_a_malformed_record_is_named_by_file_and_line(tmp_path):
    folder = run_folder(tmp_path, [json.dumps({"instance": "demo-0001", "question": "Which year?"}), "{oops"])
    with pytest.raises(SystemExit, match=r"answer\.jsonl:2: "):
        replay_answers.asked_in_run(folder)


def test_a_report_page_is_replayed(tmp_path):
    data = {"instances": {"i1": {"intent": "Who shared the 1903 Nobel Prize in Physics?",
                                 "blurred_query": "Who shared the Nobel Prize in Physics?"}},
            "rows": [{"instance": "i1", "questions": ["Which year?"]}, {"instance": "i1", "questions": []}]}
    page = tmp_path / "report.html"
    page.write_text(f'<script id="report-data" type="application/json">{json.dumps(data)}</script>', encoding="utf-8")
    assert replay_answers.replay(replay_answers.asked_in_report(page)) == [["i1", "Which year?", "1903", "typed", []]]
