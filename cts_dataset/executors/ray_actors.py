"""The Ray workers of the non-vLLM backends: a ``map_batches`` actor holding the project's own backend,
and a small probe that counts prompt tokens and reports the context limit."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

from cts_dataset.executors.ray_codecs import request_from_json, response_to_json
from cts_dataset.models.backends import complete_isolating, shared_backend
from cts_dataset.models.spec import ModelSpec


class ModelActor:
    """A Ray Data ``map_batches`` worker holding the project's own backend for a spec.

    It answers its share of the batch with the backend's ``complete_iter`` (or ``complete``, narrowed to
    the failing requests as the local executor does) and yields the responses in small groups, each
    with the index of its request in the driver's batch."""

    def __init__(self, spec: dict[str, Any], flush_every: int = 16, flush_after_s: float = 0.5) -> None:
        self.backend = shared_backend(ModelSpec.from_dict(spec))
        self.flush_every, self.flush_after_s = flush_every, flush_after_s

    def __call__(self, batch: dict[str, Any]) -> Iterator[dict[str, list[Any]]]:
        indices = [int(i) for i in batch["index"]]
        requests = [request_from_json(str(text)) for text in batch["request"]]
        incremental = getattr(self.backend, "complete_iter", None)
        pairs = incremental(requests) if callable(incremental) else \
            enumerate(complete_isolating(self.backend, requests))
        done: list[int] = []
        texts: list[str] = []
        last = time.monotonic()
        for j, response in pairs:
            done.append(indices[j])
            texts.append(response_to_json(response))
            if len(done) >= self.flush_every or time.monotonic() - last >= self.flush_after_s:
                yield {"index": done, "response": texts}
                done, texts, last = [], [], time.monotonic()
        if done:
            yield {"index": done, "response": texts}


class Probe:
    """A small Ray actor that counts prompt tokens and reports the context limit as the local backend
    would (the ReAct searcher asks both, and both are part of its identity)."""

    def __init__(self, spec: dict[str, Any]) -> None:
        model_spec = ModelSpec.from_dict(spec)
        self.backend: Any = None
        self.tokenizer: Any = None
        if model_spec.backend in ("vllm", "transformers"):  # the tokenizer alone: no weights, no GPU
            import transformers

            options: dict[str, Any] = {"revision": model_spec.revision} if model_spec.revision else {}
            if model_spec.gguf_file:
                options["gguf_file"] = model_spec.gguf_file
            self.tokenizer = transformers.AutoTokenizer.from_pretrained(model_spec.model, **options)
            self.limit = context_limit(model_spec, options)
        else:
            self.backend = shared_backend(model_spec)
            self.limit = getattr(self.backend, "max_model_len", None)

    def count_tokens(self, messages: list[dict[str, str]], chat_template_kwargs: dict[str, Any] | None) -> int:
        if self.backend is not None:
            return self.backend.count_tokens(messages, chat_template_kwargs=chat_template_kwargs)
        text = self.tokenizer.apply_chat_template(messages, tokenize=False, add_generation_prompt=True,
                                                  **(chat_template_kwargs or {}))
        return len(self.tokenizer(text, add_special_tokens=False)["input_ids"])

    def max_model_len(self) -> int | None:
        return self.limit


def context_limit(spec: ModelSpec, options: dict[str, Any]) -> int | None:
    """vLLM's ``max_model_len`` (its engine args, else what vLLM derives), or the model's positions."""
    if spec.backend == "vllm":
        if spec.engine_args.get("max_model_len"):
            return int(spec.engine_args["max_model_len"])
        from vllm.engine.arg_utils import EngineArgs

        return EngineArgs(model=spec.model, **options, **spec.engine_args).create_model_config().max_model_len
    import transformers

    config = transformers.AutoConfig.from_pretrained(spec.model, **options)
    text_config = config.get_text_config() if hasattr(config, "get_text_config") else config
    return getattr(text_config, "max_position_embeddings", None)


__all__ = ["ModelActor", "Probe", "context_limit"]
