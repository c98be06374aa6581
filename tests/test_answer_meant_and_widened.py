"""A particular part or section of the thing (not an age group); Chinese choices said otherwise (首届 for 第一届, 央视
for 中央广播电视总台, a station with 站) or of one against all (某个省份 against 全国); the user's place of a narrower
level than the need's; Chinese requests for a kind of the thing; English guesses of what is meant, answered with the
need's value and neither yes nor no; and the whole block a Chinese "no" names, or a side the segmenter cut."""

from __future__ import annotations

import pytest

from cts_dataset.protocol.views import UNKNOWN
from tests.test_answer_scope import UNKNOWN_REPLY, answered

MERCURY = ("What is the average temperature on the dark side of Mercury?", "What is the average temperature on Mercury?")
BAIKAL = ("How deep is the southern basin of Lake Baikal?", "How deep is Lake Baikal?")
LITERACY = ("What is the literacy rate among women in rural India?", "What is the literacy rate in rural India?")
NATIONAL_GAMES = ("第一届全国运动会在哪里举办？", "全国运动会在哪里举办？")
EXPO = ("第一届中国国际进口博览会的成交额是多少？", "中国国际进口博览会的成交额是多少？")
GALA = ("2024年中央广播电视总台春节联欢晚会的收视率是多少？", "2024年春节联欢晚会的收视率是多少？")
BUZZWORDS = ("2023年中央广播电视总台发布的十大流行语有哪些？", "2023年发布的十大流行语有哪些？")
NEWBORN = ("2024年杭州市新生儿医保参保补贴是多少元？", "2024年新生儿医保参保补贴是多少元？")
INCOME_TAX = ("2024年全国个人所得税起征点是多少元？", "2024年个人所得税起征点是多少元？")
JIANGSU_WAGE = ("2024年江苏省最低工资标准是多少元？", "2024年最低工资标准是多少元？")
NANJING_WAGE = ("2024年南京市最低工资标准是多少元？", "2024年最低工资标准是多少元？")
EV_SALES = ("2023年中国纯电动汽车销量是多少万辆？", "2023年中国汽车销量是多少万辆？")
DOCTORS = ("2023年中国女性博士研究生招生人数是多少？", "2023年中国博士研究生招生人数是多少？")
HANGZHOU_FARE = ("从杭州东到上海虹桥的高铁票价是多少元？", "到上海虹桥的高铁票价是多少元？")
CHENGDU_TRAIN = ("从成都东到重庆西的动车要多长时间？", "到重庆西的动车要多长时间？")
RUGBY = ("Which team won the 2015 Rugby World Cup?", "Which team won the Rugby World Cup?")
ELECTION = ("Which party won the most seats in the 2001 UK general election?", "Which party won the most seats in the UK general election?")
MEDALS = ("Which country topped the medal table at the 2012 Summer Olympics?",
          "Which country topped the medal table at the Summer Olympics?")
MERMAID = ("Who wrote the original fairy tale of The Little Mermaid?", "Who wrote The Little Mermaid?")
PSYCHO = ("Who directed the 1960 film Psycho?", "Who directed Psycho?")
KING_KONG = ("Who composed the score for the 1933 film King Kong?", "Who composed the score for King Kong?")
DRAINAGE = ("Which river has the largest drainage basin in the world?", "Which river is the largest in the world?")
CAPITAL = ("What is the capital of Burkina Faso?", "What is the capital?")
THEME_PARK = ("北京环球影城特别高峰日的门票是多少元？", "北京环球影城的门票是多少元？")
THEME_PARK_DATED = ("北京环球影城2024年特别高峰日的门票是多少元？", "北京环球影城的门票是多少元？")
FLEXIBLE = ("2024年北京灵活就业人员的社保缴费基数是多少？", "2024年北京社保缴费基数是多少？")
CBA_FINAL = ("2023年CBA总决赛辽宁对浙江的比分是多少？", "2023年CBA总决赛的比分是多少？")
GAOKAO = ("2023年湖北省高考报名人数是多少？", "2023年高考报名人数是多少？")
HERITAGE = ("首批国家级非物质文化遗产名录包括多少项？", "国家级非物质文化遗产名录包括多少项？")
AIRPORT_LINE = ("北京地铁机场线的全长是多少公里？", "北京地铁的全长是多少公里？")
METRO = ("北京地铁早高峰的发车间隔是多少分钟？", "北京地铁的发车间隔是多少分钟？")
DOMESTIC = ("2023年上海国内航班的旅客吞吐量是多少？", "2023年上海的旅客吞吐量是多少？")


@pytest.mark.parametrize(("pair", "question", "expected"), [
    (MERCURY, "Is there a particular part of Mercury you're interested in?", "Yes, dark side"),
    (BAIKAL, "Is there a particular section of the lake you have in mind?", "Yes, southern basin"),
])
def test_a_particular_part_or_section_of_the_thing_is_the_block_the_query_left_out(pair, question, expected):
    # a part of the thing is a kind of it, as a model or an edition is: yes, the one thing the query left out
    assert answered(pair, question) == (expected, "open_request")


def test_an_age_group_is_no_kind_of_the_thing():
    # "group" names a kind of the thing, an age group the people counted: the need of women says no age
    assert answered(LITERACY, "Is there a particular age group you have in mind?", model_says=UNKNOWN_REPLY) \
        == (UNKNOWN, "confirmation")


@pytest.mark.parametrize(("pair", "question"), [
    (NATIONAL_GAMES, "您指的是首届，还是某一特定年份的？"),
    (EXPO, "您问的是首届，还是某一届的？"),
])
def test_shoujie_offered_as_a_side_is_the_needs_first_edition(pair, question):
    # 首届 is 第一届 said otherwise: the side the need holds, against one of a given year
    assert answered(pair, question, "zh") == ("第一届", "either_or")


@pytest.mark.parametrize(("pair", "question", "expected"), [
    (GALA, "是央视的春节联欢晚会吗？", ("是的，中央广播电视总台", "confirmation")),
    (BUZZWORDS, "是央视发布的吗？", ("是的，中央广播电视总台", "confirmation")),  # not "不是": the same broadcaster
    (BUZZWORDS, "您说的是央视，还是其他媒体？", ("中央广播电视总台", "either_or")),
])
def test_yangshi_is_the_needs_central_radio_and_television(pair, question, expected):
    assert answered(pair, question, "zh") == expected


def test_the_users_district_is_unknown_where_the_need_names_a_city():
    # "哪个区" asks where the user is, which a need for all of 杭州市 does not say: neither the city nor its
    # parts answer it (the model is not asked: a scripted reply naming the city must not come back)
    assert answered(NEWBORN, "请问您在哪个区办理？", "zh", model_says='{"answer": "杭州市"}') == (UNKNOWN, "typed")


def test_the_users_province_is_not_answered_by_the_whole_country():
    # "您在哪个省…" asks where the user is, as "您是在哪个省…" does
    assert answered(INCOME_TAX, "您在哪个省工作？", "zh", model_says=UNKNOWN_REPLY) == (UNKNOWN, "typed")


@pytest.mark.parametrize(("pair", "question", "expected"), [
    (JIANGSU_WAGE, "您在哪个省工作？", "江苏省"),
    (NANJING_WAGE, "您在哪个市工作？", "南京市"),
])
def test_a_need_of_the_level_asked_still_answers_the_users_place(pair, question, expected):
    # a province is no wider than the province asked, nor a city than the city
    assert answered(pair, question, "zh") == (expected, "typed")


@pytest.mark.parametrize(("pair", "question", "expected"), [
    (EV_SALES, "请问是特定动力类型的车吗？", "是的，纯电动汽车"),
    (EV_SALES, "您问的是某种特定类型的汽车吗？", "是的，纯电动汽车"),
    (DOCTORS, "有没有特定的人群范围，比如性别？", "是的，女性"),  # an example of the kind is no guess
])
def test_a_chinese_request_for_a_kind_of_the_thing_is_the_block_the_query_left_out(pair, question, expected):
    assert answered(pair, question, "zh") == (expected, "open_request")


def test_a_chinese_request_for_a_kind_that_guesses_its_own_is_not_a_yes():
    # 燃油车 is the question's own guess, and no fuel-burning car is the need's: not "是的，纯电动汽车"
    assert answered(EV_SALES, "是特定动力类型的燃油车吗？", "zh", model_says=UNKNOWN_REPLY) == (UNKNOWN, "confirmation")


@pytest.mark.parametrize(("pair", "question", "expected"), [
    (HANGZHOU_FARE, "出发站是杭州东站，对吗？", "是的，杭州东"),
    (HANGZHOU_FARE, "是从杭州东站出发吗？", "是的，杭州东"),
    (CHENGDU_TRAIN, "起点是成都东站，对吗？", "是的，成都东"),
])
def test_a_station_named_with_zhan_is_the_station_the_need_names_without(pair, question, expected):
    # 杭州东站 is how a traveller names the need's 杭州东: yes, not "不是，杭州东到"
    assert answered(pair, question, "zh") == (expected, "confirmation")


@pytest.mark.parametrize(("pair", "question", "expected"), [
    (MEDALS, "Do you mean the London Games?", ("2012", "confirmation")),
    (RUGBY, "Do you mean the tournament hosted by England?", ("2015", "confirmation")),
])
def test_a_guess_of_another_occurrence_gets_the_needs_year_without_yes_or_no(pair, question, expected):
    # the London Games may well be the need's 2012 said otherwise, the English tournament is not the need's:
    # the need's year tells the user which, without a yes or a no that may be wrong
    assert answered(pair, question) == expected


@pytest.mark.parametrize(("pair", "question"), [
    (MERMAID, "Are you asking about the Disney film?"),
    (KING_KONG, "Do you mean the Peter Jackson remake?"),
    (PSYCHO, "Do you mean the black-and-white original starring Anthony Perkins?"),
    (ELECTION, "Do you mean the Labour Party led by Tony Blair?"),
])
def test_a_guess_of_the_answer_stays_unknown_however_it_is_described(pair, question):
    # a described candidate answer ("the Labour Party led by Tony Blair?") guesses what the user searches for,
    # even where its description names the need's slot otherwise
    assert answered(pair, question, model_says=UNKNOWN_REPLY)[0] == UNKNOWN


def test_a_bare_name_against_a_block_of_no_name_time_or_number_is_unknown():
    # the Amazon may be the answer itself, the river with the largest drainage basin: no value of a slot
    assert answered(DRAINAGE, "Are you thinking of the Amazon?", model_says=UNKNOWN_REPLY) == (UNKNOWN, "confirmation")


def test_a_guess_described_in_the_querys_own_words_is_unknown():
    # "the capital" is the query's: Ouagadougou guesses the answer, described by nothing the query lacks
    question = "Is the capital you have in mind Ouagadougou?"
    assert answered(CAPITAL, question, model_says=UNKNOWN_REPLY) == (UNKNOWN, "answer_guess")


def test_a_guess_of_what_is_meant_about_the_user_is_unknown():
    # the Games the user's country hosted: what the need does not say
    question = "Do you mean the Games your country hosted?"
    assert answered(MEDALS, question, model_says=UNKNOWN_REPLY) == (UNKNOWN, "confirmation")


@pytest.mark.parametrize(("pair", "question", "expected"), [
    (THEME_PARK, "是常规日的门票吗？", "不是，特别高峰日"),
    (FLEXIBLE, "是企业职工的缴费基数吗？", "不是，灵活就业人员"),
    (FLEXIBLE, "是指失业人员吗？", "不是，灵活就业人员"),
])
def test_a_chinese_no_names_the_whole_block_the_query_left_out(pair, question, expected):
    # 高峰日 alone, 就业 alone would be another day, other workers than the need's
    assert answered(pair, question, "zh") == (expected, "confirmation")


@pytest.mark.parametrize(("pair", "question", "expected"), [
    (CBA_FINAL, "是广东对辽宁那场吗？", "不是，浙江"),  # not 辽宁对浙江: 辽宁 is no side the guess stands against
    (THEME_PARK_DATED, "是常规日的门票吗？", "不是，特别高峰日"),  # not 2024年特别高峰日: no year is guessed
])
def test_a_chinese_no_is_not_widened_over_another_value_of_a_kind(pair, question, expected):
    assert answered(pair, question, "zh") == (expected, "confirmation")


@pytest.mark.parametrize(("pair", "question", "expected"), [
    (GAOKAO, "您想了解全国的情况，还是某个省份的？", "湖北省"),
    (GAOKAO, "是要全国的统计，还是某个省份的？", "湖北省"),
    (HERITAGE, "范围是所有国家级非遗项目，还是特定批次？", "首批"),
    (HERITAGE, "您指的是所有批次的总数，还是某一批的？", "首批"),
    (AIRPORT_LINE, "是所有线路的总长，还是某条线路的？", "机场线"),
])
def test_a_chinese_choice_of_one_against_all_gets_the_one_the_need_names(pair, question, expected):
    # 全国 and 所有 are the whole; 某个省份, 特定批次, 某条线路 the one the query left out
    assert answered(pair, question, "zh") == (expected, "either_or")


@pytest.mark.parametrize("question", ["是晚高峰的发车间隔吗？", "您问的是晚高峰吗？"])
def test_a_side_of_a_common_choice_the_segmenter_cut_is_denied(question):
    # "晚|高峰": the segmenter's words hold no 晚高峰, yet the guess stands against the need's 早高峰
    assert answered(METRO, question, "zh") == ("不是，早高峰", "confirmation")


def test_a_side_within_a_longer_word_is_none():
    # the 国际 of 浦东国际机场 is part of an airport's name, no 国际 against the need's 国内航班
    question = "您问的是浦东国际机场吗？"
    assert answered(DOMESTIC, question, "zh", model_says=UNKNOWN_REPLY) == (UNKNOWN, "confirmation")
