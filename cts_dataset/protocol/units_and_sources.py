"""A question for the unit or the source of a figure ("What units would you like the area in?", "Is there a
particular source you'd like the figure from?"). The user answers with the unit or the source their intent
names ("in miles per hour", "INDEC" of "as reported by INDEC"), else does not know: a preference the intent
does not state is no constraint of it. A question for a currency asks a currency, not a length. English only.
"""

from __future__ import annotations

import re

from cts_dataset.protocol.name_words import initials

_CURRENCIES = (r"(?:US |U\.S\. |Canadian |Australian |Hong Kong |New Taiwan |Singapore )?dollars|euros|yen|yuan|"
               r"renminbi|rupees|pounds sterling|francs|(?:(?<=in )|(?<=\d )|(?<=Korean ))won|roubles|rubles|pesos")  # not "won" a race
_MEASURES = (r"miles per hour|kilomet(?:er|re)s per hour|km/h|mph|knots|square (?:kilomet(?:er|re)s|miles|met(?:er|re)s|feet)|"
             r"(?:kilo|centi|milli)?met(?:er|re)s|miles|feet|foot|inches|km|kilograms|tonnes|tons|pounds|"
             r"degrees(?: Celsius| Fahrenheit)?|Celsius|Fahrenheit|GHz|MHz|hectares|acres|lit(?:er|re)s|gallons")
_SCALE = r"(?:(?:hundreds?|thousands?|millions?|billions?|trillions?)\s+(?:of\s+)?)?"
# "in miles per hour", "in current US dollars", "in trillion yen", "in square feet"
UNIT_PHRASE = re.compile(rf"\bin (?:(?:current|constant|nominal|real) )?{_SCALE}(?:{_MEASURES}|{_CURRENCIES})\b",
                         re.IGNORECASE)
_UNIT_WORD = re.compile(rf"\b(?:{_MEASURES}|{_CURRENCIES})\b", re.IGNORECASE)  # "How many kilometres long ...?"
_CURRENCY_WORD = re.compile(rf"\b(?:{_CURRENCIES})\b", re.IGNORECASE)
_ASKS_CURRENCY = re.compile(r"\b(?:which|what|in what|in which) currenc(?:y|ies)\b", re.IGNORECASE)
# A question for units: "what units", "in which unit", "unit of measure", a choice of two units; not "which
# unit" alone, which may be a military one
_ASKS_UNIT = re.compile(
    r"\b(?:which|what) units\b|\bin (?:what|which) units?\b|\bunits? of measure(?:ment)?\b|\bunits? (?:should|would you like)\b"
    rf"|\bmetric or imperial\b|(?<![\d\s])\s*\b(?:{_MEASURES}|{_CURRENCIES})\b[^?]*\bor\b[^?]*(?<![\d\s])\s*\b(?:{_MEASURES}|{_CURRENCIES})\b",
    re.IGNORECASE)
# A question for the source of a figure: "a particular source", "according to whom"; not "the source of the Nile"
_ASKS_SOURCE = re.compile(r"\bsources?\b(?!\s+of\b)|\baccording to\b|\bwhose (?:estimates?|figures?|data|numbers|count|tally)\b|\b(?:which|what) (?:organi[sz]ation|agency|"
                          r"database|publication|statistics office)\b|\breported by\b", re.IGNORECASE)
# (a name may be dated, "the 2019 Five Deeps Expedition", and join its words with small ones: "International
# Commission for the Protection of the Danube River")
_SOURCE = re.compile(r"\b(?i:according to|as reported by|reported by|as published by|published by|as measured by|"
                     r"as estimated by|data from)\s+(?:the\s+)?(?:\d{4}\s+)?"
                     r"(?P<source>[A-Z][\w&.'’-]*(?:\s+(?:(?:of|for|the|and|on)\s+)*[A-Z][\w&.'’-]*)*)")
# A yes/no question that guesses where a figure comes from: "Should I use the GAO estimate?", "Should I just go
# with the figure in the CIA World Factbook?" (not "Should I also include ...": more, not instead)
_USES_A_SOURCE = re.compile(r"\b(?:use|using|go with|going with|rely on|relying on|base it on|cite|according to|"
                            r"from|figures?|estimates?|data|numbers|statistics|report|measurements?)\b", re.IGNORECASE)
# What names a body or a publication: an acronym ("GAO", "CIA"), or a word of one ("Bureau", "Factbook")
_BODY = re.compile(r"^[A-Z]{2,6}$|\b(?:Agency|Bureau|Office|Bank|Fund|Institute|Commission|Survey|Ministry|Department|"
                   r"Administration|Council|Association|Organi[sz]ation|Foundation|Factbook|Census|Inventory|Assessment|"
                   r"Expedition|Service|Authority|Board|Centre|Center|Society|Union|Forum|Corporation|Registry|Database)\b")
_MORE_THAN = re.compile(r"\b(?:also|too|as well|both|compare|compared|alongside|besides)\b", re.IGNORECASE)
_NAME_RUN = re.compile(r"(?<![\w'’])[A-Z][\w&.'’-]*(?:\s+(?:(?:of|for|the|and|on)\s+)*[A-Z][\w&.'’-]*)*")


_CURRENCY_NOUNS = r"dollars?|euros?|yen|yuan|renminbi|rupees?|roubles?|rubles?|pesos?"
# A currency in a span ("US dollars per hour"): the unambiguous words, not "won" or "pounds" alone
_CURRENCY_IN_SPAN = re.compile(rf"\b(?:{_CURRENCY_NOUNS}|pounds sterling|Swiss francs?|Korean won)\b", re.IGNORECASE)
_CURRENCY_AFTER = re.compile(rf"\s+(?:{_CURRENCY_NOUNS}|pounds?|francs?|won)\b")  # after a place: "US dollars"


def names_a_currency(span: str, intent: str) -> bool:
    """A place the intent names only as a currency's, or the currency ("US" and "US dollars" of "in US
    dollars"): no answer to a question for a place."""
    if is_a_currencys_place(span, intent):
        return True
    at = intent.find(span)  # a currency the figure is given in ("in US dollars"), not one the need asks about
    return bool(_CURRENCY_IN_SPAN.search(span)) and at >= 0 and any(
        m.start() < at + len(span) and at < m.end() for m in UNIT_PHRASE.finditer(intent))


def is_a_currencys_place(span: str, intent: str) -> bool:
    """The place alone ("US" of "in US dollars"): no place the query left out."""
    at = [m.end() for m in re.finditer(rf"\b{re.escape(span)}\b", intent)]
    return bool(at) and all(_CURRENCY_AFTER.match(intent, end) for end in at)


# A question for a scale of measure ("Which magnitude scale would you like?", "On which scale?"); not the
# size of a thing ("What scale of business?", "What business scale do you mean?") nor a band of one ("Which
# pay scale band?")
_ASKS_SCALE = re.compile(r"\b(?:which|what)\s+(?:(?!(?:business|company|firm|enterprise|farm|project|operation|production)\b)[\w-]+\s+)?"
                         r"scale\b(?!\s+(?:of|band|grade|level|point)\b)", re.IGNORECASE)
_SCALE_NAMED = re.compile(r"\b(?:(?:on|by|according to|using) the\s+)?(?:[A-Z][\w-]*|moment magnitude|local magnitude)"
                          r"(?:[\s-]+[A-Z][\w-]*)*\s+(?:magnitude\s+)?scale\b")


def asks_unit(question: str) -> bool:
    return bool(_ASKS_UNIT.search(question) or _ASKS_CURRENCY.search(question) or _ASKS_SCALE.search(question))


def unit_guessed(question: str, intent: str) -> tuple[str, bool] | None:
    """The unit phrase the intent gives its figure in, and whether a yes/no question's unit is it ("Should the
    figure be given in euros?" of a need "in euros": yes; "in dollars?": no); None where either names none."""
    asked, given = _UNIT_WORD.search(question), UNIT_PHRASE.search(intent)
    if not (asked and given):
        return None
    return given.group(), asked.group().lower() in given.group().lower()


def asks_source(question: str) -> bool:
    """A question for the source of a figure (not "Whose count do you mean, Turkey's or Syria's?", a choice)."""
    found = _ASKS_SOURCE.search(question)
    return bool(found) and not (found.group().lower().startswith("whose") and re.search(r"\bor\b", question))


def unit_of(question: str, intent: str, missing: list[str]) -> str | None:
    """The unit the intent gives its figure in, of the kind asked (a currency for "Which currency?"): the
    shortest span the query left out that holds it, else as the intent writes it ("in meters", which the
    query may say too; "kilometres" of "How many kilometres long ...?")."""
    currency = bool(_ASKS_CURRENCY.search(question))
    named = _SCALE_NAMED.search(intent) if _ASKS_SCALE.search(question) else None
    if named:  # "Which magnitude scale?" of "on the moment magnitude scale"; else a unit ("Celsius or Fahrenheit?")
        holding = [s for s in missing if "scale" in s and (named.group() in s or s in named.group())]
        return min(holding, key=len) if holding else named.group()
    for pattern in (UNIT_PHRASE, _UNIT_WORD):
        found = next((m.group() for m in pattern.finditer(intent)
                      if not currency or _CURRENCY_WORD.search(m.group())), None)
        if found:
            holding = [s for s in missing if found in s]
            return min(holding, key=len) if holding else found
    return None


def source_of(intent: str, missing: list[str]) -> str | None:
    """The source the intent names for its figure ("INDEC" of "as reported by INDEC", "World Bank" of
    "according to the World Bank's")."""
    found = _SOURCE.search(intent)
    source = _named_source(found, missing)
    if not source:
        return None
    phrase = intent[found.start():found.start("source") + len(source)]  # "according to the WHO"
    holding = [s for s in missing if source in s and s in phrase]  # not "worldwide according to the WHO"
    return min(holding, key=len) if holding else source


def _named_source(found: re.Match[str] | None, missing: list[str]) -> str | None:
    """The source's name (``found`` by ``_SOURCE`` in the intent) as a span the query left out holds it:
    "International Commission for the Protection of the Danube River" whole, "Census Bureau" of "according to
    the Census Bureau for Travis County" (the run joined over "for" names more than the source), else the name
    up to its first joining word."""
    if not found:
        return None
    source = re.sub(r"['’]s$", "", found.group("source"))
    cuts = [source[:m.start()] for m in reversed(list(re.finditer(r"\s+(?:of|for|the|and|on)\s+", source)))]
    return next((c for c in [source, *cuts] if any(c in s for s in missing)), cuts[-1] if cuts else source)


def rival_source(question: str, intent: str, missing: list[str]) -> str | None:
    """The source the intent names for its figure, where the query left it out and a yes/no question guesses
    another by name: "FDIC" for "Should I use the GAO estimate?" of a need "according to the FDIC". None where
    the question names no source the intent lacks, or asks for one more ("Should I also cite the CIA's?")."""
    source = _named_source(_SOURCE.search(intent), missing)
    if not source or not _USES_A_SOURCE.search(question) or _MORE_THAN.search(question):
        return None
    holding = [s for s in missing if source in s]
    first = question.split(maxsplit=1)[0] if question.split() else ""
    # a body or a publication of its own (not "Android phones", "Lagos in Portugal", "US dollars", "June")
    named = [r for r in (re.sub(r"['’]s$", "", r) for r in _NAME_RUN.findall(question[len(first):]))
             if _BODY.search(r) and r not in intent and r not in _NOT_BODIES
             and initials(r) != source]
    return min(holding, key=len) if holding and named else None


_NOT_BODIES = frozenset(["US", "UK", "EU", "USA", "UAE", "USD", "GBP", "EUR", "PPP", "GDP", "GNI", "CPI"])
