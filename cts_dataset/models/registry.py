"""``load_model(spec)``: a ready chat model for a role, cached and traced, backends found by name.

Backends are built lazily (their SDKs are imported only then) and shared per process: two roles that name
the same model get the same engine, so a GPU holds one copy of the weights.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from cts_dataset.models.base import ChatModel, ChatRequest, ChatResponse
from cts_dataset.models.cache import CACHE_MODES, CacheMode, CacheStats, ResponseCache, cache_key
from cts_dataset.models.spec import ModelSpec
from cts_dataset.models.trace import Trace, TraceWriter
from cts_dataset.models.weights import (  # noqa: F401 - files_hash, hub_revision: part of this module's API
    ServedModelMismatch,
    files_hash,
    hub_revision,
    model_fingerprint,
    pinned,
    served_root,
)

logger = logging.getLogger(__name__)

_BACKENDS: dict[str, ChatModel] = {}


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
    this machine, see :func:`model_fingerprint`; else the revision or ``unpinned``), ``label`` (how
    outputs name the model), ``chat_template_kwargs`` (the spec's defaults) and, for ``openai``, the
    ``structured_output`` mode and ``served``: the weights the vLLM servers name as this model's
    ``root``, when at least one answered at load (see :func:`served_root`). The servers' URLs are not in
    it: more or other servers of the same weights keep the cache and the run. Engine and library
    versions are not in it.

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
        yield from enumerate(_complete_isolating(self.backend, requests))


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


def _complete_isolating(backend: ChatModel, requests: list[ChatRequest]) -> list[ChatResponse]:
    """``backend.complete(requests)``; if the batch raises, its halves are retried until each request that
    still raises is alone, and that one becomes a failure response (a prompt over the context limit must
    not cost the batch). Halving keeps the engine's batching for the rest. A missing install still raises."""
    try:
        responses = list(backend.complete(requests))
    except ImportError:
        raise
    except Exception as error:  # noqa: BLE001 - narrowed below to the requests that cause it
        if len(requests) == 1:
            return [ChatResponse.failure(f"{type(error).__name__}: {error}", model=backend.spec)]
        middle = len(requests) // 2
        return _complete_isolating(backend, requests[:middle]) + _complete_isolating(backend, requests[middle:])
    if len(responses) != len(requests):
        raise RuntimeError(f"{backend.spec}: backend returned {len(responses)} responses for {len(requests)} requests")
    return responses



def resolve_spec(spec: str | ModelSpec | dict[str, Any], **overrides: Any) -> ModelSpec:
    """A :class:`ModelSpec`; strings, dicts and YAML files get their model's registry entry as defaults."""
    if isinstance(spec, ModelSpec):
        return spec.replace(**overrides) if overrides else spec
    if isinstance(spec, dict):
        return ModelSpec.with_registry_defaults({**spec, **overrides})
    if spec.endswith((".yaml", ".yml")) and Path(spec).is_file():
        return ModelSpec.from_yaml(spec, **overrides)
    return ModelSpec.parse(spec, **overrides)


def load_model(spec: str | ModelSpec | dict[str, Any], *, cache: ResponseCache | str | Path | bool = True,
               cache_mode: CacheMode | None = None, trace: TraceWriter | str | Path | None = None,
               executor: str = "local", **overrides: Any) -> LoadedModel:
    """A chat model for ``spec`` (a spec string, a YAML file, a dict or a :class:`ModelSpec`).

    ``overrides`` replace spec fields (``base_urls=[...]``, ``engine_args={...}``, ...). ``cache``: True
    for the default file (``$CTSBENCH_CACHE_DIR``), a path, a :class:`ResponseCache`, or False for none.
    ``cache_mode``: ``use``, ``refresh`` or ``off`` (default: ``$CTSBENCH_CACHE_MODE``, else ``use``).
    ``trace``: a JSONL path or a :class:`TraceWriter` that receives one line per request.
    ``executor``: ``local`` (the backend in this process) or ``ray`` (the batches of cache misses run on
    a Ray cluster: :mod:`cts_dataset.executors.ray`); cache, trace and identity stay here either way.
    """
    resolved = resolve_spec(spec, **overrides)
    if resolved.backend == "scripted":
        raise ValueError("the scripted model is built in code: ScriptedModel(replies=...) from "
                         "cts_dataset.models.scripted")
    if executor not in ("local", "ray"):
        raise ValueError(f"executor must be 'local' or 'ray', not {executor!r}")
    # Resolved here, on the driver, before any backend: both executors get the same identity, and the
    # backend (or every Ray worker) loads the very commit the identity names.
    files = model_fingerprint(resolved)
    runs = pinned(resolved, files)
    if executor == "ray":
        from cts_dataset.executors.ray import ray_backend

        backend = ray_backend(runs)
    else:
        backend = shared_backend(runs)
    identity = identity_of(resolved, backend, files)
    if cache is True:
        cache = ResponseCache()
    elif cache is False:
        cache = None
    elif not isinstance(cache, ResponseCache):
        cache = ResponseCache(cache)
    mode = cache_mode or os.environ.get("CTSBENCH_CACHE_MODE") or "use"
    writer = TraceWriter(trace) if isinstance(trace, (str, Path)) else trace
    return LoadedModel(backend, resolved, identity, cache=cache, cache_mode=mode, trace=writer)  # type: ignore[arg-type]


def identity_of(spec: ModelSpec, backend: ChatModel, files: str | None = None) -> dict[str, Any]:
    """:attr:`LoadedModel.identity` of ``spec`` run by ``backend`` (its fields: see :class:`LoadedModel`);
    ``files``: :func:`model_fingerprint` of the spec, if already known."""
    identity = {**spec.identity_fields(), "files": files or model_fingerprint(spec), "label": backend.spec,
                "chat_template_kwargs": dict(sorted(spec.chat_template_kwargs.items()))}
    query = getattr(backend, "query_servers", None)
    root = served_root(spec, query()) if spec.backend == "openai" and callable(query) else None
    if root is not None:
        identity["served"] = root
    return identity


def shared_backend(spec: ModelSpec) -> ChatModel:
    """The process's one backend for this spec (built on first use)."""
    key = f"{spec.backend}|{spec.model}|{spec.identity_hash()}|{sorted(spec.engine_args.items())}|" \
          f"{spec.base_urls}|{spec.api_key_env}|{spec.max_concurrency}|{spec.timeout_s}|{spec.max_retries}|" \
          f"{spec.structured_output}"
    if key not in _BACKENDS:
        _BACKENDS[key] = _FACTORIES[spec.backend](spec)
    return _BACKENDS[key]


def release_backends() -> None:
    """Drop every shared backend (frees engines, e.g. before starting a server on the same cores)."""
    for backend in _BACKENDS.values():
        close = getattr(backend, "close", None)
        if callable(close):
            close()
    _BACKENDS.clear()
    import gc

    gc.collect()


def _vllm(spec: ModelSpec) -> ChatModel:
    from cts_dataset.models.vllm_backend import VLLMModel

    return VLLMModel(spec.model, engine_args=spec.engine_args, revision=spec.revision, spec=spec.label)


def _openai(spec: ModelSpec) -> ChatModel:
    from cts_dataset.models.openai_backend import OpenAIModel

    max_model_len = spec.engine_args.get("max_model_len")
    return OpenAIModel(spec.model, base_urls=spec.base_urls, api_key_env=spec.api_key_env,
                       max_concurrency=spec.max_concurrency, timeout_s=spec.timeout_s,
                       max_retries=spec.max_retries, structured_output=spec.structured_output,
                       max_model_len=int(max_model_len) if max_model_len else None, spec=spec.label)


def _transformers(spec: ModelSpec) -> ChatModel:
    from cts_dataset.models.transformers_backend import TransformersModel

    return TransformersModel(spec.model, gguf_file=spec.gguf_file, revision=spec.revision,
                             spec=spec.label, **spec.engine_args)


def _llamacpp(spec: ModelSpec) -> ChatModel:
    from cts_dataset.models.default_model import resolve_gguf
    from cts_dataset.models.llamacpp_backend import LlamaCppModel

    # A packaged model's name (qwen2.5-coder-1.5b-instruct-q4_k_m) or a path to a GGUF file.
    return LlamaCppModel(resolve_gguf(spec.model), spec=spec.label, **spec.engine_args)


def _default(spec: ModelSpec) -> ChatModel:
    from cts_dataset.models.default_model import load_default_model

    return load_default_model(**spec.engine_args)


_FACTORIES: dict[str, Callable[[ModelSpec], ChatModel]] = {
    "vllm": _vllm, "openai": _openai, "transformers": _transformers, "llamacpp": _llamacpp, "default": _default}

__all__ = ["LoadedModel", "ModelSpec", "load_model", "release_backends", "resolve_spec", "shared_backend"]
