"""English questions that name the need's value otherwise: a country by its code, a sex as an adjective, a time by
an event, the whole world or now against the need's place or time, the plain one of a span's head; and offers,
conditions and sizes that the need does not settle."""

from __future__ import annotations

import pytest

from cts_dataset.protocol.views import UNKNOWN
from tests.test_answer_scope import answered

UNKNOWN_REPLY = f'{{"answer": "{UNKNOWN}"}}'
PREMIER = ("Who was Prime Minister of Canada at the end of 1979?", "Who was Prime Minister at the end of 1979?")
RIVER = ("Which river is the longest in the Balkans?", "Which river is the longest?")
FESTIVAL = ("Which film won the Golden Bear at the 1994 Berlin International Film Festival?",
            "Which film won the Golden Bear at the Berlin International Film Festival?")


@pytest.mark.parametrize(("pair", "question", "expected"), [
    (PREMIER, "Are you referring to the UK, where Thatcher had just taken office?", "No, Canada"),  # not "Prime Minister of Canada"
    (("What was the best-selling video game in the United States in 2011?", "What was the best-selling video game in 2011?"),
     "Do you mean the US market?", "Yes, United States"),
])
def test_a_country_named_by_its_code_is_a_country(pair, question, expected):
    assert answered(pair, question)[0] == expected


def test_a_choice_of_sides_or_of_sexes_gets_the_needs():
    pair = ("Who commanded the Confederate army at the Battle of Shiloh?", "Who commanded the army at the Battle of Shiloh?")
    assert answered(pair, "The Union side or the Confederate side?") == ("Confederate", "either_or")
    pair = ("Who was the first woman to win the Fields Medal?", "Who was the first person to win the Fields Medal?")
    assert answered(pair, "The first laureate overall, or the first female laureate?") == ("woman", "either_or")


def test_a_contrast_and_a_which_clause_are_read_after_their_lead_in():
    pair = ("What was the GDP of Mexico in 2018 in current US dollars?", "What was the GDP of Mexico in current US dollars?")
    assert answered(pair, "Nominal GDP in current US dollars, rather than PPP-adjusted?")[0] == "Yes, in current US dollars"
    pair = ("Which is the fastest land mammal in South America?", "Which is the fastest land mammal?")
    assert answered(pair, "You mean land mammals only, so not birds like the swift?")[0] == "Yes, land mammal"
    pair = ("Which team won the FIFA Women's World Cup in 1999?", "Which team won the FIFA World Cup in 1999?")
    assert answered(pair, "There was no men's World Cup in 1999, so which tournament do you mean?") == (
        "FIFA Women's World Cup", "meant")


def test_the_whole_world_or_now_against_the_needs_place_or_time_is_denied():
    assert answered(RIVER, "Do you mean the longest river in the world?")[0] == "No, Balkans"
    assert answered(RIVER, "Worldwide?")[0] == "No, Balkans"
    pair = ("Which river is the longest in the world?", "Which river is the longest?")  # the need says the world itself
    assert not answered(pair, "Worldwide?", model_says=UNKNOWN_REPLY)[0].startswith("No")
    pair = ("Who was the CEO of Microsoft when Windows 95 was released?", "Who was the CEO of Microsoft?")
    assert answered(pair, "Do you mean the current CEO?")[0] == "No, when Windows 95 was released"


def test_an_ordinal_beside_the_needs_year_leaves_the_year():
    assert answered(FESTIVAL, "Do you mean the 44th festival, held in 1994?") == ("1994", "confirmation")


def test_an_event_that_dates_the_need_answers_a_question_for_a_time():
    pair = ("Who was the Secretary-General of NATO during the Kosovo War?", "Who was the Secretary-General of NATO?")
    assert answered(pair, "The post has had many holders. At what point in time?") == ("during the Kosovo War", "typed")


def test_the_plain_one_of_a_spans_head_is_denied():
    pair = ("What is the price of a business class ticket from Paris to Tokyo?", "What is the price of a ticket from Paris to Tokyo?")
    assert answered(pair, "Do you mean a regular class ticket?")[0] == "No, business class"


@pytest.mark.parametrize(("pair", "question"), [
    (FESTIVAL, "If the prize was shared that year, do you want all the winning films listed?"),
    (("Which university topped the Times Higher Education rankings in 2015?", "Which university topped the university rankings?"),
     "Would it help to include the university's overall score as well?"),
    (("Which company acquired the chipmaker Xilinx in 2022?", "Which company acquired a chipmaker in 2022?"),
     "Should I count only deals that closed in 2022, or also ones announced that year and completed later?"),
])
def test_offers_and_ways_of_counting_the_need_does_not_settle_are_unknown(pair, question):
    assert answered(pair, question, model_says=UNKNOWN_REPLY)[0] == UNKNOWN


def test_the_size_of_a_business_is_no_scale_of_measure():
    pair = ("How many small businesses with fewer than 20 employees were there in Ohio in 2021?",
            "How many businesses were there in Ohio in 2021?")
    assert answered(pair, "What business scale do you mean?")[0] in ("small", "fewer than 20 employees")
