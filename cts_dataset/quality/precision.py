"""How precise a score on a split is: the baseline's and the oracle's restore_score_100 with their 95%
bootstrap intervals, under the CPU default's searcher and judge (BM25 retrieval, the lexical judge).

Neither condition asks a model anything, so the figures are cheap to recompute and the dataset card states
them from the data. A clarifier's score lies between the two; the width of its interval at the split's
size is what a reader needs to tell two clarifiers apart.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from cts_dataset.records import Instance
from cts_dataset.scoring.stats import Interval


@dataclass(frozen=True)
class ConditionPrecision:
    condition: str
    interval: Interval

    @property
    def width(self) -> float:
        return float(self.interval.high - self.interval.low)


def split_precision(instances: Sequence[Instance]) -> list[ConditionPrecision]:
    """The baseline (blurred query) and oracle (fused query) scores of BM25 retrieval, judged lexically."""
    from cts_dataset.scoring.compute import restore_score
    from cts_dataset.scoring.stats import bootstrap_ci
    from cts_dataset.search.searcher import load_searcher

    searcher = load_searcher("retrieval")
    found = []
    for condition, queries in (("baseline", [i.blurred_query for i in instances]),
                               ("oracle", [i.fused_query for i in instances])):
        outputs = searcher.search(queries)
        scored = restore_score([o.answer for o in outputs], [i.nuggets for i in instances], judge="lexical",
                               queries=[i.fused_query for i in instances])
        found.append(ConditionPrecision(condition, bootstrap_ci(scored["per_instance"])))
    return found


def precision_lines(splits: dict[str, Sequence[Instance]]) -> str:
    """A markdown table of both conditions on each split, with the interval's width."""
    lines = ["| split | instances | baseline [95% CI] | width | oracle [95% CI] | width |", "|---|---|---|---|---|---|"]
    for name, instances in splits.items():
        baseline, oracle = split_precision(instances)
        lines.append(f"| `{name}` | {len(instances)} | " + " | ".join(
            f"{c.interval.mean:.1f} [{c.interval.low:.1f}, {c.interval.high:.1f}] | {c.width:.1f}"
            for c in (baseline, oracle)) + " |")
    return "\n".join(lines)
