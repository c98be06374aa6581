"""The Rewriter: the blurred query plus what the answers state; an ``unknown`` keeps the ambiguity.

Guarded (see :mod:`.role_guards`): with nothing elicited the query itself is the rewrite (no model
call); a rewrite that drops the query, drops an elicited answer or adds what nobody said becomes the
deterministic rewrite.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from cts_dataset.models.base import ChatModel, ChatRequest, ChatResponse
from cts_dataset.protocol.role_guards import deterministic_rewrite, elicited, rewrite_problem
from cts_dataset.protocol.roles import RoleSettings, first_line, render_pairs
from cts_dataset.protocol.views import RewriterView

ROLE = "rewriter"


@dataclass(frozen=True)
class Rewrite:
    query: str
    raw: str
    fallback: bool  # True when the reply was empty and the blurred query was kept
    error: str = ""  # the request failed after retries (retried on a rerun)
    empty_at_length: bool = False  # the reply hit max_tokens with no content
    guarded: str = ""  # why the model's rewrite was replaced by the deterministic one
    nothing_elicited: bool = False  # every answer was unknown: the query is kept, no model call


def rewriter_request(view: RewriterView, settings: RoleSettings, tag: str = "") -> ChatRequest:
    prompt = settings.prompt("rewriter", view.language)
    pairs = render_pairs(prompt, view.dialogue) if view.dialogue else prompt.fragment("no_pairs")
    messages = prompt.render(blurred_query=view.blurred_query, pairs=pairs)
    return settings.request(ROLE, messages, tag)


def parse_rewrite(raw: str, view: RewriterView) -> Rewrite:
    text = first_line(raw)
    return Rewrite(query=text or view.blurred_query, raw=raw, fallback=not text)


def rewrite(model: ChatModel, views: Sequence[RewriterView], settings: RoleSettings, tags: Sequence[str] = (),
            guard: bool = True) -> list[Rewrite]:
    """One rewrite per view, all in one model batch."""
    tags = list(tags) or [""] * len(views)
    results: list[Rewrite | None] = [None] * len(views)
    asked = []
    for i, view in enumerate(views):
        if guard and not elicited(view.dialogue):
            results[i] = Rewrite(query=view.blurred_query, raw="", fallback=False, nothing_elicited=True)
        else:
            asked.append(i)
    requests = [rewriter_request(views[i], settings, tags[i]) for i in asked]
    responses = model.complete(requests) if requests else []
    for i, response in zip(asked, responses, strict=True):
        results[i] = _rewrite_of(response, views[i], guard)
    return [r for r in results if r is not None]


def _rewrite_of(response: ChatResponse, view: RewriterView, guard: bool) -> Rewrite:
    if response.failed:
        return Rewrite(query="", raw="", fallback=False, error=response.error)
    result = parse_rewrite(response.text, view)
    if response.finish_reason == "length" and not response.text.strip():
        result = replace(result, empty_at_length=True)
    if guard:
        problem = rewrite_problem(result.query if not result.fallback else "", view.blurred_query, view.dialogue)
        if problem is not None:
            fallback = deterministic_rewrite(view.blurred_query, view.dialogue, view.language)
            result = replace(result, query=fallback, guarded=problem)
    return result
