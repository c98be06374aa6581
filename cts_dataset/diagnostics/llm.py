"""The optional LLM classifier of clarifying questions, and how far it agrees with the rules.

One batch for all questions, the reply constrained to the type names (``StructuredOutput(choice=...)``),
greedy; a reply that is not a type name (a backend without constrained decoding) is unparsed and
left out of the agreement.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from typing import Any

from cts_dataset.diagnostics.types import DEFINITIONS, QUESTION_TYPES
from cts_dataset.models.base import ChatModel, ChatRequest, Sampling, StructuredOutput

ROLE = "question_classifier"
SYSTEM = ("You label a clarifying question that an assistant asked a user before searching. Give the ONE type "
          "that best says what the question asks about:\n"
          + "\n".join(f"- {name}: {text}" for name, text in DEFINITIONS.items())
          + "\nReply with the type name only.")


class LLMClassifier:
    """Question types from a chat model (any object with ``spec`` and ``complete``)."""

    def __init__(self, model: ChatModel, max_tokens: int = 8) -> None:
        self.model = model
        self.name = f"llm:{model.spec}"
        self.sampling = Sampling(max_tokens=max_tokens)
        self.unparsed = 0

    @classmethod
    def from_spec(cls, spec: str) -> LLMClassifier:
        from cts_dataset.models.registry import load_model

        return cls(load_model(spec))

    def request(self, question: str) -> ChatRequest:
        return ChatRequest.of([{"role": "system", "content": SYSTEM}, {"role": "user", "content": f"Question: {question}"}],
                              sampling=self.sampling, structured=StructuredOutput(choice=QUESTION_TYPES), role=ROLE)

    def classify(self, questions: Sequence[str]) -> list[str | None]:
        """One type per question (None: failed or unparsed), the distinct questions asked once."""
        unique = sorted(set(questions))
        responses = self.model.complete([self.request(q) for q in unique]) if unique else []
        labels = {q: _parse(r.text) if not r.failed else None for q, r in zip(unique, responses, strict=True)}
        self.unparsed = sum(v is None for v in labels.values())
        return [labels[q] for q in questions]


def _parse(text: str) -> str | None:
    cleaned = text.strip().strip("\"'.` ").lower()
    return cleaned if cleaned in QUESTION_TYPES else None


def agreement(rules: Sequence[str], other: Sequence[str | None]) -> dict[str, Any]:
    """Percent agreement and Cohen's kappa over the questions both labelled, with the confusion counts
    (rules/other). Written out: the judges' kappa in cts_dataset.scoring validates coverage labels only."""
    pairs = [(a, b) for a, b in zip(rules, other, strict=True) if b is not None]
    n = len(pairs)
    if not n:
        return {"n": 0, "unlabelled": len(rules), "percent_agreement": None, "cohen_kappa": None, "confusion": {}}
    observed = sum(a == b for a, b in pairs) / n
    count_a, count_b = Counter(a for a, _ in pairs), Counter(b for _, b in pairs)
    expected = sum(count_a[t] * count_b[t] for t in count_a) / (n * n)
    kappa = None if math.isclose(expected, 1.0) else (observed - expected) / (1.0 - expected)
    confusion = Counter(f"{a}/{b}" for a, b in pairs)
    return {"n": n, "unlabelled": len(rules) - n, "percent_agreement": 100.0 * observed, "cohen_kappa": kappa,
            "confusion": dict(sorted(confusion.items()))}
