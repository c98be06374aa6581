"""Cell and value parsing for the release's files: ids, languages, weights, source lists, constraints.

Each parser returns the value or raises ``ValueError`` with a message that the caller turns into a
``file:line: field: problem``.
"""

from __future__ import annotations

import json
import re
from typing import Any

from cts_dataset.records import ID_PATTERN, ConstraintType
from cts_dataset.release.fields import normalise

_ID = re.compile(ID_PATTERN)
_BAD_ID_CHARS = re.compile(r"[^A-Za-z0-9._:/()'\-,+&!]+")

# Importance labels seen in nugget sets: TREC-style vital/okay (1 and 0.5), and three-level scales.
WEIGHT_LABELS: dict[str, float] = {
    "vital": 1.0, "okay": 0.5, "ok": 0.5,
    "high": 3.0, "medium": 2.0, "mid": 2.0, "low": 1.0,
    "core": 3.0, "important": 2.0, "supporting": 1.0,
    "高": 3.0, "中": 2.0, "低": 1.0, "核心": 3.0, "关键": 3.0, "重要": 2.0, "一般": 1.0, "次要": 1.0,
}

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


def weight(raw: Any) -> float:
    """A nugget weight: a number, a numeric string or an importance label (see WEIGHT_LABELS); never negative."""
    if isinstance(raw, bool) or raw is None:
        raise ValueError(f"weight {raw!r} is not a number")
    if isinstance(raw, (int, float)):
        value = float(raw)
    else:
        text = str(raw).strip()
        try:
            value = float(text)
        except ValueError:
            if normalise(text) not in WEIGHT_LABELS:
                raise ValueError(f"weight {raw!r} is neither a number nor a known label "
                                 f"({', '.join(WEIGHT_LABELS)})") from None
            value = WEIGHT_LABELS[normalise(text)]
    if not value >= 0:
        raise ValueError(f"weight {raw!r} is negative (or not a number)")
    return value


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
