"""What the clarifier asked: the share of each question type, its unknown rate and the score gain when
asked, by turn, and the region-only dialogues (every question about region) with their unknown rate.

Counts run over every question the run asked once: in the hidden-budget mode each dialogue once (its
turns serve every k), with a shown budget the dialogues of every budget. Invalid replies and turns where
the clarifier declined to ask asked nothing: they are counted apart, never as unknown.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cts_dataset.diagnostics.runfolder import Run, Turn, mean, rate
from cts_dataset.diagnostics.types import QUESTION_TYPES
from cts_dataset.diagnostics.utility import Step


def asked_turns(run: Run) -> list[Turn]:
    """Every answered turn of the run's instances (failed requests left out), in file order."""
    found, known = [], run.known
    for record in run.done("answer"):
        if record.get("instance") not in known:
            continue
        turn = run.turn(record["instance"], record.get("budget"), int(record["turn"]), record.get("repeat") or 0)
        if turn is not None:
            found.append(turn)
    return found


def _type_rows(turns: Sequence[Turn], types: Mapping[str, str]) -> dict[str, Any]:
    asked = [t for t in turns if t.asked]
    rows = {}
    for kind in QUESTION_TYPES:
        of_type = [t for t in asked if types[t.question] == kind]
        unknown = sum(t.unknown for t in of_type)
        rows[kind] = {"asked": len(of_type), "share": rate(len(of_type), len(asked)), "unknown": unknown,
                      "unknown_rate": rate(unknown, len(of_type))}
    return rows


def question_types(run: Run, types: Mapping[str, str], found_steps: Sequence[Step]) -> dict[str, Any]:
    turns = asked_turns(run)
    asked = [t for t in turns if t.asked]
    per_type = _type_rows(turns, types)
    for kind, row in per_type.items():
        gains = [s.gain for s in found_steps if s.type == kind and s.status in ("answered", "unknown")]
        row["gain_when_asked"] = {"n": len(gains), "mean": mean(gains)}
    by_turn = {}
    for number in sorted({t.turn for t in turns}):
        at_turn = [t for t in turns if t.turn == number]
        valid = [t for t in at_turn if t.asked]
        by_turn[str(number)] = {"questions": len(valid), "invalid": sum(t.invalid for t in at_turn),
                                "declined": sum(t.declined for t in at_turn),
                                "unknown_rate": rate(sum(t.unknown for t in valid), len(valid)),
                                "types": {k: v for k, v in _type_rows(at_turn, types).items() if v["asked"]}}
    return {
        "questions": len(asked),
        "invalid_questions": sum(t.invalid for t in turns),
        "declined": sum(t.declined for t in turns),
        "unknown_rate": rate(sum(t.unknown for t in asked), len(asked)),
        "per_type": per_type,
        "by_turn": by_turn,
        "region_only": region_only(run, types),
    }


def region_only(run: Run, types: Mapping[str, str]) -> dict[str, Any]:
    """Per k: dialogues (with at least one question) whose every question is about region, and the
    unknown rate of the questions of those dialogues."""
    found = {}
    for k in run.budgets:
        dialogues = [d for i in run.instances for r in range(run.repeats)
                     if (d := run.dialogue(i.id, k, r)) is not None and any(t.asked for t in d)]
        only = [[t for t in d if t.asked] for d in dialogues]
        only = [d for d in only if all(types[t.question] == "region" for t in d)]
        questions = [t for d in only for t in d]
        found[str(k)] = {"dialogues": len(dialogues), "region_only": len(only), "rate": rate(len(only), len(dialogues)),
                         "questions": len(questions),
                         "unknown_rate": rate(sum(t.unknown for t in questions), len(questions))}
    return found
