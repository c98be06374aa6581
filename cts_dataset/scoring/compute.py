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


def judge_labels(predictions: Sequence[str], texts: Sequence[Sequence[str]], judge: Any,
                 judge_options: Mapping[str, Any] | None = None) -> tuple[list[list[Any]], str, list[list[str]]]:
    """(labels, judge name, raw outputs) from a judge object or spec (see ``judges.make_judge``)."""
    from cts_dataset.judges import JudgeItem, make_judge

    built = make_judge(judge, **dict(judge_options or {}))
    items = [JudgeItem(answer=p or "", nuggets=tuple(t), id=str(i)) for i, (p, t) in enumerate(zip(predictions, texts))]
    judgements = built.judge(items)
    return [j.labels for j in judgements], built.name, [j.raw for j in judgements]


def restore_score(predictions: Sequence[str], references: Sequence[Sequence[Any]],
                  labels: Sequence[Sequence[Any]] | None = None, judge: Any = None,
                  judge_options: Mapping[str, Any] | None = None, confidence: float = 0.95,
                  seed: int = 0) -> dict[str, Any]:
    """restore_score_100 (mean), strict and unweighted variants, per-instance scores, unscored counts.

    ``references[i]`` is the nugget list of instance i (dicts with ``text`` and ``weight``, or Nugget
    records). Give either ``labels`` (per instance, one of full/partial/none/None per nugget) or a
    ``judge`` (``"lexical"``, ``"embedding"``, a model spec, or a judge object).
    """
    if len(predictions) != len(references):
        raise ValueError(f"{len(predictions)} predictions but {len(references)} references")
    if (labels is None) == (judge is None):
        raise ValueError("give exactly one of labels= (precomputed) or judge= (a name, model spec or object)")
    fields = [[_nugget_fields(n) for n in nuggets] for nuggets in references]
    weights = [[w for _, w in row] for row in fields]
    judge_name, raw = "precomputed", None
    if labels is None:
        labels, judge_name, raw = judge_labels(predictions, [[t for t, _ in row] for row in fields], judge, judge_options)
    if len(labels) != len(references):
        raise ValueError(f"{len(labels)} label lists but {len(references)} references")
    for i, (row, given) in enumerate(zip(weights, labels)):
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
    }
    if raw is not None:
        result["judge_raw"] = raw
    return result
