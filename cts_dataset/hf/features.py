"""`datasets.Features` of the HF datasets, mirroring :mod:`cts_dataset.records` exactly."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import datasets


def nugget_feature() -> dict:
    """The nugget struct; the restore_score metric declares the same one for its references."""
    from datasets import List, Value

    return {"text": Value("string"), "weight": Value("float64"), "sources": List(Value("string"))}


def instance_features() -> datasets.Features:
    from datasets import Features, List, Value

    return Features(
        {
            "id": Value("string"),
            "language": Value("string"),
            "fused_query": Value("string"),
            "blurred_query": Value("string"),
            "removed_constraints": List({"type": Value("string"), "value": Value("string")}),
            "nuggets": List(nugget_feature()),
        }
    )


def document_features() -> datasets.Features:
    from datasets import Features, Value

    return Features({name: Value("string") for name in ("id", "title", "description", "topic", "text")})
