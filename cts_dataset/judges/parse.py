"""Strict parsing of an LLM judge's labels, tolerant only of wrapping (code fences, prose around the JSON).

Strict: exactly the expected number of labels, each one of the three, and, when entries carry a nugget
number, numbered 1..n in order. Anything else raises :class:`LabelParseError`.
"""

from __future__ import annotations

import json
import re
from typing import Any

from cts_dataset.scoring.labels import LABELS, Label

_FENCE = re.compile(r"```(?:json|JSON)?\s*(.*?)```", re.DOTALL)


class LabelParseError(ValueError):
    """The output holds no usable label list."""


def labels_schema(count: int) -> dict[str, Any]:
    """The JSON schema the judge is asked to fill (sent as structured output where the backend can)."""
    entry = {
        "type": "object",
        "properties": {"nugget": {"type": "integer"}, "label": {"type": "string", "enum": list(LABELS)}},
        "required": ["nugget", "label"],
        "additionalProperties": False,
    }
    return {
        "type": "object",
        "properties": {"labels": {"type": "array", "items": entry, "minItems": count, "maxItems": count}},
        "required": ["labels"],
        "additionalProperties": False,
    }


def _json_values(text: str) -> list[Any]:
    """Every JSON object or array found in the text, fenced blocks first, then left to right."""
    decoder = json.JSONDecoder()
    candidates = [m.group(1) for m in _FENCE.finditer(text)] + [text]
    values = []
    for chunk in candidates:
        position = 0
        while True:
            starts = [i for i in (chunk.find("{", position), chunk.find("[", position)) if i >= 0]
            if not starts:
                break
            start = min(starts)
            try:
                value, end = decoder.raw_decode(chunk, start)
            except json.JSONDecodeError:
                position = start + 1
                continue
            values.append(value)
            position = end
    return values


def _label_list(value: Any) -> list[Any] | None:
    """The label entries of a decoded value; a bare list counts only if it looks like labels."""
    if isinstance(value, dict) and isinstance(value.get("labels"), list):
        return value["labels"]
    if isinstance(value, list) and value and all(isinstance(v, (str, dict)) for v in value):
        return value
    return None


def _one_label(entry: Any, position: int) -> Label:
    if isinstance(entry, dict):
        number = entry.get("nugget")
        if number is not None and number != position:
            raise LabelParseError(f"entry {position} is numbered {number!r}: labels out of order")
        entry = entry.get("label")
    if isinstance(entry, str) and entry.strip().lower() in LABELS:
        return entry.strip().lower()  # type: ignore[return-value]
    raise LabelParseError(f"entry {position}: {entry!r} is not one of {', '.join(LABELS)}")


def parse_labels(text: str, count: int) -> list[Label]:
    """The ``count`` labels in the output, in nugget order; LabelParseError otherwise."""
    values = _json_values(text)
    # An object with "labels" wins over a bare list (prose may hold stray brackets like "[1]").
    labelled = [v["labels"] for v in values if isinstance(v, dict) and isinstance(v.get("labels"), list)]
    lists = labelled or [found for found in map(_label_list, values) if found is not None]
    if not lists:
        raise LabelParseError("no JSON label list in the output")
    entries = lists[0]
    if len(entries) != count:
        raise LabelParseError(f"expected {count} labels, got {len(entries)}")
    return [_one_label(entry, position) for position, entry in enumerate(entries, start=1)]
