"""The chat-model protocol every role (clarifier, user answerer, rewriter, searcher, judge) talks to.

Batch-first: ``complete(requests) -> responses`` takes a whole stage's requests at once so an engine
can batch them (vLLM) or run them concurrently (HTTP backends). Requests are immutable and carry
everything that changes the answer, so they can key a response cache.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, Literal, Protocol, runtime_checkable

Role = Literal["system", "user", "assistant"]
_THINK = re.compile(r"<think>(.*?)</think>\s*", re.DOTALL)


@dataclass(frozen=True)
class Message:
    role: Role
    content: str


@dataclass(frozen=True)
class Sampling:
    """Sampling parameters; the defaults are greedy decoding."""

    temperature: float = 0.0
    top_p: float = 1.0
    max_tokens: int = 512
    stop: tuple[str, ...] = ()
    seed: int | None = None


@dataclass(frozen=True)
class StructuredOutput:
    """A constraint on the output: a JSON schema, a choice list or a GBNF grammar (exactly one).

    ``grammar`` is in the GBNF dialect that llama.cpp and xgrammar (vLLM's grammar engine) both read,
    with ``root`` as its start rule.
    """

    json_schema: dict[str, Any] | None = None
    choice: tuple[str, ...] | None = None
    grammar: str | None = None

    def __post_init__(self) -> None:
        if sum(x is not None for x in (self.json_schema, self.choice, self.grammar)) != 1:
            raise ValueError("StructuredOutput needs exactly one of json_schema, choice or grammar")

    def __hash__(self) -> int:
        return hash(json.dumps(asdict(self), sort_keys=True))

    def key(self) -> dict[str, Any]:
        """The constraint as a cache key; ``grammar`` only when set, so the keys of schema and choice
        constraints are those they had before grammars existed."""
        found = asdict(self)
        if found["grammar"] is None:
            del found["grammar"]
        return found


@dataclass(frozen=True)
class ChatRequest:
    """One chat completion to make. ``role`` and ``tag`` label traces; they do not change the answer."""

    messages: tuple[Message, ...]
    sampling: Sampling = field(default_factory=Sampling)
    structured: StructuredOutput | None = None
    chat_template_kwargs: tuple[tuple[str, Any], ...] = ()
    sample_index: int = 0
    role: str = ""
    tag: str = ""

    @staticmethod
    def of(messages: Sequence[dict[str, str] | Message], **kwargs: Any) -> ChatRequest:
        """Build from plain ``{"role", "content"}`` dicts; ``chat_template_kwargs`` may be a dict."""
        converted = tuple(m if isinstance(m, Message) else Message(m["role"], m["content"]) for m in messages)
        template = kwargs.pop("chat_template_kwargs", None) or {}
        if isinstance(template, dict):
            template = tuple(sorted(template.items()))
        return ChatRequest(messages=converted, chat_template_kwargs=template, **kwargs)

    def message_dicts(self) -> list[dict[str, str]]:
        return [{"role": m.role, "content": m.content} for m in self.messages]

    def answer_key(self) -> dict[str, Any]:
        """Everything in the request that changes the answer (the backend adds model identity)."""
        return {
            "messages": self.message_dicts(),
            "sampling": asdict(self.sampling),
            "structured": self.structured.key() if self.structured else None,
            "chat_template_kwargs": dict(self.chat_template_kwargs),
            "sample_index": self.sample_index,
        }

    def fingerprint(self) -> str:
        return hashlib.sha256(json.dumps(self.answer_key(), sort_keys=True).encode()).hexdigest()

    def sample_seed(self, modulus: int | None = None) -> int | None:
        """The seed a backend sends: ``sampling.seed + sample_index`` (None when unseeded), so the samples
        of one request differ by index yet stay reproducible. ``modulus`` keeps it in an engine's seed
        range (llama.cpp: below its "random seed" value)."""
        if self.sampling.seed is None:
            return None
        seed = self.sampling.seed + self.sample_index
        return seed % modulus if modulus is not None else seed


@dataclass(frozen=True)
class Usage:
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached_tokens: int = 0  # prompt tokens the engine reused from an earlier request (a shared prefix)


@dataclass(frozen=True)
class ChatResponse:
    """A completion: the text without ``<think>`` reasoning (kept apart in ``reasoning``)."""

    text: str
    reasoning: str = ""
    finish_reason: str = "stop"
    usage: Usage = field(default_factory=Usage)
    latency_s: float = 0.0
    cached: bool = False
    model: str = ""
    raw: str = ""  # the model's output as generated, reasoning included (for traces)
    error: str = ""  # set when the request failed after its retries: no text, never cached

    @property
    def failed(self) -> bool:
        return bool(self.error)

    @staticmethod
    def failure(error: str, model: str = "") -> ChatResponse:
        return ChatResponse(text="", finish_reason="error", model=model, error=error)


def split_reasoning(raw: str) -> tuple[str, str]:
    """(text, reasoning): removes ``<think>...</think>`` blocks, and an unclosed leading one."""
    reasoning = "\n".join(part.strip() for part in _THINK.findall(raw))
    text = _THINK.sub("", raw)
    if "<think>" in text:  # the model ran out of tokens while thinking
        head, _, tail = text.partition("<think>")
        return head.strip(), (reasoning + "\n" + tail).strip()
    if "</think>" in text:  # templates that open the think block inside the prompt
        thought, _, text = text.partition("</think>")
        reasoning = (thought + "\n" + reasoning).strip()
    return text.strip(), reasoning


def in_order(pairs: Iterable[tuple[int, ChatResponse]], count: int) -> list[ChatResponse]:
    """The responses of ``complete_iter``-style ``(index, response)`` pairs, in request order."""
    responses: list[ChatResponse | None] = [None] * count
    for index, response in pairs:
        responses[index] = response
    missing = sum(r is None for r in responses)
    if missing:
        raise RuntimeError(f"{missing} of {count} requests got no response")
    return responses  # type: ignore[return-value]


@runtime_checkable
class ChatModel(Protocol):
    """What every backend provides. ``spec`` names the model in every output (e.g. ``vllm:Qwen/Qwen3-8B``)."""

    spec: str

    def complete(self, requests: Sequence[ChatRequest]) -> list[ChatResponse]:
        """One response per request, in order. A request that still fails after the backend's retries
        comes back as ``ChatResponse.failure(message)`` so the rest of the batch is kept; a backend
        raises only when it cannot serve the batch at all (a missing key, a broken install)."""
        ...


def serves_one_at_a_time(model: Any) -> bool:
    """Whether ``model`` (through its wrappers: a role's loaded model, a recorder) runs on an engine that
    serves one request at a time (says ``one_at_a_time``), so that a large batch buys it no speed."""
    for _ in range(8):  # wrappers hold the next one as ``backend`` or ``model``
        if model is None or getattr(model, "one_at_a_time", False) is True:
            return model is not None
        model = getattr(model, "backend", None) or getattr(model, "model", None)
    return False
