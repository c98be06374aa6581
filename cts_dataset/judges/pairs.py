"""Labelled (search output, nugget) pairs: the file ``ctsbench judge-check`` measures a judge against.

One JSON object a line: ``output``, ``nugget``, ``label`` (full | partial | none) are required;
``query``, ``system``, ``instance``, ``id``, ``reason`` (strings), ``weight`` (a number >= 0, default 1)
and ``split`` (dev | heldout) are optional. A load returns every pair or raises
:class:`~cts_dataset.jsonl.RecordFileError` naming each bad line's file, line and field.
"""

from __future__ import annotations

import hashlib
import math
import os
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from cts_dataset.jsonl import RecordFileError, iter_json_lines
from cts_dataset.schemas import Problem
from cts_dataset.scoring.labels import LABELS, Label, normalise_label

SPLITS: tuple[str, ...] = ("dev", "heldout")
PAIRS_ENV = "CTSBENCH_CALIBRATION_PAIRS"  # another default pairs file (tests, a local calibration set)
SHIPPED_PAIRS = Path(__file__).resolve().parent / "calibration" / "pairs.jsonl.gz"
_OPTIONAL_TEXT = ("query", "system", "instance", "id", "reason")


def default_pairs_path() -> Path:
    """The shipped calibration set, or the file named by ``$CTSBENCH_CALIBRATION_PAIRS``."""
    return Path(os.environ.get(PAIRS_ENV) or SHIPPED_PAIRS)


@dataclass(frozen=True)
class LabelledPair:
    """One search output, one nugget and the reference label of how well the output covers it."""

    output: str
    nugget: str
    label: Label
    query: str = ""
    system: str | None = None
    instance: str | None = None
    weight: float = 1.0
    id: str | None = None
    reason: str | None = None
    split: str | None = None
    line: int = 0

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class PairsFile:
    """The pairs of one file and the file's SHA-256 (the bytes read), so a report names what it measured."""

    path: str
    sha256: str
    pairs: tuple[LabelledPair, ...]

    @property
    def has_split(self) -> bool:
        return any(p.split is not None for p in self.pairs)

    def select(self, split: str) -> tuple[LabelledPair, ...]:
        """The pairs of ``split`` (dev | heldout), or all of them for ``all``."""
        if split == "all":
            return self.pairs
        if split not in SPLITS:
            raise ValueError(f"split must be dev, heldout or all, not {split!r}")
        if not self.has_split:
            raise ValueError(f"{self.path}: no pair has a split field; use --split all")
        return tuple(p for p in self.pairs if p.split == split)


def _pair(value: Any, path: str, line: int) -> tuple[LabelledPair | None, list[Problem]]:
    if not isinstance(value, dict):
        return None, [Problem(path, line, "(record)", f"expected a JSON object, found {type(value).__name__}")]
    problems = []

    def bad(field: str, message: str) -> None:
        problems.append(Problem(path, line, field, message))

    for field in ("output", "nugget", "label"):
        if field not in value:
            bad(field, "missing (required)")
        elif not isinstance(value[field], str):
            bad(field, f"expected a string, found {type(value[field]).__name__}")
    if isinstance(value.get("nugget"), str) and not value["nugget"].strip():
        bad("nugget", "empty")
    label = None
    if isinstance(value.get("label"), str):
        try:
            label = normalise_label(value["label"])
        except ValueError:
            pass
        if label is None:
            bad("label", f"unknown label {value['label']!r} (expected one of {', '.join(LABELS)})")
    for field in _OPTIONAL_TEXT:
        if value.get(field) is not None and not isinstance(value[field], str):
            bad(field, f"expected a string, found {type(value[field]).__name__}")
    weight = value.get("weight", 1.0)
    if isinstance(weight, bool) or not isinstance(weight, int | float) or not math.isfinite(weight) or weight < 0:
        bad("weight", f"expected a finite number >= 0, found {weight!r}")
    split = value.get("split")
    if split is not None and split not in SPLITS:
        bad("split", f"unknown split {split!r} (expected dev or heldout)")
    if problems:
        return None, problems
    return LabelledPair(
        output=value["output"], nugget=value["nugget"], label=label,  # type: ignore[arg-type]
        query=value.get("query") or "", system=value.get("system"), instance=value.get("instance"),
        weight=float(weight), id=value.get("id"), reason=value.get("reason"), split=split, line=line), []


def read_pairs(path: str | os.PathLike) -> PairsFile:
    """Every pair of a file (blank lines skipped), or RecordFileError listing every bad line."""
    path = Path(path)
    if not path.is_file():
        raise RecordFileError([Problem(str(path), 0, "(file)", "no such file")])
    pairs, problems = [], []
    for line, value, problem in iter_json_lines(path):
        if problem is not None:
            problems.append(problem)
            continue
        pair, found = _pair(value, str(path), line)
        problems += found
        if pair is not None:
            pairs.append(pair)
    if problems:
        raise RecordFileError(problems)
    if not pairs:
        raise RecordFileError([Problem(str(path), 0, "(file)", "no pairs")])
    return PairsFile(str(path), hashlib.sha256(path.read_bytes()).hexdigest(), tuple(pairs))
