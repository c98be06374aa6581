"""A trace of every model call, appended as JSON Lines (one line per request, cache hits and failures
included) through :func:`cts_dataset.log.open_log`: a torn last line is cut when the file is opened again,
so the next record never glues onto it."""

from __future__ import annotations

import dataclasses
import json
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cts_dataset.log import LogError, log_records, open_log
from cts_dataset.models.base import ChatRequest, ChatResponse


@dataclass(frozen=True)
class Trace:
    """One call: who asked (role, tag), which model, with what, what came back, and what it cost.

    ``cache_key`` lets a person see why a rerun missed the cache: the same key means the same answer.
    ``error`` is set when the request failed after its retries (then there is no text).
    """

    time: float
    role: str
    tag: str
    model: str
    params: dict[str, Any]
    messages: list[dict[str, str]]
    raw: str
    text: str
    reasoning: str
    finish_reason: str
    usage: dict[str, int]
    latency_s: float
    cache_hit: bool
    cache_key: str = ""
    error: str = ""

    @classmethod
    def of(cls, request: ChatRequest, response: ChatResponse, model: str, cache_key: str = "") -> Trace:
        key = request.answer_key()
        params = {name: key[name] for name in ("sampling", "structured", "chat_template_kwargs", "sample_index")}
        return cls(time=time.time(), role=request.role, tag=request.tag, model=model, params=params,
                   messages=key["messages"], raw=response.raw, text=response.text,
                   reasoning=response.reasoning, finish_reason=response.finish_reason,
                   usage=dataclasses.asdict(response.usage), latency_s=response.latency_s,
                   cache_hit=response.cached, cache_key=cache_key, error=response.error)

    def to_json(self) -> str:
        return json.dumps(dataclasses.asdict(self), ensure_ascii=False)


class TraceWriter:
    """Appends traces to one JSONL log; each call is one durable write, so a crash loses at most it.

    Opening repairs the file (a torn tail is cut) and takes the log's one-writer lock. Writers of one
    path in a process share one log (several models trace into one ``calls.jsonl``)."""

    def __init__(self, path: str | Path) -> None:
        self.path, self._closed = Path(path), False
        open_log(self.path)
        _WRITTEN[self.path.resolve()] += 1

    def write(self, traces: list[Trace]) -> None:
        if traces:
            # Looked up per write: another writer of the same shared log may have closed it.
            open_log(self.path).append(dataclasses.asdict(trace) for trace in traces)

    def close(self) -> None:
        if self._closed:
            return
        self._closed, key = True, self.path.resolve()
        _WRITTEN[key] -= 1
        if _WRITTEN[key] <= 0:  # the last writer of the path lets the lock go
            open_log(self.path).close()


_WRITTEN: Counter[Path] = Counter()  # open TraceWriters per path in this process


def read_traces(path: str | Path) -> list[Trace]:
    """Every trace of a file. A torn last line (a writer killed mid-write) is not a trace; any other
    unreadable line raises :class:`cts_dataset.log.LogError` naming it."""
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(path)
    try:
        log = open_log(path)  # cuts a torn tail; the same log if this process writes the file
    except LogError:  # another process writes it now: read its complete lines without the lock
        return [_trace(path, number, record) for number, record in log_records(path)]
    try:
        return [_trace(path, number, record) for number, record in log.records()]
    finally:
        if _WRITTEN[path.resolve()] <= 0:
            log.close()  # a reader must not keep the one-writer lock


def _trace(path: Path, number: int, record: dict[str, Any]) -> Trace:
    try:
        return Trace(**record)
    except TypeError as error:
        raise LogError(f"{path}:{number}: (trace): not a trace record: {error}") from None
