"""Three forms of English clarifying question that settle what the user answers, whatever the need.

- A question for the yardstick ("What criteria are you using to determine the largest cities?", "How
  should 'largest' be measured?") asks what the query leaves open about its own ranking or measure: the
  user answers with the yardstick the intent ranks by (``yardstick_in``: "by area"), else with what their
  query left out; unless it asks for a time or a place ("Based on which year?", ``asks_time_or_place``).
- A question for a place in a ranking ("Which positions in the ranking?", "The top few, or some ranks
  further down the list?") is answered by the ranks the query left out ("eleventh- and eighteenth-largest").
- A question for a fact, put in the third person ("What is the population of Lagos?", "What is the
  definition of romance?") asks what the user searches for, not what they mean: the user does not know it.
"""

from __future__ import annotations

import re

from cts_dataset.text import tokenize

_CRITERION = re.compile(
    r"\bcriteri(?:a|on)\b|\bmetrics?\b|\bmeasurements?\b|\bbasis\b|\bbased on\b|\branked by\b|\bin terms of\b"
    r"|\bhow (?:should|do you want|would you like|is|are) (?:\S+ ){0,3}(?:to be |be )?(?:measured|ranked)\b"
    r"|\bhow should I measure\b|\b(?:by|which|what) (?:measure|criterion|metric|yardstick)\b|\bin what sense\b",
    re.IGNORECASE)
# Criteria that name a measure, not a scope: a place does not answer "How should 'highest' be measured?".
MEASURE = re.compile(r"\bmeasur|\bmetric|\branked by\b|\bin terms of\b", re.IGNORECASE)
_RANKING = re.compile(
    r"\brank(?:s|ing|ings|ed)?\b(?! by)|\bpositions?\b|\bplaces? in the (?:\w+ )?(?:ranking|list|table)\b"
    r"|\b(?:further|lower|farther) down\b|\bdown the (?:list|table|ranking)\b|\brunner-up\b", re.IGNORECASE)
_ORDINAL = (r"(?:\d+(?:st|nd|rd|th)|first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|"
            r"twelfth|thirteenth|fourteenth|fifteenth|sixteenth|seventeenth|eighteenth|nineteenth|twentieth|"
            r"thirtieth|fortieth)")
# A run of ranks: ordinals placed by "rank" or followed by a superlative ("rank eighth and tenth", "second
# and third biggest", "fourth- and ninth-most"), not an ordinal of a date or a name ("19th century",
# "the first Moon landing").
_RANKS = re.compile(
    rf"(?P<rank>\brank(?:s|ed)?\s+)?(?P<run>\b{_ORDINAL}(?:-\w*)?(?:(?:,? (?:and|or) |, ){_ORDINAL}(?:-\w*)?)*)"
    rf"(?P<sup>[ -]+(?:\w+est|most|least)\b)?", re.IGNORECASE)
_SUPERLATIVE = re.compile(r"-(?:\w+est|most|least)$", re.IGNORECASE)


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# Words that begin a time or a place after a yardstick ("by revenue in 2020"): not part of it.
_TIME_OR_PLACE = r"(?:in|as|at|during|from|since|for|on|among|between|within|across|worldwide)"
# Words in -est that are no superlative ("interest rates set by central banks", "the Midwest", "Test cricket").
_NOT_SUPERLATIVE = _words(
    "interest midwest west northwest southwest forest guest quest request test contest protest rest chest nest "
    "vest harvest honest modest manifest suggest digest invest arrest conquest earnest priest unrest everest "
    "budapest bucharest inquest pest zest crest jest bequest behest")
# The yardstick an intent ranks or measures by: "by" after a superlative or a rank, up to the clause's end
# ("the second and third biggest in the European Union by GDP", "rank eighth and tenth in the world by
# area", "largest by both area and population"). yardstick_in() then drops what is no measure.
_BY_YARDSTICK = re.compile(
    rf"\b(?i:(?!(?:{'|'.join(sorted(_NOT_SUPERLATIVE))})\b))(?P<sup>(?i:\w+est|most|least|rank(?:s|ed|ing)?))\b"
    rf"[^,;?]*?\bby (?P<by>(?:the |their |its )?(?:[a-z][\w-]*|[A-Z]{{2,}})(?: (?!{_TIME_OR_PLACE}\b)[\w-]+){{0,3}}?)"
    rf"(?=\s*(?:[,;?.]|$|\band (?:how|what|which|who|whom|when|where|why)\b|\b{_TIME_OR_PLACE}\b))")
# A participle before "by" names who did it, not a measure ("launched by NASA", "won by", "written by women"),
# except the verbs of ranking and measuring ("ranked by area"); "breed", "seed", "speed" are nouns.
_AGENT_VERB = re.compile(
    r"(?!\w*eed$|hundred$)\w+ed|won|made|written|sold|held|built|given|taken|led|run|sung|drawn|done|seen|known|"
    r"shown|set|spoken|driven|thrown|grown|brought|bought|taught|caught|fought|found|kept|paid|sent|spent|told|"
    r"chosen|eaten|hidden|broken|stolen|worn|beaten|struck|begun|ridden|flown", re.IGNORECASE)
_MEASURING_VERBS = _words(
    "ranked measured rated ordered sorted judged determined counted calculated assessed weighted adjusted listed "
    "classified valued grouped compared scored graded categorized categorised")
# What never begins a yardstick: a time ("by the next decade", "by then"), or the people who make works
# ("novels by women", "papers by economists"; "by users", "by readers" are measures).
_NEVER_A_MEASURE = _words(
    "next last then now mid-century women men children authors writers artists composers painters poets "
    "economists scholars historians critics experts")
# Means of travel: "by train", "by train or bus", "by public transport" (all its words), not "by road and rail
# length".
_MEANS = _words(
    "car train bus taxi ferry metro subway tram bicycle bike plane air foot ship boat road rail sea public "
    "transport or and")
# Alone or before "of", no measure: "by far", "by the end of the century", "by way of"; "by year founded",
# "by time spent", "by birth and death rates" are measures.
_NOT_A_MEASURE = _words(
    "far way hour day week month end turn year time means night hand default chance accident mistake law name "
    "birth nature contrast comparison itself themselves")
# A place after "the", or alone: "by the river bank", "by the sea"; "by sea level", "by river length" are measures.
_PLACE = _words("river sea lake shore coast side bank road")
_YEAR_OR_DECADE = re.compile(r"^(?:mid-|early-|late-)?\d{3,4}s?$")  # "by 2050", "by the year 2050", "by the mid-1990s"
# Where a measure's words end: a clause about something else ("by capacity used by FIFA", "by area and its capital").
_AFTER_A_MEASURE = re.compile(r"^(?:that|which|who|whose|where|when|used)$|^and (?:its|their|his|her|the|a|an)$",
                              re.IGNORECASE)
# A question for a time or a place: "Based on which year?", "In terms of which country's figures?", "Which
# year should the ranking be based on?", "from when?"; not one that only names a time or a place on the way
# ("What criteria determine which country counts as largest?", "What year-over-year metric?").
_TIME_OR_PLACE_NOUN = (r"(?:\w+\s+)?(?:time\s+)?(?:years?|dates?|periods?|eras?|decades?|centur(?:y|ies)|countr(?:y|ies)"
                       r"|regions?|continents?|states?|cit(?:y|ies)|places?|locations?)(?:'s|s')?")
_WHICH_TIME_OR_PLACE = re.compile(
    rf"\b(?:based on|in terms of|for|from|as of|according to|using|with|in) (?:which|what) {_TIME_OR_PLACE_NOUN}(?![\w-])"
    rf"|^\s*(?:which|what) {_TIME_OR_PLACE_NOUN} (?:should|would|do|does|did|shall|will|must|can|is|are)\b"
    r"|\b(?:from|since|until|as of) when\b", re.IGNORECASE)
# "What is the ...", "What was the magnitude ...", "Which country is the capital of?": a wh-word, at most one
# word, a copula, then the thing asked about (not "that" or "it": "Which year is that?" asks the user).
_FACT = re.compile(r"^\s*(?:what|which)(?: [a-z-]+)? (?:is|are|was|were) (?!that\b|it\b|this\b|those\b|these\b)\w",
                   re.IGNORECASE)
_PERSONAL = re.compile(r"\b(?:[Yy]ou(?:r|'re|'ve|'d)?|[Mm]e|[Mm]y|[Ww]e|us|[Oo]ur)\b|\bI(?= \w)")  # "us", not "US"
# Questions of this form that ask which thing the user means, or its name or kind ("What is the genre of
# the epic poem?", "What is the director's name?", "What is the specific event?", "Which river is the
# question referring to?"): other rules answer those.
_ASKS_WHICH = re.compile(
    r"\b(?:type|kind|sort|genre|form|category|variety|name|specific|particular|exact|exactly|precise)s?\b"
    r"|\b(?:referr(?:ed|ing) to|meant|discussed|mentioned|in (?:the )?(?:question|query)|being asked about)\b",
    re.IGNORECASE)


# A yes/no question that guesses the yardstick: a measure after "by", "in terms of" or a superlative ("Largest
# by population?", "Ranked by economic output?", "the one with the most residents?", "the biggest surface
# area?"), or a count by which things are ranked ("by the number of cars delivered?"); not a unit, a method
# or a means ("in terms of metres", "measured by sonar", "closest by car").
_GUESSED_YARDSTICK = re.compile(r"\b(?:by|in terms of|the (?:most|least|fewest|biggest|largest|greatest|highest))\s+(\S+(?:\s+\S+)?)",
                                re.IGNORECASE)
# "by the number of cars delivered?", "by annual number of visitors?": a count, whatever it counts
_GUESSED_COUNT = re.compile(r"\b(?:by|in terms of)\s+(?:the\s+)?(?:(?:annual|yearly|total|overall)\s+)?number\s+of\s+\w", re.IGNORECASE)
_MEASURES = frozenset(tokenize(
    "population people residents inhabitants citizens area size surface volume length height depth elevation "
    "gdp output economy economic revenue sales income value capacity speed weight mass visitors passengers "
    "students members users votes density capitalisation capitalization profit profits earnings assets employees "
    "deliveries shipments attendance viewers subscribers"))


def guesses_yardstick(question: str) -> bool:
    """A yes/no question names a measure to rank by that the question offers as a guess."""
    return bool(_GUESSED_COUNT.search(question)) \
        or any(names_a_measure(found.group(1)) for found in _GUESSED_YARDSTICK.finditer(question))


def names_a_measure(text: str) -> bool:
    """``text`` holds a word of a measure things are ranked by ("highest revenue", "market capitalisation")."""
    return bool(set(tokenize(text)) & _MEASURES)


def asks_criterion(question: str) -> bool:
    return bool(_CRITERION.search(question))


def asks_time_or_place(question: str) -> bool:
    return bool(_WHICH_TIME_OR_PLACE.search(question))


def asks_rank(question: str) -> bool:
    return bool(_RANKING.search(question)) and not asks_criterion(question)


def ranking_sides(question: str) -> int:
    """How many alternatives of an either-or question speak of ranks ("The top ten, or some places further
    down?": 1; "Population ranking or area ranking?": 2, a choice of yardstick)."""
    return sum(bool(_RANKING.search(side)) for side in re.split(r"\bor\b", question, flags=re.IGNORECASE))


def yardstick_in(intent: str) -> str | None:
    """The phrase an intent ranks or measures by ("area" in "... eighth and tenth in the world by area"); not
    what follows a participle ("launched by NASA"), a name ("by the Beatles"), a time, a place, a means or
    people ("by far", "by train", "by women")."""
    for found in _BY_YARDSTICK.finditer(intent):
        measure = _measure(intent, found)
        if measure:
            return measure
    return None


def _measure(intent: str, found: re.Match[str]) -> str | None:
    before = intent[:found.start("by")].split()  # [..., the word before "by", "by"]
    if len(before) >= 2 and _AGENT_VERB.fullmatch(before[-2]) and before[-2].lower() not in _MEASURING_VERBS:
        return None
    words = found.group("by").split()
    kept = words[:1]
    for i, word in enumerate(words[1:], start=1):
        if _AFTER_A_MEASURE.match(word) or _AFTER_A_MEASURE.match(" ".join(words[i:i + 2])) \
                or (words[i + 1:i + 2] == ["by"] and _AGENT_VERB.fullmatch(word)):  # "revenue reported by Forbes"
            break
        kept.append(word)
    named = kept[1:] if kept[0].lower() in ("the", "their", "its") else kept
    head = [w.lower() for w in named]
    if not head or head[0] in {"a", "an"} | _NEVER_A_MEASURE or any(_YEAR_OR_DECADE.match(w) for w in head):
        return None
    if all(w in _MEANS for w in head) or (head[0] in _NOT_A_MEASURE and (len(head) == 1 or head[1] == "of")):
        return None
    if head[0] in _PLACE and (len(head) == 1 or kept[0].lower() == "the"):
        return None
    before_of = named[:head.index("of")] if "of" in head else named  # "number of Nobel laureates" is a measure
    if any(w[0].isupper() and not w.isupper() for w in before_of) or (kept[0] == "the" and named[0].isupper()):
        return None  # a name ("by the Beatles", "by van Gogh", "by the rock band Queen", "by the UN")
    return " ".join(kept)


def ranks_in(text: str) -> list[str]:
    """The runs of ranks a text states, as it writes them, with what they rank by ("third and fifth",
    "fourth largest", "fourth- and ninth-most populous", "third least densely populated")."""
    runs = []
    for m in _RANKS.finditer(text):
        if not (m.group("rank") or m.group("sup") or _SUPERLATIVE.search(m.group("run"))):
            continue
        stop = m.end()
        if re.search(r"(?:most|least)$", text[m.start("run"):stop], re.IGNORECASE):
            for _ in range(2):  # the word it ranks by, after an adverb in -ly one more ("least densely populated")
                after = re.match(r"[\s-]+([^\W\d_][\w'’-]*)", text[stop:])
                if not after or not tokenize(after.group(1)):  # "third-most by volume": no word
                    break
                stop += after.end()
                if not after.group(1).lower().endswith("ly"):
                    break
        runs.append(text[m.start("run"):stop])
    return runs


def asks_a_fact(question: str) -> bool:
    return bool(_FACT.search(question)) and not _PERSONAL.search(question) and not _ASKS_WHICH.search(question) \
        and not asks_criterion(question)
