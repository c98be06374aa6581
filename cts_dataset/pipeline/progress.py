"""What a run shows and keeps of its model calls as they happen: the progress bars and the request
recorder the audit reads."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

from cts_dataset.models.base import ChatRequest, ChatResponse


class Progress:
    """One tqdm bar per stage on stderr; a stage's bar closes when the next stage starts. It moves as each
    request is answered (the models report them) and is set right as each batch of records is written."""

    def __init__(self, enabled: bool = True) -> None:
        self.enabled = enabled
        self.stage: str | None = None
        self.bar: Any = None
        self.written = 0
        self.per_record = True
        self.calls = 0

    def start(self, stage: str, total: int, calls_per_record: bool = True) -> None:
        """``calls_per_record``: one model answer finishes one record (false for the search agent, whose
        runs take many steps: its bar moves as runs end, and counts the agent's calls beside it)."""
        self.close()
        if self.enabled and total:
            from tqdm import tqdm

            self.stage, self.written, self.per_record, self.calls = stage, 0, calls_per_record, 0
            self.bar = tqdm(total=total, desc=stage, file=sys.stderr, leave=True, dynamic_ncols=True)

    def answered(self, count: int) -> None:
        """A model answered ``count`` requests of the stage's current batch."""
        if self.bar is None:
            return
        if not self.per_record:
            self.calls += count
            self.bar.set_postfix_str(f"{self.calls} agent calls", refresh=True)
        elif self.bar.n < self.bar.total:
            self.bar.update(min(count, self.bar.total - self.bar.n))

    def __call__(self, stage: str, done: int) -> None:
        if self.bar is not None and stage == self.stage:
            self.written += done
            self.bar.n = min(self.bar.total, self.written)
            self.bar.refresh()

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
        self.bar, self.stage = None, None


class Recorder:
    """A model wrapper that keeps each request by tag, so the run can audit what a role was sent."""

    def __init__(self, model: Any) -> None:
        self.model, self.spec = model, model.spec
        self.requests: dict[str, ChatRequest] = {}

    def complete(self, requests: Sequence[ChatRequest]) -> list[ChatResponse]:
        self.requests.update((r.tag, r) for r in requests)
        return self.model.complete(requests)
