"""Choices of one thing or all of them said as "ever", "in one country", "some condition"; guesses of the
answer that are a country's thing; the sides of a pair that exclude each other."""

from __future__ import annotations

import pytest

from cts_dataset.protocol.views import UNKNOWN
from tests.test_answer_scope import UNKNOWN_REPLY, answered


@pytest.mark.parametrize(("pair", "question", "expected"), [
    (("What was the first car built in Sweden?", "What was the first car ever built?"),
     "The first car ever, or the first one built in a particular country?", "Sweden"),
    (("How long is the Austrian section of the Danube?", "How long is the Danube?"),
     "The whole river, or only the stretch in one country?", "Austrian section"),
    (("Which is the largest landlocked country in Africa?", "Which is the largest country in Africa?"),
     "Largest overall, or with some condition attached?", "landlocked"),
])
def test_one_thing_of_a_kind_against_all_of_them_gets_what_the_query_left_out(pair, question, expected):
    assert answered(pair, question, "en", model_says=UNKNOWN_REPLY)[0] == expected


@pytest.mark.parametrize("question", ["Do you want all of it, or only some of it?",
                                      "Should I list all of them or some of them?",
                                      "Do you want all of them, or just some highlights?"])
def test_some_of_them_is_no_one_thing_of_a_kind(question):
    pair = ("Which is the largest landlocked country in Africa?", "Which is the largest country in Africa?")
    assert answered(pair, question, "en", model_says=UNKNOWN_REPLY)[0] == UNKNOWN


@pytest.mark.parametrize(("pair", "question", "expected"), [
    (("Which is the tallest lighthouse in Portugal?", "Which is the tallest lighthouse?"),
     "Do you mean Spain's Tower of Hercules?", "No, Portugal"),
    (("What was the first newspaper printed in Norway?", "What was the first newspaper ever printed?"),
     "Are you asking about Germany's Relation?", "No, Norway"),
])
def test_a_guess_of_the_answer_placed_elsewhere_is_told_from_the_needs_place(pair, question, expected):
    # the user cannot know the answer, but knows it lies in their own place, not the guess's
    assert answered(pair, question, "en", model_says=UNKNOWN_REPLY)[0] == expected


@pytest.mark.parametrize(("pair", "question"), [
    (("Which is the largest city in Bavaria?", "Which is the largest city?"), "Do you mean Munich?"),  # a city searched
    (("What is the oldest university in Italy?", "What is the oldest university?"), "Is it the University of Bologna?"),
    (("What is the oldest university in Italy?", "What is the oldest university?"), "Is it Bologna's university?"),  # a city's
    (("Which car sold best in Brazil in 2015?", "Which car sold best in 2015?"), "Do you mean the Japanese Toyota Corolla?"),
])
def test_a_guess_of_the_answer_that_may_lie_in_the_needs_place_stays_unknown(pair, question):
    assert answered(pair, question, "en", model_says=UNKNOWN_REPLY)[0] == UNKNOWN


@pytest.mark.parametrize(("pair", "question", "expected"), [
    (("What documents does a UK driving licence renewal need for an adult?", "What documents does a UK driving licence renewal need?"),
     "Is this for a minor?", "No, adult"),
    (("How many outdoor ice rinks are there in Ottawa?", "How many ice rinks are there in Ottawa?"),
     "Do you mean indoor rinks?", "No, outdoor"),
])
def test_one_side_of_a_pair_that_excludes_the_other_is_told_from_it(pair, question, expected):
    assert answered(pair, question, "en", model_says=UNKNOWN_REPLY)[0] == expected


@pytest.mark.parametrize(("pair", "question"), [
    (("How many employees does Amnesty International have?", "How many employees does Amnesty have?"),
     "Do you mean domestic staff only?"),  # a word of a name
    (("What is the ticket price for an adult at a Durham Bulls game?", "What is the ticket price at a Durham Bulls game?"),
     "Is this a minor league game?"),  # it qualifies a thing the need does not speak of
])
def test_a_word_of_a_pair_in_a_name_or_of_another_thing_is_no_side(pair, question):
    assert not answered(pair, question, "en", model_says=UNKNOWN_REPLY)[0].startswith("No")


def test_a_span_that_names_both_sides_of_a_pair_takes_no_side():
    pair = ("What is the entry fee of the Louvre for adults and children?", "What is the entry fee of the Louvre?")
    assert not answered(pair, "Is this for a child?", "en", model_says=UNKNOWN_REPLY)[0].startswith("No")
