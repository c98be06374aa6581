"""Model specs: which backend runs which model, with what options. One config object, no string DSL.

A spec string names only the backend and the model (``vllm:Qwen/Qwen3-8B``, ``openai:ernie-4.5-turbo-128k``,
``transformers:PATH``, ``default``, ``qwen3-8b``); nested options (base URLs, API-key variable, engine args,
chat-template kwargs) come from a registry entry (YAML), a YAML/dict of the user's, or keyword overrides.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, Literal

import yaml

Backend = Literal["vllm", "openai", "transformers", "default", "scripted"]
BACKENDS: tuple[str, ...] = ("vllm", "openai", "transformers", "default", "scripted")

# Engine args that change speed or memory, not the text: left out of the cache identity so that moving a
# run to more GPUs (or a different memory budget) keeps its cache.
THROUGHPUT_ONLY_ARGS = frozenset({
    "tensor_parallel_size", "pipeline_parallel_size", "data_parallel_size", "gpu_memory_utilization",
    "enable_prefix_caching", "max_num_seqs", "max_num_batched_tokens", "enforce_eager", "swap_space",
    "batch_size", "device", "disable_log_stats",
})


@dataclass(frozen=True)
class ModelSpec:
    """Everything needed to build a chat model for a role.

    ``chat_template_kwargs`` are defaults merged under each request's own (the request wins).
    ``api_key_env`` names an environment variable; the key itself is never stored in a spec.
    """

    backend: Backend
    model: str = ""
    name: str = ""
    revision: str | None = None
    base_urls: tuple[str, ...] = ()
    api_key_env: str | None = None
    engine_args: dict[str, Any] = field(default_factory=dict)
    chat_template_kwargs: dict[str, Any] = field(default_factory=dict)
    max_concurrency: int = 8
    timeout_s: float = 120.0
    max_retries: int = 4
    gguf_file: str | None = None

    def __post_init__(self) -> None:
        if self.backend not in BACKENDS:
            raise ValueError(f"unknown backend {self.backend!r}; known: {', '.join(BACKENDS)}")
        if self.backend in ("vllm", "openai", "transformers") and not self.model:
            raise ValueError(f"a {self.backend} spec needs a model")
        if self.backend == "openai" and not self.base_urls:
            object.__setattr__(self, "base_urls", ("https://api.openai.com/v1",))
        object.__setattr__(self, "base_urls", tuple(u.rstrip("/") for u in self.base_urls))
        if self.max_concurrency < 1 or self.max_retries < 0 or self.timeout_s <= 0:
            raise ValueError("max_concurrency >= 1, max_retries >= 0 and timeout_s > 0 are required")

    @property
    def label(self) -> str:
        """How outputs name this model, e.g. ``vllm:Qwen/Qwen3-8B``."""
        return self.backend if self.backend in ("default", "scripted") else f"{self.backend}:{self.model}"

    def identity(self) -> dict[str, Any]:
        """What of the spec changes the answers (URLs, keys, concurrency and throughput args do not)."""
        return {
            "backend": self.backend,
            "model": self.model,
            "revision": self.revision,
            "gguf_file": self.gguf_file,
            "engine_args": {k: v for k, v in sorted(self.engine_args.items()) if k not in THROUGHPUT_ONLY_ARGS},
        }

    def identity_hash(self) -> str:
        return hashlib.sha256(json.dumps(self.identity(), sort_keys=True, default=str).encode()).hexdigest()

    def replace(self, **changes: Any) -> ModelSpec:
        return dataclasses.replace(self, **_normalise(changes))

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (for config.json); holds the key's variable name, never the key."""
        data = dataclasses.asdict(self)
        data["base_urls"] = list(self.base_urls)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ModelSpec:
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise ValueError(f"unknown model spec fields: {sorted(unknown)}; known: {sorted(known)}")
        return cls(**_normalise(dict(data)))

    @classmethod
    def from_yaml(cls, path: str | Path) -> ModelSpec:
        data = yaml.safe_load(Path(path).read_text())
        if not isinstance(data, dict):
            raise TypeError(f"{path}: a model spec must be a YAML mapping")
        data.pop("notes", None)
        return cls.from_dict(data)

    @classmethod
    def parse(cls, text: str, **overrides: Any) -> ModelSpec:
        """``backend:model``, ``default``, ``scripted``, or a registry entry's name; then ``overrides``.

        A registry entry whose name or model id matches supplies its engine args and chat-template kwargs
        (``vllm:Qwen/Qwen3-8B`` gets the ``qwen3-8b`` entry), so a bare model id runs with the recommended
        settings.
        """
        text = text.strip()
        backend, sep, model = text.partition(":")
        entries = registry_entries()
        if not sep:
            if text in ("default", "scripted"):
                base = cls(backend=text)  # type: ignore[arg-type]
            elif text in entries:
                base = entries[text]
            else:
                raise ValueError(f"model spec {text!r}: expected BACKEND:MODEL ({', '.join(BACKENDS)}), "
                                 f"'default', or a registry name ({', '.join(sorted(entries))})")
        elif backend not in BACKENDS:
            raise ValueError(f"model spec {text!r}: unknown backend {backend!r}; known: {', '.join(BACKENDS)}")
        else:
            entry = _matching_entry(entries, backend, model)
            base = entry if entry else cls(backend=backend, model=model)  # type: ignore[arg-type]
        return base.replace(**overrides) if overrides else base


def _matching_entry(entries: dict[str, ModelSpec], backend: str, model: str) -> ModelSpec | None:
    for entry in entries.values():
        if model in (entry.name, entry.model):
            if entry.backend == backend:
                return entry
            # Same weights behind another backend: keep the template kwargs, drop backend-only options.
            return ModelSpec(backend=backend, model=entry.model, name=entry.name,  # type: ignore[arg-type]
                             chat_template_kwargs=dict(entry.chat_template_kwargs))
    return None


def _normalise(data: dict[str, Any]) -> dict[str, Any]:
    if isinstance(data.get("base_urls"), str):
        data["base_urls"] = (data["base_urls"],)
    if "base_urls" in data:
        data["base_urls"] = tuple(data["base_urls"])
    return data


@cache
def registry_entries() -> dict[str, ModelSpec]:
    """The shipped registry (``cts_dataset.local_models/registry/*.yaml``), by entry name."""
    folder = resources.files("cts_dataset.local_models").joinpath("registry")
    entries = {}
    for item in sorted(folder.iterdir(), key=lambda p: p.name):
        if item.name.endswith(".yaml"):
            data = yaml.safe_load(item.read_text())
            data.pop("notes", None)
            spec = ModelSpec.from_dict(data)
            entries[spec.name] = spec
    return entries
