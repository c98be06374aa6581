"""The benchmark instances that ship with the package (the demo split), read without the network."""

from __future__ import annotations

import hashlib
from functools import cache
from importlib import resources
from pathlib import Path

from cts_dataset.jsonl import read_records
from cts_dataset.records import Instance

DATASET_NAME = "ctsbench"
CORPUS_NAME = "ctsbench-corpus"
SPLITS = ("demo",)


def split_path(split: str = "demo") -> Path:
    """The shipped JSONL file of a split."""
    if split not in SPLITS:
        raise ValueError(f"unknown split {split!r}; shipped splits: {', '.join(SPLITS)}")
    return Path(str(resources.files("cts_dataset.loaders").joinpath(DATASET_NAME, "data", f"{split}.jsonl")))


@cache
def _load(split: str) -> tuple[Instance, ...]:
    return tuple(read_records(split_path(split), "instance"))


def load(split: str = "demo") -> list[Instance]:
    """The instances of a shipped split, validated against the schema (offline, from any directory)."""
    return list(_load(split))


def dataset_revision(split: str = "demo") -> str:
    """A content hash of a split's data file: runs record it so results name the data they used."""
    return hashlib.sha256(split_path(split).read_bytes()).hexdigest()[:16]
