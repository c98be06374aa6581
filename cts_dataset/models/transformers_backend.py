"""The ``transformers`` backend: a local HF folder (or a GGUF file), batched generation with left padding.

Requests that share sampling parameters and chat-template kwargs are generated together in batches of
``batch_size``; structured output (JSON schema or choice) is enforced token by token with xgrammar,
the grammar engine vLLM uses. A batch that raises (an input over the model's positions) is narrowed
down to the failing requests by :class:`LoadedModel`.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from cts_dataset.models.base import ChatRequest, ChatResponse, StructuredOutput, Usage, split_reasoning

INSTALL_HINT = 'the transformers backend needs PyTorch and transformers: pip install "ctsbench[hf]"'


class TransformersModel:
    """A chat model run by ``transformers`` on this machine (the GPU if there is one, else the CPU)."""

    def __init__(self, path: str | Path, *, gguf_file: str | None = None, revision: str | None = None,
                 dtype: str = "float32", batch_size: int = 16, device: str | None = None,
                 spec: str | None = None) -> None:
        try:
            import torch
            import transformers
        except ImportError as error:
            raise ImportError(INSTALL_HINT) from error
        self.spec = spec or f"transformers:{path}"
        self.batch_size, self._torch = batch_size, torch
        self.device = device or ("cuda" if torch.cuda.is_available() else "cpu")
        options: dict[str, Any] = {"revision": revision} if revision else {}
        if gguf_file:
            options["gguf_file"] = gguf_file
        self.tokenizer = transformers.AutoTokenizer.from_pretrained(str(path), **options)
        self.tokenizer.padding_side = "left"  # generation continues from the right edge of every row
        if self.tokenizer.pad_token is None:
            self.tokenizer.pad_token = self.tokenizer.eos_token
        self.model = transformers.AutoModelForCausalLM.from_pretrained(
            str(path), dtype=getattr(torch, dtype), **options).to(self.device).eval()
        self._grammar_compiler: Any = None

    def complete(self, requests: Sequence[ChatRequest]) -> list[ChatResponse]:
        groups: dict[Any, list[int]] = {}
        for i, request in enumerate(requests):
            seed = request.sample_seed()
            # Constrained and free rows never share a batch: a grammar applies to every row of its batch.
            key = (request.sampling, seed, request.chat_template_kwargs, request.structured is None)
            if seed is not None and request.sampling.temperature > 0:
                key = (i,)  # one RNG stream per seeded sample, so it is the same alone or in any batch
            groups.setdefault(key, []).append(i)
        responses: list[ChatResponse | None] = [None] * len(requests)
        for indices in groups.values():
            for start in range(0, len(indices), self.batch_size):
                chunk = indices[start:start + self.batch_size]
                for i, response in zip(chunk, self._generate([requests[i] for i in chunk]), strict=True):
                    responses[i] = response
        return [r for r in responses if r is not None]

    def count_tokens(self, messages: list[dict[str, str]], chat_template_kwargs: dict[str, Any] | None = None) -> int:
        """Prompt tokens of ``messages`` under the chat template (generation prompt included): what
        ``usage.prompt_tokens`` reports for them."""
        return len(self.tokenizer(self._prompt(messages, chat_template_kwargs or {}),
                                  add_special_tokens=False)["input_ids"])

    @property
    def max_model_len(self) -> int | None:
        """The model's positions (``max_position_embeddings``), its context limit."""
        config = self.model.config
        text_config = config.get_text_config() if hasattr(config, "get_text_config") else config
        return getattr(text_config, "max_position_embeddings", None)

    def _prompt(self, messages: list[dict[str, str]], chat_template_kwargs: dict[str, Any]) -> str:
        return self.tokenizer.apply_chat_template(messages, tokenize=False, add_generation_prompt=True,
                                                  **chat_template_kwargs)

    def _generate(self, batch: list[ChatRequest]) -> list[ChatResponse]:
        torch, first = self._torch, batch[0]
        prompts = [self._prompt(r.message_dicts(), dict(r.chat_template_kwargs)) for r in batch]
        inputs = self.tokenizer(prompts, return_tensors="pt", padding=True, add_special_tokens=False).to(self.device)
        sampling = first.sampling
        options: dict[str, Any] = {"max_new_tokens": sampling.max_tokens, "pad_token_id": self.tokenizer.pad_token_id}
        if sampling.temperature > 0:
            options.update(do_sample=True, temperature=sampling.temperature, top_p=sampling.top_p)
            seed = first.sample_seed()
            if seed is not None:
                torch.manual_seed(seed)
        else:
            options.update(do_sample=False, temperature=None, top_p=None, top_k=None)
        if sampling.stop:
            options.update(stop_strings=list(sampling.stop), tokenizer=self.tokenizer)
        if first.structured is not None:
            options["logits_processor"] = [self._grammar_processor([r.structured for r in batch])]
        started = time.perf_counter()
        with torch.no_grad():
            output = self.model.generate(**inputs, **options)
        latency = time.perf_counter() - started
        prompt_len = inputs["input_ids"].shape[1]
        eos = set(_as_list(self.model.generation_config.eos_token_id) or [self.tokenizer.eos_token_id])
        responses = []
        for row, request in enumerate(batch):
            tokens = output[row, prompt_len:].tolist()
            ended = next((k for k, t in enumerate(tokens) if t in eos), None)
            kept = tokens if ended is None else tokens[:ended]
            if ended is None:
                while kept and kept[-1] == self.tokenizer.pad_token_id:  # rows that stopped on a stop string
                    kept.pop()
            raw = self.tokenizer.decode(kept, skip_special_tokens=True)
            raw, stopped = _cut_at_stop(raw, sampling.stop)
            finish = "stop" if ended is not None or stopped or len(kept) < sampling.max_tokens else "length"
            text, reasoning = split_reasoning(raw)
            responses.append(ChatResponse(
                text=text, reasoning=reasoning, finish_reason=finish, latency_s=latency, model=self.spec, raw=raw,
                usage=Usage(int(inputs["attention_mask"][row].sum()), len(kept) + (ended is not None))))
        return responses

    def _grammar_processor(self, constraints: list[StructuredOutput | None]) -> Any:
        try:
            import xgrammar
            from xgrammar.contrib.hf import LogitsProcessor
        except ImportError as error:
            raise ImportError('structured output with transformers needs xgrammar: pip install "ctsbench[hf]"') \
                from error
        if self._grammar_compiler is None:
            info = xgrammar.TokenizerInfo.from_huggingface(self.tokenizer, vocab_size=self.model.config.vocab_size)
            self._grammar_compiler = xgrammar.GrammarCompiler(info)
        compiled = [self._compile(c) for c in constraints]
        return LogitsProcessor(compiled)

    def _compile(self, constraint: StructuredOutput | None) -> Any:
        import json

        compiler = self._grammar_compiler
        assert constraint is not None  # batches are grouped so every row is constrained
        if constraint.json_schema is not None:
            return compiler.compile_json_schema(json.dumps(constraint.json_schema), any_whitespace=False)
        if constraint.grammar is not None:
            return compiler.compile_grammar(constraint.grammar)
        options = " | ".join(json.dumps(c) for c in constraint.choice or ())
        return compiler.compile_grammar(f"root ::= {options}")

    def close(self) -> None:
        del self.model


def _as_list(value: Any) -> list[int]:
    if value is None:
        return []
    return list(value) if isinstance(value, (list, tuple)) else [value]


def _cut_at_stop(text: str, stops: tuple[str, ...]) -> tuple[str, bool]:
    cuts = [text.find(s) for s in stops if s and s in text]
    return (text[:min(cuts)], True) if cuts else (text, False)
