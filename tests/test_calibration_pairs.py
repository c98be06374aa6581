"""benchmarks/calibration_pairs.py, run as a user runs it: candidates from a run folder, then the labelled set."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import cts_dataset

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "calibration_pairs.py"


def _script(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), *args], check=False, capture_output=True, text=True, timeout=300)


def _run_folder(folder: Path) -> list[str]:
    instances = cts_dataset.load()[:2]
    folder.mkdir()
    records = [{"instance": i.id, "condition": c, "budget": None, "answer": f"{c} output about {i.id}"}
               for i in instances for c in ("baseline", "oracle")]
    records.append({"instance": instances[0].id, "condition": "clarify", "budget": 1,
                    "answer": f"baseline output about {instances[0].id}"})  # same output as its baseline
    (folder / "search.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return [i.id for i in instances]


def test_candidates_label_each_distinct_pair_once_and_assemble_joins_every_line(tmp_path):
    ids = _run_folder(tmp_path / "run")
    made = _script("candidates", "--run", f"bm25/default={tmp_path / 'run'}", "--out", str(tmp_path / "c"))
    assert made.returncode == 0, made.stderr
    lines = [json.loads(x) for x in (tmp_path / "c" / "lines.jsonl").read_text().splitlines()]
    tasks = [json.loads(x) for x in (tmp_path / "c" / "tasks.jsonl").read_text().splitlines()]
    assert {line["system"] for line in lines} == {"bm25:baseline", "bm25:oracle", "bm25/default:clarify@1"}
    assert {line["instance"] for line in lines} == set(ids)
    # The clarify output repeats the baseline's: one task, labelled once, two systems' lines.
    assert len(tasks) == 4
    keys = [n["key"] for t in tasks for n in t["nuggets"]]
    assert len(keys) == len(set(keys)) == len({line["key"] for line in lines}) < len(lines)

    labels = tmp_path / "labels.jsonl"
    labels.write_text("".join(json.dumps({"key": k, "label": "none", "reason": "r"}) + "\n" for k in keys[:-1]))
    refused = _script("assemble", "--candidates", str(tmp_path / "c"), "--labels", str(labels),
                      "--out", str(tmp_path / "pairs.jsonl"))
    assert refused.returncode != 0 and "1 keys have no label" in refused.stderr + refused.stdout

    second = _script("assemble", "--candidates", str(tmp_path / "c"), "--labels", str(labels), "--second-pass",
                     "--out", str(tmp_path / "second.jsonl"))
    assert second.returncode == 0, second.stderr
    relabelled = [json.loads(x) for x in (tmp_path / "second.jsonl").read_text().splitlines()]
    assert len(relabelled) == len(keys) - 1  # each covered pair once, whatever number of systems shows it

    with labels.open("a") as f:
        f.write(json.dumps({"key": keys[-1], "label": "full", "reason": "r"}) + "\n")
    joined = _script("assemble", "--candidates", str(tmp_path / "c"), "--labels", str(labels),
                     "--out", str(tmp_path / "pairs.jsonl"))
    assert joined.returncode == 0, joined.stderr
    pairs = [json.loads(x) for x in (tmp_path / "pairs.jsonl").read_text().splitlines()]
    assert len(pairs) == len(lines) and {p["split"] for p in pairs} <= {"dev", "heldout"}
    assert all(p["label"] and p["reason"] and p["system"] and p["instance"] for p in pairs)
