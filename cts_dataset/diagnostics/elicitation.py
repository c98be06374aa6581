"""Did the dialogue find what the blurred query lost? Per removed-constraint type and k: the share of
dialogues where some question targeted that type and where some answer revealed its value; questions
that ask a type already asked; answers that reveal more than the question asked."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cts_dataset.diagnostics.questions import asked_turns
from cts_dataset.diagnostics.runfolder import Run, rate
from cts_dataset.diagnostics.types import CONSTRAINT_TYPES

# Types that name one kind of constraint: asking one twice asks the same thing again. `other` and `none`
# lump unrelated things together, so a repeat of them is not counted as redundant.
_REPEATABLE = ("other", "none")


def by_constraint_type(run: Run, types: Mapping[str, str]) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for kind in CONSTRAINT_TYPES:
        having = [i for i in run.instances if any(c.type.value == kind for c in i.removed_constraints)]
        at_k = {}
        for k in run.budgets:
            dialogues = [(i, d) for i in having for r in range(run.repeats) if (d := run.dialogue(i.id, k, r)) is not None]
            values = {i.id: {c.value for c in i.removed_constraints if c.type.value == kind} for i, _ in dialogues}
            targeted = sum(any(t.asked and types[t.question] == kind for t in d) for _, d in dialogues)
            revealed = sum(any(not t.unknown and any(ct == kind and v in values[i.id] for ct, v in t.revealed)
                               for t in d if t.asked) for i, d in dialogues)
            at_k[str(k)] = {"dialogues": len(dialogues), "targeted": targeted,
                            "targeted_rate": rate(targeted, len(dialogues)),
                            "revealed": revealed, "revealed_rate": rate(revealed, len(dialogues))}
        found[kind] = {"instances": len(having), "at_k": at_k}
    return found


def redundant(run: Run, types: Mapping[str, str]) -> dict[str, Any]:
    """Per k: questions (from turn 2) whose type an earlier question of the same dialogue already asked."""
    found = {}
    for k in run.budgets:
        dialogues = [d for i in run.instances for r in range(run.repeats) if (d := run.dialogue(i.id, k, r)) is not None]
        later = repeated = with_repeat = 0
        for d in dialogues:
            seen: set[str] = set()
            hit = False
            for t in (t for t in d if t.asked):
                kind = types[t.question]
                if seen:
                    later += 1
                if kind in seen and kind not in _REPEATABLE:
                    repeated += 1
                    hit = True
                seen.add(kind)
            with_repeat += hit
        found[str(k)] = {"later_questions": later, "redundant": repeated, "rate": rate(repeated, later),
                         "dialogues": len(dialogues), "dialogues_with_redundant": with_repeat,
                         "dialogues_rate": rate(with_repeat, len(dialogues))}
    return found


def over_disclosure(run: Run, types: Mapping[str, str]) -> dict[str, Any]:
    """Answers beyond the question (the pipeline's measure: two or more constraints, or most of the
    intent's hidden words), and answers revealing a constraint of a type the question did not ask."""
    answered = [t for t in asked_turns(run) if t.asked and not t.unknown]
    beyond = sum(t.beyond_question for t in answered)
    unasked = sum(any(kind != types[t.question] for kind, _ in t.revealed) for t in answered)
    return {"answers": len(answered), "beyond_question": beyond, "beyond_question_rate": rate(beyond, len(answered)),
            "revealed_unasked_type": unasked, "revealed_unasked_type_rate": rate(unasked, len(answered))}


def elicitation(run: Run, types: Mapping[str, str]) -> dict[str, Any]:
    if "clarify" not in run.conditions:
        return {}
    return {"by_constraint_type": by_constraint_type(run, types), "redundant": redundant(run, types),
            "over_disclosure": over_disclosure(run, types)}
