"""Offers of more and questions about the user that only hint at a kind of value: "需要附上城区的地图吗？",
"需要地级市的补贴标准吗？", "您今年多大年纪？", "Would a chart of the rate history help?", "Are you applying as
an international student?" name no value of the need, whatever words they share with it."""

from __future__ import annotations

import pytest

from cts_dataset.protocol.views import UNKNOWN
from tests.test_answer_scope import UNKNOWN_REPLY, answered

HANGZHOU = ("2024年杭州市城乡居民医保个人缴费标准是多少？", "城乡居民医保个人缴费标准是多少？")
SHANGHAI = ("2022年上海市中心城区的常住人口是多少？", "2022年上海市的常住人口是多少？")
DRUGS = ("2023年版《国家基本医疗保险药品目录》甲类药品有多少种？", "《国家基本医疗保险药品目录》收录了多少种药品？")
MORTGAGE = ("What was the average mortgage rate in Canada in March 2019?", "What was the average mortgage rate in Canada?")
CREDITS = ("How many credits does a master's degree need at a university in Denmark?",
           "How many credits does a master's degree need?")


@pytest.mark.parametrize(("pair", "question", "language"), [
    (HANGZHOU, "您今年多大年纪？", "zh"),  # how old the user is: a value asked, no guess of the need's year
    (HANGZHOU, "需要地级市的补贴标准吗？", "zh"),  # a level of place, no place
    (SHANGHAI, "需要附上城区的地图吗？", "zh"),  # an offer: 城区 shares the need's word, guesses none of its values
    (DRUGS, "需要附上目录的下载地址吗？", "zh"),
    (MORTGAGE, "Would a chart of the rate history help?", "en"),  # "history" hints at a time, asks none
    (CREDITS, "Are you applying as an international student?", "en"),  # the user's situation, not the place
])
def test_an_offer_or_a_question_about_the_user_gets_no_value_of_the_need(pair, question, language):
    assert answered(pair, question, language, model_says=UNKNOWN_REPLY)[0] == UNKNOWN


@pytest.mark.parametrize(("pair", "question", "language", "expected"), [
    (HANGZHOU, "需要2023年的数据吗？", "zh", "不是，2024年杭州市"),  # a value guessed in an offer is still told
    (MORTGAGE, "Are you asking about a particular point in time?", "en", "Yes, March 2019"),  # asked in so many words
    (CREDITS, "Is there a particular country?", "en", "Yes, university in Denmark"),
])
def test_a_kind_asked_in_so_many_words_still_gets_the_needs_value(pair, question, language, expected):
    assert answered(pair, question, language, model_says=UNKNOWN_REPLY)[0] == expected


MERCER = ("Which city ranked first in the Mercer quality of living ranking in 2019?",
          "Which city ranked first in the quality of living ranking in 2019?")


@pytest.mark.parametrize(("question", "expected"), [
    ("Whose ranking: Mercer or the Economist Intelligence Unit?", "Mercer"),  # a source asked, not a rank
    ("Which ranking do you mean, Mercer or Monocle?", "Mercer"),
    ("Which rank are you interested in?", "first"),  # a rank asked
    ("Which ranking position do you mean?", "first"),
])
def test_a_question_for_whose_ranking_asks_its_source_not_a_rank(question, expected):
    assert answered(MERCER, question, "en", model_says=UNKNOWN_REPLY)[0] == expected


@pytest.mark.parametrize(("pair", "question", "expected"), [
    (("2022年北京市的常住人口是多少？", "2022年北京市的人口是多少？"), "需要按户籍人口统计吗？", "不是，常住人口"),  # a yardstick, no offer
    # 很多大…, 很多深…: "many", not "how big": the question stays a yes/no question
    (("2024年深圳市住房公积金缴存比例上限是多少？", "2024年住房公积金缴存比例上限是多少？"), "是很多深圳职工关心的那个比例吗？", "深圳市"),
])
def test_a_yardstick_or_a_word_for_many_is_no_offer_nor_a_question_for_a_value(pair, question, expected):
    assert answered(pair, question, "zh", model_says=UNKNOWN_REPLY)[0].endswith(expected)
