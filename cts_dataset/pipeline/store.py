"""The run folder: one append-only JSONL file per stage, keyed by (instance, condition, budget, turn).

A record is written (and flushed to disk) as soon as its batch returns, so a killed run loses at most
the batch in flight. On reopening, a torn last line (the process died mid-write) is cut off, and
records are read back by key so finished work is skipped and never duplicated.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from cts_dataset.jsonl import dumps


def record_key(record: dict[str, Any]) -> str:
    """The identity of a stage record: instance, condition, budget and turn (those present)."""
    parts = [str(record.get(name, "")) for name in ("instance", "condition", "budget", "turn")]
    return "|".join(parts)


class StageFile:
    """One stage's records, loaded at open and appended to as batches finish."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.records: dict[str, dict[str, Any]] = {}
        if path.exists():
            self._load()

    def _load(self) -> None:
        data = self.path.read_bytes()
        good_end = 0
        position = 0
        for number, line in enumerate(data.splitlines(keepends=True), start=1):
            position += len(line)
            if not line.endswith(b"\n"):
                break  # a torn write: everything after the last newline goes
            try:
                record = json.loads(line)
            except json.JSONDecodeError as error:
                raise ValueError(f"{self.path}:{number}: (json): corrupt record: {error.msg}") from None
            self.records[record_key(record)] = record
            good_end = position
        if good_end < len(data):
            with open(self.path, "r+b") as handle:
                handle.truncate(good_end)

    def __contains__(self, key: str) -> bool:
        return key in self.records

    def get(self, key: str) -> dict[str, Any] | None:
        return self.records.get(key)

    def append(self, records: Iterable[dict[str, Any]]) -> None:
        """Append records (new keys only) and make them durable before returning."""
        lines = []
        for record in records:
            key = record_key(record)
            if key in self.records:
                continue
            self.records[key] = record
            lines.append(dumps(record) + "\n")
        if not lines:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with open(self.path, "a", encoding="utf-8") as handle:
            handle.write("".join(lines))
            handle.flush()
            os.fsync(handle.fileno())


class RunStore:
    """The stage files of one run folder."""

    STAGES = ("clarify", "answer", "rewrite", "search", "judge")

    def __init__(self, folder: Path) -> None:
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.stages = {name: StageFile(self.folder / f"{name}.jsonl") for name in self.STAGES}

    def __getitem__(self, stage: str) -> StageFile:
        return self.stages[stage]
