"""One value set against "another" (the Palme d'Or or another prize, 库容还是别的); a guessed name that restricts a
thing rather than rivals the need's name (Android handsets); counting more of a thing qualified otherwise (transfer
passengers too); and a side the query holds against a value of a kind no side names."""

from __future__ import annotations

import pytest

from cts_dataset.protocol.views import UNKNOWN
from tests.test_answer_scope import UNKNOWN_REPLY, answered

PALME = ("Which film won the Palme d'Or at the 1994 Cannes Film Festival?",
         "Which film won the Palme d'Or at the Cannes Film Festival?")
SHARE = ("Which smartphone brand had the largest market share in India in 2023 according to Counterpoint?",
         "Which smartphone brand had the largest market share in India in 2023?")
PICASSO = ("What is the most expensive Picasso painting ever sold at auction?",
           "What is the most expensive painting ever sold at auction?")
HEATHROW = ("How many passengers travelled through Heathrow in 2019?", "How many people travelled through Heathrow in 2019?")
PARIS = ("How many annual rail passengers did the Paris region record in 2019?",
         "How many annual trips did the Paris region record in 2019?")
PHONES = ("Which phone brand topped the smartphone market in India in 2022?",
          "Which phone brand topped the smartphone market in 2022?")


@pytest.mark.parametrize("question", [
    "Which prize do you mean — the Palme d'Or or another award?",
    "Are you asking about the Palme d'Or or some other prize?",
])
def test_the_querys_value_set_against_another_is_the_answer(question):
    # the query says the Palme d'Or: the user asked about it, not about the year or a part of its name
    assert answered(PALME, question) == ("Palme d'Or", "either_or")


@pytest.mark.parametrize(("pair", "question", "expected"), [
    (("2023年中国人口最多的省份是哪个？", "人口最多的省份是哪个？"), "“最多”指的是什么，人口还是别的？", "人口"),
    (("中国库容最大的水库是哪座？", "库容最大的水库是哪座？"), "“最大”指什么，库容还是别的方面？", "库容"),
])
def test_a_chinese_value_set_against_something_else_is_the_querys(pair, question, expected):
    assert answered(pair, question, "zh") == (expected, "either_or")


def test_a_value_the_query_lacks_is_left_to_the_other_rules():
    from cts_dataset.protocol.answer_sides import side_before_another
    intent = "Which film won the Golden Bear at the 2001 Berlin Film Festival?"
    question = "Are you interested in the Golden Bear or a different award?"
    assert side_before_another(question, intent, "Which film won the Golden Bear at the Berlin Film Festival?", "en") \
        == "Golden Bear"
    # a guess of the need's value the query does not say is for the confirmation rules to judge
    assert side_before_another(question, intent, "Which film won an award at the Berlin Film Festival?", "en") is None


@pytest.mark.parametrize("question", [
    "Are you only interested in Android handsets?",
    "Should I look at Android devices only?",
])
def test_a_name_that_restricts_another_thing_is_no_rival_of_the_needs_name(question):
    # Android narrows the phones counted; it is no research firm against Counterpoint
    assert answered(SHARE, question, model_says=UNKNOWN_REPLY)[0] == UNKNOWN


def test_a_name_after_the_still_stands_against_the_needs():
    # "the Monet water lilies" names one work, by another painter
    assert answered(PICASSO, "Are you thinking of the Monet water lilies?") == ("No, Picasso", "confirmation")


def test_a_name_before_the_intents_own_thing_still_stands_against_the_needs():
    # moons are the intent's own thing: Neptune is another owner of them
    pair = ("Which is the largest moon of Uranus?", "Which is the largest moon?")
    assert answered(pair, "Do you mean Neptune's moons?") == ("No, Uranus", "confirmation")


@pytest.mark.parametrize(("pair", "question"), [
    (HEATHROW, "Are you counting transfer passengers too?"),
    (PARIS, "Are you counting bus and tram passengers too?"),
])
def test_counting_more_of_a_thing_qualified_otherwise_is_unknown(pair, question):
    # other passengers than the need's: the need neither includes nor excludes them
    assert answered(pair, question, model_says=UNKNOWN_REPLY)[0] == UNKNOWN


def test_counting_the_needs_own_qualified_thing_too_is_confirmed():
    assert answered(PARIS, "Are you counting rail passengers too?") == ("Yes, rail passengers", "confirmation")


@pytest.mark.parametrize(("pair", "question", "expected"), [
    (("Which national forest in Oregon is the largest?", "Which national forest is the largest?"),
     "Do you mean national forests or state forests?", "national forest"),
    (("Which state park in Texas is the largest?", "Which state park is the largest?"),
     "State parks or national parks?", "state park"),
])
def test_a_side_the_query_holds_wins_over_a_value_no_side_names(pair, question, expected):
    # the question asks which kind of park or forest, not where: the intent's place answers nothing of it
    assert answered(pair, question) == (expected, "either_or")


def test_a_side_offering_a_particular_one_still_gets_the_needs_value():
    # "a specific market" asks for the value the need names, though the query holds the other side's word
    assert answered(PHONES, "Worldwide, or in a specific market?") == ("India", "typed")
