"""Score a candidates file against a gold file into a folder: what ``ctsbench score`` runs.

The folder holds ``items.jsonl`` (one line per judged item: labels, scores, raw judge output),
``judge_calls.jsonl`` (every LLM call), ``config.json`` and the summaries ``summary.json`` / ``summary.md``.
``items.jsonl`` is append-only and written a batch at a time, so a killed run loses at most the batch
in flight; a rerun skips items already judged on the same inputs (a changed answer or gold is re-judged,
the later line wins). Summaries are recomputed from ``items.jsonl`` on every run.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cts_dataset.jsonl import check_records, dumps
from cts_dataset.records import Candidate, GoldRecord, Instance, gold_of
from cts_dataset.schemas import Problem
from cts_dataset.scoring.restore import score_instance

ITEMS_FILE, CALLS_FILE, CONFIG_FILE = "items.jsonl", "judge_calls.jsonl", "config.json"


@dataclass
class ScoreInputs:
    """The good records of both files and every problem found in them."""

    gold: dict[str, GoldRecord]
    candidates: dict[str, Candidate]
    problems: list[Problem] = field(default_factory=list)

    @property
    def paired_ids(self) -> list[str]:
        return [i for i in self.candidates if i in self.gold]

    @property
    def candidates_without_gold(self) -> list[str]:
        return [i for i in self.candidates if i not in self.gold]

    @property
    def gold_without_candidate(self) -> list[str]:
        return [i for i in self.gold if i not in self.candidates]


def read_inputs(gold_path: Path, candidates_path: Path) -> ScoreInputs:
    """Read both files, keeping good lines; a gold file may also be an instances file."""
    kind, good, problems = check_records(Path(gold_path))
    if kind not in (None, "gold", "instance"):
        problems.append(Problem(str(gold_path), good[0][0] if good else 0, "(record)",
                                f"expected gold records or instances, found {kind} records"))
        good = []
    gold = {}
    for _, value in good:
        record = gold_of(Instance.model_validate(value)) if kind == "instance" else GoldRecord.model_validate(value)
        gold[record.id] = record
    _, good_candidates, candidate_problems = check_records(Path(candidates_path), "candidate")
    candidates = {value["id"]: Candidate.model_validate(value) for _, value in good_candidates}
    return ScoreInputs(gold, candidates, problems + candidate_problems)


def input_key(gold: GoldRecord, candidate: Candidate) -> str:
    """A hash of everything that changes an item's judgement (gold query and nuggets, the answer)."""
    payload = json.dumps([gold.model_dump(mode="json"), candidate.answer], sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(payload.encode()).hexdigest()[:16]


def read_items(path: Path) -> dict[str, dict[str, Any]]:
    """Judged items by id (the later line wins); a torn last line from a killed run is ignored."""
    done: dict[str, dict[str, Any]] = {}
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            try:
                record = json.loads(line)
            except json.JSONDecodeError:
                continue
            if isinstance(record, dict) and "id" in record:
                done[record["id"]] = record
    return done


def append_lines(path: Path, records: Iterable[dict[str, Any]]) -> None:
    """Append and flush to disk, so what was written survives a kill."""
    torn = False
    if path.exists() and path.stat().st_size:
        with open(path, "rb") as existing:
            existing.seek(-1, os.SEEK_END)
            torn = existing.read(1) != b"\n"  # a killed run's half line: start on a fresh line
    with open(path, "a", encoding="utf-8") as handle:
        if torn:
            handle.write("\n")
        handle.writelines(dumps(record) + "\n" for record in records)
        handle.flush()
        os.fsync(handle.fileno())


def item_record(gold: GoldRecord, candidate: Candidate, judgement: Any, judge_name: str) -> dict[str, Any]:
    weights = [n.weight for n in gold.nuggets]
    score = score_instance(weights, judgement.labels)
    return {
        "id": gold.id, "judge": judge_name, "input_key": input_key(gold, candidate),
        "system": candidate.system, "condition": candidate.condition,
        "nuggets": [n.text for n in gold.nuggets], "weights": weights, "labels": judgement.labels,
        "evidence": judgement.evidence, **score.as_dict(), "raw": judgement.raw,
    }


def check_config(out_dir: Path, config: dict[str, Any]) -> None:
    """Refuse to mix judges in one folder; write the config on the first run."""
    path = out_dir / CONFIG_FILE
    if path.exists():
        before = json.loads(path.read_text())
        if before.get("judge") != config["judge"]:
            raise ValueError(f"{out_dir} was scored with judge {before.get('judge')!r}, not {config['judge']!r}: "
                             "use another --out-dir")
    else:
        path.write_text(json.dumps(config, indent=2, ensure_ascii=False) + "\n")


def to_judge(inputs: ScoreInputs, done: dict[str, dict[str, Any]], retry_unscored: bool) -> list[str]:
    """Ids still to judge: not done, done on other inputs, or (on request) with unscored nuggets."""
    todo = []
    for i in inputs.paired_ids:
        record = done.get(i)
        stale = record is None or record.get("input_key") != input_key(inputs.gold[i], inputs.candidates[i])
        if stale or (retry_unscored and record.get("n_unscored")):
            todo.append(i)
    return todo


def judge_ids(judge: Any, inputs: ScoreInputs, ids: Sequence[str], out_dir: Path, batch_items: int,
              progress: bool = True) -> None:
    """Judge items a batch at a time (one judge call per batch), appending results as they come."""
    from tqdm import tqdm

    from cts_dataset.judges import JudgeItem

    with tqdm(total=len(ids), desc=f"judging ({judge.name})", unit="item", disable=not progress) as bar:
        for start in range(0, len(ids), batch_items):
            batch = ids[start:start + batch_items]
            items = [JudgeItem(answer=inputs.candidates[i].answer, nuggets=tuple(n.text for n in inputs.gold[i].nuggets),
                               query=inputs.gold[i].query, id=i) for i in batch]
            judgements = judge.judge(items)
            calls = [call.as_dict() for j in judgements for call in j.calls]
            if calls:
                append_lines(out_dir / CALLS_FILE, calls)
            append_lines(out_dir / ITEMS_FILE, [item_record(inputs.gold[i], inputs.candidates[i], j, judge.name)
                                                for i, j in zip(batch, judgements)])
            bar.update(len(batch))


def run_score(gold_path: str | os.PathLike, candidates_path: str | os.PathLike, out_dir: str | os.PathLike,
              judge: Any, batch_items: int = 16, retry_unscored: bool = False, progress: bool = True,
              seed: int = 0) -> dict[str, Any]:
    """Judge what is not yet judged, then write and return the summary (see the module docstring)."""
    from cts_dataset.scoring.summary import summarise, write_summary

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    inputs = read_inputs(Path(gold_path), Path(candidates_path))
    prompt = getattr(judge, "prompt", None)  # LLM judges: which prompt version labelled these items
    check_config(out, {"judge": judge.name, "gold": str(gold_path), "candidates": str(candidates_path),
                       "prompt_id": getattr(prompt, "id", None), "prompt_sha256": getattr(prompt, "sha256", None)})
    done = read_items(out / ITEMS_FILE)
    todo = to_judge(inputs, done, retry_unscored)
    if todo:
        judge_ids(judge, inputs, todo, out, max(1, batch_items), progress)
        done = read_items(out / ITEMS_FILE)
    records = [done[i] for i in inputs.paired_ids if i in done]
    summary = summarise(
        records, judge=judge.name, gold=str(gold_path), candidates=str(candidates_path), n_gold=len(inputs.gold),
        n_candidates=len(inputs.candidates), candidates_without_gold=inputs.candidates_without_gold,
        gold_without_candidate=inputs.gold_without_candidate, problems=[str(p) for p in inputs.problems], seed=seed)
    summary["n_judged_this_run"] = len(todo)
    write_summary(out, summary)
    return summary
