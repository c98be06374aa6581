"""The clarifier interface.

A clarifier is batch-first: ``ask(views)`` gets one :class:`~cts_dataset.protocol.views.ClarifierView`
per dialogue that is still going (the blurred query, the language, its own earlier questions and
answers, the turn, and the budget only when the protocol shows it) and returns, per view, a question
(a string) or :data:`NO_QUESTION` (``None``): the clarifier decides not to ask, which ends that dialogue;
the rewrite then uses what was elicited so far.

Optional attributes the run reads:

- ``name`` (or ``spec``): how outputs name it;
- ``identity`` (a dict, or a method returning one): what changes its questions (a checkpoint, a
  setting); the run folder refuses to resume onto another identity (a class a config names by import
  path has its ``options`` recorded, and named in its default folder, without this);
- ``sees_constraint_types = True``: a reference that is shown the *types* of the instance's removed
  constraints (never their values) in ``view.constraint_types``; the run declares this leakage.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from cts_dataset.protocol.clarifier import Question
from cts_dataset.protocol.views import ClarifierView

NO_QUESTION = None


@runtime_checkable
class Clarifier(Protocol):
    def ask(self, views: Sequence[ClarifierView]) -> Sequence[str | Question | None]:
        """One question (or NO_QUESTION) per view, in order."""
        ...


def clarifier_name(clarifier: object) -> str:
    return str(getattr(clarifier, "name", None) or getattr(clarifier, "spec", None) or type(clarifier).__name__)


def as_question(reply: str | Question | None) -> Question:
    """A clarifier's reply as the record the run keeps: ``None`` declines, a string is the question."""
    if isinstance(reply, Question):
        return reply
    if reply is None:
        return Question(text="", raw="", valid=False, declined=True)
    if not isinstance(reply, str):
        raise TypeError(f"a clarifier returns a question string or None, not {type(reply).__name__}")
    text = reply.strip()
    return Question(text=text, raw=reply, valid=bool(text), problem="" if text else "empty")
