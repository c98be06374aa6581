"""The clarification dialogues of a run, played turn by turn across all instances at once.

Hidden budget (default): the clarifier is told only the turn index, so one dialogue per instance
serves every budget (the k=1 dialogue is the first turn of the k=3 one). Shown budget: each budget
k gets a dialogue of its own, the clarifier being told "question t of k". With repeats, each repeat
is a dialogue of its own (another sample of the sampled roles).

Every clarifier request is audited for intent words (it must hold none), every answer is measured for
what it discloses; a failed request is an error record, and its dialogue waits for a rerun.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from cts_dataset.clarifiers.base import as_question
from cts_dataset.clarifiers.model import ModelClarifier
from cts_dataset.pipeline.store import RunStore, record_key
from cts_dataset.pipeline.turns import answer_records, asked
from cts_dataset.protocol import answerer, guards
from cts_dataset.protocol.views import QA, UNKNOWN, AnswererView, ClarifierView
from cts_dataset.records import Instance


@dataclass(frozen=True)
class DialogueKey:
    instance: Instance
    budget: int | None  # None: the shared dialogue of the hidden-budget mode
    turns: int
    repeat: int = 0

    def key(self, turn: int) -> dict[str, Any]:
        return {"instance": self.instance.id, "condition": "clarify", "budget": self.budget, "turn": turn,
                "repeat": self.repeat}


def dialogue_keys(instances: Sequence[Instance], budgets: Sequence[int], show_budget: bool,
                  repeats: int = 1) -> list[DialogueKey]:
    if show_budget:
        return [DialogueKey(i, k, k, r) for r in range(repeats) for i in instances for k in budgets]
    return [DialogueKey(i, None, max(budgets), r) for r in range(repeats) for i in instances]


def _turns(store: RunStore, dialogue: DialogueKey, upto: int) -> list[dict[str, Any]] | None:
    """The answer records of turns 1..upto (:func:`~cts_dataset.pipeline.turns.answer_records`)."""
    return answer_records(store["answer"].get, dialogue.instance.id, dialogue.budget, upto, dialogue.repeat)


def turns_done(store: RunStore, dialogue: DialogueKey, upto: int) -> bool:
    return _turns(store, dialogue, upto) is not None


def ended(store: RunStore, dialogue: DialogueKey, before: int) -> bool:
    """The clarifier declined at a turn before ``before``: nothing more is asked."""
    found = _turns(store, dialogue, before - 1)
    return bool(found) and bool(found[-1].get("declined"))


def history(store: RunStore, dialogue: DialogueKey, upto: int) -> tuple[QA, ...]:
    """The questions asked among the first ``upto`` turns and their answers, as the clarifier saw them
    (a turn whose question was invalid, or where the clarifier declined, asked nothing)."""
    found = _turns(store, dialogue, upto)
    if found is None:
        raise LookupError(f"{record_key(dialogue.key(upto))}: a turn of this dialogue is not done")
    return tuple(QA(r["question"], r["answer"]) for r in found if asked(r))


def questions_asked(store: RunStore, dialogue: DialogueKey, upto: int) -> int:
    """Questions actually asked in the first ``upto`` turns."""
    return len(history(store, dialogue, upto))


def play(run: Any, dialogues: Sequence[DialogueKey]) -> None:
    """Ask and answer turn by turn; each turn is one clarifier batch and one answerer batch.

    ``run`` is the :class:`~cts_dataset.pipeline.experiment.Experiment` (store, models, settings, ...).
    """
    store: RunStore = run.store
    for turn in range(1, max((d.turns for d in dialogues), default=0) + 1):
        active = [d for d in dialogues if d.turns >= turn and turns_done(store, d, turn - 1)
                  and not ended(store, d, turn)]
        todo = [d for d in active if record_key(d.key(turn)) not in store["clarify"]]
        run.progress.start(f"clarify turn {turn}", len(todo))
        asker = getattr(run.clarifier, "model", None)
        for chunk in run.chunks(todo, by_repeat=True, model=asker):
            ask_chunk(run, chunk, turn)
        todo = [d for d in active if record_key(d.key(turn)) in store["clarify"]
                and record_key(d.key(turn)) not in store["answer"]]
        run.progress.start(f"answer turn {turn}", len(todo))
        for chunk in run.chunks(todo, by_repeat=True, model=run.models.get("user_answerer")):
            answer_chunk(run, chunk, turn)


def ask_chunk(run: Any, chunk: Sequence[DialogueKey], turn: int) -> None:
    asker = run.clarifier
    sees_types = bool(getattr(asker, "sees_constraint_types", False))
    views = [ClarifierView(d.instance.blurred_query, d.instance.language, history(run.store, d, turn - 1), turn,
                           d.budget, tuple(c.type.value for c in d.instance.removed_constraints) if sees_types else None)
             for d in chunk]
    tags = [record_key(d.key(turn)) for d in chunk]
    recorder = None
    if isinstance(asker, ModelClarifier):  # its requests are audited
        recorder = run.recorder(asker.model)
        model_asker = ModelClarifier(recorder, run.role_settings("clarifier"), reask=run.config.clarifier_reask)
        questions = model_asker.ask(views, tags, chunk[0].repeat)
    else:
        replies = asker.ask(views)
        if len(replies) != len(views):
            raise RuntimeError(f"clarifier {run.clarifier_label}: {len(replies)} replies to {len(views)} views")
        questions = [as_question(r) for r in replies]
    records = []
    for d, view, q, tag in zip(chunk, views, questions, tags, strict=True):
        request = recorder.requests.get(tag) if recorder is not None else None
        dialogue = [text for qa in view.history for text in (qa.question, qa.answer)]
        values = [str(turn), str(d.budget or ""), *map(str, range(1, turn + 1))]
        leaks = guards.audit(request, d.instance, dialogue, run.prompt("clarifier", d.instance.language),
                             values) if request is not None else []
        records.append({**d.key(turn), "question": q.text, "valid": q.valid, "declined": q.declined, "raw": q.raw,
                        "error": q.error, "empty_at_length": q.empty_at_length, "problem": q.problem,
                        "reasked": q.reasked, "first_raw": q.first_raw, "leaks": leaks, "model": run.clarifier_label,
                        **run.prompt_ids["clarifier"][d.instance.language]})
    run.write("clarify", records)
    run.progress(f"clarify turn {turn}", len(chunk))


def answer_chunk(run: Any, chunk: Sequence[DialogueKey], turn: int) -> None:
    model = run.models["user_answerer"]
    asked = [run.store["clarify"].get(record_key(d.key(turn))) for d in chunk]
    callable_ = [(d, q) for d, q in zip(chunk, asked, strict=True) if q["valid"]]
    views = [AnswererView(d.instance.fused_query, d.instance.language, q["question"], d.instance.blurred_query)
             for d, q in callable_]
    tags = [record_key(d.key(turn)) for d, _ in callable_]
    settings = run.role_settings("user_answerer", chunk[0].repeat)
    if not views:
        answers = []
    elif callable(getattr(model, "answer_views", None)):  # a person at the terminal: recorded as typed
        answers = [answerer.Answer(text=answerer.normalise(text), raw=text, parsed=True, unsupported=unsupported)
                   for text, unsupported in model.answer_views(views)]
    else:
        answers = answerer.answer(model, views, settings, tags, mode=run.config.answer_mode)
    by_key = {record_key(d.key(turn)): a for (d, _), a in zip(callable_, answers, strict=True)}
    records = []
    for d, q in zip(chunk, asked, strict=True):
        a = by_key.get(record_key(d.key(turn)))
        record: dict[str, Any] = {**d.key(turn), "question": q["question"], "model": model.spec,
                                  **run.prompt_ids["user_answerer"][d.instance.language]}
        if q.get("declined"):  # the clarifier stopped asking: the dialogue ends at this turn
            record.update(answer="", unknown=False, invalid_question=False, declined=True, parsed=False,
                          unsupported=[], raw="", error="", disclosure=guards.disclosure("", d.instance))
        elif a is None:  # an invalid question asks nothing: no answer, counted apart from unknown
            record.update(answer=UNKNOWN, unknown=False, invalid_question=True, parsed=False, unsupported=[],
                          raw="", error="", disclosure=guards.disclosure("", d.instance))
        else:
            record.update(answer=a.text, unknown=a.is_unknown, invalid_question=False, parsed=a.parsed,
                          unparsed=not a.parsed and not a.error, unsupported=list(a.unsupported), raw=a.raw,
                          error=a.error, empty_at_length=a.empty_at_length, replaced=a.replaced,
                          decided_by=a.decided_by,
                          disclosure=guards.disclosure("" if a.is_unknown else a.text, d.instance))
        records.append(record)
    run.write("answer", records)
    run.progress(f"answer turn {turn}", len(chunk))
