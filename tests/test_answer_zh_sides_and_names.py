"""Chinese questions that offer the other side of a common choice (退休 for 在职, 总量 for 人均, 新车 for 二手车), say
the need's 高速铁路 as 高铁, number a series name otherwise (东方红二号), or name a title the need writes in title
marks; and questions of whether a thing is so, what a quoted word means, and the user's own present or place, which
the need does not answer."""

from __future__ import annotations

import pytest

from cts_dataset.protocol.views import UNKNOWN
from tests.test_answer_scope import UNKNOWN_REPLY, answered

CARBON = ("2023年中国人均碳排放量是多少吨？", "2023年中国碳排放量是多少吨？")
RAILWAY = ("截至2024年底中国高速铁路运营里程是多少公里？", "高速铁路运营里程是多少公里？")
SATELLITE = ("东方红一号卫星是哪一年发射的？", "东方红卫星是哪一年发射的？")
ROCKET = ("长征二号运载火箭首次发射是在哪一年？", "长征运载火箭首次发射是在哪一年？")
RICH_LIST = ("2023年《福布斯》全球亿万富豪榜上排名第一的是谁？", "全球亿万富豪榜上排名第一的是谁？")
SHOP = ("天猫旗舰店承诺的发货时限是多少小时？", "店铺承诺的发货时限是多少小时？")
RESERVOIR = ("按库容计算，中国最大的水库是哪一座？", "中国最大的水库是哪一座？")
EXAM = ("2022年全国硕士研究生招生考试的报名人数是多少万？", "全国硕士研究生招生考试的报名人数是多少万？")
CET = ("2024年上半年大学英语四级考试的报名费是多少元？", "大学英语四级考试的报名费是多少元？")
PENSION_BASE = ("2025年北京市灵活就业人员养老保险的最低缴费基数是多少元？", "灵活就业人员养老保险的最低缴费基数是多少元？")
NATIONWIDE = ("2024年全国城乡居民医保个人缴费标准是多少元？", "城乡居民医保个人缴费标准是多少元？")
ZHEJIANG = ("2024年浙江省城乡居民医保个人缴费标准是多少元？", "2024年城乡居民医保个人缴费标准是多少元？")


@pytest.mark.parametrize(("pair", "question", "expected"), [
    (CARBON, "是按排放总量算吗？", "不是，人均"),
    (("2024年全国二手车交易量是多少万辆？", "2024年全国汽车交易量是多少万辆？"), "是新车销量吗？", "不是，二手车"),
    (("上海博物馆儿童票多少钱？", "上海博物馆门票多少钱？"), "是成人票价吗？", "不是，儿童票"),  # the whole block the query left out
    (("2024年双十一优衣库线下门店销售额是多少？", "2024年双十一优衣库销售额是多少？"), "是网上的销售额吗？", "不是，线下门店"),
])
def test_the_other_side_of_a_common_choice_is_denied_with_the_needs(pair, question, expected):
    # Cilin files these sides apart or not at all: without them the guess stood against nothing of the need's
    assert answered(pair, question, "zh") == (expected, "confirmation")


def test_gaotie_offered_as_a_side_is_the_needs_high_speed_railway():
    # 高铁 is how people say 高速铁路: the side the query's own words hold
    assert answered(RAILWAY, "您说的是高铁，还是包括普速线路在内的全部铁路？", "zh") == ("高速铁路", "either_or")


@pytest.mark.parametrize(("pair", "question", "expected"), [
    (SATELLITE, "是东方红二号吗？", "不是，东方红一号"),
    (ROCKET, "是长征五号吗？", "不是，长征二号"),
])
def test_a_series_name_numbered_otherwise_is_denied_with_the_needs_number(pair, question, expected):
    assert answered(pair, question, "zh") == (expected, "confirmation")


def test_only_a_numbered_name_of_the_same_series_and_not_an_ordinal_is_a_rival_number():
    from cts_dataset.protocol.answer_rivals_zh import other_number_zh
    assert other_number_zh("是东方红二号吗？", ["东方红一号"]) == "东方红一号"
    assert other_number_zh("是神舟五号吗？", ["长征二号"]) is None  # another series: not a number of the need's
    # "第十一号" is an ordinal (of typhoons, decrees): the ordinal rules judge it, not this one
    assert other_number_zh("第十三号台风吗？", ["第十一号"]) is None


def test_a_left_out_span_keeps_its_title_marks_whole():
    from cts_dataset.protocol.answer_choices import missing_spans
    spans = missing_spans(*RICH_LIST, "zh")
    assert "2023年《福布斯》" in spans and "《福布斯》" in spans
    assert "2023年《福布斯" not in spans
    # a title inside a longer span is a span of its own too
    assert "《时代》" in missing_spans("2024年《时代》周刊年度人物是谁？", "年度人物是谁？", "zh")


def test_a_title_the_question_writes_whole_is_the_span_it_names():
    # 发布 is no question of where figures come from when the question names the need's title
    assert answered(RICH_LIST, "是《福布斯》杂志发布的那个榜单吗？", "zh") == ("《福布斯》", "confirmation")
    assert answered(RICH_LIST, "您指的是《福布斯》的榜单吧？", "zh") == ("是的，《福布斯》", "confirmation")


def test_a_title_the_question_does_not_write_whole_is_not_preferred():
    # without its marks 福布斯 is a word like any other, and 发布 asks where the figures come from
    assert answered(RICH_LIST, "是福布斯杂志发布的那个榜单吗？", "zh", model_says=UNKNOWN_REPLY)[0] == UNKNOWN


@pytest.mark.parametrize(("pair", "question"), [
    (SHOP, "店铺有没有在详情页承诺发货时限？"),
    (RESERVOIR, "要考虑汛期和非汛期的库容差异吗？"),
    (("按湖泊面积计算，中国最大的咸水湖是哪个？", "中国最大的咸水湖是哪个？"), "要考虑季节性湖泊的面积吗？"),
])
def test_a_question_of_whether_a_thing_is_so_or_is_to_be_weighed_is_unknown(pair, question):
    # the guess in it stands in for no span of the need's: the need says nothing of either
    assert answered(pair, question, "zh", model_says=UNKNOWN_REPLY)[0] == UNKNOWN


@pytest.mark.parametrize("question", [
    "“2022年”是指2021年12月举行的那次考试，还是2022年12月的那次？",
    "“2022年”指的是当年年底举行的考试，还是2022年入学对应的那一届？",
])
def test_what_a_quoted_word_of_the_need_means_is_unknown_where_it_holds_neither_side(question):
    assert answered(EXAM, question, "zh", model_says=UNKNOWN_REPLY)[0] == UNKNOWN


def test_what_a_quoted_word_means_gets_the_side_the_need_holds():
    assert answered(CET, "“2024年”是指上半年的考试，还是下半年的？", "zh") == ("2024年上半年", "either_or")


def test_how_the_user_pays_now_is_no_question_of_when():
    assert answered(PENSION_BASE, "您现在是按60%还是300%的基数缴纳？", "zh", model_says=UNKNOWN_REPLY)[0] == UNKNOWN


def test_a_question_of_the_users_present_that_asks_a_time_gets_the_needs_time():
    assert answered(PENSION_BASE, "您目前想查哪一年的缴费基数？", "zh") == ("2025年", "typed")


@pytest.mark.parametrize("question", ["您是在哪个市参保的？", "您是在哪个省缴纳医保的？"])
def test_the_users_own_province_or_city_is_not_answered_by_the_whole_country(question):
    assert answered(NATIONWIDE, question, "zh", model_says=UNKNOWN_REPLY)[0] == UNKNOWN


def test_a_need_for_a_province_still_answers_the_users_province():
    assert answered(ZHEJIANG, "您是在哪个省参保的？", "zh") == ("浙江省", "typed")


def test_which_provinces_standard_is_meant_is_answered_by_the_whole_country():
    # not about the user: which province's standard the need is for
    assert answered(NATIONWIDE, "您问的是哪个省的标准？", "zh") == ("全国", "typed")
