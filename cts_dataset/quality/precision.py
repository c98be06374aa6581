"""How precise a score on a split is: the baseline's and the oracle's restore_score_100 with their 95%
bootstrap intervals, under the CPU default's searcher and judge (BM25 retrieval, the lexical judge).

Neither condition asks a model anything, so the figures are cheap to recompute and the dataset card states
them from the data. A clarifier's score is expected between the two; the width of an interval at the
split's size is what one score on it can resolve.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from cts_dataset.records import Instance
from cts_dataset.scoring.stats import Interval


@dataclass(frozen=True)
class SplitPrecision:
    """The two model-free conditions' intervals on one split."""

    n: int
    baseline: Interval  # the blurred query searched as it is
    oracle: Interval  # the fused query


def split_precision(instances: Sequence[Instance]) -> SplitPrecision:
    """The baseline (blurred query) and oracle (fused query) scores of BM25 retrieval, judged lexically."""
    from cts_dataset.scoring.compute import restore_score
    from cts_dataset.scoring.stats import bootstrap_ci
    from cts_dataset.search.searcher import load_searcher

    searcher = load_searcher("retrieval")
    nuggets = [i.nuggets for i in instances]
    intents = [i.fused_query for i in instances]

    def interval(queries: list[str]) -> Interval:
        answers = [o.answer for o in searcher.search(queries)]
        return bootstrap_ci(restore_score(answers, nuggets, judge="lexical", queries=intents)["per_instance"])

    return SplitPrecision(len(instances), interval([i.blurred_query for i in instances]), interval(intents))


def _cell(interval: Interval) -> str:
    if interval.low is None or interval.high is None:  # fewer than two instances: no interval
        return f"{interval.mean:.1f} | n/a" if interval.mean is not None else "n/a | n/a"
    return f"{interval.mean:.1f} [{interval.low:.1f}, {interval.high:.1f}] | {interval.high - interval.low:.1f}"


def precision_table(splits: dict[str, Sequence[Instance]]) -> str:
    """A markdown table of both conditions on each split, with each interval's width."""
    lines = ["| split | instances | baseline [95% CI] | width | oracle [95% CI] | width |",
             "|---|---|---|---|---|---|"]
    for name, instances in splits.items():
        found = split_precision(instances)
        lines.append(f"| `{name}` | {found.n} | {_cell(found.baseline)} | {_cell(found.oracle)} |")
    return "\n".join(lines)
