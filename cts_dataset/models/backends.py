"""The backends found by name, built lazily (their SDKs imported only then) and shared per process.

Two roles that name the same model get the same engine, so a GPU holds one copy of the weights. The
local executor (:func:`cts_dataset.models.registry.load_model`), the Ray actors
(:mod:`cts_dataset.executors.ray_actors`) and :func:`cts_dataset.models.default_model.load_default_model`
all build backends here, and none of them is imported by this module: the dependency runs one way.
"""

from __future__ import annotations

import gc
from collections.abc import Callable

from cts_dataset.models.base import ChatModel, ChatRequest, ChatResponse
from cts_dataset.models.spec import ModelSpec

_BACKENDS: dict[str, ChatModel] = {}


def backend_key(spec: ModelSpec) -> str:
    """What makes two specs one engine: everything the backend is built from (not the label)."""
    return f"{spec.backend}|{spec.model}|{spec.identity_hash()}|{sorted(spec.engine_args.items())}|" \
           f"{spec.base_urls}|{spec.api_key_env}|{spec.max_concurrency}|{spec.timeout_s}|{spec.max_retries}|" \
           f"{spec.structured_output}"


def shared_backend(spec: ModelSpec) -> ChatModel:
    """The process's one backend for this spec (built on first use)."""
    key = backend_key(spec)
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
    gc.collect()


def complete_isolating(backend: ChatModel, requests: list[ChatRequest]) -> list[ChatResponse]:
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
        return complete_isolating(backend, requests[:middle]) + complete_isolating(backend, requests[middle:])
    if len(responses) != len(requests):
        raise RuntimeError(f"{backend.spec}: backend returned {len(responses)} responses for {len(requests)} requests")
    return responses


# -- the factories: each imports its backend (and SDK) only when called ---------------------------------
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
    from cts_dataset.models.llamacpp_backend import LlamaCppModel
    from cts_dataset.models.packaged import resolve_gguf

    # A packaged model's name (qwen2.5-coder-1.5b-instruct-q4_k_m) or a path to a GGUF file.
    return LlamaCppModel(resolve_gguf(spec.model), spec=spec.label, **spec.engine_args)


def _default(spec: ModelSpec) -> ChatModel:
    from cts_dataset.models.packaged import default_spec

    # The registry entry's engine: shared with that entry's users when the engine args agree.
    return shared_backend(default_spec(**spec.engine_args))


_FACTORIES: dict[str, Callable[[ModelSpec], ChatModel]] = {
    "vllm": _vllm, "openai": _openai, "transformers": _transformers, "llamacpp": _llamacpp, "default": _default}

__all__ = ["backend_key", "complete_isolating", "release_backends", "shared_backend"]
