"""The owner a "which X's" question asks of, a pair against the query's own word, a place's thing guessed
("Argentina's anthem?"), where a thing is located, a choice of yardsticks, a hyphenated side, and questions that
say more than the need (the user's own doings, a conversion, a name to include against the need's source); in
Chinese, degrees that exclude each other, two sides the need joins, and a side against its 非."""

from __future__ import annotations

import pytest

from cts_dataset.protocol.views import UNKNOWN
from tests.test_answer_scope import UNKNOWN_REPLY, answered

PASSPORT = ("How much does an adult Irish passport cost when applying by post in 2023?", "How much does an adult Irish passport cost?")
ANTHEM = ("Who wrote the lyrics of the national anthem of Chile?", "Who wrote the lyrics of the national anthem?")
STATION = ("When did South Korea open its Jang Bogo Station in Terra Nova Bay?", "When did South Korea open its research station?")
FORTUNE = ("Which company ranked first by revenue in the 2020 Fortune Global 500?", "Which company ranked first in the Fortune Global 500?")
SAHARA = ("What is the area of the Sahara in square kilometres according to the CIA World Factbook?",
          "What is the area of the Sahara in square kilometres?")
TRAIN = ("What is the cheapest way to get from Paris to Lyon by train in 2024?", "What is the cheapest way to get from Paris to Lyon by train?")
GRADUATES = ("2024年杭州市新引进的本科毕业生生活补贴是多少？", "2024年杭州市新引进的毕业生生活补贴是多少？")
HOUSING = ("2024年南京市公租房的申请条件和租金标准是什么？", "公租房的申请条件和租金标准是什么？")
POWER = ("2023年成都市居民用电阶梯电价是多少？", "居民用电阶梯电价是多少？")
OTHER_POWER = ("2023年成都市非居民用电价格是多少？", "非居民用电价格是多少？")


@pytest.mark.parametrize(("pair", "question", "expected"), [
    (PASSPORT, "Is this for a child's passport?", "No, adult"),  # the query's own word stands against it
    (ANTHEM, "Argentina's anthem?", "No, Chile"),  # a place's thing, guessed alone
    (STATION, "Where is the station located?", "Terra Nova Bay"),
    (FORTUNE, "The overall rank, or by profits or by revenue?", "revenue"),  # a choice of yardsticks, no rank
    (GRADUATES, "是硕士吗？", "不是，本科"),  # degrees exclude each other
    (HOUSING, "您想了解申请条件，还是租金标准？", "申请条件和租金标准"),  # the need asks both
    (POWER, "是居民用电还是非居民用电？", "居民"),
    (OTHER_POWER, "是居民用电还是非居民用电？", "非居民用"),  # not the lone 非
])
def test_what_the_need_states_is_answered(pair, question, expected):
    language = "zh" if any("\u4e00" <= c <= "\u9fff" for c in pair[0]) else "en"
    assert expected in answered(pair, question, language)[0]


@pytest.mark.parametrize(("pair", "question", "model_picks"), [
    (PASSPORT, "Are you applying from abroad?", "when applying by post in 2023"),  # the user's doings, said more
    (FORTUNE, "Do you want the figure converted into another currency?", "revenue"),
    (SAHARA, "Should the figure include the Sahel?", "according to the CIA World Factbook"),  # no rival of a source
])
def test_a_question_that_says_more_than_the_need_is_unknown(pair, question, model_picks):
    assert answered(pair, question, model_says=f'{{"answer": "{model_picks}"}}')[0] == UNKNOWN


def test_what_the_new_rules_leave_alone():
    assert "by post" in answered(PASSPORT, "Are you applying by post?", model_says=UNKNOWN_REPLY)[0]  # the need's own doing
    assert answered(TRAIN, "A one-way or a return ticket?", model_says=UNKNOWN_REPLY)[0] != "way"  # "one-way" is one word
    assert answered(("Which city was the second largest in the 2011 UK census?", "Which city was the second largest?"),
                    "The top two, or places further down the list?", model_says=UNKNOWN_REPLY)[0] != "by"
