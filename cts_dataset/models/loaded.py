"""The model every role holds: a backend behind the spec's template defaults, the response cache and the trace."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from typing import Any

from cts_dataset.models.backends import complete_isolating
from cts_dataset.models.base import ChatModel, ChatRequest, ChatResponse
from cts_dataset.models.cache import CACHE_MODES, CacheMode, CacheStats, ResponseCache, cache_key
from cts_dataset.models.spec import ModelSpec
from cts_dataset.models.trace import Trace, TraceWriter

logger = logging.getLogger(__name__)


class LoadedModel:
    """A backend behind the spec's chat-template defaults, the response cache and the trace.

    Only the requests the cache does not hold go to the backend, as one batch, so a rerun of the same
    batch makes no model call. ``cache_mode``: ``use`` (read and write), ``refresh`` (write only: the
    answers are recomputed and replace the stored ones), ``off`` (neither). Cached answers older than the
    spec's :attr:`~ModelSpec.cache_max_age_s` are misses.

    Failures: each response is cached and traced as it completes (backends with ``complete_iter``), in
    small groups. A request that fails comes back as ``ChatResponse.failure`` (``error`` set): traced with
    its error, never cached, so a rerun asks again for it alone. When a backend without incremental
    delivery raises for a whole batch, the batch is split in halves until the requests that fail are
    alone; those become failure responses and the rest are answered.

    ``identity`` (the cache key's model part and the run identity of the model) holds: ``backend``,
    ``model``, ``revision``, ``gguf_file``, the user's ``identity`` label, the answer-changing
    ``engine_args``, ``files`` (a hash of local weights; for a hub model the commit it resolves to on
    this machine, see :func:`~cts_dataset.models.weights.model_fingerprint`; else the revision or
    ``unpinned``), ``label`` (how outputs name the model), ``engine_setting`` (llama.cpp's reproducible
    setting, when it plays it), ``chat_template_kwargs`` (the spec's defaults) and, for ``openai``, the
    ``structured_output`` mode and ``served``: the weights the vLLM servers name as this model's ``root``, when at least one answered at load (see
    :func:`~cts_dataset.models.weights.served_root`). The servers' URLs are not in it: more or other
    servers of the same weights keep the cache and the run. Engine and library versions are not in it.

    Fresh responses are written every ``write_every`` responses or ``write_after_s`` seconds.
    """

    def __init__(self, backend: ChatModel, spec: ModelSpec, identity: dict[str, Any],
                 cache: ResponseCache | None = None, cache_mode: CacheMode = "use",
                 trace: TraceWriter | None = None, write_every: int = 16, write_after_s: float = 0.5) -> None:
        if cache_mode not in CACHE_MODES:
            raise ValueError(f"cache_mode must be one of {CACHE_MODES}, not {cache_mode!r}")
        self.backend, self.model_spec, self.identity = backend, spec, identity
        self.spec = backend.spec
        self.cache, self.cache_mode, self.trace = cache, cache_mode, trace
        self.write_every, self.write_after_s = write_every, write_after_s
        self.stats = CacheStats()  # this model's own counts (the cache's count all its users)
        self.on_response: Callable[[int], None] | None = None  # told of each answered request (progress bars)

    @property
    def determinism(self) -> dict[str, Any]:
        """Whether the engine gives one request the same bytes in any batch (:mod:`.determinism`)."""
        from cts_dataset.models.determinism import determinism_of

        return determinism_of(self.backend, self.model_spec.backend, dict(self.model_spec.engine_args))

    def with_defaults(self, request: ChatRequest) -> ChatRequest:
        if not self.model_spec.chat_template_kwargs:
            return request
        merged = {**self.model_spec.chat_template_kwargs, **dict(request.chat_template_kwargs)}
        return replace(request, chat_template_kwargs=tuple(sorted(merged.items())))

    def count_tokens(self, messages: list[dict[str, str]],
                     chat_template_kwargs: dict[str, Any] | None = None) -> int | None:
        """Prompt tokens of ``messages`` as the model's chat template renders them (with the spec's
        template defaults under ``chat_template_kwargs``); None when the backend cannot tell (HTTP)."""
        count = getattr(self.backend, "count_tokens", None)
        if not callable(count):
            return None
        return count(messages, chat_template_kwargs={**self.model_spec.chat_template_kwargs,
                                                     **(chat_template_kwargs or {})})

    @property
    def max_model_len(self) -> int | None:
        """The context limit (prompt and output tokens) of the engine or server, if known."""
        return getattr(self.backend, "max_model_len", None)

    def complete(self, requests: Sequence[ChatRequest]) -> list[ChatResponse]:
        requests = [self.with_defaults(r) for r in requests]
        keys = [cache_key(self.identity, r) for r in requests]
        use_cache = self.cache is not None and self.cache_mode != "off"
        found = self.cache.get_many(keys, max_age_s=self.model_spec.cache_max_age_s) \
            if use_cache and self.cache_mode == "use" else {}  # type: ignore[union-attr]
        responses: list[ChatResponse | None] = [found.get(k) for k in keys]
        todo = [i for i, r in enumerate(responses) if r is None]
        self.stats.hits += len(requests) - len(todo)
        self.stats.misses += len(todo)
        if self.cache is not None:
            self.cache.stats.hits += len(requests) - len(todo)
            self.cache.stats.misses += len(todo)
        if self.on_response is not None and len(todo) < len(requests):
            self.on_response(len(requests) - len(todo))
        if self.trace is not None and len(todo) < len(requests):
            self.trace.write([Trace.of(q, r, self.spec, k) for q, r, k in zip(requests, responses, keys, strict=True)
                              if r is not None])
        if todo:
            # Identical requests in one batch have one answer (as they would from the cache): ask once.
            askers: dict[str, list[int]] = {}
            for i in todo:
                askers.setdefault(keys[i] if use_cache else str(i), []).append(i)
            unique = [group[0] for group in askers.values()]
            incremental = getattr(self.backend, "complete_iter", None)
            # A backend that answers the batch at once gets one write (one fsync of the trace) for it.
            every = self.write_every if callable(incremental) else len(requests)
            writer = _ResultWriter(self, use_cache, every, self.write_after_s)
            try:
                for j, response in self._fresh([requests[i] for i in unique], incremental):
                    group = askers[keys[unique[j]] if use_cache else str(unique[j])]
                    for i in group:
                        responses[i] = response
                        writer.add(keys[i], requests[i], response, first=i == unique[j])
                    if self.on_response is not None:
                        self.on_response(len(group))
            finally:
                writer.close()
            missing = sum(r is None for r in responses)
            if missing:
                raise RuntimeError(f"{self.spec}: the backend returned no response for {missing} request(s)")
            failed = [responses[i] for i in unique if responses[i].failed]  # type: ignore[union-attr]
            if failed:
                logger.warning("%s: %d of %d request(s) failed; the first: %s", self.spec, len(failed),
                               len(unique), failed[0].error)  # type: ignore[union-attr]
        return responses  # type: ignore[return-value]

    def _fresh(self, requests: list[ChatRequest], incremental: Any) -> Iterator[tuple[int, ChatResponse]]:
        """(index, response) as the backend finishes them: incrementally where it can."""
        if callable(incremental):
            yield from incremental(requests)
            return
        yield from enumerate(complete_isolating(self.backend, requests))


class _ResultWriter:
    """Writes fresh responses as they come: cache rows (never failures) and trace lines.

    Grouped, every ``every`` responses or ``after_s`` after the first unwritten one (a timer), so each
    SQLite commit carries many rows and a crash loses at most one group."""

    def __init__(self, model: LoadedModel, use_cache: bool, every: int, after_s: float) -> None:
        self.model, self.use_cache, self.every, self.after_s = model, use_cache, every, after_s
        self._rows: list[tuple[str, str, ChatResponse]] = []
        self._traces: list[Trace] = []
        self._lock = threading.Lock()
        self._timer: threading.Timer | None = None
        self._error: BaseException | None = None  # a failed timed write, raised in the caller's thread

    def add(self, key: str, request: ChatRequest, response: ChatResponse, first: bool) -> None:
        with self._lock:
            if self.use_cache and first and not response.failed:
                self._rows.append((key, self.model.spec, response))
            if self.model.trace is not None:
                self._traces.append(Trace.of(request, response, self.model.spec, key))
            if len(self._rows) >= self.every or len(self._traces) >= self.every:
                self._write()
            elif self._timer is None and (self._rows or self._traces):
                self._timer = threading.Timer(self.after_s, self._timed)
                self._timer.daemon = True
                self._timer.start()
        self._raise()

    def _timed(self) -> None:
        with self._lock:
            self._timer = None
            try:
                self._write()
            except BaseException as error:  # noqa: BLE001 - re-raised by the next add or close
                self._error = error

    def _write(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        rows, traces, self._rows, self._traces = self._rows, self._traces, [], []
        if rows:
            self.model.cache.put_many(rows)  # type: ignore[union-attr]
        if traces:
            self.model.trace.write(traces)  # type: ignore[union-attr]

    def _raise(self) -> None:
        if self._error is not None:
            error, self._error = self._error, None
            raise error

    def close(self) -> None:
        with self._lock:
            self._write()
        self._raise()


__all__ = ["LoadedModel"]
