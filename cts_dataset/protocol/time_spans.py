"""The years an English text names, as closed intervals, so that a guessed time can be told to hold the
intent's or not: "the 1810s" holds 1812, "the Gothic War of the 370s" does not hold 535-554, "Augustus,
who ruled from 27 BC to AD 14" does not hold 284 to 305. Years before Christ are negative.

A number is read as a year only where its form says so: four digits from 1000 to 2099, a number marked BC
or AD, a decade ("the 370s", "the 1920s"), a century ("the 19th century", both of its ends), or either
end of a range whose other end is one of those.
Inside a span the intent's own rules call a time (``every_number``), any number is a year ("284 to 305").
"""

from __future__ import annotations

import math
import re

Interval = tuple[float, float]
# Words for now, which a dated span of the intent is not ("the latest figures?" of a need as of May 2023).
NOW_EN = re.compile(r"\b(?:latest|current|currently|today|nowadays|present-day|up-to-date|most recent|this year)\b",
                    re.IGNORECASE)

_ERA = r"(?:BCE?|B\.C\.|AD|A\.D\.|CE)"
_NUMBER = rf"(?:{_ERA}\s*)?\b\d{{1,4}}\b(?:\s*{_ERA})?"
# "from 27 BC to AD 14", "between 1900 and 1950", "1963-1969", "535–554"
_RANGE = re.compile(rf"(?P<a>{_NUMBER})\s*(?:-|–|—|to|and|until|till)\s*(?P<b>{_NUMBER})\b")
_DECADE = re.compile(r"\b(?P<d>\d{2,3}0)s\b")
_CENTURY = re.compile(r"\b(?P<n>\d{1,2})(?:st|nd|rd|th)[- ]centur(?:y|ies)(?P<bc>\s*BCE?)?", re.IGNORECASE)
_BOUND = re.compile(rf"\b(?P<how>before|after|since|until|till|by)\s+(?:the\s+(?:year\s+)?)?(?P<y>{_NUMBER})\b",
                    re.IGNORECASE)
_SINGLE = re.compile(rf"(?<![\d,.]){_NUMBER}(?![\d,.]*\d)")
_YEAR = re.compile(r"(?:1\d|20)\d\d")


def _value(text: str, every_number: bool) -> float | None:
    """One year's value, negative before Christ; None when the number is no year by its form."""
    digits = int(re.search(r"\d+", text).group())  # type: ignore[union-attr]
    if re.search(r"BCE?|B\.C\.", text):
        return -digits
    if re.search(_ERA, text) or every_number or _YEAR.fullmatch(str(digits)):
        return digits
    return None


def years_named(text: str, every_number: bool = False) -> list[Interval]:
    """The intervals of years ``text`` names, each range, decade, bound or single year once."""
    out: list[Interval] = []
    taken: list[tuple[int, int]] = []

    def free(match: re.Match[str]) -> bool:
        return not any(a < match.end() and match.start() < b for a, b in taken)

    for match in _RANGE.finditer(text):
        a, b = match.group("a"), match.group("b")
        if re.search(_ERA, b) and not re.search(_ERA, a) and "BC" in b:  # "500-300 BC": both before Christ
            a += " BC"
        first, last = _value(a, every_number), _value(b, every_number)
        if first is None and last is None:
            continue
        first = first if first is not None else _value(a, True)
        last = last if last is not None else _value(b, True)
        out.append((min(first, last), max(first, last)))  # type: ignore[type-var]
        taken.append(match.span())
    for match in _DECADE.finditer(text):
        if free(match):
            start = int(match.group("d"))
            out.append((start, start + 9))
            taken.append(match.span())
    for match in _CENTURY.finditer(text):
        if free(match):
            n = int(match.group("n"))
            out.append((-n * 100, -(n - 1) * 100) if match.group("bc") else ((n - 1) * 100, n * 100))
            taken.append(match.span())
    for match in _BOUND.finditer(text):
        year = _value(match.group("y"), every_number)
        if year is not None and free(match):
            low = match.group("how").lower() in ("after", "since")
            out.append((year, math.inf) if low else (-math.inf, year))
            taken.append(match.span())
    for match in _SINGLE.finditer(text):
        year = _value(match.group(), every_number)
        if year is not None and free(match):
            out.append((year, year))
            taken.append(match.span())
    return out


def overlaps(first: Interval, second: Interval) -> bool:
    return first[0] <= second[1] and second[0] <= first[1]


def dated(span: str, intent: str) -> bool:
    """Bare numbers the intent sets after a word of time as years ("ruled from 284 to 305", "reunified China
    in 581", "from 306 to 337 and from 379 to 395"): years too early to be told by their digits. Three
    digits or more, or a verb of reigning, living or making before them ("ruled from 98 to 117"); not ages
    or hours ("children aged from 4 to 8", "from 5 to 9 in the morning")."""
    bare = re.sub(rf"^{_BEFORE_A_DATE}\s+", "", span)
    if not re.fullmatch(rf"{_DATE_RANGE}(?:\s*(?:,|and)\s*(?:from\s+)?{_DATE_RANGE})*", bare):
        return False
    placed = re.search(rf"\b{_BEFORE_A_DATE}\s+{re.escape(bare)}"
                       rf"(?!\s*(?:[-–]|to\b|and\s+\d))\b(?!\s+(?:in the|a\.?m|p\.?m|o'clock|hours?|years? old)\b)", intent)
    if not placed:
        return False
    if all(len(n) >= 3 for n in re.findall(r"\d+", bare)):
        return True
    return bool(_REIGNS.search(intent[max(0, placed.start() - 40):placed.start()]))


_REIGNS = re.compile(r"\b(?:ruled|reigned|lived|governed|led|built|founded|served|held|flourished|wrote|"
                     r"ruling|reigning)\b", re.IGNORECASE)  # before a date in the intent: the number is a year
_DATE_RANGE = r"\d{1,4}(?:\s*(?:to|and|–|-)\s*\d{1,4})?"  # "284", "284 to 305", "1200–1250"
_BEFORE_A_DATE = r"(?:in|from|since|until|till|between|before|after|around|circa)"
