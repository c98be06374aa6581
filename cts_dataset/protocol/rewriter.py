"""The Rewriter: the blurred query plus what the answers state; an ``unknown`` keeps the ambiguity."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from cts_dataset.models.base import ChatModel, ChatRequest
from cts_dataset.protocol.roles import RoleSettings, first_line, render_pairs
from cts_dataset.protocol.views import RewriterView

ROLE = "rewriter"


@dataclass(frozen=True)
class Rewrite:
    query: str
    raw: str
    fallback: bool  # True when the reply was empty and the blurred query was kept


def rewriter_request(view: RewriterView, settings: RoleSettings, tag: str = "") -> ChatRequest:
    prompt = settings.prompt("rewriter", view.language)
    pairs = render_pairs(prompt, view.dialogue) if view.dialogue else prompt.fragment("no_pairs")
    messages = prompt.render(blurred_query=view.blurred_query, pairs=pairs)
    return settings.request(ROLE, messages, tag)


def parse_rewrite(raw: str, view: RewriterView) -> Rewrite:
    text = first_line(raw)
    return Rewrite(query=text or view.blurred_query, raw=raw, fallback=not text)


def rewrite(model: ChatModel, views: Sequence[RewriterView], settings: RoleSettings, tags: Sequence[str] = ()) -> list[Rewrite]:
    """One rewrite per view, all in one model batch."""
    tags = list(tags) or [""] * len(views)
    requests = [rewriter_request(v, settings, t) for v, t in zip(views, tags, strict=True)]
    return [parse_rewrite(r.text, v) for r, v in zip(model.complete(requests), views, strict=True)]
