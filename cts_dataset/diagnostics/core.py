"""``diagnose``: the failure analysis of one run folder, from its records alone (no model call unless an
LLM classifier is given). The same folder, wherever it lies, gives the same dict."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol

from cts_dataset.diagnostics.cost import cost
from cts_dataset.diagnostics.elicitation import elicitation
from cts_dataset.diagnostics.llm import agreement
from cts_dataset.diagnostics.questions import asked_turns, question_types
from cts_dataset.diagnostics.rules import NAME as RULES
from cts_dataset.diagnostics.rules import classify
from cts_dataset.diagnostics.runfolder import Run, rate, read_run
from cts_dataset.diagnostics.search_stats import search_stats
from cts_dataset.diagnostics.types import QUESTION_TYPES
from cts_dataset.diagnostics.utility import (
    SHOWN_BUDGET_NOTE,
    gains_over_baseline,
    marginal_gain,
    restoration,
    steps,
)
from cts_dataset.records import Instance

VERSION = 2  # 2: restoration as a ratio of mean gains; cost per instance and repeat


class Classifier(Protocol):
    name: str

    def classify(self, questions: Sequence[str]) -> list[str | None]: ...


class RuleTypes(dict[str, str]):
    """Question text -> rule type, each distinct question classified once, when first looked up."""

    def __missing__(self, question: str) -> str:
        self[question] = found = classify(question)
        return found


def diagnose(folder: Path, instances: Sequence[Instance] | None = None,
             llm_classifier: Classifier | None = None,
             records: Mapping[str, dict[str, dict[str, Any]]] | None = None) -> dict[str, Any]:
    """The diagnostics of a run folder (see the package docstring for the keys); ``records``: the stage
    records its writer holds (:func:`~.runfolder.read_run`)."""
    run = read_run(Path(folder), instances, records)
    types = RuleTypes()
    found: dict[str, Any] = {"version": VERSION, "run": _run_facts(run), "errors": run.errors()}
    if "clarify" in run.conditions:
        found_steps = steps(run, types)
        found["question_types"] = {"classifier": RULES, **question_types(run, types, found_steps)}
        if llm_classifier is not None:
            found["question_types"]["llm_classifier"] = _compare(run, types, llm_classifier)
        found["elicitation"] = elicitation(run, types)
        found["utility"] = {"marginal_gain": marginal_gain(found_steps, run.budgets),
                            "restoration_rate": restoration(run)}
        if run.show_budget:
            found["utility"]["marginal_gain_note"] = SHOWN_BUDGET_NOTE
    found["cost"] = cost(run, gains_over_baseline(run))
    found["search"] = search_stats(run)
    return found


def _run_facts(run: Run) -> dict[str, Any]:
    return {"instances": len(run.instances), "dataset": run.config.get("dataset"), "limit": run.config.get("limit"),
            "budgets": run.budgets, "show_budget": run.show_budget, "repeats": run.repeats,
            "conditions": run.conditions}


def _compare(run: Run, types: RuleTypes, classifier: Classifier) -> dict[str, Any]:
    questions = [t.question for t in asked_turns(run) if t.asked]
    labels = classifier.classify(questions)
    labelled = [x for x in labels if x is not None]
    return {"classifier": classifier.name, "questions": len(questions),
            "share": {kind: rate(labelled.count(kind), len(labelled)) for kind in QUESTION_TYPES},
            "agreement_with_rules": agreement([types[q] for q in questions], labels)}
