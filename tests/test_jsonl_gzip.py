"""Gzipped JSONL (the shipped calibration set): the same reader and writer, reproducible bytes, clear errors."""

from __future__ import annotations

import time

import pytest

from cts_dataset.jsonl import RecordFileError, iter_json_lines, write_jsonl
from cts_dataset.judges.pairs import read_pairs

PAIR = {"output": "Everest rises to about 8,849 metres.", "nugget": "Everest is 8,848.86 m tall.", "label": "full"}


def test_a_gz_name_is_written_gzipped_with_the_same_bytes_for_the_same_records(tmp_path):
    first = write_jsonl(tmp_path / "a.jsonl.gz", [PAIR] * 50)
    time.sleep(1.1)  # a timestamp in the gzip header would now differ
    second = write_jsonl(tmp_path / "b.jsonl.gz", [PAIR] * 50)
    data = first.read_bytes()
    assert data[:2] == b"\x1f\x8b" and data == second.read_bytes()
    assert [value for _, value, _ in iter_json_lines(first)] == [PAIR] * 50
    assert len(read_pairs(first).pairs) == 50


def test_a_truncated_gz_file_is_a_problem_naming_the_file_not_a_crash(tmp_path):
    whole = write_jsonl(tmp_path / "whole.jsonl.gz", [{**PAIR, "output": f"{i} " * 400} for i in range(400)])
    cut = tmp_path / "cut.jsonl.gz"
    cut.write_bytes(whole.read_bytes()[: whole.stat().st_size // 2])
    with pytest.raises(RecordFileError) as raised:
        read_pairs(cut)
    [problem] = raised.value.problems
    assert problem.file == str(cut) and problem.field == "(file)" and "unreadable after line" in problem.message
