"""The one judge-and-score path: ``ctsbench run``, ``ctsbench score`` and the evaluate metric use it.

:func:`judge_items` judges a batch of jobs in one ``judge()`` call and returns one record per job (labels,
raw outputs, scores, the judge and its prompt, a hash of the inputs, model errors); every LLM call goes
to ``calls_log`` as a :class:`~cts_dataset.judges.base.JudgeCall` record. :func:`judge_identity` is what
a folder stores and compares on resume.

One error policy for every path: a judgement whose model request failed for some chunk (after the
judge's retries) is *failed*: its instance is unscored, never scored on the labels of the chunks that
did answer (:func:`scorable_labels`), the record carries ``error``, and a rerun judges it again. A
parse failure is not a request failure: those nuggets are unscored and the rest are scored. A new
judgement replaces a stored one only when it is no worse (:func:`replaces`).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from cts_dataset.judges.base import CoverageJudge, JudgeItem
from cts_dataset.log import JsonlLog
from cts_dataset.scoring.labels import normalise_label
from cts_dataset.scoring.restore import score_instance


@dataclass(frozen=True)
class JudgeJob:
    """One answer to judge against one instance's weighted nuggets."""

    id: str
    query: str
    answer: str
    nuggets: tuple[str, ...]
    weights: tuple[float, ...]

    def __post_init__(self) -> None:
        if len(self.nuggets) != len(self.weights):
            raise ValueError(f"{self.id}: {len(self.nuggets)} nuggets but {len(self.weights)} weights")

    @property
    def input_key(self) -> str:
        """A hash of everything that changes the judgement and the score (query, nuggets, weights, answer)."""
        payload = json.dumps([self.query, list(self.nuggets), [float(w) for w in self.weights], self.answer],
                             ensure_ascii=False)
        return hashlib.sha256(payload.encode()).hexdigest()[:16]


def _json(value: Any) -> Any:
    return json.loads(json.dumps(value, sort_keys=True, default=str))


def judge_prompt(judge: CoverageJudge) -> tuple[str | None, str | None]:
    """(prompt id, prompt hash) of a judge with a prompt; (None, None) for the offline judges."""
    prompt = getattr(judge, "prompt", None)
    return getattr(prompt, "id", None), getattr(prompt, "hash", None)


def judge_identity(judge: CoverageJudge) -> dict[str, Any]:
    """What changes a judge's labels: name, kind, prompt, model identity, settings (JSON values).

    The shipped judges describe themselves (``identity()``); any other judge is named by its class,
    its prompt and its model's identity where it has them.
    """
    describe = getattr(judge, "identity", None)
    if callable(describe):
        return _json(describe())
    found: dict[str, Any] = {"name": judge.name, "kind": f"{type(judge).__module__}.{type(judge).__qualname__}"}
    prompt_id, prompt_hash = judge_prompt(judge)
    if prompt_id is not None:
        found["prompt"] = {"id": prompt_id, "hash": prompt_hash}
    model = getattr(judge, "model", None)
    if model is not None:
        found["model"] = {"spec": getattr(model, "spec", None), "identity": getattr(model, "identity", None)}
    return _json(found)


def scorable_labels(labels: Sequence[Any], errors: Sequence[str]) -> list[Any]:
    """The labels a score may use: none when a model request of the judgement failed (the labelled
    chunks alone would give a score the same judge would not give on a good day)."""
    return [None] * len(labels) if errors else list(labels)


def failed(record: dict[str, Any]) -> bool:
    """Whether a judge record's judgement had a failed model request (its instance is unscored)."""
    return bool(record.get("error") or record.get("errors"))


def replaces(old: dict[str, Any] | None, new: dict[str, Any]) -> bool:
    """Whether ``new`` may replace the stored judgement ``old`` of the same item (a retry): always for a
    missing, failed or stale one (other inputs); else only when ``new`` did not fail and left no more
    nuggets unscored, so a retry never loses a scored judgement."""
    if old is None or failed(old) or old.get("input_key") != new.get("input_key"):
        return True
    return not failed(new) and new.get("n_unscored", 0) <= old.get("n_unscored", 0)


def judge_items(judge: CoverageJudge, jobs: Sequence[JudgeJob], calls_log: JsonlLog | None = None) -> list[dict[str, Any]]:
    """Judge the jobs in one ``judge()`` call; one record per job, in order (see the module docstring).

    Record fields: ``id``, ``input_key``, ``judge``, ``judge_prompt``, ``judge_prompt_hash``, ``labels``
    (as the judge gave them), ``raw``, ``evidence``, ``errors`` (model failures), ``error`` (them joined;
    empty when none: the module docstring says what a failure does to the score) and the fields of
    :class:`~cts_dataset.scoring.restore.InstanceScore`.
    """
    if not jobs:
        return []
    judgements = judge.judge([JudgeItem(answer=j.answer, nuggets=j.nuggets, query=j.query, id=j.id) for j in jobs])
    if len(judgements) != len(jobs):
        raise RuntimeError(f"judge {judge.name}: {len(judgements)} judgements for {len(jobs)} items")
    prompt_id, prompt_hash = judge_prompt(judge)
    records, calls = [], []
    for job, judgement in zip(jobs, judgements, strict=True):
        if len(judgement.labels) != len(job.nuggets):
            raise RuntimeError(f"judge {judge.name}: {len(judgement.labels)} labels for the "
                               f"{len(job.nuggets)} nuggets of {job.id}")
        labels = [normalise_label(label) for label in judgement.labels]
        errors = [str(e) for e in getattr(judgement, "errors", [])]
        key = job.input_key
        calls += [replace(call, input_key=key).as_dict() for call in judgement.calls]
        records.append({
            "id": job.id, "input_key": key, "judge": judge.name, "judge_prompt": prompt_id,
            "judge_prompt_hash": prompt_hash, "labels": labels, "raw": list(judgement.raw),
            "evidence": list(judgement.evidence), "errors": errors, "error": "; ".join(errors)[:2000],
            **score_instance(job.weights, scorable_labels(labels, errors)).as_dict(),
        })
    if calls_log is not None and calls:
        calls_log.append(calls)
    return records
