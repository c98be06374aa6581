"""The Clarifier: one clarifying question per turn, from the blurred query and its own dialogue.

A reply that is not one short question (see :func:`.role_guards.question_problem`) is asked once more
with a fresh sample; if that one is no question either, the turn is invalid: nothing is asked, and it
is counted apart from ``unknown``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from cts_dataset.models.base import ChatModel, ChatRequest, ChatResponse
from cts_dataset.protocol.role_guards import question_problem
from cts_dataset.protocol.roles import RoleSettings, first_line, render_pairs
from cts_dataset.protocol.views import ClarifierView

ROLE = "clarifier"
REASK_TEMPERATURE = 0.7  # a greedy model would repeat itself: the re-ask samples
REASK_OFFSET = 1000  # the re-ask's sample index, apart from the repeats' 0, 1, 2, ...


@dataclass(frozen=True)
class Question:
    text: str
    raw: str
    valid: bool  # False when the model produced no usable question
    error: str = ""  # the request failed after retries (retried on a rerun)
    empty_at_length: bool = False  # the reply hit max_tokens with no content (a reasoning model?)
    problem: str = ""  # why the (last) reply was not a question
    reasked: bool = False  # the first reply was no question; this is the second
    first_raw: str = ""  # the first reply, when re-asked
    declined: bool = False  # the clarifier chose not to ask: the dialogue ends here


def clarifier_request(view: ClarifierView, settings: RoleSettings, tag: str = "") -> ChatRequest:
    prompt = settings.prompt(ROLE, view.language)
    history = prompt.fragment("history", pairs=render_pairs(prompt, view.history)) if view.history else ""
    if view.budget is None:
        note = prompt.fragment("turn_note", turn=str(view.turn))
    else:
        note = prompt.fragment("turn_note_budget", turn=str(view.turn), budget=str(view.budget))
    messages = prompt.render(blurred_query=view.blurred_query, history=history, turn_note=note)
    return settings.request(ROLE, messages, tag)


def parse_question(raw: str, view: ClarifierView | None = None) -> Question:
    text = first_line(raw)
    problem = question_problem(text, view.blurred_query, view.language) if view is not None else (None if text else "empty")
    return Question(text=text, raw=raw, valid=problem is None, problem=problem or "")


def ask(model: ChatModel, views: Sequence[ClarifierView], settings: RoleSettings, tags: Sequence[str] = (),
        reask: bool = True) -> list[Question]:
    """One question per view, all in one model batch (and one more batch for the replies to re-ask)."""
    tags = list(tags) or [""] * len(views)
    requests = [clarifier_request(v, settings, t) for v, t in zip(views, tags, strict=True)]
    questions = [question_of(r, v) for r, v in zip(_complete(model, requests), views, strict=True)]
    again = [i for i, q in enumerate(questions) if not q.valid and not q.error] if reask else []
    if again:
        sampling = replace(settings.sampling, temperature=max(settings.sampling.temperature, REASK_TEMPERATURE),
                           seed=settings.sampling.seed or 0)
        fresh = replace(settings, sampling=sampling, sample_index=settings.sample_index + REASK_OFFSET)
        retry = [clarifier_request(views[i], fresh, tags[i]) for i in again]
        for i, response in zip(again, _complete(model, retry), strict=True):
            second = question_of(response, views[i])
            questions[i] = replace(second, reasked=True, first_raw=questions[i].raw)
    return questions


def question_of(response: ChatResponse, view: ClarifierView | None = None) -> Question:
    if response.failed:
        return Question(text="", raw="", valid=False, error=response.error)
    question = parse_question(response.text, view)
    if response.finish_reason == "length" and not response.text.strip():
        question = replace(question, empty_at_length=True)
    return question


def _complete(model: ChatModel, requests: list[ChatRequest]) -> list[ChatResponse]:
    responses = model.complete(requests)
    if len(responses) != len(requests):
        raise RuntimeError(f"{model.spec}: {len(responses)} responses to {len(requests)} requests")
    return responses
