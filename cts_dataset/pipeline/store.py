"""The run folder: one append-only JSONL log per stage, keyed by (instance, condition, budget, turn, repeat).

A record is written (and fsynced) as soon as its batch returns, so a killed run loses at most the batch
in flight; the log cuts a torn last line on open. A record with an ``error`` (its request failed after
retries) is kept for the record but does not count as done: a rerun retries it, and the retried record
(a later line of the same key) replaces it. One process writes a folder at a time (a lock file).
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from cts_dataset.collector import collector_paused
from cts_dataset.errors import CtsbenchError
from cts_dataset.log import open_log

KEY_FIELDS = ("instance", "condition", "budget", "turn")


def record_key(record: dict[str, Any]) -> str:
    """The identity of a stage record: instance, condition, budget and turn (those present), and the
    repeat index when it is not 0 (so a single-repeat folder keeps its keys)."""
    get = record.get  # the fields of KEY_FIELDS spelt out: this runs several times per record of a run
    key = f"{get('instance', '')!s}|{get('condition', '')!s}|{get('budget', '')!s}|{get('turn', '')!s}"
    repeat = get("repeat") or 0
    return f"{key}|r{repeat}" if repeat else key


class StageFile:
    """One stage's records by key (the later line of a key wins), appended to as batches finish."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.log = open_log(path)
        self.records: dict[str, dict[str, Any]] = {}
        with collector_paused():
            for _, record in self.log.records():
                self.records[record_key(record)] = record

    def __contains__(self, key: str) -> bool:
        """Done: a record without an error exists for the key."""
        record = self.records.get(key)
        return record is not None and not record.get("error")

    def get(self, key: str) -> dict[str, Any] | None:
        """The finished record of a key (None when missing or errored)."""
        return self.records[key] if key in self else None

    def errors(self) -> list[dict[str, Any]]:
        return [r for r in self.records.values() if r.get("error")]

    def append(self, records: Iterable[dict[str, Any]],
               replace_done: bool | Callable[[dict[str, Any], dict[str, Any]], bool] = False) -> None:
        """Append records whose key is not done yet, durably, before returning. ``replace_done`` lets a
        record replace a done one too: every one (True), or those for which ``replace_done(old, new)``
        holds (a retried judgement that is no worse)."""
        fresh = []
        for record in records:
            key = record_key(record)
            done = self.get(key)
            if done is None or (replace_done(done, record) if callable(replace_done) else replace_done):
                fresh.append((key, record))
        self.log.append(r for _, r in fresh)
        for key, record in fresh:  # in memory only once on disk
            self.records[key] = record


class RunStore:
    """The stage files of one run folder, held by one process at a time."""

    STAGES = ("clarify", "answer", "rewrite", "search", "judge")

    def __init__(self, folder: Path) -> None:
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self._lock = open(self.folder / ".lock", "a")  # noqa: SIM115 - held while the store lives
        try:
            fcntl.flock(self._lock.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            self._lock.close()
            raise CtsbenchError(f"{self.folder}: another ctsbench process is running in this folder; "
                                "wait for it to end or choose another --out-dir") from None
        self._lock.seek(0)
        self._lock.truncate()
        self._lock.write(str(os.getpid()))
        self._lock.flush()
        self.stages = {name: StageFile(self.folder / f"{name}.jsonl") for name in self.STAGES}

    def __getitem__(self, stage: str) -> StageFile:
        return self.stages[stage]

    def errors(self) -> dict[str, int]:
        """Errored records still standing, per stage."""
        return {name: len(stage.errors()) for name, stage in self.stages.items()}

    def close(self) -> None:
        for stage in self.stages.values():
            stage.log.close()
        if not self._lock.closed:
            self._lock.close()
