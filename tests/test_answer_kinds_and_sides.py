"""Kinds that exclude each other ("是护照到期换发吗？" of a need for 首次申领, "Do you mean onshore wind farms?" of
one for offshore), "where" asked of a query that seeks no place, sides said in parallel ("Ranked by market
capitalization or by revenue?"), a need that takes both sides ("dragonflies only, or damselflies as well?"), and
Chinese questions about the user's plans."""

from __future__ import annotations

import pytest

from cts_dataset.protocol.answer_phrasing import alternatives
from cts_dataset.protocol.answer_rules import _both_sides_joined
from cts_dataset.protocol.views import UNKNOWN
from tests.test_answer_scope import UNKNOWN_REPLY, answered

ALBATROSS = ("What is the average wingspan of the adult female wandering albatross?",
             "What is the average wingspan of the wandering albatross?")
WIND = ("What was the installed capacity of the largest offshore wind farm in the United Kingdom at the end of 2022?",
        "What was the installed capacity of the largest wind farm in the United Kingdom?")
ENROLMENT = ("2021年全国普通高等学校本科招生人数是多少？", "全国普通高等学校招生人数是多少？")
PASSPORT = ("2024年成都市办理因私普通护照首次申领需要哪些材料？", "2024年办理因私普通护照需要哪些材料？")
FIRMS = ("2022年《财富》中国500强排行榜中，营业收入最高的民营企业是哪家？", "《财富》中国500强排行榜中，营业收入最高的企业是哪家？")
WIND_ZH = ("2023年内蒙古自治区风电累计装机容量是多少？", "2023年风电装机容量是多少？")
GRADUATES = ("2022年全国研究生毕业人数是多少？", "2022年全国毕业人数是多少？")
PAINTINGS = ("What is the estimated age of the oldest cave paintings found on the island of Sulawesi, as reported in 2019?",
             "What is the estimated age of the oldest cave paintings found?")
LEVANT = ("Which is the largest city in the Levant region, and how many people live there?",
          "Which is the largest city, and how many people live there?")
MARKET = ("Which company had the largest market capitalization on the Tokyo Stock Exchange at the end of 2020?",
          "Which company had the largest market capitalization at the end of 2020?")
DRAGONFLIES = ("How many species of dragonflies and damselflies breed regularly in Ireland according to the 2020 national "
               "checklist?", "How many species of dragonflies and damselflies breed regularly according to the national checklist?")
TEAMS = ("How many medals did the men's and women's teams win at the 2012 Olympics?",
         "How many medals did the teams win at the 2012 Olympics?")
DESSERT = ("按照顺德的传统做法，双皮奶使用的是哪种动物的奶？", "双皮奶使用的是哪种动物的奶？")


@pytest.mark.parametrize(("pair", "question", "language", "expected"), [
    (ALBATROSS, "Do you mean males? They tend to be larger.", "en", "No, adult female"),  # "males", plural
    (WIND, "Do you mean onshore wind farms?", "en", "No, offshore"),
    (ENROLMENT, "需要把研究生招生也算进去吗？", "zh", "不是，本科"),  # an offer of more, of another kind
    (ENROLMENT, "是专科吗？", "zh", "不是，本科"),
    (PASSPORT, "是护照到期换发吗？", "zh", "不是，首次申领"),
    (FIRMS, "国有企业也包括在内吗？", "zh", "不是，民营企业"),
    (WIND_ZH, "是指当年新增装机吗？", "zh", "不是，累计"),
])
def test_a_kind_that_excludes_the_needs_is_told_from_it(pair, question, language, expected):
    assert answered(pair, question, language, model_says=UNKNOWN_REPLY)[0] == expected


def test_a_kind_within_the_needs_is_no_other_kind():
    answer, _ = answered(GRADUATES, "是硕士吗？", "zh", model_says=UNKNOWN_REPLY)  # a 硕士 is a 研究生
    assert not answer.startswith("不是")


@pytest.mark.parametrize(("pair", "question", "expected"), [
    (PAINTINGS, "Where were these paintings found?", "Sulawesi"),  # the query seeks an age, no place
    (LEVANT, "Where is the largest city located?", UNKNOWN),  # the query seeks the city: its own question
])
def test_where_asks_the_place_the_query_left_out_unless_the_query_seeks_one(pair, question, expected):
    assert answered(pair, question, model_says=UNKNOWN_REPLY)[0] == expected


def test_sides_said_in_parallel_are_told_without_the_words_that_ask():
    assert alternatives("Ranked by market capitalization or by revenue?", "en") == ["by market capitalization", "by revenue?"]
    assert alternatives("The prize in physics, or in chemistry?", "en")[0] == "The prize in physics"  # no asking words
    assert answered(MARKET, "Ranked by market capitalization or by revenue?", model_says=UNKNOWN_REPLY)[0] == "market capitalization"


@pytest.mark.parametrize(("pair", "question", "expected"), [
    (DRAGONFLIES, "Should I count dragonflies only, or damselflies as well?", "dragonflies and damselflies"),
    (DRAGONFLIES, "Just damselflies, or dragonflies too?", "dragonflies and damselflies"),
    (TEAMS, "Men's only, or women's as well?", "men's and women's"),
])
def test_a_need_that_names_both_sides_takes_both(pair, question, expected):
    assert answered(pair, question, model_says=UNKNOWN_REPLY) == (expected, "either_or")


def test_one_side_only_is_not_both():  # the need names offshore alone
    assert answered(WIND, "Offshore only, or onshore as well?", model_says=UNKNOWN_REPLY) == ("offshore", "either_or")
    # a word both sides share ("singles") says no side: the need's "and" joins men's events only
    assert _both_sides_joined("Men's singles only, or women's singles as well?",
                              "How many titles did he win in men's singles and men's doubles?") is None


def test_a_chinese_question_about_the_users_plans_that_names_nothing_of_the_need_gets_unknown():
    assert answered(DESSERT, "您是打算在家自己做吗？", "zh", model_says=UNKNOWN_REPLY)[0] == UNKNOWN  # not the need's way


@pytest.mark.parametrize(("pair", "question", "language"), [
    (ENROLMENT, "您是研究生吗？", "zh"),  # who the user is
    (ENROLMENT, "不包括研究生吧？", "zh"),  # leaves the other kind out
    (("2023年中国新能源汽车出口量是多少？", "2023年中国新能源汽车量是多少？"), "是否包括进口零部件？", "zh"),  # another thing's kind
    (ALBATROSS, "Are the males of this species bigger?", "en"),  # a fact compared, no guess of a side
])
def test_a_kind_named_otherwise_is_no_guess_of_another_kind(pair, question, language):
    assert not answered(pair, question, language, model_says=UNKNOWN_REPLY)[0].startswith(("不是", "No"))


# Guards version 34: what a query seeks, owners named as such, places and bounds said whole, grades and breakdowns.
ALCOHOL = ("What is the maximum alcohol content for a beer to be labelled 'alcohol-free' in the UK?",
           "What is the maximum alcohol content for a beer to be labelled 'alcohol-free'?")
SCRIPT = ("How many letters does the modern Mkhedruli script of the Georgian language have?",
          "How many letters does the script of the Georgian language have?")
RAIN = ("2023年7月底受台风“杜苏芮”影响，北京房山区单站最大累计降雨量是多少毫米？", "受台风“杜苏芮”影响，单站最大累计降雨量是多少毫米？")
LPR = ("2024年7月全国银行间同业拆借中心公布的5年期以上LPR是多少？", "全国银行间同业拆借中心公布的LPR是多少？")
CLINIC = ("2024年上海市职工医保门诊报销的起付线是多少？", "2024年职工医保门诊报销的起付线是多少？")
GRADED = ("2024年上海市三级医院职工医保门诊报销的起付线是多少？", "2024年上海市职工医保门诊报销的起付线是多少？")
TARIFF = ("2023年江苏省居民分时电价的低谷时段是几点到几点？", "居民分时电价的低谷时段是几点到几点？")


@pytest.mark.parametrize(("pair", "question", "language", "expected"), [
    (ALCOHOL, "Is this under EU rules?", "en", "No, UK"),  # the query seeks a figure: "EU" guesses no answer
    (SCRIPT, "Which language's script?", "en", "Georgian"),  # the query names the Georgian language
    (SCRIPT, "Which year's script?", "en", UNKNOWN),
    (RAIN, "是河北涿州吗？", "zh", "不是，北京房山区"),  # the need's place said as finely as the guess
    (LPR, "是1年期的吗？", "zh", "不是，5年期以上"),  # with its bound
    (CLINIC, "您一般在哪一级医院就诊？", "zh", UNKNOWN),  # a grade of hospital, no place
    (GRADED, "您一般在哪一级医院就诊？", "zh", "三级"),
    (TARIFF, "需要区分夏季和冬季吗？", "zh", UNKNOWN),  # a breakdown offered, no time guessed
])
def test_what_a_query_seeks_owners_places_bounds_grades_and_breakdowns(pair, question, language, expected):
    assert answered(pair, question, language, model_says=UNKNOWN_REPLY)[0] == expected


def test_a_query_for_a_figure_seeks_no_name():
    from cts_dataset.protocol.answer_guesses import sought
    assert sought(ALCOHOL[1]) == set() and sought("What was the average mortgage rate in Canada?") == set()
    assert sought("Which company had the highest revenue?") == {"name"}


@pytest.mark.parametrize(("pair", "question", "expected"), [
    # a measure word that qualifies the thing sought ("rate benchmark", "wage law"): the query seeks a name, and a
    # guess of it is the answer's, which the user does not know
    (("Which interest rate benchmark replaced LIBOR in the United States?", "Which interest rate benchmark replaced LIBOR?"),
     "Do you mean SOFR?", UNKNOWN),
    (("Which minimum wage law was passed in the United States in 1938?", "Which minimum wage law was passed in 1938?"),
     "Is it the Fair Labor Standards Act?", UNKNOWN),
    # the owner as the need says it, more than the query's name
    (("How many vowels does the script of the Old Church Slavonic language have?",
      "How many vowels does the script of the Church Slavonic language have?"), "Which language's script?", "Old Church Slavonic"),
    (("Who is the head coach of the England women's team?", "Who is the head coach of the England team?"),
     "Which team's coach?", UNKNOWN),  # not "England", which hides the need's "women's"
])
def test_measures_that_qualify_and_owners_the_need_says_more_of(pair, question, expected):
    assert answered(pair, question, model_says=UNKNOWN_REPLY)[0] == expected


def test_a_grade_of_another_thing_answers_no_grade_asked():
    pair = ("2024年上海市二级建造师职工医保门诊报销的起付线是多少？", "2024年上海市职工医保门诊报销的起付线是多少？")
    assert answered(pair, "您一般在哪一级医院就诊？", "zh", model_says=UNKNOWN_REPLY)[0] == UNKNOWN
