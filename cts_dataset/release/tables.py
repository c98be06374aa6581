"""Reading the release's files as they may come: CSV or TSV, JSONL or a JSON array, UTF-8 with or without
a BOM (or UTF-16 and GB18030, what spreadsheet exports on Chinese systems write), every row with its line."""

from __future__ import annotations

import codecs
import csv
import io
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cts_dataset.jsonl import RecordFileError
from cts_dataset.schemas import Problem

DELIMITERS = (",", "\t", ";", "|")


def decode(path: Path) -> tuple[str, str]:
    """(text, encoding name) of a file; RecordFileError when it is no text we know."""
    data = path.read_bytes()
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return data.decode("utf-16"), "utf-16"
    try:
        return data.decode("utf-8-sig"), "utf-8 with BOM" if data.startswith(codecs.BOM_UTF8) else "utf-8"
    except UnicodeDecodeError as error:
        try:
            return data.decode("gb18030"), "gb18030"
        except UnicodeDecodeError:
            line = data[: error.start].count(b"\n") + 1
            raise RecordFileError([Problem(str(path), line, "(file)", f"not UTF-8 (nor UTF-16, GB18030) text: {error}")]) \
                from None


@dataclass(frozen=True)
class Table:
    """A delimited file: its header, and each row as (line number, {header: cell})."""

    path: Path
    header: tuple[str, ...]
    rows: tuple[tuple[int, dict[str, str]], ...]
    delimiter: str
    encoding: str


def sniff_delimiter(header_line: str, suffix: str) -> str:
    """The delimiter of the header line: a tab for .tsv, else the most frequent of , TAB ; | outside quotes."""
    if suffix == ".tsv":
        return "\t"
    unquoted = "".join(part for i, part in enumerate(header_line.split('"')) if i % 2 == 0)
    counts = {d: unquoted.count(d) for d in DELIMITERS}
    best = max(counts, key=lambda d: counts[d])
    return best if counts[best] else ","


def read_table(path: Path) -> Table:
    """A CSV/TSV file with its header; RecordFileError naming each broken row (nothing is dropped silently)."""
    text, encoding = decode(path)
    first = next((line for line in text.splitlines() if line.strip()), "")
    if not first:
        raise RecordFileError([Problem(str(path), 0, "(file)", "empty file: no header row")])
    delimiter = sniff_delimiter(first, path.suffix.lower())
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    header: list[str] | None = None
    rows: list[tuple[int, dict[str, str]]] = []
    problems: list[Problem] = []
    start = 1
    for cells in reader:
        line, start = start, reader.line_num + 1  # a quoted cell may span lines: a row starts after the last
        if not any(c.strip() for c in cells):
            continue
        if header is None:
            header = [c.replace("\ufeff", "").strip() for c in cells]
            repeated = sorted({h for h in header if header.count(h) > 1})
            if repeated:
                problems.append(Problem(str(path), line, "(header)", f"repeated column name(s): {repeated}"))
            continue
        if len(cells) > len(header):
            problems.append(Problem(str(path), line, "(row)", f"{len(cells)} cells for {len(header)} columns "
                                    f"(delimiter {delimiter!r}; quote cells that hold it)"))
            continue
        rows.append((line, {h: (cells[i].strip() if i < len(cells) else "") for i, h in enumerate(header)}))
    if problems:
        raise RecordFileError(problems)
    return Table(path, tuple(header or ()), tuple(rows), delimiter, encoding)


def read_records(path: Path) -> tuple[list[tuple[int, dict[str, Any]]], str]:
    """(line number, object) of a JSONL file or of a JSON array file, and the encoding; RecordFileError
    naming every line that is not a JSON object."""
    text, encoding = decode(path)
    problems: list[Problem] = []
    records: list[tuple[int, dict[str, Any]]] = []
    if text.lstrip().startswith("["):
        try:
            values = json.loads(text)
        except json.JSONDecodeError as error:
            raise RecordFileError([Problem(str(path), error.lineno, "(json)", f"not valid JSON: {error.msg}")]) from None
        numbered = [(0, v) for v in values]  # a JSON array has no line per record: items are counted instead
    else:
        numbered = []
        for number, line in enumerate(text.splitlines(), start=1):
            if not line.strip():
                continue
            try:
                numbered.append((number, json.loads(line)))
            except json.JSONDecodeError as error:
                problems.append(Problem(str(path), number, "(json)", f"not valid JSON: {error.msg} at column {error.colno}"))
    for index, (number, value) in enumerate(numbered, start=1):
        where = number or index
        if not isinstance(value, dict):
            problems.append(Problem(str(path), where, "(record)", f"expected a JSON object, found {type(value).__name__}"))
        else:
            records.append((where, value))
    if problems:
        raise RecordFileError(sorted(problems, key=lambda p: p.line))
    return records, encoding


def record_fields(records: list[tuple[int, dict[str, Any]]]) -> list[str]:
    """Every key of the records in first-seen order, and ``parent.child`` for keys of nested objects."""
    found: dict[str, None] = {}
    for _, record in records:
        for key, value in record.items():
            found.setdefault(str(key), None)
            if isinstance(value, dict):
                for inner in value:
                    found.setdefault(f"{key}.{inner}", None)
    return list(found)


def get_field(record: dict[str, Any], field: str | None) -> Any:
    """A record's value at ``field`` (a key, or ``parent.child`` as :func:`record_fields` names it)."""
    if field is None:
        return None
    if field in record:
        return record[field]
    parent, _, child = field.partition(".")
    inner = record.get(parent)
    return inner.get(child) if isinstance(inner, dict) else None


def has_field(record: dict[str, Any], field: str | None) -> bool:
    """Whether ``field`` is present in a record (its value may be null)."""
    if field is None:
        return False
    if field in record:
        return True
    parent, _, child = field.partition(".")
    return isinstance(record.get(parent), dict) and child in record[parent]
