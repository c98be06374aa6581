"""Questions about which parts of a many-part intent the user wants, and questions that name no thing of
their own. English only: both read the words of the question, not a model.

An intent often asks two things ("What is the capital of South Sudan, and how many people live in the
country?"), and clarifiers ask which of them the user wants: "Apart from the capital, what else do you
want to know?", "Only the river's name, or its length too?", "Just a definition, or also the people
behind it?". The user wants what the intent asks, so the answer is the intent's own clause for the part
the question names ("how many people live in the country"), whether or not the query says it too.

A yes/no offer of more ("Do you also want the size of the ground?", "Would you like its population as
well?") is answered by the intent's clause that asks for what it offers, or ``unknown`` when none does: the
user wants what the intent asks, no more.

A question that names nothing but generic things ("Which part or aspect of it do you want to know about?",
"Which specific person, thing or organisation do you mean?") asks what the user means, and a cooperative
user gives what the query left out, as to "Can you be more specific?".
"""

from __future__ import annotations

import re

from cts_dataset.protocol.answer_choices import EDGE
from cts_dataset.protocol.answer_phrasing import (
    alternatives,
    content_words,
    guessed,
    is_either_or,
    is_yes_no,
    names_new,
    values_of,
)
from cts_dataset.protocol.time_spans import NOW_EN, years_named
from cts_dataset.protocol.units_and_sources import UNIT_PHRASE
from cts_dataset.protocol.word_forms import same_stem, same_word
from cts_dataset.text import tokenize

# A clause after the first starts at "and" (or ";") followed by a question word, perhaps after one
# preposition: "..., and how deep is it?", "..., and for whom?", "... and in which state is it produced?".
_CLAUSE_BREAK = re.compile(
    r"\s*;\s*|,?\s+and\s+(?=(?:\w+\s+)?(?:what|which|who|whom|whose|when|where|why|how)\b)", re.IGNORECASE)
# What a clause asks for, in the nouns a question uses for it ("how deep" -> depth, "who" -> people).
_ASKED_AS = [(re.compile(pattern, re.IGNORECASE), frozenset(tokenize(nouns))) for pattern, nouns in [
    (r"\bwho(?:m|se)?\b", "people person persons author authors writer writers creator creators founder"),
    (r"\bhow (?:many|much)\b", "number numbers count figure figures amount total size statistics"),
    # a count of people is a population; a count of islands is not ("the population of each island too?")
    (r"\bhow many (?:\w+\s+)?(?:people|persons|inhabitants|residents|citizens|speakers|immigrants)\b", "population"),
    (r"\bhow long\b", "length duration"),
    (r"\bhow deep\b", "depth"),
    (r"\bhow (?:tall|high)\b", "height elevation"),
    (r"\bhow (?:big|large)\b", "size area"),
    (r"\bhow old\b", "age"),
    (r"\bhow far\b", "distance"),
    (r"\bhow fast\b", "speed"),
    (r"\bwhen\b|\b(?:what|which) year\b", "date dates time year years period"),
    (r"\bwhere\b", "place places location locations"),
    (r"\bwhy\b", "reason reasons cause causes"),
    (r"\bwhat happens\b", "plot story events"),
]]
# "Apart from the capital, what else ...?", "Besides who wrote it, what do you want to know?"
_ELSE = re.compile(r"\b(?:what|anything) else\b|\b(?:apart|aside) from\b|\bbesides\b|\bbeyond\b"
                   r"|\bother than\b|\bin addition to\b", re.IGNORECASE)
# ... and asks what to find out, not which value ("Besides Africa, which continent?")
_TO_KNOW = re.compile(r"\b(?:what|anything) else\b|\b(?:know|learn|find out|cover|include|interests?|interested)\b",
                      re.IGNORECASE)
_WH = re.compile(r"^\W*(?:what|which)\b", re.IGNORECASE)
_WHAT = re.compile(r"^\W*(?:what|anything|is there anything)\b", re.IGNORECASE)  # not "which other continents"
# A choice among generic things asks which kind, unless it asks to specify ("Which specific person, thing
# or organisation?") or its alternatives are all one ("part or aspect").
_SPECIFYING = re.compile(r"\b(?:specific|particular|exactly)\b", re.IGNORECASE)
_PARTS = frozenset(tokenize("part parts aspect aspects facet facets side sides"))
# A question of what the user means, not of what they want to know ("Which place or region do you mean?").
_MEANS = re.compile(r"\bmean\b|\bhave in mind\b|\breferring\b|\bin what sense\b", re.IGNORECASE)
# An alternative that is a yardstick ("Largest by population, or by area?") asks how the main clause ranks;
# one of "ones" ("only the tall ones?") picks among the things it asks for.
_NO_PART = re.compile(r"^(?:\w+\s+)?by\b|\bin terms of\b|\bones?\b", re.IGNORECASE)
# Words that ask which part ("Only ... or also ...?", "... too?"), not what the part is.
_SCOPE_WORDS = frozenset(tokenize("also too only just well either both else apart besides beyond want know "
                                  "find out information details detail behind involved would help useful"))
# A yes/no offer of more: "Do you also want ...", "Would you like ... too?", "Should I include ... as well?"
_MORE = re.compile(r"(?:^\W*|,\s*)(?:(?:do|would|should)\s+(?:you|I)\s+|would it (?:help|be useful) (?:to |if I )?|are you\s+)"
                   r"(?:also\s+)?(?:want|like|need|include|list|add|give|provide|cover|interested in)\b", re.IGNORECASE)
# An offer without "also" ("Would you like to know how many athletes took part?"): at the question's start, or
# after a clause that says when it applies ("If the award was shared that year, do you want all the films?").
_OFFER = re.compile(r"(?:^\W*|^if\b[^,]*,\s*)(?:would you like|do you (?:also )?(?:want|need)|should I (?:also )?(?:list|add|give|provide|"
                    r"include|cover))\b", re.IGNORECASE)
_A_CONSTRAINT = re.compile(r"\b(?:a|any) (?:specific|particular|certain|given)\b", re.IGNORECASE)
ALSO = re.compile(r"\b(?:also|too|as well|in addition|additionally)\b", re.IGNORECASE)
_RESTRICTS = re.compile(r"\b(?:limit|limited|restrict|restricted|narrow|narrowed|only|just)\b", re.IGNORECASE)
# What is offered: the words after the verb, up to a preposition that places it ("for the battle") or the
# end ("of" belongs to it: "the number of substitutes"); after "to know", the clause.
_OFFERED = re.compile(
    r"\b(?:want|like|need|include|list|add|give|provide|cover|interested in)\s+(?:also\s+)?(?:to\s+(?:know|learn|find out)(?:\s+about)?\s+)?"
    r"(?P<what>.+?)(?:\s+(?:for|in|on|at|from|with|between)\b.*)?(?:,?\s+(?:too|as well|also))?\W*$",
    re.IGNORECASE)
# Nouns that name no thing of their own: a question made of them asks what the user means.
_GENERIC = frozenset(tokenize("part parts aspect aspects facet facets side person people thing things organisation "
                              "organisations organization organizations entity entities item items one"))


def clauses(intent: str) -> list[str]:
    """The intent's questions, as written: "What is the capital of Sudan, and how many people live there?"
    -> "What is the capital of Sudan", "how many people live there"."""
    return [c.strip(EDGE + " ?？") for c in _CLAUSE_BREAK.split(intent) if c.strip(EDGE + " ?？")]


def _topic(clause: str) -> set[str]:
    """A clause's words, and the nouns a question may use for what it asks."""
    words = set(tokenize(clause))
    for pattern, nouns in _ASKED_AS:
        if pattern.search(clause):
            words |= nouns
    return words


def _in(word: str, topic: set[str]) -> bool:
    return any(same_word(word, t) for t in topic)


def scope_asked(question: str, intent: str) -> str | None:
    """The intent's clause for the part a question about parts asks for, or None:
    - "Apart from X, what else ...?": the one later clause the question does not name;
    - "Only X, or also Y?", "Its depth or its surface area?": the later clause whose topic holds every word
      of one alternative, when no other alternative names a later clause."""
    parts = clauses(intent)
    if len(parts) < 2 or is_yes_no(question, "en") or _MEANS.search(question):
        return None
    later = parts[1:]
    if _ELSE.search(question) and _TO_KNOW.search(question) and _WHAT.search(question.split(",")[-1]):
        if values_of(question, "en", first=False):  # "Beyond Asia, what else ...?" asks for more places
            return None
        named = set(content_words(question, "en")) - _SCOPE_WORDS
        rest = [c for c in later if not any(_in(w, _topic(c)) for w in named)]
        return rest[0] if len(rest) == 1 else None
    if not is_either_or(question, "en"):
        return None
    offered = alternatives(question, "en")
    if len(offered) < 2 or any(_NO_PART.search(side) for side in offered):
        return None
    sides = [[w for w in content_words(side, "en") if w not in _SCOPE_WORDS] for side in offered]
    main = _topic(parts[0])
    # An alternative that names the main clause's own words ("All the states, or only ...?") is no part
    named = [[c for c in later if any(_in(w, _topic(c)) for w in side)] if not any(_in(w, main) for w in side)
             else [] for side in sides]
    whole = [i for i, side in enumerate(sides)
             if side and len(named[i]) == 1 and all(_in(w, _topic(named[i][0])) for w in side)]
    if len(whole) != 1 or any(named[j] for j in range(len(sides)) if j != whole[0]):
        return None
    return named[whole[0]][0]


def _offers_only(question: str, intent: str, query: str) -> bool:
    """An offer without "also" that names nothing of its own: no choice, no method, no time, no unit, no
    guess ("Do you want the population of Tokyo?", "Would you like the area in square miles?", "Do you need
    the figure for 2021?" ask what the user means), and nothing only the intent holds."""
    return not (is_either_or(question, "en") or _METHOD.search(question) or NOW_EN.search(question)
                or years_named(question) or UNIT_PHRASE.search(question) or guessed(question, intent, "en")
                or names_new(question, intent, query, "en"))


def more_offered(question: str, intent: str, query: str = "") -> str | None:
    """To a yes/no offer of more, the intent's later clause whose topic holds every word of what is
    offered (the main one, if the intent asks one thing), or "" when none does; None for any other
    question, or one that restricts ("limited to Africa too?"). What is
    offered is what follows "want", "like", "include" or "list", up to a preposition that places it ("the
    casualty figures" of "... the casualty figures for the battle too?"; "the number of substitutes"), or
    the clause after "to know" ("how his reign ended"). An offer without "also" ("Would you like to know
    how many athletes took part?") is one only where it is no choice and names nothing only the intent
    holds ("Would you like the figure in US dollars?" asks what the user means)."""
    if not _MORE.search(question):
        return None
    if not ALSO.search(question) and not (query and _OFFER.search(question) and _offers_only(question, intent, query)):
        return None
    if _A_CONSTRAINT.search(question):  # "Do you need the release date in a specific country?" asks which, not more
        return None
    offered = _OFFERED.search(question)
    if not offered:
        return None
    words = [w for w in content_words(offered.group("what"), "en") if w not in _SCOPE_WORDS]
    if not words:
        return None
    # what the query says already names no more ("the year of the discovery" of "Who discovered penicillin?"),
    # unless the offer is all the query's words ("how his reign ended" of a query that asks it too)
    words = [w for w in words if not any(same_stem(w, t) for t in tokenize(query))] or words
    tail = question[offered.end("what"):]  # "for short films too": what places the offer, which the intent must hold
    if any(not any(same_stem(w, t) for t in tokenize(intent)) for w in content_words(tail, "en") if w not in _SCOPE_WORDS):
        return ""
    if _RESTRICTS.search(question):  # "Would you like it limited to Africa too?" asks which, not more
        return None
    parts = clauses(intent)[1:] or clauses(intent)  # "also": beyond the main question, if it asks more
    said = [c for c in parts if all(_in(w, set(tokenize(c))) for w in words)]  # in its words before its topic's
    asking = said or [c for c in parts if all(_in(w, _topic(c)) for w in words)]
    return asking[0] if asking else ""


# A question about how the search is to count, measure or present what it finds ("Should islands that are
# independent countries count?", "Should lengths be measured from the most distant source?", "Would you
# like details on who discovered each one, or just the names?"): a choice the intent does not make.
_METHOD = re.compile(
    r"^\W*(?:should|shall|must)\b.*\b(?:count|counted|include|included|cover|covered|measured?|considered?|treated?|"
    r"excluded?|listed|used|given|expressed|rounded|shown|presented)\b"
    r"|^\W*should (?:I|we)\b|\bshould (?:I|we) (?:count|include|exclude)\b|^\W*(?:do|would|will) you (?:count|include|consider|treat|exclude)\b"
    r"|^\W*would you like (?:details|more|a list|a summary|a breakdown|just|only|me to)\b"
    r"|^\W*(?:do|would|should|shall)\b.*\b(?:sources?|format|citations?|references?)\b", re.IGNORECASE)


def asks_method(question: str, intent: str, query: str) -> bool:
    """A question about how to count, measure or present (``_METHOD``) that names nothing only the intent
    holds: "Should I count only French-speaking cities?" names what the user means, and is not one."""
    if not _METHOD.search(question):
        return False
    return not names_new(question, intent, query, "en")


def names_nothing(question: str) -> bool:
    """A which/what question whose only nouns are generic ones ("Which part or aspect of it do you want to
    know about?", "Which specific person, thing or organisation do you mean?")."""
    words = content_words(question, "en")
    if not (_WH.search(question) and words and all(w in _GENERIC for w in words)):
        return False
    return not is_either_or(question, "en") or bool(_SPECIFYING.search(question)) or all(w in _PARTS for w in words)
