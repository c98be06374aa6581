"""The turns of one clarification dialogue, read back from its answer records.

The pipeline builds the clarifier's history from them and the diagnostics (and the report frame through
them) count them, so both read a dialogue by the same rule: turns 1..k in order, ending early at the turn
where the clarifier declined to ask, and not there at all while one of those turns is not done.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cts_dataset.pipeline.store import record_key

# The finished record of a key: None when it is missing or its request failed.
Done = Callable[[str], dict[str, Any] | None]


def turn_key(instance: str, budget: int | None, turn: int, repeat: int = 0) -> str:
    """The record key of a dialogue turn (``budget`` None: the shared dialogue of the hidden budget)."""
    return record_key({"instance": instance, "condition": "clarify", "budget": budget, "turn": turn,
                       "repeat": repeat})


def answer_records(done: Done, instance: str, budget: int | None, upto: int,
                   repeat: int = 0) -> list[dict[str, Any]] | None:
    """The answer records of turns 1..upto, up to the turn where the clarifier stopped asking; None while
    a turn is not done (failed, or not played yet)."""
    found = []
    for turn in range(1, upto + 1):
        record = done(turn_key(instance, budget, turn, repeat))
        if record is None:
            return None
        found.append(record)
        if record.get("declined"):
            break
    return found


def invalid_question(record: dict[str, Any]) -> bool:
    """The clarifier's reply was no question (``skipped``: the field's name in older folders)."""
    return bool(record.get("invalid_question", record.get("skipped", False)))


def asked(record: dict[str, Any]) -> bool:
    """A question was put to the user at this turn (neither invalid nor declined)."""
    return not invalid_question(record) and not record.get("declined")
