"""The Clarifier: one clarifying question per turn, from the blurred query and its own dialogue."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from cts_dataset.models.base import ChatModel, ChatRequest
from cts_dataset.protocol.roles import RoleSettings, first_line, render_pairs
from cts_dataset.protocol.views import ClarifierView

ROLE = "clarifier"


@dataclass(frozen=True)
class Question:
    text: str
    raw: str
    valid: bool  # False when the model produced no usable question


def clarifier_request(view: ClarifierView, settings: RoleSettings, tag: str = "") -> ChatRequest:
    prompt = settings.prompt(ROLE, view.language)
    history = prompt.fragment("history", pairs=render_pairs(prompt, view.history)) if view.history else ""
    if view.budget is None:
        note = prompt.fragment("turn_note", turn=str(view.turn))
    else:
        note = prompt.fragment("turn_note_budget", turn=str(view.turn), budget=str(view.budget))
    messages = prompt.render(blurred_query=view.blurred_query, history=history, turn_note=note)
    return settings.request(ROLE, messages, tag)


def parse_question(raw: str) -> Question:
    text = first_line(raw)
    return Question(text=text, raw=raw, valid=bool(text))


def ask(model: ChatModel, views: Sequence[ClarifierView], settings: RoleSettings, tags: Sequence[str] = ()) -> list[Question]:
    """One question per view, all in one model batch."""
    tags = list(tags) or [""] * len(views)
    requests = [clarifier_request(v, settings, t) for v, t in zip(views, tags, strict=True)]
    return [parse_question(r.text) for r in model.complete(requests)]
