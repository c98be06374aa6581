"""JSON Schemas of the record files, generated from :mod:`cts_dataset.records`, and their checker.

Every problem is reported as ``file:line: field: problem`` so a person can jump straight to it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError

from cts_dataset.records import RECORD_KINDS

SCHEMA_DIR = Path(__file__).parent / "schemas"


def generate_schema(kind: str) -> dict[str, Any]:
    """The JSON Schema of one record kind, as generated from its pydantic model."""
    schema = RECORD_KINDS[kind].model_json_schema()
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", **schema}


def write_schemas(directory: Path = SCHEMA_DIR) -> list[Path]:
    """(Re)write the shipped schema files; a test fails when they drift from the models."""
    directory.mkdir(parents=True, exist_ok=True)
    paths = []
    for kind in RECORD_KINDS:
        path = directory / f"{kind}.schema.json"
        path.write_text(json.dumps(generate_schema(kind), indent=2, ensure_ascii=False) + "\n")
        paths.append(path)
    return paths


@cache
def load_schema(kind: str) -> dict[str, Any]:
    """The shipped schema file of a record kind."""
    if kind not in RECORD_KINDS:
        raise ValueError(f"unknown record kind {kind!r}; known: {', '.join(RECORD_KINDS)}")
    text = resources.files("cts_dataset").joinpath("schemas", f"{kind}.schema.json").read_text()
    return json.loads(text)


@cache
def validator(kind: str) -> Draft202012Validator:
    return Draft202012Validator(load_schema(kind))


@dataclass(frozen=True)
class Problem:
    """One thing wrong with one line of a file."""

    file: str
    line: int
    field: str
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.field}: {self.message}"


def field_path(error: ValidationError) -> str:
    """`nuggets[2].weight`-style path of a schema error, naming the offending key where it can."""
    path = ""
    for part in error.absolute_path:
        path += f"[{part}]" if isinstance(part, int) else (f".{part}" if path else str(part))
    if error.validator == "required":
        missing = error.message.split("'")[1] if "'" in error.message else ""
        return f"{path}.{missing}" if path else missing
    if error.validator == "additionalProperties" and "'" in error.message:
        extra = error.message.split("'")[1]
        return f"{path}.{extra}" if path else extra
    return path or "(record)"


def schema_problems(kind: str, record: Any, file: str, line: int) -> list[Problem]:
    """All schema problems of one decoded record, in a stable order."""
    errors = sorted(validator(kind).iter_errors(record), key=lambda e: list(map(str, e.absolute_path)))
    problems = []
    for error in errors:
        message = error.message
        if error.validator == "required":
            message = "missing required field"
        elif error.validator == "additionalProperties":
            message = "unexpected field (not in the schema)"
        problems.append(Problem(file, line, field_path(error), message))
    return problems
