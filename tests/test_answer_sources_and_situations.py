"""A source guessed against the need's ("Should I use the GAO estimate?" of a need according to the FDIC), the
user's own situation asked of a need that never speaks of its asker, a pick among listed years, a rival told
with the need's values of every kind guessed, a time written whole among words the need cannot check
("是1990年意大利世界杯吗？"), and the Chinese questions that ask for a breakdown, a birth, the user's month, the
thing a which-question names ("哪个剧院") or the user's company."""

from __future__ import annotations

import pytest

from cts_dataset.protocol.views import UNKNOWN
from tests.test_answer_scope import UNKNOWN_REPLY, answered

BAILOUT = ("What was the total cost to taxpayers of the US savings and loan crisis according to the FDIC?",
           "What was the total cost of the US savings and loan crisis?")
DANUBE = ("What is the length of the Danube River from its source to the Black Sea as measured by the International "
          "Commission for the Protection of the Danube River?", "What is the length of the Danube River from its source to the Black Sea?")
TRENCH = ("What is the deepest point of the Indian Ocean according to the 2019 Five Deeps Expedition?",
          "What is the deepest point of the Indian Ocean?")
LEICA = ("Which camera model did Henri Cartier-Bresson use most in the 1930s?", "Which camera model did Henri Cartier-Bresson use most?")
CANARIES = ("What is the largest island of the Canary Islands by population?", "What is the largest island of the Canary Islands?")
MEDINAH = ("Who won the 1999 PGA Championship held at Medinah?", "Who won the PGA Championship held at Medinah?")
PRAGUE = ("Which members of the Warsaw Pact did not take part in the 1968 invasion of Czechoslovakia?",
          "Which members of the Warsaw Pact did not take part in the invasion?")
LION = ("Which film won the Golden Lion at the 65th Venice International Film Festival?",
        "Which film won the Golden Lion at the Venice International Film Festival?")
SCRIPT = ("Which script was used to write the Mongolian language in the Mongolian People's Republic in the 1950s?",
          "Which script was used to write the Mongolian language?")
BOOT = ("1990年世界杯足球赛的金靴奖得主是谁？", "世界杯足球赛的金靴奖得主是谁？")
BAHT = ("1997年7月至12月，泰铢兑美元汇率累计贬值了多少？", "泰铢兑美元汇率累计贬值了多少？")
GRASSLAND = ("2020年内蒙古自治区天然草原面积是多少亿亩？", "天然草原面积是多少亿亩？")
CHARACTERS = ("1956年国务院公布的《汉字简化方案》中第一批推行的简化字有多少个？", "国务院公布的《汉字简化方案》中推行的简化字有多少个？")
DESERT = ("按面积计算，中国最大的流动沙漠是哪一个？", "中国最大的沙漠是哪一个？")
KINDERGARTEN = ("2024年北京市海淀区适龄儿童幼儿园入园报名需要准备哪些材料？", "适龄儿童幼儿园入园报名需要准备哪些材料？")
BENEFITS = ("2022年天津市失业保险金领取期限最长为多少个月？", "失业保险金领取期限最长为多少个月？")
TURANDOT = ("普契尼的歌剧《图兰朵》1926年在米兰斯卡拉歌剧院首演时由谁指挥？", "普契尼的歌剧《图兰朵》首演时由谁指挥？")
TAX = ("2023年小型微利企业年应纳税所得额不超过100万元部分的企业所得税实际税负是多少？", "小型微利企业年应纳税所得额部分的企业所得税实际税负是多少？")


@pytest.mark.parametrize(("pair", "question", "expected"), [
    (BAILOUT, "Should I use the GAO estimate?", "No, FDIC"),
    (DANUBE, "Should I use the CIA World Factbook figure?", "No, International Commission for the Protection of the Danube River"),
    (TRENCH, "Should I just go with the figure in the CIA World Factbook?", "No, Five Deeps Expedition"),
])
def test_a_source_guessed_against_the_needs_gets_no_and_the_needs(pair, question, expected):
    assert answered(pair, question, model_says=UNKNOWN_REPLY)[0] == expected


def test_the_needs_source_written_out_or_one_more_is_no_rival():
    assert answered(BAILOUT, "Should I use Federal Deposit Insurance Corporation data?")[0] == "Yes, FDIC"
    assert not answered(BAILOUT, "Should I also cite the GAO estimate?", model_says=UNKNOWN_REPLY)[0].startswith("No")


def test_the_users_own_doings_are_unknown_to_a_need_that_never_speaks_of_its_asker():
    assert answered(LEICA, "Are you shooting film yourself and looking for a similar camera?",
                    model_says='{"answer": "camera model"}')[0] == UNKNOWN  # what the model picked
    assert answered(LEICA, "Do you have a particular decade in mind?")[0] == "Yes, 1930s"  # what is meant, not the user


def test_a_particular_kind_the_need_names_none_of_is_unknown():
    assert answered(CANARIES, "Do you need the population figure from a specific year?")[0] == UNKNOWN


def test_a_pick_among_listed_years_is_the_needs():
    assert answered(MEDINAH, "Medinah hosted it in 1999 and in 2006 - which one do you mean?") == ("1999", "listed")


def test_a_rival_is_told_with_the_needs_value_of_every_kind_guessed():
    assert answered(PRAGUE, "Do you mean the 1956 intervention in Hungary?")[0] == "No, 1968 invasion of Czechoslovakia"
    assert answered(PRAGUE, "Do you mean the 1956 one?")[0] == "No, 1968"  # a year guessed: the year


def test_an_edition_number_asked_is_the_needs_ordinal():
    assert answered(LION, "Could you tell me the year or edition number you're interested in?")[0] == "65th"


def test_the_situation_today_is_not_the_needs_time():
    answer = answered(SCRIPT, "Are you asking about the situation today?", model_says=UNKNOWN_REPLY)[0]
    assert answer.startswith("No, ") and "1950s" in answer


@pytest.mark.parametrize(("pair", "question", "expected"), [
    (BOOT, "是1990年意大利世界杯吗？", "1990年"),  # the host it names, the need does not say
    (BAHT, "从1997年7月泰国放弃固定汇率开始算吗？", "1997年7月"),
    (BOOT, "您是说1994年美国世界杯吗？", "不是，1990年"),  # another year
    (BOOT, "是1990年的世界杯吗？", "是的，1990年"),  # nothing more
])
def test_a_time_written_whole_among_words_the_need_cannot_check_is_said_alone(pair, question, expected):
    assert answered(pair, question, "zh")[0] == expected


@pytest.mark.parametrize(("pair", "question", "model_picks"), [
    (GRASSLAND, "需要按盟市细分吗？", "内蒙古自治区"),
    (CHARACTERS, "需要列出具体的字吗？", "简化字"),
    (KINDERGARTEN, "请问孩子是哪年几月出生的？", "2024年"),  # a birth the need does not date
    (BENEFITS, "您具体是在哪个月份离职的？", "2022年"),  # the user's month, which the need's year does not say
    (TAX, "贵公司属于哪个行业？", "小型"),
])
def test_what_a_chinese_need_does_not_say_is_unknown(pair, question, model_picks):
    assert answered(pair, question, "zh", model_says=f'{{"answer": "{model_picks}"}}')[0] == UNKNOWN


def test_the_needs_month_or_year_still_answers_what_is_meant():
    assert answered(BENEFITS, "您指的是哪个月份的？", "zh")[0] == "2022年"
    assert answered(KINDERGARTEN, "请问是哪一年的？", "zh")[0] == "2024年"


@pytest.mark.parametrize(("pair", "question", "expected"), [
    (CHARACTERS, "是全部简化字，还是分批推行中的某一批？", "第一批"),  # one of its kind, or all
    (DESERT, "您是指流动沙漠，还是把戈壁也算在内？", "流动沙漠"),  # the first side is the need's own
    (TURANDOT, "在哪个剧院首演的？", "米兰斯卡拉歌剧院"),  # the thing named, without the need's time
    (TURANDOT, "在哪个城市首演的？", "米兰"),
])
def test_a_chinese_choice_or_which_gets_the_needs_span(pair, question, expected):
    assert answered(pair, question, "zh", model_says=UNKNOWN_REPLY)[0] == expected


BANK = ("What was the GDP per capita of Chile in 2019 according to the World Bank?", "What was the GDP per capita of Chile in 2019?")
BLUE_WHALE = ("Which land mammal has the longest gestation period?", "Which mammal has the longest gestation period?")
ADDITIVES = ("依据GB 2760-2014，面包中允许使用的防腐剂有哪些？", "面包中允许使用的防腐剂有哪些？")


def test_what_the_rules_must_still_answer_beside_the_new_ones():
    assert answered(BANK, "Should I use World Bank data?")[0].startswith("Yes")  # "I" is no source's name
    assert answered(BLUE_WHALE, "Are you limiting this to terrestrial mammals?",
                    model_says='{"answer": "land"}')[0] != UNKNOWN  # what the search counts, not the user
    assert answered(ADDITIVES, "是依据GB 2760-2014吧？", "zh", model_says='{"answer": "GB 2760-2014"}')[0] != "2014"


TUNNEL = ("How long is the Channel Tunnel's undersea section?", "How long is the Channel Tunnel?")


@pytest.mark.parametrize(("pair", "question", "language", "expected"), [
    (TUNNEL, "The total length, or just the part under the sea?", "en", "undersea"),  # one word in the need
    (("What is the installed capacity of Denmark's offshore wind farms?", "What is the installed capacity of Denmark's wind farms?"),
     "All wind farms, or only the ones off shore?", "en", "offshore"),  # one word the stemmer changes ("offshor")
])
def test_a_side_is_told_by_the_words_that_stand_against_the_other(pair, question, language, expected):
    answer = answered(pair, question, language, model_says=UNKNOWN_REPLY)[0]
    assert expected in answer and answer != UNKNOWN


@pytest.mark.parametrize(("pair", "question", "language", "model_picks", "not_expected"), [
    (("Japan's GDP in 2020 according to the IMF", "Japan's GDP in 2020"), "Should I give the figures in US dollars?", "en", "IMF", "No, IMF"),
    (("Smartphone shipments in China in 2023 according to IDC", "Smartphone shipments in China in 2023"),
     "Do you want data for Android phones only?", "en", "unknown", "No, IDC"),  # a product, no body
    (("Median household income in 2021 according to the Census Bureau for Travis County, Texas",
      "Median household income in 2021 for Travis County, Texas"), "Which source should the figure come from?", "en", "unknown",
     "Census Bureau for Travis County"),  # the name the run joined over "for" is no span
    (("Cheapest direct flights from London to New York in December", "Cheapest flights from London to New York in December"),
     "Do you prefer flights without layovers?", "en", "direct", UNKNOWN),  # what the search counts
    (("Population of the Tokyo metropolitan area in 2020", "Population of Tokyo in 2020"),
     "Do you require the wider region around the city?", "en", "metropolitan area", UNKNOWN),
    (("制造业企业2023年研发费用加计扣除比例", "2023年研发费用加计扣除比例"), "贵公司属于什么行业？", "zh", "制造业企业", UNKNOWN),
    (("从上海虹桥机场飞往北京大兴国际机场的航班", "从上海飞往北京的航班"), "您从哪个机场出发？", "zh", "上海虹桥机场", "大兴国际机场"),
    (("2023年全国新生儿数量", "全国新生儿数量"), "您想了解哪一年的出生人口？", "zh", "2023年", UNKNOWN),  # no one's birth
    (("暑假期间故宫博物院门票预约", "故宫博物院门票预约"), "您想预约哪个月的门票？", "zh", "暑假期间", UNKNOWN),  # a part of a year
    (("2008年北京奥运会中国金牌数", "奥运会中国金牌数"), "是2008年伦敦奥运会吗？", "zh", "北京", "2008年"),  # the place is wrong
])
def test_what_the_review_found_the_first_freeze_answered_wrongly(pair, question, language, model_picks, not_expected):
    assert answered(pair, question, language, model_says=f'{{"answer": "{model_picks}"}}')[0] != not_expected


def test_one_round_or_all_gets_the_needs_round():
    assert answered(("第四轮学科评估中计算机科学A+高校", "学科评估中计算机科学A+高校"), "是历次评估的总体情况，还是某一轮的？", "zh",
                    model_says=UNKNOWN_REPLY)[0] == "第四轮"
