"""Times in the words of a question or an intent: the years an English text names, as closed intervals, so
that a guessed time can be told to hold the intent's or not ("the 1810s" holds 1812, "the Gothic War of
the 370s" does not hold 535-554, "Augustus, who ruled from 27 BC to AD 14" does not hold 284 to 305; years
before Christ are negative); the numbers an intent dates; and words for now, in English and Chinese.

A number is read as a year only where its form says so: four digits from 1000 to 2099 that count nothing
("2000 square kilometres", "$2000" do), a number marked BC or AD, a decade ("the 370s", "the 1920s"; "the
1800s" is the century), a century ("the 19th century"), or either end of a range whose other end is one
("1914-18" is 1914 to 1918). Inside a span the intent dates (``every_number``), any number is a year.
"""

from __future__ import annotations

import math
import re

Interval = tuple[float, float]
YEAR = r"(?:1\d|20)\d\d"  # a year written in digits, 1000 to 2099
# Words for now that date the figure searched for ("the latest count?", "today's figure?", "最新的数据？",
# "实时市值"): a dated span of the intent is not now. Not the user's now ("Are you currently living there?",
# "您现在在广东吗？"), nor "current" of a unit ("in current US dollars").
NOW_EN = re.compile(r"\b(?:latest|most recent|up-to-date|current|present-day|today's)\s+(?:[\w-]+\s+){0,2}?"
                    r"(?:figures?|counts?|data|numbers?|estimates?|statistics|values?|totals?|versions?|lists?|"
                    r"rankings?|ones?|year|season|edition|tally)\b"
                    r"|\bas of (?:today|now)\b|\bup to (?:today|now)\b", re.IGNORECASE)
NOW_ZH = re.compile(r"最新|实时|(?:当前|目前|现在|今年)的")
# A word for now and the words after it ("the current president"), and a word for now alone ("the current
# exchange rate" asks no time).
NOW_BEFORE = re.compile(r"\b(?:current|present|today's|latest|most recent)\s+((?:[\w-]+\s+){0,2}[\w-]+)", re.IGNORECASE)
NOW_WORD = re.compile(r"current|currently|today|now|latest|present", re.IGNORECASE)
# The sides of a choice of now and a time gone by ("its historical population or the current one?",
# "古代开封的人口，还是现在的？")
NOW_SIDE_EN = re.compile(r"\b(?:current|currently|today|today's|now|nowadays|present|present-day|latest|most recent|incumbent)\b",
                         re.IGNORECASE)
NOW_SIDE_ZH = re.compile(r"目前|现在|当前|如今|现今|最新|今天|眼下|实时|现任")
THEN_SIDE_EN = re.compile(r"\b(?:historical|historic|past|then|at the time|originally|original|earlier|back then|former|"
                          r"old|in the past|era|launch|release|when it (?:opened|launched|was released)|in history|"
                          r"at (?:some|one|a) (?:point|time)|a (?:particular|specific|given|certain) (?:season|year|time|edition))\b",
                          re.IGNORECASE)  # "the record holder at some point in history", "A particular season, or ...?"
THEN_SIDE_ZH = re.compile(r"古代|当时|历史|过去|以前|首发|开售|发售|最初|原来|当年|那时")

_ERA = r"(?:BCE?|B\.C\.|AD|A\.D\.|CE)"
_NUMBER = rf"(?:{_ERA}\s*)?\b\d{{1,4}}\b(?:\s*{_ERA})?"
# "from 27 BC to AD 14", "between 1900 and 1950", "1963-1969", "535–554", "1914-18"
_RANGE = re.compile(rf"(?P<a>{_NUMBER})\s*(?:-|–|—|to|and|until|till)\s*(?P<b>{_NUMBER})\b")
_DECADE = re.compile(r"\b(?P<d>\d{2,3}0)s\b")
_CENTURY = re.compile(r"\b(?P<n>\d{1,2})(?:st|nd|rd|th)[- ]centur(?:y|ies)(?P<bc>\s*BCE?)?", re.IGNORECASE)
_BOUND = re.compile(rf"\b(?P<how>before|after|since|until|till|by)\s+(?:the\s+(?:year\s+)?)?(?P<y>{_NUMBER})\b",
                    re.IGNORECASE)
# A four-digit number that counts something is no year ("$2000", "2000 square kilometres", "1500 people").
_COUNTED = re.compile(r"\s*(?:square|sq\b|km|kilomet|met(?:er|re)|mile|feet|foot|people|persons|tons?|tonnes|"
                      r"dollars|euros|yuan|yen|points|goals|votes|seats|units|copies|pages|words|calories|horsepower|"
                      r"hp\b|m\b|kg\b)", re.IGNORECASE)
_SINGLE = re.compile(rf"(?<![\d,.$€£¥]){_NUMBER}(?![\d,.]*\d)")


def _value(text: str, every_number: bool) -> float | None:
    """One year's value, negative before Christ; None when the number is no year by its form."""
    digits = int(re.search(r"\d+", text).group())  # type: ignore[union-attr]
    if re.search(r"BCE?|B\.C\.", text):
        return -digits
    if re.search(_ERA, text) or every_number or re.fullmatch(YEAR, str(digits)):
        return digits
    return None


def _range(first_text: str, last_text: str, every_number: bool) -> Interval | None:
    if re.search(r"BC", last_text) and not re.search(_ERA, first_text):  # "500-300 BC": both before Christ
        first_text += " BC"
    first, last = _value(first_text, every_number), _value(last_text, every_number)
    if first is None and last is None:
        return None
    first = first if first is not None else _value(first_text, True)
    last = last if last is not None else _value(last_text, True)
    short = re.fullmatch(r"\d{1,2}", last_text.strip())
    if first and last is not None and short and 0 <= last < first and first >= 1000:  # "1914-18", "2020-21"
        last = int(str(int(first))[:-len(short.group())] + short.group())
    return (min(first, last), max(first, last))  # type: ignore[type-var]


def years_named(text: str, every_number: bool = False) -> list[Interval]:
    """The intervals of years ``text`` names, each range, decade, century, bound or single year once."""
    out: list[Interval] = []
    taken: list[tuple[int, int]] = []

    def free(match: re.Match[str]) -> bool:
        return not any(a < match.end() and match.start() < b for a, b in taken)

    for match in _RANGE.finditer(text):
        interval = _range(match.group("a"), match.group("b"), every_number)
        if interval:
            out.append(interval)
            taken.append(match.span())
    for match in _DECADE.finditer(text):
        if free(match):
            start = int(match.group("d"))
            out.append((start, start + (99 if start % 100 == 0 and start >= 1000 else 9)))  # "the 1800s": the century
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
        if year is not None and free(match) and (every_number or not _COUNTED.match(text, match.end())):
            out.append((year, year))
            taken.append(match.span())
    return out


def overlaps(first: Interval, second: Interval) -> bool:
    return first[0] <= second[1] and second[0] <= first[1]


_REIGNS = re.compile(r"\b(?:ruled|reigned|lived|governed|led|built|founded|served|held|flourished|wrote|"
                     r"ruling|reigning)\b", re.IGNORECASE)  # before a date in the intent: the number is a year
_DATE_RANGE = r"\d{1,4}(?:\s*(?:to|and|–|-)\s*\d{1,4})?"  # "284", "284 to 305", "1200–1250"
_BEFORE_A_DATE = r"(?:in|from|since|until|till|between|before|after|around|circa)"


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
