"""Three forms of English clarifying question that settle what the user answers, whatever the need.

- A question for the yardstick ("What criteria are you using to determine the largest cities?", "How
  should 'largest' be measured?") asks what the query leaves open about its own ranking or measure: the
  user answers with what their query left out.
- A question for a place in a ranking ("Which positions in the ranking?", "The top few, or some ranks
  further down the list?") is answered by the ranks the query left out ("eleventh- and eighteenth-largest").
- A question for a fact, put in the third person ("What is the population of Lagos?", "What is the
  definition of romance?", "Which state is the capital of?") asks what the user searches for, not what
  they mean: the user does not know it.
"""

from __future__ import annotations

import re

_CRITERION = re.compile(
    r"\bcriteri(?:a|on)\b|\bhow (?:should|do you want|would you like|is) (?:['\"‘’]?\w+['\"‘’]? )?(?:to be |be )?measured\b"
    r"|\bhow should I measure\b|\bby what (?:measure|criterion|metric|yardstick)\b|\bin what sense\b",
    re.IGNORECASE)
_RANKING = re.compile(
    r"\brank(?:s|ing|ings|ed)?\b(?! by)|\bpositions?\b|\bplaces? in the (?:\w+ )?(?:ranking|list|table)\b"
    r"|\b(?:further|lower|farther) down\b|\bdown the (?:list|table|ranking)\b|\brunner-up\b", re.IGNORECASE)
_ORDINALS = ("first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|thirteenth|"
             "fourteenth|fifteenth|sixteenth|seventeenth|eighteenth|nineteenth|twentieth|thirtieth|fortieth")
ORDINAL = re.compile(r"\b(?:\d+(?:st|nd|rd|th)|" + _ORDINALS + r")\b", re.IGNORECASE)
# "What is the ...", "What was the magnitude ...", "Which country is the capital of?": a wh-word, at most a
# noun, a copula, then the thing asked about (not "that" or "it": "Which year is that?" asks the user).
_FACT = re.compile(r"^\s*(?:what|which)(?: [a-z-]+)? (?:is|are|was|were) (?!that\b|it\b|this\b|those\b|these\b)\w",
                   re.IGNORECASE)
_TO_USER = re.compile(r"\b(?:[Yy]ou(?:r|'re|'ve|'d)?|I|[Mm]e|[Mm]y|[Ww]e|us|[Oo]ur)\b")  # "us", not "US"
# Questions of this form that ask which thing the user means, or its name or kind ("What is the genre of
# the epic poem?", "What is the director's name?", "What is the specific event?", "Which river is the
# question referring to?"): other rules answer those.
_ASKS_WHICH = re.compile(r"\b(?:type|kind|sort|genre|form|category|variety|name|specific|particular|exact|precise)s?\b"
                         r"|\b(?:referr(?:ed|ing) to|meant|discussed|mentioned|in (?:the )?(?:question|query)|being asked about)\b",
                         re.IGNORECASE)


def asks_criterion(question: str) -> bool:
    return bool(_CRITERION.search(question))


def asks_rank(question: str) -> bool:
    return bool(_RANKING.search(question))


def asks_a_fact(question: str) -> bool:
    return bool(_FACT.search(question)) and not _TO_USER.search(question) and not _ASKS_WHICH.search(question) \
        and not asks_criterion(question)
