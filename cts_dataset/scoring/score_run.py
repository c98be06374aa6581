"""Score a candidates file against a gold file into a folder: what ``ctsbench score`` runs.

The folder holds ``items.jsonl`` (one line per judged item: the records of
:func:`~cts_dataset.scoring.judging.judge_items` plus system, condition, nuggets and weights),
``judge_calls.jsonl`` (every LLM call, as ``JudgeCall`` records), ``config.json`` (the judge's identity)
and the summaries ``summary.json`` / ``summary.md``. Both logs are append-only
(:mod:`cts_dataset.log`) and written a batch at a time, so a killed run loses at most the batch in
flight. A rerun refuses a judge of another identity (prompt, model, settings), and skips items already
judged on the same inputs (a changed answer or gold is re-judged, the later line wins). An item whose
judgement had a failed model request is unscored and judged again on every rerun; a retry
(``retry_unscored``) that comes out worse than the stored judgement is not written
(:func:`~cts_dataset.scoring.judging.replaces`). Summaries are recomputed from ``items.jsonl`` on every run.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cts_dataset.differences import differences
from cts_dataset.jsonl import check_records, read_json, write_json
from cts_dataset.judges.base import CoverageJudge
from cts_dataset.log import JsonlLog, open_log
from cts_dataset.records import Candidate, GoldRecord, Instance, gold_of
from cts_dataset.schemas import Problem
from cts_dataset.scoring.judging import JudgeJob, failed, judge_identity, judge_items, judge_prompt, replaces

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


def job_of(gold: GoldRecord, candidate: Candidate) -> JudgeJob:
    return JudgeJob(id=gold.id, query=gold.query, answer=candidate.answer, nuggets=tuple(n.text for n in gold.nuggets),
                    weights=tuple(n.weight for n in gold.nuggets))


def read_items(path: Path) -> dict[str, dict[str, Any]]:
    """Judged items of an ``items.jsonl`` by id (the later line wins; a torn last line is cut on open)."""
    return {record["id"]: record for _, record in open_log(path).records() if "id" in record}


def check_config(out_dir: Path, config: dict[str, Any]) -> None:
    """Refuse a folder scored by a judge of another identity (naming what differs); write the config on
    the first run. Gold and candidate paths may change: items are re-judged by their inputs."""
    path = out_dir / CONFIG_FILE
    if not path.exists():
        write_json(path, config)
        return
    before = read_json(path).get("judge")
    found = differences(before, config["judge"])
    if found:
        name = before.get("name") if isinstance(before, dict) else before
        raise ValueError(f"{out_dir} was scored with judge {name!r} of another identity; what differs: "
                         + "; ".join(found[:8]) + (" ..." if len(found) > 8 else "") + ". Use another --out-dir.")


def to_judge(inputs: ScoreInputs, done: dict[str, dict[str, Any]], retry_unscored: bool) -> list[str]:
    """Ids still to judge: not done, done on other inputs, with a failed model request (transient, so
    retried on every rerun), or (on request) with unscored nuggets."""
    todo = []
    for i in inputs.paired_ids:
        record = done.get(i)
        stale = record is None or record.get("input_key") != job_of(inputs.gold[i], inputs.candidates[i]).input_key
        if stale or failed(record) or (retry_unscored and record.get("n_unscored")):
            todo.append(i)
    return todo


def judge_ids(judge: CoverageJudge, inputs: ScoreInputs, ids: Sequence[str], items: JsonlLog, calls: JsonlLog,
              batch_items: int, progress: bool = True, done: dict[str, dict[str, Any]] | None = None) -> None:
    """Judge items a batch at a time (one judge call per batch), appending results as they come; a
    result worse than the judgement in ``done`` (a failed or less complete retry) is not appended."""
    from tqdm import tqdm

    done = done or {}
    with tqdm(total=len(ids), desc=f"judging ({judge.name})", unit="item", disable=not progress) as bar:
        for start in range(0, len(ids), batch_items):
            batch = ids[start:start + batch_items]
            jobs = [job_of(inputs.gold[i], inputs.candidates[i]) for i in batch]
            records = judge_items(judge, jobs, calls)
            items.append({**record, "system": inputs.candidates[job.id].system,
                          "condition": inputs.candidates[job.id].condition, "nuggets": list(job.nuggets),
                          "weights": list(job.weights)} for job, record in zip(jobs, records, strict=True)
                         if replaces(done.get(job.id), record))
            bar.update(len(batch))


def run_score(gold_path: str | os.PathLike, candidates_path: str | os.PathLike, out_dir: str | os.PathLike,
              judge: CoverageJudge, batch_items: int = 16, retry_unscored: bool = False, progress: bool = True,
              seed: int = 0) -> dict[str, Any]:
    """Judge what is not yet judged, then write and return the summary (see the module docstring)."""
    from cts_dataset.scoring.summary import summarise_scores, write_scores_summary

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    inputs = read_inputs(Path(gold_path), Path(candidates_path))
    check_config(out, {"judge": judge_identity(judge), "gold": str(gold_path), "candidates": str(candidates_path)})
    items, calls = open_log(out / ITEMS_FILE), open_log(out / CALLS_FILE)
    try:
        done = read_items(items.path)
        todo = to_judge(inputs, done, retry_unscored)
        if todo:
            judge_ids(judge, inputs, todo, items, calls, max(1, batch_items), progress, done)
            done = read_items(items.path)
    finally:
        items.close()
        calls.close()
    records = [done[i] for i in inputs.paired_ids if i in done]
    prompt_id, prompt_hash = judge_prompt(judge)
    summary = summarise_scores(
        records, judge=judge.name, gold=str(gold_path), candidates=str(candidates_path), n_gold=len(inputs.gold),
        n_candidates=len(inputs.candidates), candidates_without_gold=inputs.candidates_without_gold,
        gold_without_candidate=inputs.gold_without_candidate, problems=[str(p) for p in inputs.problems], seed=seed)
    summary.update(judge_prompt=prompt_id, judge_prompt_hash=prompt_hash, n_judged_this_run=len(todo))
    write_scores_summary(out, summary)
    return summary
