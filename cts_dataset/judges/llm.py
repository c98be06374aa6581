"""The LLM coverage judge over the chat-model protocol.

Nuggets go to the model in chunks (10 per call by default, as nuggetizer and open-rag-eval do). Each
attempt round sends every pending chunk of every item as ONE ``complete()`` batch. The first attempt
is greedy. A chunk whose output cannot be parsed, or whose request failed, is retried with another
sample (``sample_index`` and ``retry_temperature``, so a response cache does not replay the failure),
seeded from the item's content, the chunk and the attempt: a rerun on a new cache draws the same
samples on engines that honour seeds. After ``max_attempts`` the chunk's nuggets are unscored, with the
raw outputs and model errors kept. Every call is traced. An empty answer is labelled none without a call.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from cts_dataset.judges.base import JudgeCall, JudgeItem, Judgement
from cts_dataset.judges.parse import LabelParseError, labels_schema, parse_labels
from cts_dataset.judges.prompts import Prompt, PromptError, is_prompt_file, load_prompt
from cts_dataset.models.base import ChatModel, ChatRequest, Sampling, StructuredOutput
from cts_dataset.scoring.labels import Label
from cts_dataset.search.language import detect_language

DEFAULT_PROMPT = "coverage-v1"


def _chinese_version(prompt_id: str) -> Prompt | None:
    """The shipped ``<id>-zh`` prompt of a shipped prompt (None for a user's file or when none ships)."""
    if is_prompt_file(prompt_id):
        return None
    try:
        return load_prompt(f"{prompt_id}-zh")
    except PromptError:
        return None


@dataclass(frozen=True)
class _Chunk:
    item: int
    index: int
    start: int
    nuggets: tuple[str, ...]


def retry_seed(item: JudgeItem, chunk: int, attempt: int) -> int:
    """The sampling seed of a retry: a function of the item's content (not its position), chunk and attempt."""
    payload = json.dumps([item.query, item.answer, list(item.nuggets), chunk, attempt], ensure_ascii=False)
    return int(hashlib.sha256(payload.encode()).hexdigest()[:8], 16) & 0x7FFFFFFF


class LLMJudge:
    """Labels nuggets with a chat model; ``name`` is ``llm:<model spec>@<prompt id>``.

    ``prompt_id`` is a shipped judge prompt id or a YAML file path (see :mod:`.prompts`; a file's prompt is
    named ``<id>+<hash>``, never like a shipped one).
    """

    def __init__(self, model: ChatModel, batch_size: int = 10, max_attempts: int = 3,
                 prompt_id: str = DEFAULT_PROMPT, max_tokens: int = 1024, retry_temperature: float = 0.7,
                 structured: bool = True) -> None:
        if batch_size < 1 or max_attempts < 1:
            raise ValueError("batch_size and max_attempts must be at least 1")
        self.model = model
        self.batch_size = batch_size
        self.max_attempts = max_attempts
        self.prompt = load_prompt(prompt_id)
        self.prompt_zh = _chinese_version(prompt_id)  # Chinese items (Hard518) get it, where the prompt has one
        self.max_tokens = max_tokens
        self.retry_temperature = retry_temperature
        self.structured = structured
        self.name = f"llm:{model.spec}@{self.prompt.id}"

    def identity(self) -> dict[str, Any]:
        """Everything that changes this judge's labels (what a scored folder is resumed on)."""
        return {
            "name": self.name, "kind": "llm", "prompt": {"id": self.prompt.id, "hash": self.prompt.hash},
            **({"prompt_zh": {"id": self.prompt_zh.id, "hash": self.prompt_zh.hash}} if self.prompt_zh else {}),
            "model": {"spec": self.model.spec, "identity": getattr(self.model, "identity", None)},
            "batch_size": self.batch_size, "max_attempts": self.max_attempts, "max_tokens": self.max_tokens,
            "structured": self.structured,
            "retry": {"temperature": self.retry_temperature, "sample_index": "attempt",
                      "seed": "sha256(query, answer, nuggets, chunk, attempt)"},
        }

    def request(self, item: JudgeItem, chunk: int, nuggets: Sequence[str], attempt: int, tag: str = "") -> ChatRequest:
        """The chat request for one chunk of one item at one attempt."""
        listing = "\n".join(f"{n}. {text}" for n, text in enumerate(nuggets, start=1))
        prompt = self.prompt_of(item)
        messages = prompt.render(query=item.query or "(not given)", answer=item.answer or "(empty answer)",
                                 nuggets=listing, count=len(nuggets))
        sampling = Sampling(max_tokens=self.max_tokens) if attempt == 0 else Sampling(
            temperature=self.retry_temperature, max_tokens=self.max_tokens, seed=retry_seed(item, chunk, attempt))
        structured = StructuredOutput(json_schema=labels_schema(len(nuggets))) if self.structured else None
        return ChatRequest.of(messages, sampling=sampling, structured=structured, sample_index=attempt,
                              role="judge", tag=tag)

    def prompt_of(self, item: JudgeItem) -> Prompt:
        """The prompt an item is judged with: the Chinese version for a Chinese question and nuggets."""
        text = item.query + "".join(item.nuggets[:3])
        return self.prompt_zh if self.prompt_zh is not None and detect_language(text) == "zh" else self.prompt

    def _chunks(self, items: Sequence[JudgeItem]) -> list[_Chunk]:
        chunks = []
        for i, item in enumerate(items):
            if not item.answer.strip():
                continue  # an empty answer states nothing: labelled none without a call
            for c, start in enumerate(range(0, len(item.nuggets), self.batch_size)):
                chunks.append(_Chunk(i, c, start, tuple(item.nuggets[start:start + self.batch_size])))
        return chunks

    def judge(self, items: Sequence[JudgeItem]) -> list[Judgement]:
        results = [Judgement(labels=[None if item.answer.strip() else "none"] * len(item.nuggets)) for item in items]
        pending = self._chunks(items)
        failures: dict[tuple[int, int], list[str]] = {}
        for attempt in range(self.max_attempts):
            if not pending:
                break
            requests = [self.request(items[c.item], c.index, c.nuggets, attempt, f"{items[c.item].id}#{c.index}")
                        for c in pending]
            responses = self.model.complete(requests)
            if len(responses) != len(requests):
                raise RuntimeError(f"{self.model.spec}: {len(responses)} responses to {len(requests)} requests")
            failed = []
            for chunk, request, response in zip(pending, requests, responses, strict=True):
                labels: list[Label] = []
                prompt = self.prompt_of(items[chunk.item])
                result = results[chunk.item]
                if response.failed:
                    error = f"model request failed: {response.error}"
                    failures.setdefault((chunk.item, chunk.index), []).append(
                        f"chunk {chunk.index} attempt {attempt}: {response.error}")
                else:
                    result.raw.append(response.text)
                    try:
                        labels = parse_labels(response.text, len(chunk.nuggets))
                        error = ""
                    except LabelParseError as problem:
                        error = str(problem)
                if error:
                    failed.append(chunk)
                result.labels[chunk.start:chunk.start + len(labels)] = labels
                result.calls.append(JudgeCall(
                    judge=self.name, item_id=items[chunk.item].id, chunk=chunk.index, attempt=attempt,
                    prompt_id=prompt.id, prompt_hash=prompt.hash,
                    model=response.model or self.model.spec, messages=request.message_dicts(),
                    temperature=request.sampling.temperature, seed=request.sampling.seed,
                    raw_output=response.text, reasoning=response.reasoning, parsed=not error,
                    failed=response.failed, error=error, prompt_tokens=response.usage.prompt_tokens,
                    completion_tokens=response.usage.completion_tokens, latency_s=response.latency_s))
            pending = failed
        for chunk in pending:  # left unscored: keep why, when a model request failed
            results[chunk.item].errors += failures.get((chunk.item, chunk.index), [])
        return results
