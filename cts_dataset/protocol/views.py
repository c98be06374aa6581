"""What each role may see, as distinct types: leakage is prevented by construction.

Only the orchestrator holds a whole Instance. The Clarifier and the Rewriter get views built from
the blurred query and the dialogue; only the User Answerer's view carries the fused query.
"""

from __future__ import annotations

from dataclasses import dataclass

UNKNOWN = "unknown"


@dataclass(frozen=True)
class QA:
    """One clarifying question and the user's answer (``unknown`` when the intent does not say)."""

    question: str
    answer: str

    @property
    def is_unknown(self) -> bool:
        return self.answer == UNKNOWN


@dataclass(frozen=True)
class ClarifierView:
    """The Clarifier sees the blurred query and its own earlier turns; the budget only if shown.

    ``constraint_types`` is filled only for a reference clarifier declared to see the types (never the
    values) of the instance's removed constraints (``oracle-types``); a run declares it."""

    blurred_query: str
    language: str
    history: tuple[QA, ...]
    turn: int
    budget: int | None = None
    constraint_types: tuple[str, ...] | None = None


@dataclass(frozen=True)
class AnswererView:
    """The User Answerer sees the hidden intent, one question and, optionally, its own query (a user
    knows what they typed: a choosing answerer offers first what the query left out)."""

    fused_query: str
    language: str
    question: str
    blurred_query: str = ""


@dataclass(frozen=True)
class RewriterView:
    """The Rewriter sees the blurred query and the elicited questions and answers, never the intent."""

    blurred_query: str
    language: str
    dialogue: tuple[QA, ...]
