"""Questions in the query's words for a constraint it left out, yes/no guesses of the yardstick, places of
no level for a question for a level, and Chinese confirmations that name what is asked of a value."""

from __future__ import annotations

import pytest

from cts_dataset.protocol.views import UNKNOWN
from tests.test_answer_scope import answered

CONGO = ("What is the capital of the Democratic Republic of the Congo, and how many people live there?",
         "What is the capital of Congo, and how many people live there?")
RECIFE = ("Which city was the capital of Brazil from 1763 until 1960?", "Which city was the capital of Brazil?")


@pytest.mark.parametrize(("pair", "question", "expected"), [
    (CONGO, "Which country is the capital of Congo?", "Democratic Republic of the Congo"),  # a country, the query a city
    (RECIFE, "What year was Brazil's capital?", "1763 until 1960"),  # a time, the query a city
])
def test_a_question_in_the_querys_words_for_a_constraint_it_left_out_gets_it(pair, question, expected):
    text, rule = answered(pair, question)
    assert expected in text and rule == "typed"


@pytest.mark.parametrize(("pair", "question"), [
    (("Which is the second-largest city in Bavaria?", "Which is the second-largest city?"),
     "Which city is the second-largest city?"),  # a city, what the query searches for
    (("When did the Tangshan earthquake of 1976 happen?", "When did the earthquake happen?"),
     "What year did the earthquake happen?"),  # a time, what the query searches for
    (("What is the release date of the iPhone model launched in 2007?", "What is the release date of the iPhone model?"),
     "What year was the iPhone model released?"),  # "release date": the query searches for a time
    (("What is the number of moons orbiting the 2 largest planets?", "What is the number of moons orbiting the largest planets?"),
     "How many moons orbit the largest planets?"),  # "the number of": the query searches for a count
    (("Which African country bordering Nigeria has the largest population?", "Which African country has the largest population?"),
     "Which country has the largest population?"),  # the query searches for a country
])
def test_a_question_in_the_querys_words_for_what_it_searches_is_unknown(pair, question):
    assert answered(pair, question) == (UNKNOWN, "own_question")


LAKE = ("Which is the largest lake in Canada by area, and how deep is it?", "Which is the largest lake in Canada, and how deep is it?")


@pytest.mark.parametrize("question", [
    "Largest by population?", "You mean the one with the most residents?", "Ranked by water volume, right?",
])
def test_a_yes_no_guess_of_the_yardstick_gets_the_intents_yardstick_without_yes_or_no(question):
    assert answered(LAKE, question) == ("area", "criterion")


def test_a_yes_no_question_naming_the_intents_yardstick_is_confirmed():
    assert answered(LAKE, "Do you mean the biggest by surface area?") == ("Yes, area", "confirmation")


@pytest.mark.parametrize(("pair", "question"), [
    (("Which is the world's largest tropical lake?", "Which is the largest lake?"),
     "Which continent do you mean?"),  # "world's" is no continent
    (("Which city anchors the second-largest metropolitan area in the Midwest?",
      "Which city anchors one of the largest metropolitan areas?"), "Which country is that in?"),
])
def test_the_world_or_a_region_of_no_level_does_not_answer_a_question_for_a_level(pair, question):
    assert answered(pair, question) == (UNKNOWN, "typed")


@pytest.mark.parametrize(("pair", "question", "expected"), [
    (("台湾省2023年的出生人口是多少？", "台湾省的出生人口是多少？"), "是2023年的数据吧？", "是的，2023年"),
    (("中医里说的“湿气”是什么意思？", "“湿气”是什么意思？"), "是从中医的说法来理解吗？", "是的，中医里说"),
])
def test_a_chinese_confirmation_naming_what_is_asked_of_a_value_confirms_it(pair, question, expected):
    assert answered(pair, question, "zh") == (expected, "confirmation")


@pytest.mark.parametrize("question", [
    "Largest in Canada?", "Is it the biggest by far?", "Is it the most recent one?", "Do you want its depth in terms of metres?",
    "Is the depth measured by sonar?", "Do you want the most up-to-date figure?", "Do you mean the most famous lake?",
    "Is it the closest by car to Toronto?", "Do you mean the forest by Lake Superior?",
])
def test_a_yes_no_question_naming_no_yardstick_is_not_answered_with_one(question):
    assert answered(LAKE, question, model_says='{"answer": "unknown"}')[1] != "criterion"


@pytest.mark.parametrize(("question", "expected"), [
    ("是公路桥部分的高度吧？", UNKNOWN),  # 高度 is a measure the need does not ask: a guess, not a confirmation
    ("是问公路桥的票价吗？", "不是，公路桥部分"),  # a guess of the measure: no, and what the need says
])
def test_a_chinese_confirmation_naming_another_measure_is_not_confirmed(question, expected):
    pair = ("港珠澳大桥公路桥部分的长度是多少？", "港珠澳大桥的长度是多少？")
    assert answered(pair, question, "zh", model_says='{"answer": "unknown"}')[0] == expected


def test_a_chinese_word_of_function_characters_is_no_content_but_a_word_like_dixia_is():
    from cts_dataset.protocol.answer_phrasing import content_words
    assert "是从" not in content_words("是从中医的说法来理解吗？", "zh")
    assert "地下" in content_words("是地下线路吧？", "zh")


POEM = ("Which is the best-known epic poem in Old Norse?", "Which is the best-known epic poem?")
CAPITAL = ("What is the capital of North Macedonia?", "What is the capital of Macedonia?")


@pytest.mark.parametrize(("pair", "question", "expected"), [
    (POEM, "Old Irish, from the Ulster Cycle?", "No, Old Norse"),  # Irish for Norse
    (CAPITAL, "You mean the Greek region of Macedonia?", "No, North Macedonia"),
    (CAPITAL, "The Kingdom of Macedonia, in antiquity?", "No, North Macedonia"),
])
def test_a_guess_naming_another_variant_of_what_the_query_left_out_is_denied_with_it(pair, question, expected):
    assert answered(pair, question) == (expected, "confirmation")


@pytest.mark.parametrize(("pair", "question"), [
    (POEM, "Is it the Old Norse Edda, by Snorri?"),  # names all of "Old Norse": a guess about it, not another one
    (POEM, "Is it Beowulf?"),  # names nothing of what the query left out
])
def test_a_guess_that_names_all_or_nothing_of_what_the_query_left_out_is_no_variant(pair, question):
    assert answered(pair, question, model_says='{"answer": "unknown"}')[0] in (UNKNOWN, "Yes, Old Norse")
    assert not answered(pair, question, model_says='{"answer": "unknown"}')[0].startswith("No")


@pytest.mark.parametrize(("pair", "question", "expected"), [
    (("蔚来ET5旅行版的续航里程是多少公里？", "蔚来ET5的续航里程是多少公里？"), "您问的是ET5 Max吗？", "不是，旅行版"),
])
def test_a_chinese_guess_standing_where_the_needs_span_stands_is_denied_with_it(pair, question, expected):
    assert answered(pair, question, "zh") == (expected, "confirmation")


def test_a_chinese_guess_beside_other_words_is_no_variant():
    """统计局 sits after 广东省, which the span 2023年广东省 holds: a guess about the span, not in its place."""
    from cts_dataset.protocol.answer_rivals_zh import variant_of_zh
    intent = "2023年广东省城镇居民人均可支配收入是多少元？"
    assert variant_of_zh("是按广东省统计局公布的数据吗？", intent, ["2023年广东省", "2023年"], ["统计局"]) is None
    assert variant_of_zh("是2022年广东省的吗？", intent, ["2023年"], ["2022年"]) == "2023年"  # in its place: 广东 after
