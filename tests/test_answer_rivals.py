"""Guesses that compete with what the query left out (denied with it), choices the intent takes no side
of, offers of more than the intent asks, and Chinese guesses written like the need's span."""

from __future__ import annotations

import pytest

from cts_dataset.protocol.views import UNKNOWN
from tests.test_answer_scope import answered

INVASION = ("Who invaded Egypt in 1798, and how long did the campaign last?",
            "Who invaded Egypt, and how long did the campaign last?")
PRESIDENT = ("Who was the sixteenth US president, and which war did he lead?", "Who was the US president, and which war did he lead?")
CIVIL_WAR = ("Who led the two sides in the Finnish civil war of 1918?", "Who led the two sides in the civil war?")
REVOLUTION = ("Who led the revolution in Haiti, and when did it end?", "Who led the revolution, and when did it end?")
GAME = ("In economics, what is a market?", "What is a market?")
LAKE = ("What is the largest lake in Africa, and how deep is it?", "What is the largest lake, and how deep is it?")


@pytest.mark.parametrize(("pair", "question", "expected"), [
    (INVASION, "Are you asking about the British invasion in 1882?", "No, 1798"),  # a year against the year
    (INVASION, "Do you mean the campaign of the 1880s?", "No, 1798"),  # a decade that does not hold it
    (PRESIDENT, "The 15th president, then?", "No, sixteenth"),  # an ordinal in digits
    (PRESIDENT, "Do you mean the first president, George Washington?", "No, sixteenth"),  # an ordinal
    (CIVIL_WAR, "Are you asking about the American Civil War?", "No, Finnish"),  # a name that holds "civil war"
    (REVOLUTION, "Do you mean the French Revolution?", "No, Haiti"),  # a name that holds the query's "revolution"
    (GAME, "Do you mean a stock market?", "No, economics"),  # another sense of the query's word
])
def test_a_guess_that_competes_with_what_the_query_left_out_is_denied_with_it(pair, question, expected):
    assert answered(pair, question) == (expected, "confirmation")


@pytest.mark.parametrize(("pair", "question"), [
    (LAKE, "Is it Lake Tanganyika you're thinking of?"),  # beside "lake" of the query's what-phrase: its answer
    (("What are the capitals of the partially recognised states in the Caucasus?",
      "What are the capitals of the states in the Caucasus?"), "Do you mean Abkhazia and South Ossetia?"),  # "South" of a name
    (("Which city is the most densely populated in the world?", "Which city is the most populated in the world?"),
     "By population density, right?"),  # "density" is the intent's "densely"
    (("Which engine did the engineer of antiquity build?", "Which engine did the engineer build?"),
     "Do you count engineers who were trained in Rome?"),  # no question of what the user means
    (("What did Obama do about healthcare in 2010?", "What did Obama do about healthcare?"),
     "Is this during his first term?"),  # an ordinal, where no ordinal was left out
    (("How many medals did China win at the 2008 Olympics?", "How many medals did China win at the Olympics?"),
     "Was it 100 medals?"),  # a count, where a year was left out
    (("Who painted the ceiling of the Sistine Chapel?", "Who painted the ceiling?"),
     "Do you mean the ceiling Michelangelo painted?"),  # the answer, beside the query's word
    (("How does a fuel cell work?", "How does a cell work?"), "Do you mean an electrochemical cell?"),  # broader
    (("What is the largest lake in Africa?", "What is the largest lake?"), "Do you mean the largest natural lake?"),
])
def test_a_guess_that_names_the_answer_or_the_intents_own_sense_is_not_denied(pair, question):
    text, _ = answered(pair, question, model_says='{"answer": "unknown"}')
    assert not text.startswith("No")


@pytest.mark.parametrize(("pair", "question"), [
    (("Which moths are the largest in the world?", "Which insects are the largest in the world?"),
     "Largest by wingspan or by body mass?"),
    (("How does a fuel cell work?", "How does a cell work?"), "Hydrogen-powered cells or methanol ones?"),
    (("Which was the largest empire in ancient Africa, and where was its capital?",
      "Which was the largest empire, and where was its capital?"), "Largest by territory or by population?"),
])
def test_a_choice_whose_telling_words_the_intent_lacks_is_unknown(pair, question):
    assert answered(pair, question) == (UNKNOWN, "either_or")


def test_a_choice_one_side_of_which_the_intent_holds_in_full_is_left_to_the_model():
    """The query says "second-longest" too: a word the query holds still takes a side when it is the whole side."""
    pair = ("Which river is the second-longest in Asia?", "Which river is the second-longest?")
    text, rule = answered(pair, "Do you mean the longest river, or the second-longest?", model_says='{"answer": "unknown"}')
    assert rule != "either_or" or text != UNKNOWN


RUGBY = ("How many players are on each rugby union team, and what size is the pitch?",
         "How many players are on each team, and what size is the pitch?")
REIGN = ("When did King Stephen Báthory reign, and how did his reign end?", "When did King Stephen reign, and how did his reign end?")


@pytest.mark.parametrize(("pair", "question", "expected"), [
    (RUGBY, "Do you also want the size of the pitch?", "Yes, what size is the pitch"),
    (REIGN, "Besides when he reigned, would you also like to know how his reign ended?", "Yes, how did his reign end"),
    (RUGBY, "Do you want the history of the sport too?", UNKNOWN),
    (RUGBY, "Would you like the players' salaries as well?", UNKNOWN),  # "players" alone is asked, not their salaries
    (RUGBY, "Do you also want the size broken down by age group?", UNKNOWN),
    (RUGBY, "Do you also want the number of substitutes?", UNKNOWN),  # not the main question's count
    (RUGBY, "Would you also like to know how many teams there are?", UNKNOWN),
    (RUGBY, "Do you also want the size of youth pitches?", UNKNOWN),
    (("What is the highest mountain in Africa, and how tall is it?", "What is the highest mountain, and how tall is it?"),
     "Do you also want the highest mountain in Europe?", UNKNOWN),
])
def test_an_offer_of_more_is_taken_only_where_the_intent_asks_for_it(pair, question, expected):
    assert answered(pair, question) == (expected, "scope")


@pytest.mark.parametrize(("pair", "question", "expected"), [
    (PRESIDENT, "Do you mean the 16th president, Lincoln?", "Yes, sixteenth"),  # 16th is sixteenth
    (INVASION, "Was it after 1700?", "Yes, 1798"),  # a bound 1798 keeps
    (INVASION, "Do you mean the one in the 1790s?", "Yes, 1798"),  # a decade that holds it
    (INVASION, "Was it before 1700?", "No, 1798"),
    (INVASION, "Do you mean the one in the 1880s?", "No, 1798"),
    (INVASION, "Using figures from 1790?", "No, 1798"),  # "from" names a year here, it bounds nothing
])
def test_a_guessed_number_or_time_that_says_the_span_otherwise_is_confirmed(pair, question, expected):
    assert answered(pair, question) == (expected, "confirmation")


def test_a_restriction_is_no_offer_of_more():
    from cts_dataset.protocol.answer_scope import more_offered
    assert more_offered("Would you like it limited to Africa too?", "What is the largest lake in Africa?") is None
    assert more_offered("Do you also want the difference between a law and a theory?", "What is a law in science?") == ""


def test_an_offer_of_more_needs_also_or_too():
    from cts_dataset.protocol.answer_scope import more_offered
    assert more_offered("Do you want the size of the pitch?", RUGBY[0]) is None  # may ask which one, not more


@pytest.mark.parametrize(("pair", "question", "expected"), [
    (("2021年诺贝尔文学奖得主是谁？", "2021年诺贝尔奖得主是谁？"), "您说的是诺贝尔和平奖吗？", "不是，诺贝尔文学奖"),
    (("杭州西湖游船的单程票价是多少？", "杭州西湖游船的票价是多少？"), "您要买往返票吧？", "不是，单程票"),
    (("2022年全国普通高校毕业生人数是多少？", "全国高校毕业生人数是多少？"), "是2021届毕业生的人数吗？", "不是，2022年"),
    (("珠穆朗玛峰周边有几座7000米以上的山峰？", "珠穆朗玛峰周边有几座山峰？"), "您说的是6000米以上的山峰吗？", "不是，7000米以上"),
])
def test_a_chinese_guess_written_like_the_needs_span_is_denied_with_it(pair, question, expected):
    assert answered(pair, question, "zh") == (expected, "confirmation")


@pytest.mark.parametrize(("pair", "question"), [
    (("2022年福布斯全球富豪榜排名第一的是谁？", "福布斯富豪榜排名第一的是谁？"), "您要的是2022年度的榜单吗？"),
    (("2022年福布斯全球富豪榜排名第一的是谁？", "福布斯富豪榜排名第一的是谁？"), "是2022年4月发布的那一期吗？"),
])
def test_a_chinese_guess_of_the_same_number_said_finer_is_not_denied(pair, question):
    assert not answered(pair, question, "zh", model_says='{"answer": "unknown"}')[0].startswith("不是")


def test_a_chinese_guess_sharing_one_character_with_a_longer_span_is_no_variant():
    """邮轮 and 往返轮渡 share 轮, and 邮 is shorter than 往返: a guess about the departure, not the ticket."""
    pair = ("厦门鼓浪屿的往返轮渡票多少钱？", "鼓浪屿的轮渡票多少钱？")
    assert answered(pair, "您是从厦门邮轮中心码头出发吗？", "zh", model_says='{"answer": "unknown"}')[0] == UNKNOWN


@pytest.mark.parametrize(("pair", "question", "expected"), [
    (("三亚亚龙湾3月份的平均气温是多少度？", "亚龙湾的平均气温是多少度？"), "您是打算三月去吧？", "是的，3月份"),  # 打算 is a verb
    (("2022年福布斯全球富豪榜排名第一的是谁？", "福布斯富豪榜排名第一的是谁？"), "您要的是2022年发布的那一期对吧？", "是的，2022年"),
])
def test_a_chinese_verb_is_no_guess(pair, question, expected):
    assert answered(pair, question, "zh") == (expected, "confirmation")


def test_a_chinese_choice_of_calendars_offers_no_time():
    """农历 and 公历 say how a date is written, not which: the need's 2025年 takes neither side."""
    pair = ("2025年冬至是哪一天？", "冬至是哪一天？")
    assert answered(pair, "您需要的是农历日期还是公历日期？", "zh") == (UNKNOWN, "either_or")


@pytest.mark.parametrize("span", ["the US", "UK", "USA", "Southeast Asia", "Northwestern Europe"])
def test_country_codes_and_compound_compass_words_name_places(span):
    from cts_dataset.protocol.span_types import span_type
    assert span_type(span, "en") == "region"


@pytest.mark.parametrize("span", ["IT support", "an ideal AI", "US dollar", "UK Singles Chart"])
def test_capitals_that_are_no_country_code_name_no_place(span):
    from cts_dataset.protocol.span_types import span_type
    assert span_type(span, "en") is None


@pytest.mark.parametrize(("pair", "question"), [
    (("2024年青岛国际啤酒节是几月几号开幕？", "国际啤酒节是几月几号开幕？"), "您打算去哪个会场参加？"),
    (("一个人去长白山北坡玩两天大概要花多少钱？", "去长白山北坡玩大概要花多少钱？"), "您会从哪里出发去长白山？"),
])
def test_a_chinese_question_about_the_users_plans_is_unknown(pair, question):
    assert answered(pair, question, "zh") == (UNKNOWN, "plans")


def test_a_chinese_question_about_plans_for_a_value_the_need_states_is_answered():
    pair = ("三亚亚龙湾3月份的平均气温是多少度？", "亚龙湾的平均气温是多少度？")
    assert answered(pair, "您打算几月去？", "zh", model_says='{"answer": "3月份"}')[0] == "3月份"


def test_a_chinese_choice_begins_after_shi():
    """The lead "您要考的是" is no part of the first alternative: its 考 must not take a side for 机考."""
    from cts_dataset.protocol.answer_phrasing import alternatives
    assert alternatives("您要考的是学术类还是培训类？", "zh") == ["学术类", "培训类？"]
    assert alternatives("是否免费还是收费？", "zh") == ["是否免费", "收费？"]  # 是否 is a word
    assert answered(("2024年雅思机考报名费是多少？", "雅思报名费是多少？"), "您要考的是学术类还是培训类？", "zh") \
        == (UNKNOWN, "either_or")
