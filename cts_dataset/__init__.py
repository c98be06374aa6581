"""ctsbench: the Clarify-Then-Search benchmark (data, protocol, metric, diagnostics).

``load()`` returns the shipped instances; ``load_corpus()`` the documents search runs over.
Heavy libraries (datasets, evaluate, model SDKs) are imported only where they are used.
"""

from __future__ import annotations

from cts_dataset.corpus import load_corpus
from cts_dataset.data import dataset_revision, load
from cts_dataset.metric import metric_path
from cts_dataset.records import Candidate, Constraint, ConstraintType, Document, GoldRecord, Instance, Nugget

__version__ = "0.2.0"

__all__ = [
    "Candidate", "Constraint", "ConstraintType", "Document", "GoldRecord", "Instance", "Nugget",
    "__version__", "dataset_revision", "load", "load_corpus", "load_run", "metric_path",
]


def __getattr__(name: str) -> object:
    # load_run brings pandas: imported on first use, so `import cts_dataset` stays light.
    if name == "load_run":
        from cts_dataset.report.frame import load_run

        return load_run
    raise AttributeError(f"module 'cts_dataset' has no attribute {name!r}")
