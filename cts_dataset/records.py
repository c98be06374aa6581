"""Typed records for every file ctsbench reads or writes.

These models are the one source of truth: the JSON Schemas in ``cts_dataset/schemas/`` and the
Hugging Face ``datasets.Features`` are derived from them (a test keeps all three in step).
"""

from __future__ import annotations

from enum import Enum
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9._:/()'\-,+&!]*$"


class ConstraintType(str, Enum):
    """The kinds of constraint a blurred query may have lost (the paper's taxonomy plus `other`)."""

    time = "time"
    region = "region"
    scope = "scope"
    entity = "entity"
    number = "number"
    definition = "definition"
    other = "other"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Constraint(_Strict):
    """One constraint present in the fused query and removed from the blurred one."""

    type: ConstraintType
    value: str = Field(min_length=1, description="The constraint as the fused query states it.")


class Nugget(_Strict):
    """An atomic, judgeable statement a good answer must contain, with its evidence."""

    text: str = Field(min_length=1)
    weight: float = Field(ge=0, description="Importance; restore_score weighs labels by it.")
    sources: list[str] = Field(description="Ids of the documents that state this nugget.")


class Instance(_Strict):
    """One benchmark item: the hidden intent, its blurred form and the golden nuggets."""

    id: str = Field(pattern=ID_PATTERN)
    language: Literal["en", "zh"]
    fused_query: str = Field(min_length=1, description="The hidden, fully specified intent q*.")
    blurred_query: str = Field(min_length=1, description="q* with constraints removed: what the system sees.")
    removed_constraints: list[Constraint] = Field(min_length=1)
    nuggets: list[Nugget] = Field(min_length=1)


class Document(_Strict):
    """One corpus document (a Wikipedia lead summary in the shipped corpus)."""

    id: str = Field(min_length=1, description="Stable id: the article title with spaces as underscores.")
    title: str = Field(min_length=1)
    description: str
    topic: str
    text: str = Field(min_length=1)


class SupportSentence(_Strict):
    """A sentence of a cited document that states a nugget, copied word for word."""

    nugget: int = Field(ge=0, description="The nugget's index in the instance's nuggets.")
    source: str = Field(min_length=1, description="The cited document's id.")
    sentence: str = Field(min_length=1)


class InstanceEvidence(_Strict):
    """A second reader's record of one instance: why its nuggets hold and why its query is ambiguous."""

    id: str = Field(pattern=ID_PATTERN)
    readings: list[str] = Field(min_length=2, description="Plausible readings of the blurred query, with different answers.")
    intent_states_place: bool = Field(description="Whether the fused query names any place.")
    support: list[SupportSentence] = Field(min_length=1, description="One sentence per nugget and cited source.")


class GoldRecord(_Strict):
    """The static gold for one intent query, as the official release stores it."""

    id: str = Field(min_length=1)
    query: str = Field(min_length=1, description="The intent query the gold was built from.")
    nuggets: list[Nugget] = Field(min_length=1)


class Candidate(BaseModel):
    """A search output to be scored against the gold of the same id."""

    model_config = ConfigDict(extra="allow", frozen=True)

    id: str = Field(min_length=1)
    answer: str = Field(description="The final text of the search system; may be empty.")
    system: str | None = None
    condition: str | None = None


RECORD_KINDS: dict[str, type[BaseModel]] = {
    "instance": Instance,
    "gold": GoldRecord,
    "document": Document,
    "candidate": Candidate,
    "evidence": InstanceEvidence,
}


def gold_of(instance: Instance) -> GoldRecord:
    """The gold record of an instance (the fused query is the intent the gold was built from)."""
    return GoldRecord(id=instance.id, query=instance.fused_query, nuggets=instance.nuggets)
