"""Where imported splits live, and how they are read back (offline, from any directory).

An imported split is a no-code Hugging Face dataset folder ``<data root>/ctsbench-<split>/`` (README
card with YAML metadata, ``data/<split>.jsonl``) plus what the import kept beside it (``gold.jsonl``,
``candidates/``, ``manifest.json``). The data root is ``$CTSBENCH_DATA_DIR``, else
``$XDG_DATA_HOME/ctsbench``, else ``~/.local/share/ctsbench``: user data that cannot be rebuilt without
the archive, so not under the cache folder.

Removed constraints: the release may not annotate them. Our :class:`~cts_dataset.records.Instance`
requires at least one (the shipped demo split stays strict); an imported instance is an
:class:`ImportedInstance`, where an empty list means *not annotated*.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from pydantic import Field, ValidationError

from cts_dataset.errors import CtsbenchError
from cts_dataset.jsonl import RecordFileError, iter_json_lines
from cts_dataset.records import Constraint, Instance
from cts_dataset.schemas import Problem

IMPORTED_SPLITS = {"hard518": "ctsbench-hard518"}  # split name -> dataset name (and folder name)


class ImportedInstance(Instance):
    """An instance of an imported split: ``removed_constraints`` may be empty (not annotated)."""

    removed_constraints: list[Constraint] = Field(
        default_factory=list, description="The removed constraints; empty when the release does not annotate them.")


class NotImportedError(CtsbenchError, FileNotFoundError):
    """An imported split asked for before its import."""


def data_root() -> Path:
    root = os.environ.get("CTSBENCH_DATA_DIR")
    if not root:
        root = os.path.join(os.environ.get("XDG_DATA_HOME") or os.path.expanduser("~/.local/share"), "ctsbench")
    return Path(root)


def dataset_folder(split: str = "hard518") -> Path:
    if split not in IMPORTED_SPLITS:
        raise ValueError(f"unknown imported split {split!r}; known: {', '.join(IMPORTED_SPLITS)}")
    return data_root() / IMPORTED_SPLITS[split]


def split_file(split: str = "hard518") -> Path:
    """The split's instances file; NotImportedError saying how to import it when absent."""
    path = dataset_folder(split) / "data" / f"{split}.jsonl"
    if not path.is_file():
        raise NotImportedError(
            f"the {split} split is not imported (no {path}): run `ctsbench import-release "
            f"clarify-then-search-518-release.zip` (or the unzipped release/ folder); the data root is "
            f"$CTSBENCH_DATA_DIR, else $XDG_DATA_HOME/ctsbench, else ~/.local/share/ctsbench")
    return path


def field_of(location: tuple[int | str, ...]) -> str:
    """``nuggets[2].weight`` from a pydantic error location."""
    out = ""
    for part in location:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(record)"


def validation_problems(error: ValidationError, file: str, line: int, prefix: str = "") -> list[Problem]:
    return [Problem(file, line, prefix + field_of(e["loc"]) if e["loc"] else prefix.rstrip(".") or "(record)",
                    e["msg"]) for e in error.errors()]


def read_imported(path: str | os.PathLike) -> list[ImportedInstance]:
    """Every instance of an imported split file, or RecordFileError naming each bad line and field."""
    path = Path(path)
    problems: list[Problem] = []
    instances: list[ImportedInstance] = []
    seen: dict[str, int] = {}
    for number, value, problem in iter_json_lines(path):
        if problem:
            problems.append(problem)
            continue
        try:
            instance = ImportedInstance.model_validate(value)
        except ValidationError as error:
            problems.extend(validation_problems(error, str(path), number))
            continue
        if instance.id in seen:
            problems.append(Problem(str(path), number, "id", f"duplicate id {instance.id!r} (first on line {seen[instance.id]})"))
            continue
        seen[instance.id] = number
        instances.append(instance)
    if problems:
        raise RecordFileError(problems)
    return instances


def load_imported(split: str = "hard518") -> list[Instance]:
    """The instances of an imported split (what ``ctsbench run --dataset hard518`` runs)."""
    return list(read_imported(split_file(split)))


def imported_revision(split: str = "hard518") -> str:
    """A content hash of the imported split's data file, as for the shipped splits."""
    return hashlib.sha256(split_file(split).read_bytes()).hexdigest()[:16]
