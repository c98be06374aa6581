"""A trace of every model call, appended as JSON Lines (one line per request, cache hits included)."""

from __future__ import annotations

import dataclasses
import json
import os
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from cts_dataset.models.base import ChatRequest, ChatResponse


@dataclass(frozen=True)
class Trace:
    """One call: who asked (role, tag), which model, with what, what came back, and what it cost.

    ``cache_key`` lets a person see why a rerun missed the cache: the same key means the same answer.
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

    @classmethod
    def of(cls, request: ChatRequest, response: ChatResponse, model: str, cache_key: str = "") -> Trace:
        key = request.answer_key()
        params = {name: key[name] for name in ("sampling", "structured", "chat_template_kwargs", "sample_index")}
        return cls(time=time.time(), role=request.role, tag=request.tag, model=model, params=params,
                   messages=key["messages"], raw=response.raw, text=response.text,
                   reasoning=response.reasoning, finish_reason=response.finish_reason,
                   usage=dataclasses.asdict(response.usage), latency_s=response.latency_s,
                   cache_hit=response.cached, cache_key=cache_key)

    def to_json(self) -> str:
        return json.dumps(dataclasses.asdict(self), ensure_ascii=False)


class TraceWriter:
    """Appends traces to one JSONL file; each batch is one write, flushed, so a crash loses at most it."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._file: TextIO | None = None

    def write(self, traces: list[Trace]) -> None:
        if not traces:
            return
        text = "".join(trace.to_json() + "\n" for trace in traces)
        with self._lock:
            if self._file is None:
                self._file = self.path.open("a", encoding="utf-8")
            self._file.write(text)
            self._file.flush()
            os.fsync(self._file.fileno())

    def close(self) -> None:
        with self._lock:
            if self._file is not None:
                self._file.close()
                self._file = None


def read_traces(path: str | Path) -> list[Trace]:
    with Path(path).open(encoding="utf-8") as lines:
        return [Trace(**json.loads(line)) for line in lines if line.strip()]
