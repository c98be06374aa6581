"""A SQLite response cache keyed on everything that changes the answer.

The key hashes the model's identity (:attr:`cts_dataset.models.registry.LoadedModel.identity`: backend,
id, revision or a hash of its files, answer-changing engine args, servers) and
:meth:`ChatRequest.answer_key` (messages, sampling, structured output, chat-template kwargs, sample
index). Rows carry their write time, so a reader can refuse answers older than a model's
expiry (hosted aliases). Several processes may share one file: WAL journal, a busy timeout, and
idempotent inserts, so parallel runs neither lock each other out nor lose rows.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from cts_dataset.models.base import ChatRequest, ChatResponse, Usage

CacheMode = Literal["use", "refresh", "off"]
CACHE_MODES: tuple[str, ...] = ("use", "refresh", "off")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS responses (
    key TEXT PRIMARY KEY,
    model TEXT NOT NULL,
    response TEXT NOT NULL,
    created REAL NOT NULL
)"""


def default_cache_path() -> Path:
    """``responses.sqlite`` in the project's cache folder (:func:`cts_dataset.paths.cache_dir`)."""
    from cts_dataset.paths import cache_dir

    return cache_dir() / "responses.sqlite"


def cache_key(model_identity: dict[str, Any], request: ChatRequest) -> str:
    payload = {"model": model_identity, "request": request.answer_key()}
    return hashlib.sha256(json.dumps(payload, sort_keys=True, default=str).encode()).hexdigest()


@dataclass
class CacheStats:
    hits: int = 0
    misses: int = 0

    def __str__(self) -> str:
        total = self.hits + self.misses
        return f"{self.hits} hits, {self.misses} misses" + (f" ({self.hits / total:.0%} hits)" if total else "")


class ResponseCache:
    """Stored responses by key. Connections are opened per process (a forked child gets its own)."""

    def __init__(self, path: str | Path | None = None, busy_timeout_s: float = 60.0) -> None:
        self.path = Path(path) if path else default_cache_path()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.busy_timeout_s = busy_timeout_s
        self.stats = CacheStats()
        self._lock = threading.Lock()
        self._conn: sqlite3.Connection | None = None
        self._pid = -1

    def _connection(self) -> sqlite3.Connection:
        if self._conn is None or self._pid != os.getpid():
            conn = sqlite3.connect(self.path, timeout=self.busy_timeout_s, check_same_thread=False,
                                   isolation_level=None)
            conn.execute(f"PRAGMA busy_timeout = {int(self.busy_timeout_s * 1000)}")
            self._retry(lambda: conn.execute("PRAGMA journal_mode = WAL"))
            conn.execute("PRAGMA synchronous = NORMAL")
            self._retry(lambda: conn.execute(_SCHEMA))
            self._conn, self._pid = conn, os.getpid()
        return self._conn

    def _retry(self, action: Any) -> Any:
        # Switching to WAL needs a moment with no other writer; busy_timeout does not cover it.
        deadline = time.monotonic() + self.busy_timeout_s
        while True:
            try:
                return action()
            except sqlite3.OperationalError as error:
                if "locked" not in str(error) or time.monotonic() > deadline:
                    raise
                time.sleep(0.05)

    def get_many(self, keys: list[str], max_age_s: float | None = None) -> dict[str, ChatResponse]:
        """The stored responses of ``keys``; with ``max_age_s``, only those written that recently."""
        found: dict[str, ChatResponse] = {}
        oldest = time.time() - max_age_s if max_age_s is not None else float("-inf")
        with self._lock:
            conn = self._connection()
            for start in range(0, len(keys), 500):  # SQLite caps the number of bound parameters
                chunk = keys[start:start + 500]
                marks = ",".join("?" * len(chunk))
                rows = conn.execute(f"SELECT key, response FROM responses WHERE key IN ({marks}) AND created >= ?",
                                    [*chunk, oldest])
                found.update((key, _decode(text)) for key, text in rows)
        return found

    def put_many(self, items: list[tuple[str, str, ChatResponse]]) -> None:
        """Store ``(key, model label, response)`` rows in one transaction; a newer answer replaces.
        Failure responses are never stored: a rerun must ask again."""
        rows = [(key, model, _encode(response), time.time()) for key, model, response in items if not response.failed]
        if not rows:
            return
        with self._lock:
            conn = self._connection()

            def write() -> None:
                conn.execute("BEGIN IMMEDIATE")
                try:
                    conn.executemany("INSERT OR REPLACE INTO responses VALUES (?, ?, ?, ?)", rows)
                    conn.execute("COMMIT")
                except BaseException:
                    conn.execute("ROLLBACK")
                    raise

            self._retry(write)

    def count(self) -> int:
        with self._lock:
            return self._connection().execute("SELECT COUNT(*) FROM responses").fetchone()[0]

    def clear(self, model: str | None = None) -> int:
        """Delete every row (or one model's); returns how many went."""
        with self._lock:
            conn = self._connection()
            if model is None:
                return conn.execute("DELETE FROM responses").rowcount
            return conn.execute("DELETE FROM responses WHERE model = ?", (model,)).rowcount

    def close(self) -> None:
        with self._lock:
            if self._conn is not None and self._pid == os.getpid():
                self._conn.close()
            self._conn = None


def _encode(response: ChatResponse) -> str:
    data = dataclasses.asdict(response)
    data.pop("cached", None)
    return json.dumps(data, ensure_ascii=False)


def _decode(text: str) -> ChatResponse:
    data = json.loads(text)
    data["usage"] = Usage(**data.get("usage", {}))
    known = {f.name for f in dataclasses.fields(ChatResponse)}
    return ChatResponse(**{k: v for k, v in data.items() if k in known}, cached=True)
