"""`ctsbench score` and `ctsbench agree` on files: mismatches, broken lines, resuming, the LLM judge's traces."""

import dataclasses
import json
from importlib import resources
from pathlib import Path

import pytest
from click.testing import CliRunner

from cts_dataset.cli import main
from cts_dataset.data import split_path
from cts_dataset.judges import JudgeCall, Judgement
from cts_dataset.judges.llm import LLMJudge
from cts_dataset.models.base import ChatResponse
from cts_dataset.models.scripted import ScriptedModel
from cts_dataset.prompts import content_hash
from cts_dataset.scoring.score_run import run_score
from tests.conftest import run_cli

A, B, C = "The official count gave 242,469 deaths.", "It struck at 03:42:55 on 28 July 1976.", "Mercury is a liquid metal."


def write_lines(path: Path, lines: list) -> Path:
    path.write_text("".join((line if isinstance(line, str) else json.dumps(line)) + "\n" for line in lines))
    return path


@pytest.fixture
def files(tmp_path: Path) -> tuple[Path, Path]:
    gold = write_lines(tmp_path / "gold.jsonl", [
        {"id": "g1", "query": "Tangshan 1976 deaths?", "nuggets": [
            {"text": A, "weight": 2.0, "sources": ["d"]}, {"text": B, "weight": 1.0, "sources": ["d"]}]},
        {"id": "g2", "query": "Mercury?", "nuggets": [{"text": C, "weight": 1.0, "sources": ["m"]}]},
        {"id": "g3", "query": "No candidate for me", "nuggets": [{"text": C, "weight": 1.0, "sources": []}]},
        {"id": "g4", "query": "bad weight", "nuggets": [{"text": C, "weight": -1, "sources": []}]},
        "{this is not json",
    ])
    candidates = write_lines(tmp_path / "cands.jsonl", [
        {"id": "g1", "answer": f"Facts: {A}"},
        {"id": "g2", "answer": ""},
        {"id": "orphan", "answer": "no gold has this id"},
        {"id": "g1", "answer": "a duplicate"},
        {"answer": "no id"},
    ])
    return gold, candidates


def score(*args: str):
    return CliRunner().invoke(main, ["score", *args])


def test_score_reports_mismatches_and_broken_lines_and_scores_the_rest(files, tmp_path):
    gold, candidates = files
    out = tmp_path / "out"
    result = score("--gold", str(gold), "--candidates", str(candidates), "--out-dir", str(out))
    assert result.exit_code == 1, result.output  # broken lines: reported, and the exit status says so
    for expected in (f"{gold}:4: nuggets[0].weight", f"{gold}:5: (json)", f"{candidates}:4: id: duplicate",
                     f"{candidates}:5: id: missing required field", "without gold, not scored: orphan",
                     "without a candidate, not scored: g3"):
        assert expected in result.output
    summary = json.loads((out / "summary.json").read_text())
    # g1: A full (w 2), B none (w 1) -> 66.67; g2: empty answer -> 0.
    assert summary["restore_score_100"] == pytest.approx((200 / 3 + 0) / 2)
    assert summary["restore_score_100_missing_as_zero"] == pytest.approx((200 / 3) / 3)
    assert (summary["n_gold"], summary["n_candidates"], summary["n_judged"]) == (3, 3, 2)
    assert summary["candidates_without_gold"] == ["orphan"] and summary["gold_without_candidate"] == ["g3"]
    assert len(summary["input_problems"]) == 4
    items = [json.loads(line) for line in (out / "items.jsonl").read_text().splitlines()]
    assert [(i["id"], i["labels"]) for i in items] == [("g1", ["full", "none"]), ("g2", ["none"])]
    assert "orphan" in (out / "summary.md").read_text() and "not comparable" in (out / "summary.md").read_text()


def test_score_resumes_skipping_judged_items_and_rejudges_changed_ones(files, tmp_path):
    gold, candidates = files
    out = tmp_path / "out"
    score("--gold", str(gold), "--candidates", str(candidates), "--out-dir", str(out))
    first = (out / "items.jsonl").read_text()
    again = score("--gold", str(gold), "--candidates", str(candidates), "--out-dir", str(out))
    assert "judged 0 now" in again.output and (out / "items.jsonl").read_text() == first

    lines = candidates.read_text().splitlines()
    lines[1] = json.dumps({"id": "g2", "answer": C})  # a changed answer is judged again
    write_lines(candidates, lines + [json.dumps({"id": "g3", "answer": C})])
    (out / "items.jsonl").write_text(first + '{"id": "g9", "labels": ["fu')  # a torn line from a killed run
    resumed = score("--gold", str(gold), "--candidates", str(candidates), "--out-dir", str(out))
    assert "judged 2 now" in resumed.output, resumed.output
    text = (out / "items.jsonl").read_text()
    assert text.startswith(first)  # append-only
    summary = json.loads((out / "summary.json").read_text())
    assert summary["n_judged"] == 3 and summary["gold_without_candidate"] == []
    assert summary["restore_score_100"] == pytest.approx((200 / 3 + 100 + 100) / 3)


def test_score_refuses_to_mix_judges_in_one_folder(files, tmp_path):
    gold, candidates = files
    out = tmp_path / "out"
    score("--gold", str(gold), "--candidates", str(candidates), "--out-dir", str(out))
    other = score("--gold", str(gold), "--candidates", str(candidates), "--out-dir", str(out), "--judge", "embedding")
    assert other.exit_code != 0 and "was scored with judge 'lexical'" in other.output


def test_an_instances_file_serves_as_gold_through_the_real_entry_point(tmp_path):
    instances = [json.loads(line) for line in split_path().read_text().splitlines()[:2]]
    candidates = write_lines(tmp_path / "c.jsonl", [{"id": i["id"], "answer": " ".join(n["text"] for n in i["nuggets"])}
                                                    for i in instances])
    result = run_cli("score", "--gold", str(split_path()), "--candidates", str(candidates), "--out-dir", str(tmp_path / "o"))
    assert result.returncode == 0, result.stderr
    summary = json.loads((tmp_path / "o" / "summary.json").read_text())
    assert summary["restore_score_100"] == pytest.approx(100.0) and summary["n_judged"] == 2
    assert len(summary["gold_without_candidate"]) == summary["n_gold"] - 2


def test_llm_judge_run_keeps_raw_output_and_traces_every_call(files, tmp_path):
    gold, _ = files
    candidates = write_lines(tmp_path / "c.jsonl", [{"id": "g1", "answer": A}, {"id": "g2", "answer": "Mercury."},
                                                    {"id": "g3", "answer": ""}])
    replies = ['```json\n{"labels": [{"nugget": 1, "label": "full"}, {"nugget": 2, "label": "partial"}]}\n```',
               "I cannot decide.", "Still no JSON.", "Nothing."]
    model = ScriptedModel({"judge": replies})
    summary = run_score(gold, candidates, tmp_path / "o", LLMJudge(model, max_attempts=3), progress=False)
    assert model.batches == [2, 1, 1]  # both items in one batch, then retries of the failed one
    items = {r["id"]: r for r in map(json.loads, (tmp_path / "o" / "items.jsonl").read_text().splitlines())}
    assert items["g1"]["labels"] == ["full", "partial"] and items["g1"]["restore_score_100"] == pytest.approx(250 / 3)
    assert items["g2"]["labels"] == [None] and items["g2"]["raw"] == replies[1:]
    assert items["g3"]["labels"] == ["none"] and items["g3"]["raw"] == []  # empty answer: no call
    assert summary["n_unscored_items"] == 1 and summary["unscored_items"] == ["g2"]
    assert summary["restore_score_100"] == pytest.approx((250 / 3 + 0) / 2)
    calls = [json.loads(line) for line in (tmp_path / "o" / "judge_calls.jsonl").read_text().splitlines()]
    assert len(calls) == 4 and calls[1]["parsed"] is False
    shipped = resources.files("cts_dataset.judges").joinpath("prompts", "coverage-v1.yaml").read_bytes()
    for call in calls:  # one schema (the JudgeCall's), naming the prompt and the item's inputs
        assert set(call) == {f.name for f in dataclasses.fields(JudgeCall)}
        assert (call["prompt_id"], call["prompt_hash"]) == ("coverage-v1", content_hash(shipped))
        assert call["judge"] == "llm:scripted@coverage-v1" and call["input_key"] == items[call["item_id"]]["input_key"]
    assert items["g1"]["judge_prompt"] == "coverage-v1" and items["g1"]["judge_prompt_hash"] == content_hash(shipped)
    assert "Question the answer responds to: Tangshan 1976 deaths?" in calls[0]["messages"][1]["content"]

    fixed = ScriptedModel(default='{"labels": ["none"]}')
    run_score(gold, candidates, tmp_path / "o", LLMJudge(fixed), progress=False)
    assert fixed.batches == []  # resumed: nothing left to judge
    summary = run_score(gold, candidates, tmp_path / "o", LLMJudge(fixed), retry_unscored=True, progress=False)
    assert fixed.batches == [1] and summary["n_unscored_items"] == 0
    assert summary["restore_score_100"] == pytest.approx((250 / 3 + 0 + 0) / 3)


def test_score_refuses_to_resume_with_another_judge_prompt_or_setting(files, tmp_path):
    gold, _ = files
    candidates = write_lines(tmp_path / "c.jsonl", [{"id": "g1", "answer": A}])
    model = ScriptedModel(default='{"labels": ["full", "none"]}')
    out = tmp_path / "o"
    run_score(gold, candidates, out, LLMJudge(model), progress=False)
    shipped = resources.files("cts_dataset.judges").joinpath("prompts", "coverage-v1.yaml").read_text()
    (tmp_path / "v2").mkdir()
    (tmp_path / "v2" / "coverage-v2.yaml").write_text(shipped.replace("id: coverage-v1", "id: coverage-v2"))
    with pytest.raises(ValueError, match=r'prompt.id: "coverage-v1" -> "coverage-v2\+[0-9a-f]{8}"') as refused:
        run_score(gold, candidates, out, LLMJudge(model, prompt_id=str(tmp_path / "v2" / "coverage-v2.yaml")),
                  progress=False)
    assert "was scored with judge 'llm:scripted@coverage-v1'" in str(refused.value)
    (tmp_path / "edited").mkdir()  # the same id with other wording: the hash tells them apart
    (tmp_path / "edited" / "coverage-v1.yaml").write_text(shipped.replace("strict", "lenient"))
    with pytest.raises(ValueError, match="prompt.hash"):
        run_score(gold, candidates, out, LLMJudge(model, prompt_id=str(tmp_path / "edited" / "coverage-v1.yaml")),
                  progress=False)
    with pytest.raises(ValueError, match="max_attempts: 3 -> 5"):
        run_score(gold, candidates, out, LLMJudge(model, max_attempts=5), progress=False)
    assert model.batches == [1]  # nothing was judged under the refused identities
    result = score("--gold", str(gold), "--candidates", str(candidates), "--out-dir", str(tmp_path / "lex"),
                   "--judge", "lexical", "--judge-prompt", "coverage-v1")
    assert result.exit_code != 0 and "--judge-prompt is for the LLM judge" in result.output


def test_a_failed_judge_request_is_judged_again_on_the_next_run(files, tmp_path):
    gold, _ = files
    candidates = write_lines(tmp_path / "c.jsonl", [{"id": "g2", "answer": C}])

    class Down(ScriptedModel):
        def complete(self, requests):
            self.batches.append(len(requests))
            return [ChatResponse.failure("connection refused", model=self.spec) for _ in requests]

    first = run_score(gold, candidates, tmp_path / "o", LLMJudge(Down(), max_attempts=2), progress=False)
    [item] = [json.loads(line) for line in (tmp_path / "o" / "items.jsonl").read_text().splitlines()]
    assert item["labels"] == [None] and item["errors"] == ["chunk 0 attempt 0: connection refused",
                                                             "chunk 0 attempt 1: connection refused"]
    assert first["n_unscored_items"] == 1
    back = ScriptedModel(default='{"labels": ["full"]}')
    again = run_score(gold, candidates, tmp_path / "o", LLMJudge(back, max_attempts=2), progress=False)
    assert back.batches == [1] and again["n_unscored_items"] == 0 and again["restore_score_100"] == 100.0


class FixedJudge:
    """Replays given labels per answer (a stand-in second judge)."""

    def __init__(self, name: str, labels: dict[str, list]) -> None:
        self.name, self.labels = name, labels

    def judge(self, items):
        return [Judgement(labels=list(self.labels[item.answer])) for item in items]


def test_agree_compares_two_judges_over_nuggets_and_system_rankings(tmp_path):
    gold = write_lines(tmp_path / "g.jsonl", [{"id": f"g{i}", "query": "q", "nuggets": [
        {"text": "x", "weight": 1.0, "sources": []}, {"text": "y", "weight": 1.0, "sources": []}]} for i in range(2)])
    judge_a = FixedJudge("a", {"s1": ["full", "none"], "s2": ["full", "full"], "t1": ["none", "none"], "t2": ["partial", "none"]})
    judge_b = FixedJudge("b", {"s1": ["full", "partial"], "s2": ["full", "full"], "t1": ["none", "none"], "t2": ["none", "none"]})
    args = []
    for system in ("s", "t"):
        cands = write_lines(tmp_path / f"{system}.jsonl", [{"id": f"g{i}", "answer": f"{system}{i + 1}"} for i in range(2)])
        for judge in (judge_a, judge_b):
            run_score(gold, cands, tmp_path / f"{system}-{judge.name}", judge, progress=False)
        args += ["--a", str(tmp_path / f"{system}-a"), "--b", str(tmp_path / f"{system}-b"), "--name", system]
    result = CliRunner().invoke(main, ["agree", *args, "--out", str(tmp_path / "agree.json")])
    assert result.exit_code == 0, result.output
    report = json.loads((tmp_path / "agree.json").read_text())
    pooled = report["pooled"]
    assert pooled["n_compared"] == 8 and pooled["percent_agreement"] == pytest.approx(75.0)
    # A = [F,N,F,F,N,N,P,N], B = [F,P,F,F,N,N,N,N]: 6 of 8 agree; chance = (3*3 + 4*4 + 1*1) / 64.
    assert pooled["cohen_kappa"] == pytest.approx((6 / 8 - 26 / 64) / (1 - 26 / 64))
    assert report["rank"]["spearman"] == pytest.approx(1.0)
    assert "pooled: 8 nuggets, agreement 75.0%" in result.output
