"""Years read as intervals, and a guessed time that does not hold the intent's: "No, and which"."""

from __future__ import annotations

import math

import pytest

from cts_dataset.protocol.time_spans import overlaps, years_named
from tests.test_answer_scope import answered

EMPEROR = ("Which Roman emperor ruled from 284 to 305, and what was his background?",
           "Which Roman emperor ruled, and what was his background?")
INVASION = ("Who invaded Russia in 1812, and how many people died?", "Who invaded Russia, and how many people died?")


@pytest.mark.parametrize(("text", "years"), [
    ("Augustus, who ruled from 27 BC to AD 14?", [(-27, 14)]),
    ("the Gothic War of the 370s", [(370, 379)]),
    ("in the 19th century", [(1800, 1900)]),
    ("the 3rd century BC", [(-300, -200)]),
    ("June 1812", [(1812, 1812)]),
    ("after 1800", [(1800, math.inf)]),
    ("before 1900", [(-math.inf, 1900)]),
    ("between 1900 and 1950", [(1900, 1950)]),
    ("500-300 BC", [(-500, -300)]),
    ("the top 10 in 1990", [(1990, 1990)]),  # 10 is no year by its form
    ("40,000 years ago", []),
    ("the 19th-largest city", []),
])
def test_years_are_read_where_their_form_says_so(text, years):
    assert years_named(text) == years


def test_any_number_of_a_span_the_intent_dates_is_a_year():
    assert years_named("284 to 305") == []
    assert years_named("284 to 305", every_number=True) == [(284, 305)]
    assert overlaps((1810, 1819), (1812, 1812)) and not overlaps((-27, 14), (284, 305))


@pytest.mark.parametrize(("pair", "question", "expected"), [
    (EMPEROR, "Are you referring to Augustus, who ruled from 27 BC to AD 14?", "No, 284 to 305"),
    (EMPEROR, "Do you mean an emperor of the 1st century?", "No, 284 to 305"),
    (INVASION, "Do you mean the invasion of the 1940s?", "No, 1812"),
    (INVASION, "Was it after 1900?", "No, 1812"),
])
def test_a_guessed_time_that_does_not_hold_the_intents_is_answered_no_and_which(pair, question, expected):
    assert answered(pair, question) == (expected, "confirmation")


@pytest.mark.parametrize("question", [
    "Do you mean the invasion of the 1810s?",  # a decade that holds 1812
    "Was it in June 1812?",  # a month that holds it
    "Was it after 1800?",  # a bound that holds it
])
def test_a_guessed_time_that_holds_the_intents_is_no_rival(question):
    text, _rule = answered(INVASION, question, model_says='{"answer": "unknown"}')
    assert not text.startswith("No")
