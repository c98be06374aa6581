"""Comparing identities (JSON values): what a run or scoring folder stores and checks on resume."""

from __future__ import annotations

import json
from typing import Any


def differences(before: Any, after: Any, path: str = "") -> list[str]:
    """Human-readable paths where two JSON values differ (``clarifier.model.files: 1a2b -> 3c4d``)."""
    if isinstance(before, dict) and isinstance(after, dict):
        found = []
        for key in sorted(set(before) | set(after), key=str):
            where = f"{path}.{key}" if path else str(key)
            if key not in before:
                found.append(f"{where}: (absent) -> {_short(after[key])}")
            elif key not in after:
                found.append(f"{where}: {_short(before[key])} -> (absent)")
            else:
                found += differences(before[key], after[key], where)
        return found
    if before != after:
        return [f"{path or '(identity)'}: {_short(before)} -> {_short(after)}"]
    return []


def _short(value: Any, limit: int = 80) -> str:
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= limit else text[:limit] + "..."
