"""Pure scoring: restore_score_100 and variants, means, confidence intervals, paired tests, agreement.

Nothing here reads a file; judges produce labels, these functions turn them into scores (``restore_score``
runs a judge first when given one instead of labels).
"""

from cts_dataset.scoring.agreement import LabelAgreement, RankAgreement, label_agreement, rank_agreement
from cts_dataset.scoring.compute import restore_score
from cts_dataset.scoring.labels import CREDIT, LABELS, Label, normalise_label
from cts_dataset.scoring.restore import (
    VARIANTS,
    Aggregate,
    InstanceScore,
    aggregate,
    mean_score,
    score_instance,
    score_instances,
)
from cts_dataset.scoring.stats import Interval, PairedResult, bootstrap_ci, paired_test

__all__ = [
    "CREDIT", "LABELS", "VARIANTS", "Aggregate", "InstanceScore", "Interval", "Label", "LabelAgreement",
    "PairedResult", "RankAgreement", "aggregate", "bootstrap_ci", "label_agreement", "mean_score",
    "normalise_label", "paired_test", "rank_agreement", "restore_score", "score_instance", "score_instances",
]
