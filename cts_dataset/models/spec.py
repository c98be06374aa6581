"""Model specs: which backend runs which model, with what options. One config object, no string DSL.

A spec string names only the backend and the model (``vllm:Qwen/Qwen3-8B``, ``openai:ernie-4.5-turbo-128k``,
``transformers:PATH``, ``default``, ``qwen3-8b``); nested options (base URLs, API-key variable, engine args,
chat-template kwargs) come from a registry entry (YAML), a YAML/dict of the user's, or keyword overrides.
Every form (string, dict, YAML) gets the registry entry that matches its model as defaults under the
user's own fields.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import math
import os
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlsplit

import yaml

Backend = Literal["vllm", "openai", "transformers", "llamacpp", "default", "scripted"]
BACKENDS: tuple[str, ...] = ("vllm", "openai", "transformers", "llamacpp", "default", "scripted")
StructuredMode = Literal["json_schema", "json_object", "none"]
STRUCTURED_MODES: tuple[str, ...] = ("json_schema", "json_object", "none")
OPENAI_URL = "https://api.openai.com/v1"
LOCAL_HOSTS = frozenset({"127.0.0.1", "localhost", "::1", "0.0.0.0"})
# A hosted alias (gpt-4.1, deepseek-chat) may change behind its name: its cached answers expire.
HOSTED_ALIAS_TTL_S = 30 * 24 * 3600.0

# Engine args that change speed or memory, not the text: left out of the cache identity so that moving a
# run to more GPUs (or a different memory budget) keeps its cache. Server URLs are left out for the same
# reason: more servers of the same weights (serve.py --gpus 0,1,2,3) keep the cache and the run.
THROUGHPUT_ONLY_ARGS = frozenset({
    "tensor_parallel_size", "pipeline_parallel_size", "data_parallel_size", "gpu_memory_utilization",
    "enable_prefix_caching", "max_num_seqs", "max_num_batched_tokens", "enforce_eager", "swap_space",
    "batch_size", "device", "disable_log_stats", "n_threads_batch", "cache_ram_mib", "verbosity",
})
# Left out of the cache identity because the identity's ``engine_setting`` (the engine's own statement of
# how it reads prompts) carries it: so the earlier reproducible setting, ``prompt_reuse: longest``, keeps
# the cache keys and run folders it had before the argument existed.
ENGINE_SETTING_ARGS = frozenset({"prompt_reuse"})
# Not here: llama.cpp's ``n_threads`` (its decoding threads split attention sums: measured, 1 and 2
# threads gave other answers) and ``deterministic``.


@dataclass(frozen=True)
class ModelSpec:
    """Everything needed to build a chat model for a role.

    ``chat_template_kwargs`` are defaults merged under each request's own (the request wins).
    ``api_key_env`` names an environment variable; the key itself is never stored in a spec.

    An ``openai`` spec with no base URL reads the environment as the OpenAI SDK does: ``$OPENAI_BASE_URL``
    (else ``https://api.openai.com/v1``) with the key in ``$OPENAI_API_KEY``. An explicit local URL with no
    ``api_key_env`` sends the placeholder key ``EMPTY`` (``vllm serve`` accepts any).

    ``weights_label``: a name of your own for the weights behind the model name (``ckpt-step-2000``), part of
    the cache key and run identity (older configs call it ``identity``; that name is still read). ``structured_output``: what the server accepts for a JSON schema
    (``json_schema``; ``json_object``: JSON mode with the schema in the system message; ``none``: the
    schema as text only). ``cache_ttl_s``: how long cached answers stay valid; ``None`` means 30 days for
    a hosted alias (no revision or weights label, a non-local URL) and forever otherwise; ``.inf`` is forever.
    For ``openai`` specs, ``engine_args`` describe the server (``dtype``, ``max_model_len``): they are
    recorded in the identity and ``max_model_len`` is the context limit.
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
    weights_label: str | None = None
    structured_output: StructuredMode = "json_schema"
    cache_ttl_s: float | None = None

    def __post_init__(self) -> None:
        if self.backend not in BACKENDS:
            raise ValueError(f"unknown backend {self.backend!r}; known: {', '.join(BACKENDS)}")
        if self.backend in ("vllm", "openai", "transformers") and not self.model:
            raise ValueError(f"a {self.backend} spec needs a model")
        if self.backend == "openai" and not self.base_urls:
            # As the OpenAI SDK: the URL from $OPENAI_BASE_URL, the key from $OPENAI_API_KEY.
            object.__setattr__(self, "base_urls", (os.environ.get("OPENAI_BASE_URL") or OPENAI_URL,))
            object.__setattr__(self, "api_key_env", self.api_key_env or "OPENAI_API_KEY")
        object.__setattr__(self, "base_urls", tuple(u.rstrip("/") for u in self.base_urls))
        if self.backend == "openai" and not self.api_key_env and any(
                urlsplit(u).hostname == "api.openai.com" for u in self.base_urls):
            object.__setattr__(self, "api_key_env", "OPENAI_API_KEY")  # never send "EMPTY" to OpenAI
        if self.max_concurrency < 1 or self.max_retries < 0 or self.timeout_s <= 0:
            raise ValueError("max_concurrency >= 1, max_retries >= 0 and timeout_s > 0 are required")
        if self.structured_output not in STRUCTURED_MODES:
            raise ValueError(f"structured_output must be one of {STRUCTURED_MODES}, not {self.structured_output!r}")
        if self.cache_ttl_s is not None and not self.cache_ttl_s > 0:
            raise ValueError("cache_ttl_s must be > 0 (.inf keeps answers forever)")

    @property
    def label(self) -> str:
        """How outputs name this model, e.g. ``vllm:Qwen/Qwen3-8B``."""
        return self.backend if self.backend in ("default", "scripted") else f"{self.backend}:{self.model}"

    def identity_fields(self) -> dict[str, Any]:
        """What of the spec picks the weights and the engine (keys, concurrency and throughput args do not).

        For ``openai`` the structured-output mode counts too, but not the base URLs: which servers answer
        does not change the weights (what a vLLM server serves is checked at load, as ``served`` in
        :attr:`cts_dataset.models.registry.LoadedModel.identity`; servers that are not vLLM are told apart
        by the spec's ``weights_label``). The chat-template defaults are left out here (one engine serves
        roles with different defaults)."""
        fields: dict[str, Any] = {
            "backend": self.backend,
            "model": self.model,
            "revision": self.revision,
            "gguf_file": self.gguf_file,
            # Stored under the field's first name, so cache keys made before the rename still match.
            "identity": self.weights_label,
            "engine_args": {k: v for k, v in sorted(self.engine_args.items())
                            if k not in THROUGHPUT_ONLY_ARGS | ENGINE_SETTING_ARGS},
        }
        if self.backend == "openai":
            fields["structured_output"] = self.structured_output
        return fields

    def identity_hash(self) -> str:
        return hashlib.sha256(json.dumps(self.identity_fields(), sort_keys=True, default=str).encode()).hexdigest()

    @property
    def hosted_alias(self) -> bool:
        """An ``openai`` model named only by an alias on a non-local server: its answers may change."""
        return (self.backend == "openai" and not self.revision and not self.weights_label
                and any(urlsplit(u).hostname not in LOCAL_HOSTS for u in self.base_urls))

    @property
    def cache_max_age_s(self) -> float | None:
        """How old a cached answer may be (None: any age); see ``cache_ttl_s``."""
        ttl = self.cache_ttl_s if self.cache_ttl_s is not None else (HOSTED_ALIAS_TTL_S if self.hosted_alias else None)
        return None if ttl is None or math.isinf(ttl) else ttl

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
    def from_yaml(cls, path: str | Path, **overrides: Any) -> ModelSpec:
        """A spec file over its model's registry entry (the file's fields win), then ``overrides``."""
        data = yaml.safe_load(Path(path).read_text())
        if not isinstance(data, dict):
            raise TypeError(f"{path}: a model spec must be a YAML mapping")
        data.pop("notes", None)
        return cls.with_registry_defaults({**data, **overrides})

    @classmethod
    def with_registry_defaults(cls, data: dict[str, Any]) -> ModelSpec:
        """A spec from ``data`` over the registry entry that matches its backend and model (or name).

        The user's fields win. Defaults are merged before the spec is built, so an explicit local base URL
        is never paired with a hosted default key variable."""
        data = _normalise(dict(data))
        backend, model = data.get("backend", ""), data.get("model") or data.get("name") or ""
        defaults = _matching_entry(registry_entries(), backend, model) if backend and model else {}
        if defaults and model == defaults["name"]:
            data["model"] = defaults["model"]  # a registry name stands for its model id
        return cls.from_dict({**defaults, **data})

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
                data: dict[str, Any] = {"backend": text}
            elif text in entries:
                data = {"backend": entries[text].backend, "name": text}
            else:
                raise ValueError(f"model spec {text!r}: expected BACKEND:MODEL ({', '.join(BACKENDS)}), "
                                 f"'default', or a registry name ({', '.join(sorted(entries))})")
        elif backend not in BACKENDS:
            raise ValueError(f"model spec {text!r}: unknown backend {backend!r}; known: {', '.join(BACKENDS)}")
        else:
            data = {"backend": backend, "model": model}
        return cls.with_registry_defaults({**data, **overrides})


def _matching_entry(entries: dict[str, ModelSpec], backend: str, model: str) -> dict[str, Any]:
    """The fields a registry entry whose name or model id is ``model`` lends to a ``backend`` spec."""
    for entry in entries.values():
        if model in (entry.name, entry.model):
            if entry.backend == backend:
                return entry.to_dict()
            # Same weights behind another backend: keep what picks and prompts them, drop engine options.
            return {"backend": backend, "model": entry.model, "name": entry.name, "revision": entry.revision,
                    "chat_template_kwargs": dict(entry.chat_template_kwargs)}
    return {}


def _normalise(data: dict[str, Any]) -> dict[str, Any]:
    if "identity" in data and "weights_label" not in data:  # the field's first name (older config.json files)
        data["weights_label"] = data.pop("identity")
    if isinstance(data.get("cache_ttl_s"), str):  # YAML reads ".inf" as a float, JSON writes "inf"
        data["cache_ttl_s"] = float(data["cache_ttl_s"])
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
