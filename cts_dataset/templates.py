"""Checked `$name` templates: every prompt and card of the project is filled through here.

``$name`` or ``${name}`` is a placeholder and ``$$`` a literal dollar, so JSON examples need no
escaping (the standard library's ``string.Template``). Filling checks both ways: a missing value or a
value with no placeholder is an error, since a half-filled prompt still yields a plausible number.
"""

from __future__ import annotations

from functools import lru_cache
from string import Template


class TemplateError(ValueError):
    """A template filled with the wrong values, or holding a stray ``$``."""


@lru_cache(maxsize=256)
def placeholders(text: str, name: str = "template") -> frozenset[str]:
    """The placeholder names of a template; a ``$`` that starts none is an error naming its line.
    Cached: every request of a run renders the same few templates (an error is raised, never cached)."""
    found = set()
    for match in Template.pattern.finditer(text):
        if match.group("invalid") is not None:
            line = text[: match.start()].count("\n") + 1
            raise TemplateError(f"{name}: line {line}: a '$' that starts no placeholder (write $$ for a dollar)")
        if placeholder := match.group("named") or match.group("braced"):
            found.add(placeholder)
    return frozenset(found)


def fill(text: str, values: dict[str, object], name: str = "template") -> str:
    """The template with every placeholder filled; raises TemplateError on missing or unused values."""
    used = placeholders(text, name)
    missing, extra = sorted(used - set(values)), sorted(set(values) - used)
    problems = ([f"placeholders without a value: {missing}"] if missing else []) + (
        [f"values with no placeholder: {extra}"] if extra else [])
    if problems:
        raise TemplateError(f"{name}: " + "; ".join(problems))
    return _template(text).substitute({k: str(v) for k, v in values.items()})


@lru_cache(maxsize=256)
def _template(text: str) -> Template:
    return Template(text)
