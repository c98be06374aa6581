"""A place inside the level a question for which of a level's things is meant asks ("Which country's
Parliament House do you mean?" of the one in Canberra), and choices of one thing or all of them said as "ever", "in one country",
"some condition"."""

from __future__ import annotations

import pytest

from cts_dataset.protocol.views import UNKNOWN
from tests.test_answer_scope import UNKNOWN_REPLY, answered

CANBERRA = ("Who designed the Parliament House in Canberra?", "Who designed the Parliament House?")


@pytest.mark.parametrize(("pair", "question", "expected"), [
    (CANBERRA, "Which country's Parliament House do you mean?", "Canberra"),
    (("What is the oldest university in Bologna?", "What is the oldest university?"),
     "Which country's oldest university are you thinking of?", "Bologna"),
])
def test_a_place_inside_the_level_asked_says_which_one_the_user_means(pair, question, expected):
    assert answered(pair, question, "en", model_says=UNKNOWN_REPLY)[0] == expected


@pytest.mark.parametrize(("pair", "question"), [
    (CANBERRA, "Which country was it built in?"),  # a fact about the place, which the city does not state
    (CANBERRA, "Which country are you referring to?"),  # the country itself, which the city does not name
    (("Which is the tallest building in Asia?", "Which is the tallest building?"), "Which city do you mean?"),  # wider
])
def test_a_place_of_another_level_answers_no_question_for_a_fact_nor_for_a_narrower_level(pair, question):
    assert answered(pair, question, "en", model_says=UNKNOWN_REPLY)[0] == UNKNOWN


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
                                      "Should I list all of them or some of them?"])
def test_some_of_them_is_no_one_thing_of_a_kind(question):
    pair = ("Which is the largest landlocked country in Africa?", "Which is the largest country in Africa?")
    assert answered(pair, question, "en", model_says=UNKNOWN_REPLY)[0] == UNKNOWN


@pytest.mark.parametrize(("pair", "question", "expected"), [
    (("Which is the tallest lighthouse in Portugal?", "Which is the tallest lighthouse?"),
     "Do you mean the Spanish Tower of Hercules?", "No, Portugal"),
    (("What was the first newspaper printed in Norway?", "What was the first newspaper ever printed?"),
     "Are you asking about Germany's Relation?", "No, Norway"),
])
def test_a_guess_of_the_answer_placed_elsewhere_is_told_from_the_needs_place(pair, question, expected):
    # the user cannot know the answer, but knows it lies in their own place, not the guess's
    assert answered(pair, question, "en", model_says=UNKNOWN_REPLY)[0] == expected


def test_a_guess_of_the_answer_that_is_a_place_of_the_kind_searched_stays_unknown():
    pair = ("Which is the largest city in Bavaria?", "Which is the largest city?")
    assert answered(pair, "Do you mean Munich?", "en", model_says=UNKNOWN_REPLY)[0] == UNKNOWN


@pytest.mark.parametrize(("pair", "question", "expected"), [
    (("What documents does a UK driving licence renewal need for an adult?", "What documents does a UK driving licence renewal need?"),
     "Is this for a minor?", "No, adult"),
    (("How many outdoor ice rinks are there in Ottawa?", "How many ice rinks are there in Ottawa?"),
     "Do you mean indoor rinks?", "No, outdoor"),
])
def test_one_side_of_a_pair_that_excludes_the_other_is_told_from_it(pair, question, expected):
    assert answered(pair, question, "en", model_says=UNKNOWN_REPLY)[0] == expected


URANUS = ("How many rings of Uranus were known by 1990?", "How many rings of Uranus were known?")


@pytest.mark.parametrize(("pair", "question", "expected"), [
    (URANUS, "Which planet's rings do you mean?", "Uranus"),  # the owner the query names, whatever its kind
    (("How many vowels does the modern alphabet of the Turkish language have?",
      "How many vowels does the alphabet of the Turkish language have?"), "Which language's alphabet?", "Turkish"),
    (("What was the GDP of Brazil in 2010?", "What was the GDP of Brazil?"), "Which year's GDP?", "2010"),  # a time
])
def test_whose_thing_the_query_names_answers_a_question_for_its_owner(pair, question, expected):
    assert answered(pair, question, "en", model_says=UNKNOWN_REPLY)[0] == expected


def test_an_owner_the_question_names_itself_is_not_the_one_it_asks_for():
    pair = ("Which mountain range forms the longest stretch of the border between Chile and Argentina?",
            "Which mountain range forms the longest stretch of Argentina's border?")
    question = "Argentina borders five countries. Which neighbor's border are you thinking of?"
    assert "Chile" in answered(pair, question, "en", model_says=UNKNOWN_REPLY)[0]  # another owner: the need's
