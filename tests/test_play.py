"""`ctsbench play` driven through a pseudo-terminal: a person answers (or asks) for one instance and the
run folder holds the same records as a model run."""

import json
import sys

import pexpect

from tests.conftest import REPO


def spawn(args, env, cwd):
    return pexpect.spawn(sys.executable, ["-m", "cts_dataset.cli", "play", *args], env=env, cwd=str(cwd),
                         encoding="utf-8", timeout=300)


def test_a_person_answers_from_the_intent_in_the_terminal(tmp_path, fresh_hf_env):
    folder = tmp_path / "played"
    child = spawn(["--ids", "demo-0001", "--budgets", "1", "--clarifier", "template:time", "--rewriter",
                   "smollm2-135m", "--out-dir", str(folder)], {**fresh_hf_env, "PYTHONPATH": str(REPO)}, tmp_path)
    child.expect("Your information need: How many people died in the 1976 earthquake")
    child.expect("Clarifying question: Which time or period do you mean\\?")
    child.expect("or type unknown")
    child.sendline("1976")
    child.expect("run folder:")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, child.before
    (answer,) = [json.loads(line) for line in (folder / "answer.jsonl").read_text().splitlines()]
    assert answer["answer"] == "1976" and answer["model"] == "human:user_answerer"
    assert answer["disclosure"]["constraints"] == [{"type": "time", "value": "1976"}]
    summary = json.loads((folder / "summary.json").read_text())
    assert summary["models"]["user_answerer"] == "human:user_answerer"


def test_a_person_asks_and_may_stop_asking(tmp_path, fresh_hf_env):
    folder = tmp_path / "asked"
    child = spawn(["--role", "clarifier", "--ids", "demo-0001", "--budgets", "1,2", "--user-answerer",
                   "smollm2-135m", "--rewriter", "smollm2-135m", "--out-dir", str(folder)],
                  {**fresh_hf_env, "PYTHONPATH": str(REPO)}, tmp_path)
    child.expect("Search query: How many people died in the big earthquake")
    child.expect("Clarifying question 1")
    child.sendline("Which year was the earthquake?")
    child.expect("Clarifying question 2")
    child.sendline("")  # stop asking
    child.expect("run folder:")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, child.before
    asked = [json.loads(line) for line in (folder / "clarify.jsonl").read_text().splitlines()]
    assert [a["question"] for a in asked] == ["Which year was the earthquake?", ""]
    assert asked[1]["declined"] and asked[0]["model"] == "human:clarifier"
    summary = json.loads((folder / "summary.json").read_text())
    assert summary["conditions"]["clarify@2"]["questions_asked"] == 1
