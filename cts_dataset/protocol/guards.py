"""Measures of the answer channel and of the prompts, taken by the orchestrator (which alone holds the
whole instance) on every answer and every clarifier and rewriter request of a run.

- Disclosure: which intent-only words (in the fused query, not in the blurred one) and which removed
  constraints an answer reveals. One question asks for one thing: an answer that reveals two or more
  removed constraints, or most of the intent's hidden words, gave more than the question asked.
- Leakage: intent-only words that reach a clarifier or rewriter prompt other than through the
  dialogue (see :mod:`cts_dataset.protocol.leakage`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cts_dataset.records import Instance
from cts_dataset.text import tokenize

# Share of the intent's hidden words above which an answer restates the intent rather than answers.
RESTATES_INTENT_SHARE = 0.6


def intent_only_words(instance: Instance) -> set[str]:
    return set(tokenize(instance.fused_query)) - set(tokenize(instance.blurred_query))


def revealed_constraints(text: str, instance: Instance) -> list[dict[str, str]]:
    """The removed constraints whose every content word occurs in ``text``."""
    words = set(tokenize(text))
    found = []
    for constraint in instance.removed_constraints:
        needed = set(tokenize(constraint.value))
        if needed and needed <= words:
            found.append({"type": constraint.type.value, "value": constraint.value})
    return found


def disclosure(answer: str, instance: Instance) -> dict[str, Any]:
    """What an answer reveals of the hidden intent (recorded per answer, never forwarded)."""
    hidden = intent_only_words(instance)
    revealed = sorted(hidden & set(tokenize(answer)))
    constraints = revealed_constraints(answer, instance)
    share = len(revealed) / len(hidden) if hidden else 0.0
    return {
        "intent_words": revealed,
        "intent_share": round(share, 4),
        "constraints": constraints,
        "beyond_question": len(constraints) >= 2 or (len(hidden) >= 3 and share >= RESTATES_INTENT_SHARE),
    }


def audit(request: Any, instance: Instance, dialogue: Sequence[str], prompt: Any,
          protocol_values: Sequence[str] = ()) -> list[str]:
    """Intent-only words in a clarifier or rewriter request that the dialogue does not explain."""
    from cts_dataset.protocol.leakage import leaked_words

    return leaked_words(request, instance.fused_query, instance.blurred_query, dialogue, prompt, protocol_values)
