"""Chinese guesses with the need's head (科创板 for 创业板), a kind asked after a reason (哪一类), seasons as
times, a guess of now against the need's year, questions for figures broken down, and acronyms the intent
writes out."""

from __future__ import annotations

import pytest

from cts_dataset.protocol.views import UNKNOWN
from tests.test_answer_scope import UNKNOWN_REPLY, answered


@pytest.mark.parametrize(("pair", "question", "expected"), [
    # a guess with the same head as the span the query left out is another of its kind
    (("2022年深圳证券交易所创业板IPO募资总额是多少？", "2022年深圳证券交易所IPO募资总额是多少？"), "是科创板吗？", "不是，创业板"),
    (("2021年茅盾文学奖长篇小说奖的评委有几位？", "2021年茅盾文学奖的评委有几位？"), "您说的是儿童文学奖吗？", "不是，长篇小说奖"),
    (("2023年中国工程院新增选的能源与矿业工程学部院士有多少人？", "2023年中国工程院新增选的院士有多少人？"), "是医药卫生学部吗？", "不是，能源与矿业工程学部"),
    # married or single: sides of a common choice
    (("2023年北京市未婚人士申请共有产权房有什么条件？", "2023年北京市申请共有产权房有什么条件？"), "是已婚家庭吗？", "不是，未婚人士"),
    # the incumbent against the need's year
    (("2010年法国总理是谁？", "法国总理是谁？"), "是现任总理吗？", "不是，2010年"),
])
def test_a_chinese_guess_of_the_needs_kind_is_told_from_its_value(pair, question, expected):
    assert answered(pair, question, "zh", model_says=UNKNOWN_REPLY)[0] == expected


def test_a_guess_with_a_head_the_need_does_not_leave_out_is_no_rival():
    # 板 heads no span the query left out (it left out a year): nothing to tell the guess from
    pair = ("2022年上海证券交易所新增上市公司有多少家？", "上海证券交易所新增上市公司有多少家？")
    assert answered(pair, "是科创板吗？", "zh", model_says=UNKNOWN_REPLY)[0] == UNKNOWN


def test_a_chinese_kind_asked_after_a_reason_gets_the_one_span_left_out():
    pair = ("2020年第十届茅盾文学奖长篇小说奖的获奖作品有哪些？", "2020年第十届茅盾文学奖的获奖作品有哪些？")
    assert answered(pair, "这个奖分好几个类别，您想了解哪一类？", "zh", model_says=UNKNOWN_REPLY)[0] == "长篇小说奖"


@pytest.mark.parametrize(("pair", "question", "language", "expected"), [
    (("What are the opening hours of the Prado Museum during the summer season?", "What are the opening hours of the Prado Museum?"),
     "For which time of year?", "en", "summer season"),
    (("What is the ferry timetable to Capri in the low season?", "What is the ferry timetable to Capri?"),
     "Which time of year do you mean?", "en", "low season"),
    (("2024年故宫博物院冬季开放时间是几点到几点？", "2024年故宫博物院开放时间是几点到几点？"), "您问的是哪个时间段？", "zh", "冬季"),
])
def test_a_season_answers_a_question_for_a_time(pair, question, language, expected):
    assert answered(pair, question, language, model_says=UNKNOWN_REPLY)[0] == expected


def test_winter_before_a_noun_is_no_season():
    # "winter sports" names a kind of thing: the choice offers no time, and the need holds neither side
    pair = ("Which city hosted the first Winter Universiade?", "Which city hosted the first Universiade?")
    assert answered(pair, "Do you mean the first official Winter Universiade, or earlier winter sports events?", "en",
                    model_says=UNKNOWN_REPLY)[0] == UNKNOWN


@pytest.mark.parametrize("question", ["需要给出具体的客流数据吗？", "是否需要分城市的数据？"])
def test_a_chinese_question_for_figures_broken_down_asks_more_than_the_need(question):
    pair = ("2023年广东省城市轨道交通客运量是多少？", "2023年城市轨道交通客运量是多少？")
    assert answered(pair, question, "zh", model_says=UNKNOWN_REPLY)[0] == UNKNOWN


def test_an_acronym_the_intent_writes_out_is_its_side():
    pair = ("Which bridge was the longest in the European Union in 2005?", "Which bridge was the longest in the European Union?")
    assert answered(pair, "The EU or Europe as a whole?", "en", model_says=UNKNOWN_REPLY)[0] == "European Union"


@pytest.mark.parametrize(("pair", "question", "language"), [
    # a guess naming the category of the need's value (a district that is new) is no rival of its head
    (("2024年杭州市余杭区新房均价是多少？", "2024年杭州市新房均价是多少？"), "是新区吗？", "zh"),
    # a season before a noun names a kind of thing, in either language
    (("What is the yield per hectare of winter wheat in Kansas?", "What is the yield per hectare of wheat in Kansas?"),
     "Which time of year do you mean?", "en"),
    (("冬季两项世界杯中国队的最好成绩是第几名？", "世界杯中国队的最好成绩是第几名？"), "您问的是哪个时间段？", "zh"),
    # which kind the user's own is, not the need's
    (("2024年北京市三甲医院职工医保门诊报销比例是多少？", "2024年北京市职工医保门诊报销比例是多少？"), "您所在的单位属于哪一类？", "zh"),
])
def test_a_head_a_season_or_a_kind_the_need_does_not_answer_is_unknown(pair, question, language):
    assert answered(pair, question, language, model_says=UNKNOWN_REPLY)[0] == UNKNOWN
