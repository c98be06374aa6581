"""Leakage audit: words of the hidden intent that reach a prompt the intent must not reach.

A word leaks when it occurs in a rendered clarifier or rewriter prompt and in the fused query, but in
neither the blurred query, nor the dialogue (questions, and answers that may carry intent words), nor the
prompt's fixed wording.
"""

from __future__ import annotations

from collections.abc import Iterable

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
    if prompt is not None:
        allowed.update(tokenize(" ".join([prompt.system, prompt.user, *(v for _, v in prompt.fragments)])))
    for text in dialogue:
        allowed.update(tokenize(text))
    intent_only = set(tokenize(fused_query)) - allowed
    prompt_words = set()
    for message in request.messages:
        prompt_words.update(tokenize(message.content))
    return sorted(intent_only & prompt_words)
