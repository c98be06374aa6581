import json

import pytest

from cts_dataset.jsonl import RecordFileError, check_records, read_records, write_jsonl
from tests.conftest import run_cli

GOOD = {
    "id": "a-1", "language": "en", "fused_query": "q star", "blurred_query": "q",
    "removed_constraints": [{"type": "region", "value": "star"}],
    "nuggets": [{"text": "n", "weight": 1, "sources": ["Doc"]}],
}


def write_lines(path, lines):
    path.write_text("".join(line + "\n" for line in lines))
    return path


def test_problems_name_file_line_and_field(tmp_path):
    bad_weight = {**GOOD, "id": "a-2", "nuggets": [{"text": "n", "weight": "heavy", "sources": []}]}
    missing = {k: v for k, v in GOOD.items() if k != "blurred_query"} | {"id": "a-3"}
    path = write_lines(tmp_path / "i.jsonl", [json.dumps(GOOD), json.dumps(bad_weight), "{oops", json.dumps(missing)])
    kind, good, problems = check_records(path)
    assert kind == "instance" and len(good) == 1
    rendered = [str(p) for p in problems]
    assert rendered[0].startswith(f"{path}:2: nuggets[0].weight: ")
    assert rendered[1].startswith(f"{path}:3: (json): not valid JSON")
    assert rendered[2] == f"{path}:4: blurred_query: missing required field"


def test_duplicate_ids_are_problems(tmp_path):
    path = write_lines(tmp_path / "i.jsonl", [json.dumps(GOOD), json.dumps(GOOD)])
    _, _, problems = check_records(path, "instance")
    assert [str(p) for p in problems] == [f"{path}:2: id: duplicate id 'a-1' (first on line 1)"]


def test_a_failed_load_loads_nothing(tmp_path):
    path = write_lines(tmp_path / "i.jsonl", [json.dumps(GOOD), json.dumps({**GOOD, "id": "a-2", "language": "xx"})])
    with pytest.raises(RecordFileError) as caught:
        read_records(path, "instance")
    assert len(caught.value.problems) == 1 and ":2: language:" in str(caught.value)


def test_write_then_read_round_trip(tmp_path):
    path = write_jsonl(tmp_path / "sub" / "c.jsonl", [{"id": "x", "answer": "text", "extra": 1}])
    [candidate] = read_records(path, "candidate")
    assert candidate.answer == "text" and candidate.model_extra == {"extra": 1}


def test_cli_validate_reports_and_exits_nonzero(tmp_path):
    good = write_lines(tmp_path / "good.jsonl", [json.dumps(GOOD)])
    bad = write_lines(tmp_path / "bad.jsonl", [json.dumps(GOOD), json.dumps({**GOOD, "id": "b", "removed_constraints": [{"type": "mood", "value": "x"}]})])
    ok = run_cli("validate", str(good))
    assert ok.returncode == 0 and "ok: 1 instance(s)" in ok.stdout
    failed = run_cli("validate", str(good), str(bad))
    assert failed.returncode == 1
    assert f"{bad}:2: removed_constraints[0].type: 'mood' is not one of" in failed.stderr
    assert "FAILED: 1 problem(s)" in failed.stdout


def test_cli_validate_checks_the_shipped_split():
    result = run_cli("validate", "loaders/ctsbench/data/demo.jsonl")
    assert result.returncode == 0, result.stderr
