"""Which-questions whose words name more than the thing asked: the level a which names ("Which country is the
second-largest city?"), a name the query writes whole where the intent adds a word ("UK Poet Laureate"), a
category of the query's award ("Which Nebula category?"), a name the query already gives ("Which storm?"), and
"OK", which names nothing ("Is the Pauling scale OK?")."""

from __future__ import annotations

import pytest

from cts_dataset.protocol import answerer
from cts_dataset.protocol.answer_guesses import asked_level
from cts_dataset.protocol.views import UNKNOWN, AnswererView
from tests.test_answer_scope import UNKNOWN_REPLY, answered

UKRAINE = ("What is the second-largest city in Ukraine?", "What is the second-largest city?")
LAUREATE = ("Which poet was appointed UK Poet Laureate in 1999?", "Which poet was appointed Poet Laureate in 1999?")
NEBULA = ("Which novel won the Nebula Award for Best Novel in 1975?", "Which novel won the Nebula Award in 1975?")
PULITZER = ("Which poetry collection won the Pulitzer Prize for Poetry in 2012?",
            "Which poetry collection won the Pulitzer Prize in 2012?")
PAULING = ("Which element has the highest electronegativity on the Pauling scale?",
           "Which element has the highest electronegativity?")
ARDMORE = ("What is the population of Ardmore, Pennsylvania?", "What is the population of Ardmore?")
HAIYAN = ("What was the maximum sustained wind speed of Typhoon Haiyan at landfall in the Philippines, according to "
          "the Joint Typhoon Warning Center?", "What was the maximum sustained wind speed of Typhoon Haiyan?")


@pytest.mark.parametrize(("question", "level"), [
    ("Which country is the second largest city?", "country"),  # the which names the level asked
    ("In which country is the largest city?", "country"),
    ("Which city?", "city"),
    ("Which city in which country?", None),  # two levels asked
    ("Which country or continent?", None),  # two levels offered
    ("Which country or province do you mean?", None),
    ("Are you asking about a city or a country?", None),  # no which: two levels named
])
def test_the_level_a_which_names_is_the_level_asked(question, level):
    assert asked_level(question) == level


@pytest.mark.parametrize(("pair", "question", "expected"), [
    (UKRAINE, "Which country is the second largest city?", "Ukraine"),
    (LAUREATE, "Which country's Poet Laureate?", "UK"),  # the word the query lacks, not the title it shares
])
def test_a_place_asked_is_told_by_the_word_the_query_lacks(pair, question, expected):
    assert answered(pair, question, model_says=UNKNOWN_REPLY) == (expected, "typed")


@pytest.mark.parametrize(("pair", "question", "expected"), [
    (NEBULA, "Which Nebula category?", "Best Novel"),
    (NEBULA, "Which award category are you asking about?", "Best Novel"),  # not the award the query names
    (NEBULA, "Which category of the Nebula Award?", "Best Novel"),
    (PULITZER, "Which Pulitzer category?", "Poetry"),
])
def test_a_category_of_the_querys_award_is_what_the_query_left_out_beside_it(pair, question, expected):
    assert answered(pair, question, model_says=UNKNOWN_REPLY) == (expected, "specify")


@pytest.mark.parametrize(("pair", "question", "expected"), [
    (PAULING, "Is the Pauling scale OK?", "Yes, Pauling scale"),  # "OK" is no guess of another scale
    (PAULING, "Is the Mohs scale OK?", "No, Pauling scale"),
    (ARDMORE, "Do you mean Ardmore, OK?", "No, Ardmore, Pennsylvania"),  # after a comma, Oklahoma
])
def test_ok_names_nothing_but_after_a_comma(pair, question, expected):
    assert answered(pair, question, model_says=UNKNOWN_REPLY)[0] == expected


def test_the_levels_a_which_offers_are_each_answered():
    africa = ("What is the largest city in Africa?", "What is the largest city?")
    assert answered(africa, "Which country or continent?", model_says=UNKNOWN_REPLY)[0] == "Africa"


def test_a_which_question_for_a_thing_of_no_kind_is_offered_the_querys_names():
    options = answerer.options_of(AnswererView(HAIYAN[0], "en", "Which storm?", HAIYAN[1]))
    assert "Typhoon Haiyan" in options and options[-1] == UNKNOWN
    assert "maximum sustained wind speed" not in options  # the query's other phrases stay out
    saturn = ("How many moons of Saturn had been officially confirmed by the IAU as of 2023?",
              "How many moons of Saturn had been officially confirmed?")
    assert "Saturn" in answerer.options_of(AnswererView(saturn[0], "en", "To be sure, which planet's moons?", saturn[1]))
    typed = answerer.options_of(AnswererView(HAIYAN[0], "en", "Which country?", HAIYAN[1]))
    assert "Typhoon Haiyan" not in typed  # a question for a place is offered no other name
