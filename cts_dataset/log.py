"""One append-only JSON Lines log: every record file a run or a scoring folder appends to uses it.

- On open, a torn last line (the process died mid-write) is cut off, so the next record never glues
  onto a fragment.
- Each append is one write, flushed and fsynced before it returns: a kill loses at most the call in
  flight.
- One writer per file: the open log holds an exclusive ``flock``; a second process is refused with a
  message naming the file. Within one process, :func:`open_log` returns the same log for the same path
  (several models trace into one ``calls.jsonl``).
- A corrupt line in the middle (not a torn tail) is reported with its file and line, never skipped.
"""

from __future__ import annotations

import fcntl
import json
import os
import threading
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from cts_dataset.errors import CtsbenchError

_OPEN: dict[Path, JsonlLog] = {}
_OPEN_LOCK = threading.Lock()


class LogError(CtsbenchError, ValueError):
    """A log that cannot be read (a corrupt middle line) or written (another process holds it)."""


class JsonlLog:
    """An append-only JSONL file (see the module docstring). Use :func:`open_log` to get one."""

    def __init__(self, path: str | os.PathLike) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._handle = open(self.path, "a+b")  # noqa: SIM115 - held for the log's lifetime
        try:
            fcntl.flock(self._handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            self._handle.close()
            raise LogError(f"{self.path}: another process is writing to this file; wait for it to end "
                           "or use another folder") from None
        self._repair()

    def _repair(self) -> None:
        self._handle.seek(0)
        data = self._handle.read()
        end = data.rfind(b"\n") + 1
        if end < len(data):
            self._handle.truncate(end)
            self._handle.flush()
            os.fsync(self._handle.fileno())
        self._handle.seek(0, os.SEEK_END)

    def records(self) -> Iterator[tuple[int, dict[str, Any]]]:
        """(line number, record) of every line; a corrupt line raises :class:`LogError` naming it."""
        with self._lock:
            yield from log_records(self.path)

    def append(self, records: Iterable[dict[str, Any]]) -> int:
        """Append records as one durable write; returns how many were written."""
        lines = [json.dumps(r, ensure_ascii=False, default=str) + "\n" for r in records]
        if not lines:
            return 0
        data = "".join(lines).encode("utf-8")
        with self._lock:
            self._handle.seek(0, os.SEEK_END)
            self._handle.write(data)
            self._handle.flush()
            os.fsync(self._handle.fileno())
        return len(lines)

    def close(self) -> None:
        with _OPEN_LOCK:
            if _OPEN.get(self.path.resolve()) is self:
                del _OPEN[self.path.resolve()]
        with self._lock:
            if not self._handle.closed:
                self._handle.close()


def log_records(path: str | os.PathLike) -> Iterator[tuple[int, dict[str, Any]]]:
    """(line number, record) of every complete line of a JSONL file; needs no lock, so it also reads a
    file another process is writing. A last line without its newline is a write in flight (or torn), not
    a record; a corrupt line, or one that is not a JSON object, raises :class:`LogError` naming it."""
    path = Path(path)
    with open(path, "rb") as lines:
        for number, raw in enumerate(lines, start=1):
            if not raw.endswith(b"\n"):
                return
            line = raw.decode("utf-8")
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as error:
                raise LogError(f"{path}:{number}: (json): corrupt record: {error.msg}") from None
            if not isinstance(record, dict):
                raise LogError(f"{path}:{number}: (record): expected a JSON object, found {type(record).__name__}")
            yield number, record


def open_log(path: str | os.PathLike) -> JsonlLog:
    """The process's log for ``path`` (opened, repaired and locked on first use)."""
    key = Path(path).resolve()
    with _OPEN_LOCK:
        log = _OPEN.get(key)
        if log is None or log._handle.closed:
            log = _OPEN[key] = JsonlLog(path)
        return log


def close_log(path: str | os.PathLike) -> None:
    """Close the process's log for ``path`` if one is open (releasing its lock)."""
    log = _OPEN.get(Path(path).resolve())
    if log is not None:
        log.close()


def close_logs() -> None:
    """Close every open log (tests; a process that starts another writer on the same folders)."""
    for log in list(_OPEN.values()):
        log.close()
