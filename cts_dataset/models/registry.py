"""``load_model(spec)``: a ready chat model for a role, cached and traced, backends found by name.

Backends are built lazily (their SDKs are imported only then) and shared per process: two roles that name
the same model get the same engine, so a GPU holds one copy of the weights.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from cts_dataset.models.base import ChatModel, ChatRequest, ChatResponse
from cts_dataset.models.cache import CACHE_MODES, CacheMode, CacheStats, ResponseCache, cache_key
from cts_dataset.models.spec import ModelSpec
from cts_dataset.models.trace import Trace, TraceWriter

_BACKENDS: dict[str, ChatModel] = {}
_FINGERPRINTS: dict[str, str] = {}


class LoadedModel:
    """A backend behind the spec's chat-template defaults, the response cache and the trace.

    Only the requests the cache does not hold go to the backend, as one batch, so a rerun of the same
    batch makes no model call. ``cache_mode``: ``use`` (read and write), ``refresh`` (write only: the
    answers are recomputed and replace the stored ones), ``off`` (neither).
    """

    def __init__(self, backend: ChatModel, spec: ModelSpec, identity: dict[str, Any],
                 cache: ResponseCache | None = None, cache_mode: CacheMode = "use",
                 trace: TraceWriter | None = None) -> None:
        if cache_mode not in CACHE_MODES:
            raise ValueError(f"cache_mode must be one of {CACHE_MODES}, not {cache_mode!r}")
        self.backend, self.model_spec, self.identity = backend, spec, identity
        self.spec = backend.spec
        self.cache, self.cache_mode, self.trace = cache, cache_mode, trace
        self.stats = CacheStats()  # this model's own counts (the cache's count all its users)

    def with_defaults(self, request: ChatRequest) -> ChatRequest:
        if not self.model_spec.chat_template_kwargs:
            return request
        merged = {**self.model_spec.chat_template_kwargs, **dict(request.chat_template_kwargs)}
        return replace(request, chat_template_kwargs=tuple(sorted(merged.items())))

    def complete(self, requests: Sequence[ChatRequest]) -> list[ChatResponse]:
        requests = [self.with_defaults(r) for r in requests]
        keys = [cache_key(self.identity, r) for r in requests]
        use_cache = self.cache is not None and self.cache_mode != "off"
        found = self.cache.get_many(keys) if use_cache and self.cache_mode == "use" else {}  # type: ignore[union-attr]
        responses: list[ChatResponse | None] = [found.get(k) for k in keys]
        todo = [i for i, r in enumerate(responses) if r is None]
        self.stats.hits += len(requests) - len(todo)
        self.stats.misses += len(todo)
        if self.cache is not None:
            self.cache.stats.hits += len(requests) - len(todo)
            self.cache.stats.misses += len(todo)
        if todo:
            # Identical requests in one batch have one answer (as they would from the cache): ask once.
            first: dict[str, int] = {}
            for i in todo:
                first.setdefault(keys[i] if use_cache else str(i), i)
            unique = list(first.values())
            fresh = self.backend.complete([requests[i] for i in unique])
            if len(fresh) != len(unique):
                raise RuntimeError(f"{self.spec}: backend returned {len(fresh)} responses for {len(unique)} requests")
            answers = {keys[i] if use_cache else str(i): r for i, r in zip(unique, fresh)}
            for i in todo:
                responses[i] = answers[keys[i] if use_cache else str(i)]
            if use_cache:
                self.cache.put_many([(keys[i], self.spec, r) for i, r in zip(unique, fresh)])  # type: ignore[union-attr]
        done = [r for r in responses if r is not None]
        if self.trace is not None:
            self.trace.write([Trace.of(q, r, self.spec, k) for q, r, k in zip(requests, done, keys)])
        return done


def resolve_spec(spec: str | ModelSpec | dict[str, Any], **overrides: Any) -> ModelSpec:
    if isinstance(spec, ModelSpec):
        return spec.replace(**overrides) if overrides else spec
    if isinstance(spec, dict):
        return ModelSpec.from_dict({**spec, **overrides})
    if spec.endswith((".yaml", ".yml")) and Path(spec).is_file():
        base = ModelSpec.from_yaml(spec)
        return base.replace(**overrides) if overrides else base
    return ModelSpec.parse(spec, **overrides)


def load_model(spec: str | ModelSpec | dict[str, Any], *, cache: ResponseCache | str | Path | bool = True,
               cache_mode: CacheMode | None = None, trace: TraceWriter | str | Path | None = None,
               **overrides: Any) -> LoadedModel:
    """A chat model for ``spec`` (a spec string, a YAML file, a dict or a :class:`ModelSpec`).

    ``overrides`` replace spec fields (``base_urls=[...]``, ``engine_args={...}``, ...). ``cache``: True
    for the default file (``$CTSBENCH_CACHE_DIR``), a path, a :class:`ResponseCache`, or False for none.
    ``cache_mode``: ``use``, ``refresh`` or ``off`` (default: ``$CTSBENCH_CACHE_MODE``, else ``use``).
    ``trace``: a JSONL path or a :class:`TraceWriter` that receives one line per request.
    """
    resolved = resolve_spec(spec, **overrides)
    if resolved.backend == "scripted":
        raise ValueError("the scripted model is built in code: ScriptedModel(replies=...) from "
                         "cts_dataset.models.scripted")
    backend = shared_backend(resolved)
    identity = {**resolved.identity(), "files": model_fingerprint(resolved), "label": backend.spec}
    if cache is True:
        cache = ResponseCache()
    elif cache is False:
        cache = None
    elif not isinstance(cache, ResponseCache):
        cache = ResponseCache(cache)
    mode = cache_mode or os.environ.get("CTSBENCH_CACHE_MODE") or "use"
    writer = TraceWriter(trace) if isinstance(trace, (str, Path)) else trace
    return LoadedModel(backend, resolved, identity, cache=cache, cache_mode=mode, trace=writer)  # type: ignore[arg-type]


def shared_backend(spec: ModelSpec) -> ChatModel:
    """The process's one backend for this spec (built on first use)."""
    key = f"{spec.backend}|{spec.model}|{spec.identity_hash()}|{sorted(spec.engine_args.items())}|" \
          f"{spec.base_urls}|{spec.api_key_env}|{spec.max_concurrency}|{spec.timeout_s}|{spec.max_retries}"
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


def model_fingerprint(spec: ModelSpec) -> str:
    """A hash of the model's files when they are local, else its revision (``unpinned`` if none)."""
    if spec.backend == "default":
        from cts_dataset.models.default_model import gguf_path

        return files_hash(gguf_path())
    path = Path(spec.model).expanduser()
    if spec.backend != "openai" and path.exists():
        return files_hash(path)
    return spec.revision or (hub_revision(spec.model) if spec.backend != "openai" else None) or "unpinned"


def hub_revision(repo_id: str, ref: str = "main") -> str | None:
    """The commit a hub model's cached ``main`` points at (what an unpinned load will use), if cached."""
    from huggingface_hub.constants import HF_HUB_CACHE

    refs = Path(HF_HUB_CACHE) / f"models--{repo_id.replace('/', '--')}" / "refs" / ref
    return refs.read_text().strip() if refs.is_file() else None


def files_hash(path: Path) -> str:
    """Hash of names, sizes and contents; files over 8 MiB contribute their size and first and last MiB
    (a full read of tens of GB of weights per run would cost minutes and catch nothing more in practice)."""
    path = path.resolve()
    stamp = f"{path}"
    if stamp in _FINGERPRINTS:
        return _FINGERPRINTS[stamp]
    digest = hashlib.sha256()
    files = sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() else [path]
    for file in files:
        size = file.stat().st_size
        digest.update(f"{file.relative_to(path) if path.is_dir() else file.name}\0{size}\0".encode())
        with file.open("rb") as handle:
            if size <= 8 << 20:
                digest.update(handle.read())
            else:
                digest.update(handle.read(1 << 20))
                handle.seek(size - (1 << 20))
                digest.update(handle.read())
    _FINGERPRINTS[stamp] = digest.hexdigest()[:16]
    return _FINGERPRINTS[stamp]


def _vllm(spec: ModelSpec) -> ChatModel:
    from cts_dataset.models.vllm_backend import VLLMModel

    return VLLMModel(spec.model, engine_args=spec.engine_args, revision=spec.revision, spec=spec.label)


def _openai(spec: ModelSpec) -> ChatModel:
    from cts_dataset.models.openai_backend import OpenAIModel

    return OpenAIModel(spec.model, base_urls=spec.base_urls, api_key_env=spec.api_key_env,
                       max_concurrency=spec.max_concurrency, timeout_s=spec.timeout_s,
                       max_retries=spec.max_retries, spec=spec.label)


def _transformers(spec: ModelSpec) -> ChatModel:
    from cts_dataset.models.transformers_backend import TransformersModel

    return TransformersModel(spec.model, gguf_file=spec.gguf_file, revision=spec.revision,
                             spec=spec.label, **spec.engine_args)


def _default(spec: ModelSpec) -> ChatModel:
    from cts_dataset.models.default_model import load_default_model

    return load_default_model(**spec.engine_args)


_FACTORIES: dict[str, Callable[[ModelSpec], ChatModel]] = {
    "vllm": _vllm, "openai": _openai, "transformers": _transformers, "default": _default}

__all__ = ["LoadedModel", "ModelSpec", "load_model", "release_backends", "resolve_spec", "shared_backend"]
