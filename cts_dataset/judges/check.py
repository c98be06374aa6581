"""Measure a coverage judge against labelled (output, nugget) pairs: what ``ctsbench judge-check`` runs.

Pairs that share an output and a query become one :class:`~cts_dataset.judges.base.JudgeItem` with
several nuggets (an LLM judge labels a few per call). The judge runs through
:func:`~cts_dataset.scoring.judging.judge_items`, the path ``ctsbench score`` uses, so an LLM judge's calls
go through its model's response cache: a rerun, or a run after a kill, asks the model only for what the
cache lacks. A judgement whose model request failed leaves its pairs unscored, as in scoring.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from cts_dataset.judges.base import CoverageJudge
from cts_dataset.judges.check_metrics import (
    LabelMetrics,
    RestoreBias,
    RunAgreement,
    label_metrics,
    restore_bias,
    run_agreement,
)
from cts_dataset.judges.pairs import LabelledPair, PairsFile
from cts_dataset.scoring.judging import JudgeJob, judge_identity, judge_items, judge_prompt, scorable_labels
from cts_dataset.scoring.labels import LABELS, Label


@dataclass(frozen=True)
class JudgeCost:
    """What judging the pairs took. Calls and tokens come from the LLM judge's call records (cached
    answers included); cache hits and misses from its model's counters, where it has them."""

    seconds: float
    n_pairs: int
    n_items: int
    n_calls: int
    prompt_tokens: int
    completion_tokens: int
    cache_hits: int | None
    cache_misses: int | None

    @property
    def seconds_per_label(self) -> float | None:
        return self.seconds / self.n_pairs if self.n_pairs else None

    def as_dict(self) -> dict[str, Any]:
        return {**asdict(self), "seconds_per_label": self.seconds_per_label}


@dataclass(frozen=True)
class JudgeRun:
    """The judge's label per pair (None = unscored), in pair order, and what it cost."""

    labels: tuple[Label | None, ...]
    cost: JudgeCost
    errors: tuple[str, ...]


class _Calls:
    """Collects the call records ``judge_items`` would append to a ``judge_calls.jsonl``."""

    def __init__(self) -> None:
        self.records: list[dict[str, Any]] = []

    def append(self, records: Sequence[dict[str, Any]]) -> int:
        self.records.extend(records)
        return len(records)


def group_jobs(pairs: Sequence[LabelledPair]) -> list[tuple[JudgeJob, list[int]]]:
    """One judge job per distinct (output, query) with its distinct nuggets, and per nugget of the job the
    indices of the pairs it labels: a pair that several systems share is judged once."""
    groups: dict[tuple[str, str], dict[str, list[int]]] = {}
    for i, pair in enumerate(pairs):
        groups.setdefault((pair.output, pair.query), {}).setdefault(pair.nugget, []).append(i)
    jobs = []
    for (output, query), nuggets in groups.items():
        key = hashlib.sha256(json.dumps([query, output], ensure_ascii=False).encode()).hexdigest()[:12]
        members = list(nuggets.values())
        jobs.append((JudgeJob(id=f"pairs-{key}", query=query, answer=output, nuggets=tuple(nuggets),
                              weights=tuple(pairs[m[0]].weight for m in members)), members))
    return jobs


def distinct_pairs(pairs: Sequence[LabelledPair]) -> list[int]:
    """The index of each distinct (query, output, nugget)'s first pair: what the label metrics count."""
    first: dict[tuple[str, str, str], int] = {}
    for i, pair in enumerate(pairs):
        first.setdefault((pair.query, pair.output, pair.nugget), i)
    return sorted(first.values())


def run_judge(judge: CoverageJudge, pairs: Sequence[LabelledPair], batch_items: int = 16,
              progress: bool = False) -> JudgeRun:
    """Judge the pairs a batch of items at a time (one ``judge()`` call per batch, so a kill loses at most
    the batch in flight to the cache), timing the whole."""
    from tqdm import tqdm

    jobs = group_jobs(pairs)
    labels: list[Label | None] = [None] * len(pairs)
    calls, errors = _Calls(), []
    stats = getattr(getattr(judge, "model", None), "stats", None)
    before = (stats.hits, stats.misses) if stats is not None else None
    started = time.perf_counter()
    with tqdm(total=sum(len(job.nuggets) for job, _ in jobs), desc=f"judging ({judge.name})", unit="pair",
              disable=not progress) as bar:
        for start in range(0, len(jobs), max(1, batch_items)):
            batch = jobs[start:start + max(1, batch_items)]
            # judge_items appends call records to any log with append(records)
            records = judge_items(judge, [job for job, _ in batch], calls)  # type: ignore[arg-type]
            for (job, members), record in zip(batch, records, strict=True):
                errors += record["errors"]
                for shared, label in zip(members, scorable_labels(record["labels"], record["errors"]), strict=True):
                    for i in shared:
                        labels[i] = label
                bar.update(len(members))
    seconds = time.perf_counter() - started
    hits = misses = None
    if stats is not None and before is not None:
        hits, misses = stats.hits - before[0], stats.misses - before[1]
    cost = JudgeCost(seconds, sum(len(job.nuggets) for job, _ in jobs), len(jobs), len(calls.records),
                     sum(int(c.get("prompt_tokens") or 0) for c in calls.records),
                     sum(int(c.get("completion_tokens") or 0) for c in calls.records), hits, misses)
    return JudgeRun(tuple(labels), cost, tuple(errors))


@dataclass(frozen=True)
class CheckReport:
    """A judge measured against one pairs file: identity, inputs, metrics and cost."""

    judge: str
    judge_identity: dict[str, Any]
    judge_prompt: str | None
    judge_prompt_hash: str | None
    pairs_file: str
    pairs_sha256: str  # first 12 hex digits of the file's SHA-256
    split: str
    n_pairs: int  # distinct (query, output, nugget): what the label metrics count
    n_lines: int  # pairs as the file lists them, one per system that produced the output: the ranking's
    label_counts: dict[str, int]
    labels: LabelMetrics
    bias: RestoreBias
    runs: RunAgreement
    cost: JudgeCost
    judge_errors: tuple[str, ...]
    disagreements: tuple[dict[str, Any], ...]

    def as_dict(self) -> dict[str, Any]:
        found = {name: getattr(self, name) for name in self.__dataclass_fields__}
        for name in ("labels", "bias", "runs", "cost"):
            found[name] = found[name].as_dict()
        found["judge_errors"], found["disagreements"] = list(self.judge_errors), list(self.disagreements)
        return found


def default_split(pairs_file: PairsFile) -> str:
    """heldout when the file says which pairs are held out, else all of them."""
    return "heldout" if pairs_file.has_split else "all"


def check_judge(judge: CoverageJudge, pairs_file: PairsFile, split: str | None = None, seed: int = 0,
                n_resamples: int = 1000, batch_items: int = 16, progress: bool = False) -> CheckReport:
    """Run ``judge`` over the pairs of ``split`` (default: :func:`default_split`) and measure it."""
    split = split or default_split(pairs_file)
    pairs = pairs_file.select(split)
    if not pairs:
        raise ValueError(f"{pairs_file.path}: no pair in split {split!r}")
    run = run_judge(judge, pairs, batch_items=batch_items, progress=progress)
    human = [p.label for p in pairs]
    distinct = distinct_pairs(pairs)
    weights = [p.weight for p in pairs]
    # An instance id names one output per system: the same id under two systems is two instances.
    instances = [None if p.instance is None else (p.system, p.instance) for p in pairs]
    counts = Counter(human[i] for i in distinct)
    prompt_id, prompt_hash = judge_prompt(judge)
    return CheckReport(
        judge=judge.name, judge_identity=judge_identity(judge), judge_prompt=prompt_id, judge_prompt_hash=prompt_hash,
        pairs_file=pairs_file.path, pairs_sha256=pairs_file.sha256[:12], split=split, n_pairs=len(distinct),
        n_lines=len(pairs), label_counts={label: counts.get(label, 0) for label in LABELS},
        labels=label_metrics([human[i] for i in distinct], [run.labels[i] for i in distinct],
                             seed=seed, n_resamples=n_resamples),
        bias=restore_bias(human, run.labels, weights, instances),
        runs=run_agreement(human, run.labels, weights, [p.system for p in pairs], instances),
        cost=run.cost, judge_errors=run.errors,
        disagreements=tuple({"line": p.line, "id": p.id, "label": p.label, "judge": j}
                            for p, j in zip(pairs, run.labels, strict=True) if j != p.label))
