"""A scripted chat model for tests: replays replies per role and records every call."""

from __future__ import annotations

from collections import defaultdict, deque
from collections.abc import Callable, Iterable, Sequence

from cts_dataset.models.base import ChatRequest, ChatResponse, Usage, split_reasoning

Reply = str | Callable[[ChatRequest], str]


class ScriptedModel:
    """Answers each request with the next scripted reply for its role (or ``default``).

    A reply is a string or a function of the request. ``calls`` keeps every request, and
    ``batches`` the size of every ``complete`` call, so tests can count model calls per stage.
    """

    def __init__(self, replies: dict[str, Iterable[Reply]] | None = None, default: Reply | None = None,
                 spec: str = "scripted") -> None:
        self.spec = spec
        self._queues: dict[str, deque[Reply]] = defaultdict(deque)
        for role, items in (replies or {}).items():
            self._queues[role].extend(items)
        self.default = default
        self.calls: list[ChatRequest] = []
        self.batches: list[int] = []

    def complete(self, requests: Sequence[ChatRequest]) -> list[ChatResponse]:
        self.batches.append(len(requests))
        responses = []
        for request in requests:
            self.calls.append(request)
            queue = self._queues.get(request.role)
            if queue:
                reply = queue.popleft()
            elif self.default is not None:
                reply = self.default
            else:
                raise LookupError(f"scripted model has no reply left for role {request.role!r}")
            raw = reply(request) if callable(reply) else reply
            text, reasoning = split_reasoning(raw)
            responses.append(ChatResponse(text=text, reasoning=reasoning, model=self.spec,
                                          usage=Usage(0, len(raw.split())), raw=raw))
        return responses
