"""Cell and value parsing for the release's files: ids, languages, weights, source lists, constraints.

Each parser returns the value or raises ``ValueError`` with a message that the caller turns into a
``file:line: field: problem``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from typing import Any

from cts_dataset.errors import CtsbenchError
from cts_dataset.records import ID_PATTERN, ConstraintType
from cts_dataset.release.fields import normalise

_ID = re.compile(ID_PATTERN)
_BAD_ID_CHARS = re.compile(r"[^A-Za-z0-9._:/()'\-,+&!]+")

CONSTRAINT_TYPES: dict[str, ConstraintType] = {
    **{t.value: t for t in ConstraintType},
    "date": ConstraintType.time, "year": ConstraintType.time, "temporal": ConstraintType.time,
    "location": ConstraintType.region, "place": ConstraintType.region, "geo": ConstraintType.region,
    "area": ConstraintType.region, "country": ConstraintType.region, "city": ConstraintType.region,
    "numeric": ConstraintType.number, "quantity": ConstraintType.number, "amount": ConstraintType.number,
    "concept": ConstraintType.definition, "range": ConstraintType.scope,
    "时间": ConstraintType.time, "日期": ConstraintType.time, "年份": ConstraintType.time,
    "地点": ConstraintType.region, "地区": ConstraintType.region, "地域": ConstraintType.region,
    "区域": ConstraintType.region, "地理": ConstraintType.region, "范围": ConstraintType.scope,
    "实体": ConstraintType.entity, "对象": ConstraintType.entity, "数量": ConstraintType.number,
    "数字": ConstraintType.number, "数值": ConstraintType.number, "定义": ConstraintType.definition,
    "概念": ConstraintType.definition, "其他": ConstraintType.other,
}


def join_key(raw: Any) -> str:
    """How ids are compared across files: trimmed text, and numbers by value ("007" is 7, so is 7.0)."""
    text = str(raw).strip()
    if re.fullmatch(r"\d+(\.0+)?", text):
        return str(int(float(text)))
    return text


def instance_id(raw: Any) -> str:
    """An id our schema accepts: the release's id when it fits, else with each run of other characters as
    ``_`` (and an ``h`` in front when it starts with none of ours); the original stays in the manifest."""
    text = str(raw).strip()
    if _ID.fullmatch(text):
        return text
    cleaned = _BAD_ID_CHARS.sub("_", text).strip("_")
    if not cleaned:
        raise ValueError(f"id {raw!r} has no letter or digit")
    return cleaned if cleaned[0].isalnum() and cleaned[0].isascii() else f"h{cleaned}"


LANGUAGE_NAMES = {"en": "en", "english": "en", "英文": "en", "英语": "en",
                  "zh": "zh", "zh_cn": "zh", "zh_hans": "zh", "cn": "zh", "chinese": "zh", "中文": "zh", "汉语": "zh"}


def language(raw: str) -> str:
    found = LANGUAGE_NAMES.get(normalise(raw))
    if found is None:
        raise ValueError(f"unknown language {raw!r}; expected en or zh (or English/Chinese/中文)")
    return found


class UnmappedWeightLabel(ValueError):
    """A weight given as a label (vital, high...) that ``--weight-map`` does not give a number."""

    def __init__(self, label: str) -> None:
        self.label = label
        super().__init__(f"weight {label!r} is not a number, and no --weight-map gives it one "
                         f"(--weight-map {label}=NUMBER)")


def weight(raw: Any, labels: Mapping[str, float] | None = None) -> float:
    """A nugget weight: a number, a numeric string, or a label that ``labels`` (the user's ``--weight-map``,
    keys as :func:`~.fields.normalise` gives them) maps to a number; never negative.

    Label scales (vital/okay, high/medium/low) have no agreed numbers, and every restore_score depends on
    them, so a label is never given a number the user did not state."""
    if isinstance(raw, bool) or raw is None:
        raise ValueError(f"weight {raw!r} is not a number")
    if isinstance(raw, (int, float)):
        value = float(raw)
    else:
        text = str(raw).strip()
        try:
            value = float(text)
        except ValueError:
            if not normalise(text):
                raise ValueError(f"weight {raw!r} is neither a number nor a label") from None
            if normalise(text) not in (labels or {}):
                raise UnmappedWeightLabel(text) from None
            value = float((labels or {})[normalise(text)])
    if not value >= 0:
        raise ValueError(f"weight {raw!r} is negative (or not a number)")
    return value


def weight_label(raw: Any) -> str | None:
    """The normalised label of a weight given as text that is not a number (None for a number)."""
    if isinstance(raw, (bool, int, float)) or raw is None:
        return None
    text = str(raw).strip()
    try:
        float(text)
    except ValueError:
        return normalise(text) or None
    return None


def parse_weight_map(items: Iterable[str]) -> dict[str, float]:
    """``LABEL=NUMBER`` pairs (each item may hold several, comma-separated) as {normalised label: number}."""
    out: dict[str, float] = {}
    for item in items:
        for pair in (p for p in str(item).split(",") if p.strip()):
            label, sep, number = pair.partition("=")
            try:
                value = float(number)
            except ValueError:
                value = float("nan")
            if not sep or not normalise(label) or not value >= 0:
                raise CtsbenchError(f"--weight-map {pair.strip()!r}: expected LABEL=NUMBER (a number >= 0), "
                                    "e.g. --weight-map vital=1 --weight-map okay=0.5")
            out[normalise(label)] = value
    return out


_SOURCE_KEYS = ("id", "doc_id", "docid", "source_id", "url", "link", "href", "source")


def sources(raw: Any) -> list[str]:
    """Source ids from a list (of strings, numbers or objects with an id/url) or from a string (a JSON list,
    or ids separated by whitespace, ``;``, ``|`` or commas; a single URL is kept whole)."""
    if raw is None:
        return []
    if isinstance(raw, str):
        text = raw.strip()
        if text.startswith("["):
            try:
                return sources(json.loads(text))
            except json.JSONDecodeError:
                pass
        if not text:
            return []
        separators = r"[\s;|]+" if text.count("://") == 1 else r"[\s;|,，、]+"
        return [part for part in re.split(separators, text) if part]
    if isinstance(raw, (int, float)) and not isinstance(raw, bool):
        return [str(raw)]
    if isinstance(raw, dict):
        for key in _SOURCE_KEYS:
            if raw.get(key) not in (None, ""):
                return [str(raw[key]).strip()]
        raise ValueError(f"source object {raw!r} has none of the keys {', '.join(_SOURCE_KEYS)}")
    if isinstance(raw, list):
        return list(dict.fromkeys(s for item in raw for s in sources(item)))
    raise ValueError(f"sources {raw!r} are neither a list nor a string")


def constraint_type(raw: Any) -> ConstraintType:
    return CONSTRAINT_TYPES.get(normalise(raw), ConstraintType.other)


_TYPE_KEYS = ("type", "kind", "category", "constraint_type", "类型", "类别")
_VALUE_KEYS = ("value", "text", "span", "content", "constraint", "值", "内容")


def constraints(raw: Any) -> list[dict[str, str]]:
    """Removed constraints as [{type, value}]: from a JSON list of objects or of ``type:value`` strings, a JSON
    object {type: value}, or text ``type:value; type:value`` (``：`` and ``；`` too). Empty: not annotated."""
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        return []
    if isinstance(raw, str):
        text = raw.strip()
        if text[0] in "[{":
            try:
                return constraints(json.loads(text))
            except json.JSONDecodeError:
                pass
        return [c for part in re.split(r"[;；\n|]+", text) if part.strip() for c in constraints([part])]
    if isinstance(raw, dict):
        typed = _pick(raw, _TYPE_KEYS)
        if typed is not None and _pick(raw, _VALUE_KEYS) is not None:
            return [{"type": constraint_type(typed).value, "value": str(_pick(raw, _VALUE_KEYS)).strip()}]
        return [{"type": constraint_type(k).value, "value": str(v).strip()} for k, v in raw.items() if str(v).strip()]
    if isinstance(raw, list):
        out = []
        for item in raw:
            if isinstance(item, str):
                kind, _, value = _split_pair(item)
                if not value.strip():
                    raise ValueError(f"constraint {item!r} has no value (expected type:value)")
                out.append({"type": constraint_type(kind).value, "value": value.strip()})
            else:
                out.extend(constraints(item))
        return out
    raise ValueError(f"constraints {raw!r} are neither a list, an object nor text")


def _split_pair(item: str) -> tuple[str, str, str]:
    match = re.match(r"\s*([^:：=]*)\s*([:：=])\s*(.*)$", item, re.DOTALL)
    if match is None:
        return "other", "", item
    return match.group(1), match.group(2), match.group(3)


def _pick(record: dict[str, Any], keys: tuple[str, ...]) -> Any:
    by_name = {normalise(k): v for k, v in record.items()}
    for key in keys:
        if by_name.get(normalise(key)) not in (None, ""):
            return by_name[normalise(key)]
    return None
