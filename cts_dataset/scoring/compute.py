"""One call from answers and nugget lists to every restore_score figure: what the evaluate metric runs."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cts_dataset.scoring.labels import normalise_label
from cts_dataset.scoring.restore import aggregate, score_instances
from cts_dataset.scoring.stats import bootstrap_ci


def _nugget_fields(nugget: Any) -> tuple[str, float]:
    if isinstance(nugget, Mapping):
        return str(nugget["text"]), float(nugget["weight"])
    return str(nugget.text), float(nugget.weight)  # a records.Nugget


def judge_records(predictions: Sequence[str], references: Sequence[Sequence[tuple[str, float]]], judge: Any,
                  judge_options: Mapping[str, Any] | None = None,
                  queries: Sequence[str] | None = None) -> tuple[list[dict[str, Any]], Any]:
    """The judge's records (see ``scoring.judging.judge_items``) and the judge built from a spec or object."""
    from cts_dataset.judges import make_judge
    from cts_dataset.scoring.judging import JudgeJob, judge_items

    built = make_judge(judge, **dict(judge_options or {}))
    jobs = [JudgeJob(id=str(i), query=(queries[i] or "") if queries is not None else "", answer=p or "",
                     nuggets=tuple(t for t, _ in row), weights=tuple(w for _, w in row))
            for i, (p, row) in enumerate(zip(predictions, references, strict=True))]
    return judge_items(built, jobs), built


def restore_score(predictions: Sequence[str], references: Sequence[Sequence[Any]],
                  labels: Sequence[Sequence[Any]] | None = None, judge: Any = None,
                  judge_options: Mapping[str, Any] | None = None, confidence: float = 0.95,
                  seed: int = 0, queries: Sequence[str] | None = None) -> dict[str, Any]:
    """restore_score_100 (mean), strict and unweighted variants, per-instance scores, unscored counts.

    ``references[i]`` is the nugget list of instance i (dicts with ``text`` and ``weight``, or Nugget
    records). Give either ``labels`` (per instance, one of full/partial/none/None per nugget) or a
    ``judge`` (``"lexical"``, ``"embedding"``, a model spec, or a judge object). ``queries`` (one per
    prediction: the question each answer responds to) go to the judge, as ``ctsbench score`` and
    ``ctsbench run`` give it; ``queries_given`` in the result says whether they were. A prediction whose
    judgement had a failed model request is unscored (``judge_errors``, ``n_failed_instances``): compute
    again to retry it.
    """
    if len(predictions) != len(references):
        raise ValueError(f"{len(predictions)} predictions but {len(references)} references")
    if (labels is None) == (judge is None):
        raise ValueError("give exactly one of labels= (precomputed) or judge= (a name, model spec or object)")
    if queries is not None and len(queries) != len(predictions):
        raise ValueError(f"{len(predictions)} predictions but {len(queries)} queries")
    fields = [[_nugget_fields(n) for n in nuggets] for nuggets in references]
    weights = [[w for _, w in row] for row in fields]
    judge_name, extra = "precomputed", {}
    if labels is None:
        from cts_dataset.scoring.judging import judge_prompt, scorable_labels

        records, built = judge_records(predictions, fields, judge, judge_options, queries)
        # As `ctsbench run` and `ctsbench score`: a judgement with a failed request is unscored.
        labels, judge_name = [scorable_labels(r["labels"], r["errors"]) for r in records], built.name
        prompt_id, prompt_hash = judge_prompt(built)
        extra = {"judge_prompt": prompt_id, "judge_prompt_hash": prompt_hash, "judge_raw": [r["raw"] for r in records]}
        if any(r["errors"] for r in records):
            extra["judge_errors"] = [r["errors"] for r in records]
            extra["n_failed_instances"] = sum(1 for r in records if r["errors"])
    if len(labels) != len(references):
        raise ValueError(f"{len(labels)} label lists but {len(references)} references")
    for i, (row, given) in enumerate(zip(weights, labels, strict=True)):
        if len(row) != len(given):
            raise ValueError(f"instance {i}: {len(row)} nuggets but {len(given)} labels")
    clean = [[normalise_label(label) for label in row] for row in labels]
    scores = score_instances(weights, clean)
    summary = aggregate(scores)
    interval = bootstrap_ci([s.restore_score_100 for s in scores], confidence=confidence, seed=seed)
    result: dict[str, Any] = {
        **summary.as_dict(),
        "restore_score_100_ci": [interval.low, interval.high],
        "per_instance": [s.restore_score_100 for s in scores],
        "per_instance_strict": [s.strict_100 for s in scores],
        "per_instance_unweighted": [s.unweighted_100 for s in scores],
        "per_instance_unscored_nuggets": [s.n_unscored for s in scores],
        "labels": clean,
        "judge": judge_name,
        "queries_given": queries is not None,
        **extra,
    }
    return result
