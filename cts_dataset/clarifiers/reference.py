"""Reference clarifiers that place a clarifier on the scale of the protocol: ``none`` (never asks: equals
the baseline), ``template:<type>`` (one fixed question about a constraint type per turn), and
``oracle-types`` (asks about the types of the instance's removed constraints in order: an upper
reference for question choice that sees what a real clarifier must not, never a leaderboard entry)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from cts_dataset.errors import CtsbenchError
from cts_dataset.protocol.views import ClarifierView

# One plain question per constraint type of the data, in each language.
TEMPLATES: dict[str, dict[str, str]] = {
    "time": {"en": "Which time or period do you mean?", "zh": "您指的是哪个时间或时期？"},
    "region": {"en": "Which place or region do you mean?", "zh": "您指的是哪个地点或地区？"},
    "scope": {"en": "Which part or aspect of it do you want to know about?", "zh": "您想了解其中的哪个方面或范围？"},
    "entity": {"en": "Which specific person, thing or organisation do you mean?", "zh": "您指的是哪个具体的人、事物或机构？"},
    "number": {"en": "What number, amount or rank do you have in mind?", "zh": "您指的是哪个数字、数量或名次？"},
    "definition": {"en": "Which meaning or definition do you have in mind?", "zh": "您指的是哪种含义或定义？"},
    "other": {"en": "What other detail should narrow the search?", "zh": "还有什么细节可以缩小搜索范围？"},
}


class NoneClarifier:
    """Never asks: clarify@k must equal the baseline (a check of the pipeline)."""

    name = spec = "reference:none"
    identity: ClassVar[dict[str, str]] = {"reference": "none"}

    def ask(self, views: Sequence[ClarifierView]) -> list[None]:
        return [None for _ in views]


class TemplateClarifier:
    """Asks the same question about one constraint type at every turn."""

    def __init__(self, kind: str) -> None:
        if kind not in TEMPLATES:
            raise CtsbenchError(f"template:{kind}: unknown constraint type; known: {', '.join(TEMPLATES)}")
        self.kind = kind
        self.name = self.spec = f"reference:template:{kind}"
        self.identity = {"reference": "template", "type": kind, "questions": TEMPLATES[kind]}

    def ask(self, views: Sequence[ClarifierView]) -> list[str]:
        return [TEMPLATES[self.kind][v.language] for v in views]


class OracleTypesClarifier:
    """Asks, in order, about the types of the instance's removed constraints; then stops asking."""

    name = spec = "reference:oracle-types"
    sees_constraint_types = True
    identity: ClassVar[dict[str, object]] = {"reference": "oracle-types", "questions": TEMPLATES}

    def ask(self, views: Sequence[ClarifierView]) -> list[str | None]:
        out: list[str | None] = []
        for view in views:
            types = list(dict.fromkeys(view.constraint_types or ()))
            out.append(TEMPLATES[types[view.turn - 1]][view.language] if view.turn <= len(types) else None)
        return out


def reference_clarifier(name: str) -> object | None:
    """The reference clarifier a name denotes (None when it denotes none)."""
    if name == "none":
        return NoneClarifier()
    if name == "oracle-types":
        return OracleTypesClarifier()
    if name.startswith("template:"):
        return TemplateClarifier(name.removeprefix("template:"))
    return None
