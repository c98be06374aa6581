"""What a question asks, read from its form: a name the query already gives, a kind of value, a part of a
name, the user's own spot or birth; and offers of more without "also"."""

from __future__ import annotations

import pytest

from cts_dataset.protocol.span_types import span_type
from cts_dataset.protocol.time_spans import years_named
from cts_dataset.protocol.views import UNKNOWN
from tests.test_answer_scope import answered

FISH = ("Which freshwater fish species is the largest by weight in the Mekong River?",
        "Which fish species is the largest in the Mekong River?")
FRIEZE = ("Which Norwegian painter created the series of works known as The Frieze of Life in the 1890s?",
          "Which painter created the series of works known as The Frieze of Life?")
LAKE = ("What is the deepest freshwater lake in Europe?", "What is the deepest lake?")
CLUB = ("Which Dutch football club won the European Cup three times in a row in the early 1970s?",
        "Which football club won the European Cup three times in a row?")
STATION = ("Which architect designed the main building of Helsinki Central railway station?",
           "Which architect designed the main building of the central railway station?")
METAL = ("Which metal is the best conductor of electricity at room temperature?", "Which metal is the best conductor?")
WALL = ("Which Roman emperor ordered the construction of a wall across northern Britain in AD 142?",
        "Which Roman emperor ordered the construction of a wall across Britain?")
PARALYMPICS = ("Which city hosted the first Winter Paralympic Games?", "Which city hosted the first Paralympic Games?")
PREMIER = ("Who was the first woman to serve as Prime Minister of New Zealand?",
           "Who was the first woman to serve as Prime Minister?")
INFLATION = ("What was the inflation rate in Zimbabwe in November 2008?", "What was the inflation rate in Zimbabwe?")
DOORS = ("Which Renaissance sculptor created the bronze doors known as the Gates of Paradise for the Florence Baptistery?",
         "Which sculptor created the bronze doors known as the Gates of Paradise?")
GARDEN = ("苏州园林中面积最大的是哪一座？", "园林中最大的是哪一座？")
PEOPLE = ("2023年深圳市常住人口是多少？", "常住人口是多少？")
METRO = ("上海地铁2号线工作日的首班车时间是几点？", "地铁2号线的首班车时间是几点？")
PENSION = ("2025年起男职工的法定退休年龄是多少岁？", "法定退休年龄是多少岁？")


@pytest.mark.parametrize(("pair", "question", "expected"), [
    (FISH, "Which river are you asking about?", "Mekong River"),
    (FRIEZE, "Which series of works are you asking about?", "The Frieze of Life"),
])
def test_a_which_question_about_a_thing_the_query_names_gets_that_name(pair, question, expected):
    assert answered(pair, question) == (expected, "in_query")


@pytest.mark.parametrize(("pair", "question", "expected"), [
    (LAKE, "Are you referring to a specific continent or region?", "Europe"),  # kinds, not values, to choose from
    (CLUB, "Which country's club are you asking about?", "Dutch"),  # a demonym that shares no letters with its country
    (STATION, "Which city's central station are you referring to?", "Helsinki Central"),  # a name that holds a city
    (METAL, "Under what temperature conditions should the metals be compared?", "electricity at room temperature"),
    (WALL, "What date of construction do you have in mind?", "Britain in AD 142"),  # "AD 142" is a time
])
def test_a_question_for_a_kind_gets_the_span_of_that_kind(pair, question, expected):
    assert answered(pair, question) == (expected, "typed")


def test_a_language_and_a_compound_are_no_place():
    assert span_type("Dutch", "en") == "region"
    assert span_type("Old English", "en") is None and span_type("French-speaking", "en") is None


@pytest.mark.parametrize(("pair", "question", "rule"), [
    (PARALYMPICS, "Would you like to know how many athletes took part?", "scope"),  # an offer without "also"
    (INFLATION, "Do you need the month-on-month rate or the year-on-year rate?", "either_or"),  # no years offered
    (PREMIER, ("Do you mean the first woman elected at a general election, or also one who took office between "
              "elections?"), "either_or"),  # a relative "who" makes no wh-question
])
def test_a_question_the_intent_does_not_decide_is_unknown(pair, question, rule):
    assert answered(pair, question) == (UNKNOWN, rule)


def test_an_offer_that_names_what_only_the_intent_holds_is_no_offer_of_more():
    text, rule = answered(PARALYMPICS, "Would you like the Winter Games only?", model_says='{"answer": "unknown"}')
    assert rule != "scope" and "Winter" in text


def test_a_question_for_a_part_of_the_querys_thing_is_not_which_is_meant():
    assert answered(DOORS, "Which specific panel of the doors are you most interested in?",
                    model_says='{"answer": "unknown"}') == (UNKNOWN, "")


@pytest.mark.parametrize(("pair", "question", "rule"), [
    (GARDEN, "是否只考虑列入世界文化遗产名录的园林？", "confirmation"),  # 世界 begins a name: no place guessed
    (METRO, "请问您从哪个站上车？不同车站的首班车时间不同。", "plans"),  # a station, which 上海 does not answer
    (PENSION, "您是哪一年出生的？", "plans"),  # a birth year, which 2025年起 is not
])
def test_a_chinese_question_the_need_does_not_answer_is_unknown(pair, question, rule):
    assert answered(pair, question, "zh") == (UNKNOWN, rule)


def test_a_single_chinese_character_both_sides_write_takes_no_side():
    # the 年 of 年平均 is in 年末 too: neither side is the need's (not "2023年深圳市")
    assert answered(PEOPLE, "您需要的是年末常住人口还是年平均人口？", "zh") == (UNKNOWN, "either_or")
    loan = ("2024年南京市公积金贷款首套房的最高贷款额度是多少？", "2024年公积金贷款的最高贷款额度是多少？")
    assert answered(loan, "您是购买首套房还是二套房？", "zh") == ("首套房", "either_or")  # 首 is one side's only


def test_a_country_named_otherwise_is_confirmed():
    labour = ("How many seats did the Labour Party win in the 1997 UK general election?",
              "How many seats did the Labour Party win in the general election?")
    assert answered(labour, "Is this about the United Kingdom's Labour Party?") == ("Yes, UK", "confirmation")
    capital = ("Which is the smallest capital city in the European Union by both area and population?",
               "Which is the smallest capital city by both area and population?")
    # the union named to set it apart from all of Europe is no yes
    assert answered(capital, "Do you mean all of Europe, including countries outside the EU?") == (
        "No, European Union", "confirmation")


def test_an_alternative_the_intent_says_with_its_words_the_other_way_round_is_taken():
    # "a conductor of electricity" says "electrical conductivity"; the Solar System's is still no solar day
    assert answered(METAL, "Do you mean electrical conductivity or thermal conductivity?") == (
        "electricity at room temperature", "either_or")


@pytest.mark.parametrize(("question", "expected"), [
    ("您问的是最后一次下西洋吧？", "不是，第一次"),  # another ordinal: no, and which
    ("您是问第二次下西洋吗？", "不是，第一次"),
])
def test_a_chinese_ordinal_stands_against_the_needs(question, expected):
    voyage = ("明朝郑和第一次下西洋是哪一年？", "郑和下西洋是哪一年？")
    assert answered(voyage, question, "zh") == (expected, "confirmation")


def test_a_question_for_the_field_of_a_word_gets_the_intents_field():
    dating = ("In relationships, what is dating?", "What is dating?")
    assert answered(dating, "In which field are you using the word 'dating'?") == ("relationships", "specify")


def test_a_which_question_about_a_dated_thing_the_query_names_gets_its_year():
    census = (("Which cities are the fourth- and ninth-most populous in the United States, and how many people did "
              "they have at the 2020 census?"), ("Which cities are the most populous in the United States, and how many "
              "people did they have at the 2020 census?"))
    assert answered(census, "Population figures from which census?") == ("2020", "in_query")
    # a state of the country the query names is no name the query gives
    assert answered(census, "Which state is included in the list of most populous cities?")[1] != "in_query"


@pytest.mark.parametrize(("pair", "question", "expected"), [
    (("Who founded the Tata Group, and what else was he known for?",
      "Who founded the group, and what else was he known for?"), "Which group did he found?", "Tata Group"),
    (("Who were the founding emperors of the Han and Sui dynasties?", "Who were the founding emperors?"),
     "Which dynasty were they part of?", "Han and Sui dynasties"),
])
def test_a_which_question_gets_the_name_the_intent_gives_that_thing(pair, question, expected):
    assert answered(pair, question) == (expected, "specify")


def test_a_which_question_for_the_thing_the_query_ranks_is_its_own_question():
    novel = ("Who wrote the best-known Nigerian novel of 1958, and what is it about?",
             "Who wrote the best-known novel, and what is it about?")
    assert answered(novel, "Which novel is the best-known?") == (UNKNOWN, "own_question")


def test_a_which_question_about_an_owners_thing_is_not_about_the_owner():
    mahler = ("Which orchestra premiered Gustav Mahler's Symphony No. 8 in Munich in 1910?",
              "Which orchestra premiered Gustav Mahler's symphony in 1910?")
    text, rule = answered(mahler, "Which of Mahler's symphonies do you mean?")
    assert rule != "in_query" and "No. 8" in text


@pytest.mark.parametrize(("pair", "question", "language", "expected"), [
    (("How many goals did Gerd Müller score in the 1971-72 Bundesliga season?",
      "How many goals did Gerd Müller score in a Bundesliga season?"),
     "Do you want the figure from a particular source?", "en", (UNKNOWN, "method")),  # a source: no offer of more
    (("2024年国庆假期期间，上海虹桥站单日发送旅客最高达到多少万人次？", "国庆假期期间，单日发送旅客最高达到多少万人次？"),
     "是全国铁路的总发送量吗？", "zh", ("不是，上海虹桥站", "confirmation")),  # 全国铁路: a scope, not a name
    (("2023年度个人所得税综合所得汇算清缴中，子女教育专项附加扣除每个子女每月的扣除标准是多少元？",
      "个人所得税综合所得汇算清缴中，专项附加扣除每月的扣除标准是多少元？"),
     "请问您家里有几个孩子呢？", "zh", (UNKNOWN, "typed")),  # the user's own family, which the need does not say
])
def test_sources_scopes_and_the_users_family(pair, question, language, expected):
    assert answered(pair, question, language) == expected


TITICACA = ("What is the surface area of the Bolivian portion of Lake Titicaca?", "What is the surface area of Lake Titicaca?")
CONCORDE = ("What was the top speed of the Concorde in miles per hour?", "What was the top speed of the Concorde?")
INFLATION_2023 = ("What was Argentina's annual inflation rate in 2023 as reported by INDEC?",
                  "What was Argentina's annual inflation rate?")
SPIRE = ("How tall is the main spire of Ulm Minster in meters?", "How tall is the main spire in meters?")


@pytest.mark.parametrize(("pair", "question", "expected"), [
    (TITICACA, "What units would you like the area in?", UNKNOWN),  # the intent names no unit: not its region
    (CONCORDE, "Which units should the speed be given in?", "in miles per hour"),
    (SPIRE, "Would you like the height in meters or in feet?", "in meters"),  # the query says it too
    (INFLATION_2023, "Is there a particular source you'd like the figure from?", "Yes, INDEC"),
])
def test_a_question_for_the_unit_or_the_source_gets_the_intents_else_unknown(pair, question, expected):
    assert answered(pair, question) == (expected, "method")


@pytest.mark.parametrize(("pair", "question", "language", "expected"), [
    (("How many moons of Saturn had been confirmed as of May 2023?", "How many moons of Saturn have been confirmed?"),
     "Do you want the latest count as of today?", "en", "No, as of May 2023"),
    (("截至2024年6月底，贵州茅台在A股的总市值是多少？", "贵州茅台在A股的总市值是多少？"),
     "您指的是最新的实时市值吗？", "zh", "不是，截至2024年6月底"),
])
def test_a_guess_of_now_stands_against_a_dated_need(pair, question, language, expected):
    assert answered(pair, question, language) == (expected, "confirmation")


@pytest.mark.parametrize(("pair", "question"), [
    (("2024年杭州市本科学历人才落户需要缴纳社保满几个月？", "本科学历人才落户需要缴纳社保满几个月？"), "请问您本人目前的户籍在哪里呢？"),
    (("2024年12月全国大学英语四级考试的笔试开考时间是几点？", "2024年全国大学英语四级考试的开考时间是几点？"),
     "请问您是在哪个考点参加考试？"),
])
def test_a_chinese_question_about_the_users_registration_or_exam_site_is_unknown(pair, question):
    assert answered(pair, question, "zh") == (UNKNOWN, "plans")


def test_a_chinese_demonstrative_with_its_measure_word_guesses_nothing():
    flute = ("1987年在河南舞阳贾湖遗址出土的骨笛距今大约有多少年？", "出土的骨笛距今大约有多少年？")
    text, rule = answered(flute, "是1987年出土的那批吗？", "zh")
    assert text.startswith("是的，1987年") and rule == "confirmation"


def test_a_guessed_name_for_the_querys_thing_gets_no_and_the_whole_name():
    # the query seeks a period, so "Vesta" guesses the asteroid, not the answer
    eros = ("What is the orbital period of the asteroid 433 Eros in days?", "What is the orbital period of the asteroid?")
    assert answered(eros, "Are you asking about Vesta?") == ("No, 433 Eros", "confirmation")


def test_a_confirmation_of_what_the_query_says_is_yes():
    kenya = ("How many medals did Kenya win at the 2022 Commonwealth Games in Birmingham?",
             "How many medals did Kenya win at the Commonwealth Games?")
    assert answered(kenya, "Just to confirm, you're asking about Kenya's medal count?") == ("Yes, Kenya", "confirmation")
    mahler = ("Which orchestra premiered Gustav Mahler's Symphony No. 8 in Munich in 1910?",
              "Which orchestra premiered Gustav Mahler's symphony in 1910?")
    assert answered(mahler, "Are you asking about the symphony by Mahler?") == ("Yes, Gustav Mahler", "confirmation")


@pytest.mark.parametrize(("pair", "question", "expected"), [
    (("苹果A17 Pro芯片采用的是台积电哪一代制程工艺？", "苹果芯片采用的是台积电哪一代制程工艺？"), "您是指M3芯片吗？", "不是，A17 Pro"),
    (("高通骁龙8 Gen 3处理器的CPU最高主频是多少GHz？", "高通骁龙处理器的CPU最高主频是多少GHz？"), "您是说骁龙8 Gen 2吗？", "不是，8 Gen 3"),
    (("1987年在河南舞阳贾湖遗址出土的骨笛距今大约有多少年？", "出土的骨笛距今大约有多少年？"), "您问的是浙江河姆渡遗址出土的骨笛吗？",
     "不是，河南舞阳贾湖遗址"),
])
def test_a_chinese_guess_is_answered_with_the_whole_name_it_stands_against(pair, question, expected):
    assert answered(pair, question, "zh") == (expected, "confirmation")


def test_which_one_after_a_sentence_of_reasons_gets_the_time_that_qualifies_the_thing():
    ben_hur = ("Who directed the 1959 film adaptation of Ben-Hur?", "Who directed the film adaptation of Ben-Hur?")
    question = "There are several film adaptations of Ben-Hur. Which one are you referring to?"
    assert answered(ben_hur, question) == ("1959", "meant")


def test_names_given_as_examples_are_no_guess_of_their_own():
    # told from what it leaves out (a contrast) or alone (a confirmation), the examples guess nothing
    assert answered(LAKE, "Do you only want freshwater lakes, excluding saltwater ones like the Caspian Sea?") == (
        "Yes, freshwater", "contrast")
    assert answered(LAKE, "Do you only want freshwater lakes like Baikal?") == ("Yes, freshwater", "confirmation")


def test_a_description_in_the_querys_words_of_time_asks_no_time():
    # "of the century" is the query's: the question describes who is meant, and the user says who
    greatest = ("Which footballer and boxer were honoured as the greatest of the century in 1999?",
                "Who were honoured as the greatest of the century?")
    assert answered(greatest, "Are you asking about the greatest scientists of the century?") == (
        "footballer and boxer", "meant")


def test_a_description_of_the_querys_thing_the_intent_lacks_gets_what_is_meant():
    infections = ("What are encephalitis and meningitis, and what symptoms do they cause?",
                  "What are brain infections, and what symptoms do they cause?")
    assert answered(infections, "Do you mean brain abscesses?") == ("encephalitis and meningitis", "meant")


JAPAN = ("What was the GDP of Japan in 2019?", "What was the GDP of Japan?")
KENYA_2016 = ("How many medals did Kenya win in athletics at the 2016 Olympics?",
              "How many medals did Kenya win at the 2016 Olympics?")
NOT_NOW = '{"answer": "unknown"}'


@pytest.mark.parametrize(("pair", "question", "language"), [
    (("How many refugees did Germany take in during 2015?", "How many refugees did Germany take in?"),
     "Are you currently living in Germany?", "en"),  # the user's now, not the figure's
    (JAPAN, "Are you asking because of a school project due today?", "en"),
    (JAPAN, "Is the current exchange rate fine for converting it to dollars?", "en"),
    (("截至2024年6月底贵州茅台的市值是多少？", "贵州茅台的市值是多少？"), "您目前持有茅台股票吗？", "zh"),
    (("2024年广东高考报名人数是多少？", "高考报名人数是多少？"), "您现在在广东吗？", "zh"),
    (KENYA_2016, "Are you from Kenya?", "en"),  # what the query says, asked of the user
    (KENYA_2016, "Are you planning a trip to Kenya?", "en"),
    (("Which infantry unit did Tolkien serve in during the Battle of the Somme?",
      "Which infantry unit did Tolkien serve in?"), "Which unit are you asking about, in which battle?", "en"),
])
def test_the_users_own_now_or_place_is_no_answer_the_need_gives(pair, question, language):
    text, rule = answered(pair, question, language, model_says=NOT_NOW)
    assert not text.startswith(("No", "不是", "Yes")), (text, rule)


@pytest.mark.parametrize(("pair", "question", "expected"), [
    (("Who was president of the United States in 1865?", "Who was president of the United States?"),
     "Are you asking about the 1800s?", "Yes, 1865"),  # the century, not 1800 to 1809
    (("Who was president of the United States in 1865?", "Who was president of the United States?"),
     "Do you mean in the 19th century?", "Yes, 1865"),
    (("Which emperor reunified China in 581?", "Which emperor reunified China?"), "Was that the 580s?", "Yes, 581"),
    (("Which is the largest lake in the US?", "Which is the largest lake?"), "Are you asking about South America?",
     "No, US"),  # America is no other name of the US
    (("What was the population of Osaka in 2020?", "What was the population in 2020?"),
     "Would you like the population of Tokyo?", "No, Osaka"),  # a guess, no offer of more
])
def test_times_that_hold_the_intents_and_guesses_that_do_not(pair, question, expected):
    assert answered(pair, question)[0] == expected


def test_a_shortened_range_end_takes_its_century_from_the_first():
    assert years_named("the 1914-18 war") == [(1914, 1918)] and years_named("the 2020-21 season") == [(2020, 2021)]
    assert years_named("models under $2000") == [] and years_named("a 2000 square kilometre city") == []


@pytest.mark.parametrize(("pair", "question", "expected"), [
    (("How tall is the Burj Khalifa in meters, and how much did it cost to build?",
      "How tall is the Burj Khalifa, and how much did it cost to build?"), "In what currency should the cost be given?",
     (UNKNOWN, "method")),  # a length is no currency
    (("Where is the source of the Blue Nile, according to Ethiopian geographers?", "Where is the source of the Nile?"),
     "Do you mean the source of the Blue Nile or the White Nile?", ("Blue Nile", "either_or")),  # no source of data
    (("When was the Lincoln Memorial built?", "When was the memorial built?"), "Which city is the memorial in?",
     (UNKNOWN, "typed")),  # a place inside a name does not say where
    (("When did the Ming dynasty end in China?", "When did the dynasty end in China?"), "Which dynasty came after it?",
     None),  # another dynasty than the one meant
    (("Which continent is Lake Victoria in?", "Which continent is the lake in?"),
     "Are you referring to a specific continent or region?", None),  # the kind the query searches for
])
def test_units_sources_places_and_kinds_only_where_asked(pair, question, expected):
    text, rule = answered(pair, question, model_says=NOT_NOW)
    if expected is None:
        assert rule not in ("method", "specify", "typed", "either_or") or text == UNKNOWN, (text, rule)
    else:
        assert (text, rule) == expected
