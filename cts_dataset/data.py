"""The benchmark instances that ship with the package, read without the network.

Splits: ``test`` (the track: 518 instances, each read by a second reader, with evidence for every nugget),
``smoke`` (20 of them, stratified by removed-constraint type) and ``demo`` (the first 200 instances as
first published; the default, so that published figures stay reproducible).
"""

from __future__ import annotations

import hashlib
from functools import cache
from importlib import resources
from pathlib import Path

from cts_dataset.jsonl import read_records
from cts_dataset.records import Instance

DATASET_NAME = "ctsbench"
CORPUS_NAME = "ctsbench-corpus"
SPLITS = ("demo", "test", "smoke")


def split_path(split: str = "demo") -> Path:
    """The shipped JSONL file of a split."""
    if split not in SPLITS:
        raise ValueError(f"unknown split {split!r}; shipped splits: {', '.join(SPLITS)}")
    return Path(str(resources.files("cts_dataset.loaders").joinpath(DATASET_NAME, "data", f"{split}.jsonl")))


def evidence_beside(path: Path) -> Path:
    """Where an instance file's evidence records lie: ``NAME.evidence.jsonl`` beside ``NAME.jsonl[.gz]``."""
    return path.with_name(path.name.removesuffix(".gz").removesuffix(".jsonl") + ".evidence.jsonl")


def evidence_path(split: str) -> Path:
    """The second reader's evidence records of a split (beside its data file; ``test`` and ``smoke`` have them)."""
    return evidence_beside(split_path(split))


def instances_path(dataset: str | Path) -> Path:
    """A shipped split by name, else a file: the order ``ctsbench run --dataset`` resolves them in."""
    return split_path(str(dataset)) if str(dataset) in SPLITS else Path(dataset)


@cache
def _load(split: str) -> tuple[Instance, ...]:
    return tuple(read_records(split_path(split), "instance"))


def load(split: str = "demo") -> list[Instance]:
    """The instances of a shipped split, validated against the schema (offline, from any directory)."""
    return list(_load(split))


def dataset_revision(split: str = "demo") -> str:
    """A content hash of a split's data file: runs record it so results name the data they used."""
    return hashlib.sha256(split_path(split).read_bytes()).hexdigest()[:16]


def stratified_sample(instances: list[Instance], n: int) -> list[Instance]:
    """``n`` instances spread over the types of their first removed constraint, in proportion to each
    type's share (largest remainders, at least one of each type when ``n`` allows), evenly spaced within a
    type, in dataset order. A rule on the data alone: it never looks at a score, so it is fixed per split."""
    if n >= len(instances):
        return list(instances)
    groups: dict[str, list[Instance]] = {}
    for instance in instances:
        kind = instance.removed_constraints[0].type.value if instance.removed_constraints else "none"
        groups.setdefault(kind, []).append(instance)
    kinds = sorted(groups)
    floor = 1 if n >= len(kinds) else 0
    quota = {k: max(floor, n * len(groups[k]) // len(instances)) for k in kinds}
    remainders = sorted(kinds, key=lambda k: (-(n * len(groups[k]) % len(instances)), k))
    while sum(quota.values()) < n:
        for kind in remainders:
            if sum(quota.values()) < n and quota[kind] < len(groups[kind]):
                quota[kind] += 1
    while sum(quota.values()) > n:  # the floor of one each overshot: trim the largest types
        quota[max(kinds, key=lambda k: (quota[k], k))] -= 1
    chosen = {id(groups[k][int((i + 0.5) * len(groups[k]) / quota[k])]) for k in kinds for i in range(quota[k])}
    return [i for i in instances if id(i) in chosen]
