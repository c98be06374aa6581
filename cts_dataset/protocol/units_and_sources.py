"""A question for the unit or the source of a figure ("What units would you like the area in?", "Is there a
particular source you'd like the figure from?"). The user answers with the unit or the source their intent
names ("in miles per hour", "INDEC" of "as reported by INDEC"), else does not know: a preference the intent
does not state is no constraint of it. English only.
"""

from __future__ import annotations

import re

_UNITS = (r"miles per hour|kilomet(?:er|re)s per hour|km/h|mph|knots|square (?:kilomet(?:er|re)s|miles|met(?:er|re)s)|"
          r"(?:kilo|centi|milli)?met(?:er|re)s|miles|feet|foot|inches|km|kilograms|tonnes|tons|pounds|"
          r"(?:US |U\.S\. |Canadian |Australian |Hong Kong |New Taiwan )?dollars|euros|yen|yuan|renminbi|rupees|"
          r"degrees(?: Celsius| Fahrenheit)?|Celsius|Fahrenheit|GHz|MHz|hectares|acres|lit(?:er|re)s|gallons")
_ASKS_UNIT = re.compile(
    r"\b(?:which|what) (?:units?|currency|currencies|unit of measure(?:ment)?)\b|\bin (?:what|which) (?:units?|currency)\b"
    r"|\bunits? (?:of measure(?:ment)?|should|would you like)\b|\bmetric or imperial\b"
    rf"|\b(?:{_UNITS})\b[^?]*\bor\b[^?]*\b(?:{_UNITS})\b", re.IGNORECASE)  # "in meters or in feet?"
# "in miles per hour", "in current US dollars", "in degrees Celsius"
UNIT_PHRASE = re.compile(rf"\bin (?:(?:current|constant|nominal|real) )?(?:{_UNITS})\b", re.IGNORECASE)
_ASKS_SOURCE = re.compile(r"\bsources?\b|\baccording to\b|\b(?:which|what) (?:organi[sz]ation|agency|database|"
                          r"publication|statistics office)\b|\breported by\b", re.IGNORECASE)
_SOURCE = re.compile(r"\b(?:according to|as reported by|reported by|as published by|published by|as measured by|"
                     r"as estimated by|data from)\s+(?:the\s+)?(?P<source>[A-Z][\w&.'’-]*(?:\s+[A-Z][\w&.'’-]*)*)")


def asks_unit(question: str) -> bool:
    return bool(_ASKS_UNIT.search(question))


def asks_source(question: str) -> bool:
    return bool(_ASKS_SOURCE.search(question))


def unit_of(intent: str, missing: list[str]) -> str | None:
    """The unit the intent gives its figure in, the shortest span the query left out that holds it, else as
    the intent writes it ("in meters", which the query may say too)."""
    found = UNIT_PHRASE.search(intent)
    if not found:
        return None
    holding = [s for s in missing if found.group() in s]
    return min(holding, key=len) if holding else found.group()


def source_of(intent: str, missing: list[str]) -> str | None:
    """The source the intent names for its figure ("INDEC" of "as reported by INDEC")."""
    found = _SOURCE.search(intent)
    if not found:
        return None
    holding = [s for s in missing if found.group("source") in s]
    return min(holding, key=len) if holding else found.group("source")
