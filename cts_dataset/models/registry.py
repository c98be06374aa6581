"""``load_model(spec)``: a ready chat model for a role, cached and traced, backends found by name.

The parts: :mod:`~cts_dataset.models.backends` builds and shares the engines (their SDKs imported only
then), :class:`~cts_dataset.models.loaded.LoadedModel` puts the cache and the trace in front of one,
and :mod:`~cts_dataset.models.weights` names the weights in its identity. Their public names are
re-exported here, where callers have always imported them.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from cts_dataset.models.backends import (  # noqa: F401 - _BACKENDS, _FACTORIES: for tests that stand in a backend
    _BACKENDS,
    _FACTORIES,
    complete_isolating,
    release_backends,
    shared_backend,
)
from cts_dataset.models.base import ChatModel
from cts_dataset.models.cache import CacheMode, ResponseCache
from cts_dataset.models.loaded import LoadedModel
from cts_dataset.models.spec import ModelSpec
from cts_dataset.models.trace import TraceWriter
from cts_dataset.models.weights import (  # noqa: F401 - files_hash, hub_revision: part of this module's API
    ServedModelMismatch,
    files_hash,
    hub_revision,
    model_fingerprint,
    pinned,
    served_root,
)

_complete_isolating = complete_isolating  # its former private name


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
        from cts_dataset.executors.ray import ray_backend  # Ray Data is imported only for this executor

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
    if spec.backend in ("llamacpp", "default"):
        from cts_dataset.models.determinism import determinism_of

        # The reproducible engine answers a little otherwise than the concurrent one did: its answers are
        # cached apart, so a run that says "reproducible" never reads an answer of the other setting.
        promise = determinism_of(backend, spec.backend, dict(spec.engine_args))
        if promise.get("batch_invariant"):
            identity["engine_setting"] = promise["how"]
    query = getattr(backend, "query_servers", None)
    root = served_root(spec, query()) if spec.backend == "openai" and callable(query) else None
    if root is not None:
        identity["served"] = root
    return identity


__all__ = ["LoadedModel", "ModelSpec", "identity_of", "load_model", "release_backends", "resolve_spec",
           "shared_backend"]
