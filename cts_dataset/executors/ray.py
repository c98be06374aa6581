"""The ``ray`` executor: a model's batch of cache misses runs on a Ray cluster through Ray Data.

:class:`RayBackend` takes the place of the local backend under
:class:`~cts_dataset.models.loaded.LoadedModel`, so the driver keeps everything that makes a run
trustworthy (run folder, stage records, run identity, response cache, trace) exactly as with the local
executor, and the cache is shared between executors (the label and identity do not change). A hub
model's revision is resolved on the driver before either backend is built, and the workers load that
commit (:func:`~cts_dataset.models.weights.pinned`), so the driver needs no copy of the weights.

- ``vllm`` models run through Ray's own LLM support, ``ray.data.llm`` (:mod:`.ray_vllm`).
- ``llamacpp``, ``default`` and ``transformers`` run as Ray Data ``map_batches`` actors that build the
  project's own backend from the spec (:mod:`.ray_actors`), so the text is what the local backend writes.
- ``openai`` stays in the driver: its work is done by the servers, and its API key never goes to the cluster.

Responses stream back to the driver as they finish (actors yield small groups, Ray Data passes each on
as its own block), so the cache holds them before the batch ends and a killed driver loses little.

The cluster (:mod:`.ray_cluster`): ``RAY_ADDRESS`` if set, else a local one started here (and shut down
at exit). Throughput settings come from the environment and never change the answers:
``CTSBENCH_RAY_ACTORS`` (model replicas per batch; default one per GPU, or per ``tensor_parallel_size x
pipeline_parallel_size`` GPUs, for GPU backends, else 1), ``CTSBENCH_RAY_GPUS_PER_ACTOR`` (transformers;
default 1 when the cluster has GPUs), ``CTSBENCH_RAY_CPUS_PER_ACTOR`` (default 1),
``CTSBENCH_RAY_ROWS_PER_CALL`` (vLLM rows per engine call, default 64) and ``CTSBENCH_RAY_NUM_CPUS``
(CPUs of a local cluster; default the machine's, at most 16).
"""

from __future__ import annotations

import importlib.util
import logging
import math
from collections.abc import Iterator, Sequence
from typing import Any

from cts_dataset.executors.ray_actors import ModelActor, Probe
from cts_dataset.executors.ray_cluster import INSTALL_HINT, RayOptions, cluster_gpus, ensure_ray, shutdown
from cts_dataset.executors.ray_codecs import (  # noqa: F401 - re-exported: this module's API
    request_from_json,
    request_to_json,
    response_from_json,
    response_to_json,
)
from cts_dataset.executors.ray_vllm import (  # noqa: F401 - re-exported: this module's API
    VLLM_HINT,
    processor_config,
    run_group,
    vllm_group,
    vllm_groups,
    vllm_result,
    vllm_row,
    vllm_sampling,
)
from cts_dataset.models.backends import shared_backend
from cts_dataset.models.base import ChatModel, ChatRequest, ChatResponse, Message
from cts_dataset.models.spec import ModelSpec

logger = logging.getLogger(__name__)

DRIVER_BACKENDS = frozenset({"openai"})  # HTTP clients: the servers do the work
_Probe = Probe  # its former name


def backend_label(spec: ModelSpec) -> str:
    """How the local backend names its outputs (so traces, records and identities agree)."""
    if spec.backend == "default":
        from cts_dataset.models.packaged import DEFAULT_LABEL

        return DEFAULT_LABEL
    return spec.label


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
            gpus = 1.0 if self.model_spec.backend == "transformers" and cluster_gpus(ray) else 0.0
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
        config = processor_config(ray, self.model_spec, self.options, self.actors(ray))
        for (template, _), indices in vllm_groups(requests).items():
            self.batches += 1
            yield from run_group(ray, config, template, self.spec, requests, indices)

    def actors(self, ray: Any) -> int:
        """Model replicas per batch: the option, else one per GPU group for GPU backends, else 1."""
        if self.options.actors is not None:
            return self.options.actors
        if self.model_spec.backend not in ("vllm", "transformers"):
            return 1
        args = self.model_spec.engine_args
        per_engine = int(args.get("tensor_parallel_size", 1)) * int(args.get("pipeline_parallel_size", 1)) \
            if self.model_spec.backend == "vllm" else 1
        return max(1, int(cluster_gpus(ray) // per_engine))

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
            self._probe = ray.remote(num_cpus=0)(Probe).remote(self.model_spec.to_dict())
        return self._probe


def ray_backend(spec: ModelSpec, options: RayOptions | None = None) -> ChatModel:
    """The backend a ``LoadedModel`` holds under the ray executor: a :class:`RayBackend`, or the local
    backend for ``openai`` (HTTP to servers that do the work; the key stays in the driver)."""
    if spec.backend in DRIVER_BACKENDS:
        logger.info("%s: an HTTP backend; its requests go from the driver, not from Ray", spec.label)
        return shared_backend(spec)
    return RayBackend(spec, options)


__all__ = ["RayBackend", "RayOptions", "ensure_ray", "ray_backend", "shutdown"]
