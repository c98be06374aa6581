"""Leakage audit: words of the hidden intent that reach a prompt the intent must not reach.

A word leaks when it occurs in a rendered clarifier or rewriter prompt and in the fused query, but in
neither the blurred query, nor the answers the user gave (those may carry intent words), nor the
prompt's fixed wording.
"""

from __future__ import annotations

from collections.abc import Iterable

from cts_dataset.models.base import ChatRequest
from cts_dataset.protocol.prompts import Prompt
from cts_dataset.search.tokenize import tokenize


def leaked_words(request: ChatRequest, fused_query: str, blurred_query: str, answers: Iterable[str] = (),
                 prompt: Prompt | None = None) -> list[str]:
    """Intent-only words found in the request's messages (empty when nothing leaked)."""
    allowed = set(tokenize(blurred_query))
    if prompt is not None:
        allowed.update(tokenize(" ".join([prompt.system, prompt.user, *(v for _, v in prompt.fragments)])))
    for answer in answers:
        allowed.update(tokenize(answer))
    intent_only = set(tokenize(fused_query)) - allowed
    prompt_words = set()
    for message in request.messages:
        prompt_words.update(tokenize(message.content))
    return sorted(intent_only & prompt_words)
