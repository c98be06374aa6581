"""Reading and writing JSON Lines record files with line-accurate errors.

A load either returns every record of a file or raises :class:`RecordFileError` listing the problems;
it never returns a partial file.
"""

from __future__ import annotations

import gzip
import io
import json
import os
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from cts_dataset.collector import collector_paused
from cts_dataset.errors import CtsbenchError
from cts_dataset.records import RECORD_KINDS
from cts_dataset.schemas import Problem, schema_problems

# Keys that tell one record kind from another when a file's kind is not given.
_KIND_MARKERS = (("instance", "blurred_query"), ("document", "title"), ("gold", "nuggets"), ("candidate", "answer"),
                 ("evidence", "readings"))


class RecordFileError(CtsbenchError, ValueError):
    """A record file with problems; ``problems`` holds every one found (up to a cap)."""

    def __init__(self, problems: list[Problem], total: int | None = None) -> None:
        self.problems = problems
        total = total if total is not None else len(problems)
        shown = "\n".join(f"  {p}" for p in problems[:20])
        more = f"\n  ... and {total - 20} more" if total > 20 else ""
        super().__init__(f"{total} problem(s):\n{shown}{more}")


def iter_json_lines(path: Path) -> Iterator[tuple[int, Any, Problem | None]]:
    """Yield (line number, decoded value or None, problem or None) for each non-blank line (``.gz``: gzipped)."""
    number = 0
    try:
        with open_text(path) as handle:
            for number, line in enumerate(handle, start=1):
                if not line.strip():
                    continue
                try:
                    yield number, json.loads(line), None
                except json.JSONDecodeError as error:
                    yield number, None, Problem(str(path), number, "(json)",
                                                f"not valid JSON: {error.msg} at column {error.colno}")
    except (OSError, EOFError, UnicodeDecodeError) as error:  # a truncated or corrupt gzip, bytes not UTF-8
        yield number + 1, None, Problem(str(path), number + 1, "(file)", f"unreadable after line {number}: {error}")


def detect_kind(record: Any) -> str | None:
    """Guess a record's kind from its keys (None when nothing matches)."""
    if not isinstance(record, dict):
        return None
    for kind, marker in _KIND_MARKERS:
        if marker in record:
            return kind
    return None


def check_records(path: Path, kind: str | None = None) -> tuple[str | None, list[tuple[int, dict]], list[Problem]]:
    """Decode and schema-check every line; returns (kind, good records with line numbers, problems)."""
    path = Path(path)
    problems: list[Problem] = []
    good: list[tuple[int, dict]] = []
    seen_ids: dict[str, int] = {}
    if not path.exists():
        return kind, good, [Problem(str(path), 0, "(file)", "no such file")]
    for number, value, problem in iter_json_lines(path):
        if problem:
            problems.append(problem)
            continue
        if kind is None:
            kind = detect_kind(value)
            if kind is None:
                problems.append(Problem(str(path), number, "(record)", "cannot tell the record kind; pass --kind"))
                return kind, good, problems
        found = schema_problems(kind, value, str(path), number)
        if found:
            problems.extend(found)
            continue
        record_id = value.get("id")
        if record_id in seen_ids:
            problems.append(Problem(str(path), number, "id", f"duplicate id {record_id!r} (first on line {seen_ids[record_id]})"))
            continue
        seen_ids[record_id] = number
        good.append((number, value))
    return kind, good, problems


def read_records(path: str | os.PathLike, kind: str) -> list[Any]:
    """All records of a file as typed models, or RecordFileError naming every bad line."""
    with collector_paused():
        _, good, problems = check_records(Path(path), kind)
        if problems:
            raise RecordFileError(problems)
        model = RECORD_KINDS[kind]
        return [model.model_validate(value) for _, value in good]


def write_jsonl(path: str | os.PathLike, records: Iterable[BaseModel | dict]) -> Path:
    """Write records atomically (a temporary file renamed into place): readers never see half a file."""
    return write_atomic(path, (dumps(record) + "\n" for record in records))


def open_text(path: str | os.PathLike) -> io.TextIOBase:
    """A UTF-8 text file for reading; a ``.gz`` name is read through gzip."""
    if str(path).endswith(".gz"):
        return io.TextIOWrapper(gzip.open(path, "rb"), encoding="utf-8")
    return open(path, encoding="utf-8")


def write_atomic(path: str | os.PathLike, chunks: str | Iterable[str]) -> Path:
    """Write text to a temporary file beside ``path``, fsync it and rename it into place: a kill at any
    moment leaves either the old file or the new one, never half of one. A ``.gz`` name is gzipped with
    no timestamp, so the same text gives the same bytes (a shipped file's hash is reproducible)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as raw:
            packed = gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0) if path.suffix == ".gz" else None
            handle = io.TextIOWrapper(packed or raw, encoding="utf-8", newline="")
            for chunk in [chunks] if isinstance(chunks, str) else chunks:
                handle.write(chunk)
            handle.flush()
            handle.detach()  # the text layer lets go; the gzip trailer and fsync come next
            if packed is not None:
                packed.close()
            raw.flush()
            os.fsync(raw.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


def write_json(path: str | os.PathLike, value: Any) -> Path:
    """One JSON document (indented, UTF-8 kept readable), written atomically (:func:`write_atomic`)."""
    return write_atomic(path, json.dumps(value, indent=2, ensure_ascii=False, default=str) + "\n")


class JsonFileError(CtsbenchError, ValueError):
    """A JSON file (a folder's ``config.json``) that is not one valid JSON object."""


def read_json(path: str | os.PathLike) -> dict[str, Any]:
    """A JSON object file, or :class:`JsonFileError` naming the file and what is wrong with it."""
    path = Path(path)
    try:
        value = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as error:
        raise JsonFileError(f"{path}: not valid JSON ({error.msg} at line {error.lineno} column {error.colno}); "
                            "the file is damaged (a write was cut short?): restore it or choose another "
                            "folder") from None
    except UnicodeDecodeError as error:
        raise JsonFileError(f"{path}: not UTF-8 text ({error.reason}); restore it or choose another folder") from None
    if not isinstance(value, dict):
        raise JsonFileError(f"{path}: expected a JSON object, found {type(value).__name__}")
    return value


def dumps(record: BaseModel | dict) -> str:
    """One record as a single JSON line (UTF-8 kept readable)."""
    value = record.model_dump(mode="json") if isinstance(record, BaseModel) else record
    return json.dumps(value, ensure_ascii=False)
