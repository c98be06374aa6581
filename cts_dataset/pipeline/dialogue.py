"""The clarification dialogues of a run, played turn by turn across all instances at once.

Hidden budget (default): the clarifier is told only the turn index, so one dialogue per instance
serves every budget (the k=1 dialogue is the first turn of the k=3 one). Shown budget: each budget
k gets a dialogue of its own, the clarifier being told "question t of k".
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from cts_dataset.models.base import ChatModel
from cts_dataset.pipeline.store import RunStore, record_key
from cts_dataset.protocol import answerer, clarifier
from cts_dataset.protocol.roles import RoleSettings
from cts_dataset.protocol.views import QA, UNKNOWN, AnswererView, ClarifierView
from cts_dataset.records import Instance



class Progress(Protocol):
    def start(self, stage: str, total: int) -> None: ...

    def __call__(self, stage: str, done: int) -> None: ...


@dataclass(frozen=True)
class DialogueKey:
    instance: Instance
    budget: int | None  # None: the shared dialogue of the hidden-budget mode
    turns: int

    def key(self, turn: int) -> dict:
        return {"instance": self.instance.id, "condition": "clarify", "budget": self.budget, "turn": turn}


def dialogue_keys(instances: Sequence[Instance], budgets: Sequence[int], show_budget: bool) -> list[DialogueKey]:
    if show_budget:
        return [DialogueKey(i, k, k) for i in instances for k in budgets]
    return [DialogueKey(i, None, max(budgets)) for i in instances]


def history(store: RunStore, dialogue: DialogueKey, upto: int) -> tuple[QA, ...]:
    """The first ``upto`` turns of a dialogue as the clarifier saw them."""
    pairs = []
    for turn in range(1, upto + 1):
        record = store["answer"].get(record_key(dialogue.key(turn)))
        pairs.append(QA(record["question"], record["answer"]))
    return tuple(pairs)


def play(store: RunStore, dialogues: Sequence[DialogueKey], clarifier_model: ChatModel, answerer_model: ChatModel,
         settings: dict[str, RoleSettings], prompt_ids: dict[str, dict[str, str]], batch: int,
         progress: Progress) -> None:
    """Ask and answer turn by turn; each turn is one clarifier batch and one answerer batch."""
    for turn in range(1, max((d.turns for d in dialogues), default=0) + 1):
        active = [d for d in dialogues if d.turns >= turn]
        todo = [d for d in active if record_key(d.key(turn)) not in store["clarify"]]
        progress.start(f"clarify turn {turn}", len(todo))
        for start in range(0, len(todo), batch):
            chunk = todo[start:start + batch]
            views = [ClarifierView(d.instance.blurred_query, d.instance.language, history(store, d, turn - 1), turn,
                                   d.budget) for d in chunk]
            questions = clarifier.ask(clarifier_model, views, settings["clarifier"], [str(d.key(turn)) for d in chunk])
            store["clarify"].append(
                {**d.key(turn), "question": q.text, "valid": q.valid, "raw": q.raw, "model": clarifier_model.spec,
                 **prompt_ids["clarifier"][d.instance.language]} for d, q in zip(chunk, questions))
            progress(f"clarify turn {turn}", len(chunk))
        todo = [d for d in active if record_key(d.key(turn)) not in store["answer"]]
        progress.start(f"answer turn {turn}", len(todo))
        for start in range(0, len(todo), batch):
            chunk = todo[start:start + batch]
            asked = [store["clarify"].get(record_key(d.key(turn))) for d in chunk]
            callable_ = [(d, q) for d, q in zip(chunk, asked) if q["valid"]]
            views = [AnswererView(d.instance.fused_query, d.instance.language, q["question"]) for d, q in callable_]
            answers = answerer.answer(answerer_model, views, settings["user_answerer"], [str(d.key(turn)) for d, _ in callable_]) if views else []
            by_id = {id(d): a for (d, _), a in zip(callable_, answers)}
            records = []
            for d, q in zip(chunk, asked):
                a = by_id.get(id(d))
                records.append({
                    **d.key(turn), "question": q["question"],
                    "answer": a.text if a else UNKNOWN, "unknown": a.is_unknown if a else True,
                    "skipped": a is None, "parsed": a.parsed if a else False,
                    "unsupported": list(a.unsupported) if a else [], "raw": a.raw if a else "",
                    "model": answerer_model.spec, **prompt_ids["user_answerer"][d.instance.language],
                })
            store["answer"].append(records)
            progress(f"answer turn {turn}", len(chunk))
