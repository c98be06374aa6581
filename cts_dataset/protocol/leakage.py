"""Leakage audit: words of the hidden intent that reach a prompt the intent must not reach.

A word leaks when it occurs in a rendered clarifier or rewriter prompt and in the fused query, but in
neither the blurred query, nor the dialogue (questions, and answers that may carry intent words), nor the
prompt's fixed wording.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from cts_dataset.models.base import ChatRequest
from cts_dataset.protocol.prompts import Prompt
from cts_dataset.text import tokenize


def leaked_words(request: ChatRequest, fused_query: str, blurred_query: str, dialogue: Iterable[str] = (),
                 prompt: Prompt | None = None, protocol_values: Iterable[str] = ()) -> list[str]:
    """Intent-only words found in the request's messages (empty when nothing leaked).

    ``protocol_values`` are what the protocol itself fills in (turn and budget numbers, question
    numbering): they come from the loop, not from the intent.
    """
    allowed = set(tokenize(blurred_query))
    allowed.update(tokenize(" ".join(protocol_values)))
    fixed: tuple[str, ...] = ()
    if prompt is not None:
        fixed = (prompt.system, prompt.user, *(v for _, v in prompt.fragments))
        allowed.update(_wording_words(" ".join(fixed)))
    for text in dialogue:
        allowed.update(tokenize(text))
    intent_only = set(tokenize(fused_query)) - allowed
    prompt_words = set()
    for message in request.messages:
        if message.content not in fixed:  # a template without placeholders holds only allowed words
            prompt_words.update(tokenize(message.content))
    return sorted(intent_only & prompt_words)


@lru_cache(maxsize=64)
def _wording_words(wording: str) -> frozenset[str]:
    """The words of a prompt's fixed wording: the same few prompts are audited on every request."""
    return frozenset(tokenize(wording))
