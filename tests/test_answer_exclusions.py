"""A confirmation that names what it leaves out ("X, not counting Y?", "X，不包括Y，对吗？") tells X from Y as
"X, not Y?" does; a side the intent holds is answered with the shortest run of the intent that says it."""

from __future__ import annotations

import pytest

from cts_dataset.protocol.views import UNKNOWN
from tests.test_answer_scope import UNKNOWN_REPLY, answered


@pytest.mark.parametrize(("pair", "question", "expected"), [
    (("2023年杭州市二手房成交套数是多少？", "2023年二手房成交套数是多少？"), "您问的是二手房，不包括新房，对吗？", "是的，二手房"),
    (("2024年中国大陆高校毕业生人数是多少？", "2024年中国大陆高校毕业生人数是多少？"), "范围是中国大陆，不含港澳台，对吧？", "是的，中国大陆"),
    (("2023年云南省入境游客人次是多少？", "2023年入境游客人次是多少？"), "您要的是入境游客人次，不包括国内游客，对吗？", "是的，入境游客人次"),
])
def test_a_chinese_confirmation_that_leaves_a_thing_out_is_a_contrast(pair, question, expected):
    assert answered(pair, question, "zh", model_says=UNKNOWN_REPLY)[0] == expected


@pytest.mark.parametrize(("pair", "question", "expected"), [
    (("Which lake is the largest freshwater lake in Africa?", "Which lake is the largest freshwater lake?"),
     "Freshwater lakes only, leaving out salt lakes such as the Caspian?", "Yes, freshwater lake"),
    (("Which river is the longest navigable river in Europe?", "Which river is the longest navigable river?"),
     "Navigable rivers, excluding streams that no boat can use?", "Yes, navigable river"),
])
def test_an_english_confirmation_that_leaves_a_thing_out_is_a_contrast(pair, question, expected):
    assert answered(pair, question, "en", model_says=UNKNOWN_REPLY)[0] == expected


def test_a_held_side_is_the_shortest_run_that_says_it():
    # the side's words stand apart ("desert ... hot desert"): the run that says both, not all between
    pair = ("Which desert is the largest hot desert in Asia?", "Which desert is the largest hot desert?")
    assert answered(pair, "Hot deserts or polar deserts?", "en", model_says=UNKNOWN_REPLY)[0] == "hot desert"


def test_a_side_the_intent_does_not_hold_is_still_unknown():
    # what the question leaves out is no side the intent holds either way: the need says neither
    pair = ("2023年杭州市二手房成交套数是多少？", "2023年二手房成交套数是多少？")
    assert answered(pair, "您问的是商铺，不包括住宅，对吗？", "zh", model_says=UNKNOWN_REPLY)[0] == UNKNOWN


@pytest.mark.parametrize(("pair", "question", "expected"), [
    # the intent ranks by a measure without a "by": the span that names it
    (("Which Asian bank had the highest revenue in 2021?", "Which Asian bank was the biggest in 2021?"),
     "Do you mean by the number of customers?", "highest revenue"),
    (("Which reservoir in Spain holds the greatest volume of water?", "Which reservoir in Spain is the largest?"),
     "Are you after the reservoir with the biggest surface area?", "greatest volume of water"),
    # a count guessed, whatever it counts
    (("Which zoo in Germany is the largest by area?", "Which zoo in Germany is the largest?"),
     "Do you mean by the number of tickets sold?", "area"),
])
def test_a_guessed_yardstick_gets_the_measure_the_intent_ranks_by(pair, question, expected):
    assert answered(pair, question, "en", model_says=UNKNOWN_REPLY)[0] == expected


def test_a_guessed_yardstick_of_an_intent_that_ranks_by_nothing_is_unknown():
    pair = ("Which Asian bank was founded first in 1890?", "Which Asian bank was founded first?")
    assert answered(pair, "Do you mean by the number of customers?", "en", model_says=UNKNOWN_REPLY)[0] == UNKNOWN


@pytest.mark.parametrize(("pair", "question", "language", "expected"), [
    # 不含税 is a price's attribute, not what a guess leaves out
    (("2024年上海市汽油含税价格是多少？", "2024年汽油含税价格是多少？"), "是北京，不含税价格对吗？", "zh", "不是，上海市"),
    # a guess that leaves a thing out but names words of its own restricts the need: no "yes"
    (("2023年上海市汽车上牌量是多少？", "2023年上海市上牌量是多少？"), "您问的是新能源汽车，不包括燃油车，对吗？", "zh", UNKNOWN),
    # a threshold is no yardstick: the intent ranks by nothing
    (("Which Japanese company with revenue above $100 billion was founded first?", "Which Japanese company was founded first?"),
     "Do you mean by the number of employees?", "en", UNKNOWN),
    # an acronym is spelt out only for a place the intent writes out, not for another thing's initials
    (("Which trains depart from Union Station in Washington after 10 pm?", "Which trains depart from Union Station after 10 pm?"),
     "US trains or Canadian trains?", "en", "Washington"),
])
def test_what_the_new_rules_must_not_take(pair, question, language, expected):
    assert answered(pair, question, language, model_says=UNKNOWN_REPLY)[0] == expected
