"""A finished (or half-finished) run folder as the diagnostics read it: the stage records by key, the
dialogues turn by turn, the judged scores and the model-call trace.

Files are read without taking their write locks (a running pipeline may hold them) and only up to
their last complete line. The later line of a key wins; a record with an ``error`` is a failed request:
it is counted, never used.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cts_dataset.collector import collector_paused
from cts_dataset.errors import CtsbenchError
from cts_dataset.log import log_records
from cts_dataset.pipeline.store import RunStore, record_key
from cts_dataset.pipeline.turns import answer_records, invalid_question, turn_key
from cts_dataset.records import Instance
from cts_dataset.scoring.repeats import instance_means

STAGES = RunStore.STAGES
CONDITIONS = ("baseline", "clarify", "oracle")


class RunFolderError(CtsbenchError, ValueError):
    """A folder that is not a run folder (a corrupt record line is a :class:`cts_dataset.log.LogError`)."""


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    """The complete lines of a JSONL file, [] when there is none. Read as the logs read themselves
    (:func:`cts_dataset.log.log_records`): a torn last line is a write in flight, not a record; a corrupt
    line, or one that is not a JSON object, raises :class:`cts_dataset.log.LogError` naming file and line."""
    return [record for _, record in log_records(path)] if path.is_file() else []


@dataclass(frozen=True)
class Tag:
    """A record key (a call's ``tag``) read back: instance|condition|budget|turn[|rN]."""

    instance: str
    condition: str
    budget: int | None
    turn: int | None
    repeat: int

    @staticmethod
    def parse(tag: str) -> Tag | None:
        parts = tag.split("|")
        if len(parts) < 4 or parts[1] not in CONDITIONS:
            return None
        try:
            budget = None if parts[2] in ("", "None") else int(parts[2])
            turn = int(parts[3]) if parts[3] not in ("", "None") else None
            repeat = int(parts[4][1:]) if len(parts) > 4 and parts[4].startswith("r") else 0
        except ValueError:
            return None
        return Tag(parts[0], parts[1], budget, turn, repeat)

    @property
    def label(self) -> str:
        """The condition as the summary names it; a hidden-budget dialogue turn serves every k."""
        if self.condition != "clarify":
            return self.condition
        return f"clarify@{self.budget}" if self.budget is not None else "clarify dialogue"


@dataclass(frozen=True)
class Turn:
    """One answered turn of a dialogue (from its answer record)."""

    turn: int
    question: str
    invalid: bool  # the clarifier's reply was no question: nothing was asked
    declined: bool  # the clarifier chose not to ask: nothing was asked and the dialogue ended here
    unknown: bool
    revealed: tuple[tuple[str, str], ...]  # removed constraints (type, value) the answer states
    beyond_question: bool

    @staticmethod
    def of(turn: int, record: dict[str, Any]) -> Turn:
        """The turn of a finished answer record."""
        disclosure = record.get("disclosure") or {}
        invalid, declined = invalid_question(record), bool(record.get("declined"))
        return Turn(turn=turn, question=str(record.get("question") or ""), invalid=invalid, declined=declined,
                    unknown=bool(record.get("unknown")) and not invalid and not declined,
                    revealed=tuple((str(c["type"]), str(c["value"])) for c in disclosure.get("constraints") or []),
                    beyond_question=bool(disclosure.get("beyond_question")))

    @property
    def asked(self) -> bool:
        return not self.invalid and not self.declined

    @property
    def status(self) -> str:
        if self.declined:
            return "declined"
        return "invalid" if self.invalid else "unknown" if self.unknown else "answered"


@dataclass
class Run:
    """The records of one folder, indexed for the diagnostics."""

    config: dict[str, Any]
    records: dict[str, dict[str, dict[str, Any]]]  # stage -> key -> record (errors included)
    calls: list[dict[str, Any]]
    instances: list[Instance]
    _scores: dict[tuple[str, str, int | None, int], float] = field(default_factory=dict)
    # Each measure reads every dialogue again: built once from the records, which do not change.
    _dialogues: dict[tuple[str, int, int], list[Turn] | None] = field(default_factory=dict)

    @property
    def budgets(self) -> list[int]:
        return sorted(self.config.get("budgets") or [1, 2, 3])

    @property
    def show_budget(self) -> bool:
        return bool(self.config.get("show_budget"))

    @property
    def repeats(self) -> int:
        return int(self.config.get("repeats") or 1)

    @property
    def conditions(self) -> list[str]:
        return list(self.config.get("conditions") or CONDITIONS)

    @property
    def known(self) -> set[str]:
        return {i.id for i in self.instances}

    def done(self, stage: str) -> Iterator[dict[str, Any]]:
        return (r for r in self.records[stage].values() if not r.get("error"))

    def errors(self) -> dict[str, int]:
        """Failed requests standing for the run's instances (a folder may hold records of others, from an
        earlier --limit or --ids); failed calls tagged with another instance are left out likewise."""
        known = self.known
        found = {stage: sum(1 for r in self.records[stage].values() if r.get("error") and r.get("instance") in known)
                 for stage in STAGES}
        tags = (Tag.parse(str(c.get("tag") or "")) for c in self.calls if c.get("error"))
        found["calls"] = sum(1 for tag in tags if tag is None or tag.instance in known)
        return found

    def answer(self, key: str) -> dict[str, Any] | None:
        """The finished answer record of a key (None when missing or failed)."""
        record = self.records["answer"].get(key)
        return None if record is None or record.get("error") else record

    def turn(self, instance: str, group: int | None, turn: int, repeat: int) -> Turn | None:
        record = self.answer(turn_key(instance, group, turn, repeat))
        return None if record is None else Turn.of(turn, record)

    def dialogue(self, instance: str, k: int, repeat: int) -> list[Turn] | None:
        """The turns of the dialogue that clarify@k rewrote: the first k, or fewer when the clarifier
        declined to ask (that turn ends it); None while one of them is not done. The pipeline builds the
        clarifier's history by the same rule (:func:`~cts_dataset.pipeline.turns.answer_records`)."""
        key = (instance, k, repeat)
        if key not in self._dialogues:
            group = k if self.show_budget else None
            found = answer_records(self.answer, instance, group, k, repeat)
            self._dialogues[key] = None if found is None else [Turn.of(n, r) for n, r in enumerate(found, start=1)]
        turns = self._dialogues[key]
        return None if turns is None else list(turns)

    def score(self, instance: str, condition: str, budget: int | None, repeat: int = 0) -> float | None:
        if not self._scores:
            for r in self.done("judge"):
                value = r.get("restore_score_100")
                if value is not None:
                    self._scores[(r["instance"], r["condition"], r.get("budget"), r.get("repeat") or 0)] = float(value)
        return self._scores.get((instance, condition, budget, repeat))

    def instance_score(self, instance: str, condition: str, budget: int | None) -> float | None:
        """clarify@k: the mean over the repeats judged; baseline and oracle: their one score."""
        rounds = range(self.repeats) if condition == "clarify" else range(1)
        return instance_means((instance, self.score(instance, condition, budget, r)) for r in rounds).get(instance)


def read_run(folder: Path, instances: Sequence[Instance] | None = None,
             records: Mapping[str, dict[str, dict[str, Any]]] | None = None) -> Run:
    """Read a run folder; without ``instances``, load those its config names (honouring the limit).
    ``records``: the stage records by key as the writer of the folder holds them (its
    :class:`~cts_dataset.pipeline.store.RunStore`: what the stage files hold), so the run that has just
    written them does not read every file back."""
    folder = Path(folder)
    path = folder / "config.json"
    if not path.is_file():
        raise RunFolderError(f"{folder}: not a run folder (no config.json)")
    stored = json.loads(path.read_text(encoding="utf-8"))
    config = stored.get("config") or {}
    if instances is None:
        from cts_dataset.pipeline.components import load_instances
        from cts_dataset.pipeline.config import RunConfig

        instances = load_instances(RunConfig.model_validate(config))
    by_stage = {}
    for stage in STAGES:
        if records is not None:
            by_stage[stage] = records[stage]
            continue
        by_key: dict[str, dict[str, Any]] = {}
        with collector_paused():
            for record in read_jsonl(folder / f"{stage}.jsonl"):
                by_key[record_key(record)] = record
        by_stage[stage] = by_key
    return Run(config=config, records=by_stage, calls=read_jsonl(folder / "calls.jsonl"), instances=list(instances))


def mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


def rate(count: int, total: int) -> float | None:
    return count / total if total else None
