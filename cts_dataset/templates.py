"""`{{name}}` placeholder templates (cards, prompts) whose values must match the placeholders exactly.

A missing value or a value with no placeholder is an error: a half-filled prompt would still yield a
plausible-looking number, so we refuse it.
"""

from __future__ import annotations

import re

PLACEHOLDER = re.compile(r"\{\{(\w+)\}\}")


def placeholders(template: str) -> set[str]:
    return set(PLACEHOLDER.findall(template))


def fill(template: str, values: dict[str, str]) -> str:
    """Fill ``{{name}}`` placeholders; raises KeyError naming missing or unused values."""
    used = placeholders(template)
    if missing := used - set(values):
        raise KeyError(f"placeholders without a value: {sorted(missing)}")
    if extra := set(values) - used:
        raise KeyError(f"values with no placeholder: {sorted(extra)}")
    return PLACEHOLDER.sub(lambda m: values[m.group(1)], template)
