"""Kinds offered among words that only ask, a year on every side of a choice, the whole world against one
country, "whose estimate", a name written whole or told whole, a side that abbreviates the need's name, a unit
that is "okay", a place that opens the question ("British Vogue?"); in Chinese, the user's own status and
holdings, what the need leaves out asked back ("把…也算进去"), the event a generic which-edition names, a whole
against one part, a span written whole beside a year the need cannot check, and a district of a need that names
none."""

from __future__ import annotations

import pytest

from cts_dataset.protocol.views import UNKNOWN
from tests.test_answer_scope import UNKNOWN_REPLY, answered

RAMSAR = ("What is the largest wetland of international importance designated under the Ramsar Convention in Africa?",
          "What is the largest wetland of international importance designated under the Ramsar Convention?")
GRAMMY = ("Which album won the Grammy Award for Best Rap Album in 2004?", "Which album won the Grammy Award for Best Rap Album?")
FLU = ("How many deaths did the 1957–1958 Asian flu pandemic cause worldwide according to the WHO?",
       "How many deaths did the 1957–1958 Asian flu pandemic cause?")
EMPERORS = ("Which Roman emperor ruled for the shortest time during the Year of the Four Emperors?",
            "Which Roman emperor ruled for the shortest time?")
CY_YOUNG = ("Which pitcher won the American League Cy Young Award in 2011?", "Which pitcher won the Cy Young Award in 2011?")
SATURN = ("What was the payload capacity to low Earth orbit of the Saturn V rocket in kilograms?",
          "What was the payload capacity of the Saturn V rocket?")
VOGUE = ("Who was the editor-in-chief of the American edition of Vogue in 1985?", "Who was the editor-in-chief of Vogue in 1985?")
RIVER = ("Which river is the longest in the world?", "Which river is the longest?")
EXAM = ("2023年全国执业医师资格考试临床类别医学综合笔试的合格分数线是多少？", "全国执业医师资格考试医学综合笔试的合格分数线是多少？")
METRO = ("2023年北京地铁对60至64岁老年人乘车是否有票价优惠？", "地铁对60至64岁老年人乘车是否有票价优惠？")
QIANLONG = ("清朝乾隆皇帝一共在位多少年（不含太上皇时期）？", "清朝乾隆皇帝一共在位多少年？")
HURDLES = ("2008年北京奥运会男子110米栏决赛冠军是谁？", "男子110米栏决赛冠军是谁？")
PLAGUE = ("1910年东北鼠疫中哈尔滨的死亡人数是多少？", "1910年东北鼠疫中的死亡人数是多少？")
CANAL = ("京杭大运河浙江段的通航里程是多少公里？", "京杭大运河的通航里程是多少公里？")
CALL_TO_ARMS = ("鲁迅的小说集《呐喊》初版共收录了多少篇小说？", "鲁迅的小说集《呐喊》共收录了多少篇小说？")
RENT = ("2024年武汉市公租房租金标准是每平方米每月多少钱？", "公租房租金标准是每平方米每月多少钱？")
RENT_IN_A_DISTRICT = ("2024年北京市朝阳区公租房租金标准是多少？", "2024年北京市公租房租金标准是多少？")


@pytest.mark.parametrize(("pair", "question", "expected"), [
    (RAMSAR, "Is there a particular continent or country you're focusing on?", "Africa"),  # kinds, among words that ask
    (RAMSAR, "Is there a particular country you're focusing on?", UNKNOWN),  # Africa is no country
    (GRAMMY, "By 2004, do you mean the ceremony held in 2004 or albums released in 2004?", UNKNOWN),  # 2004 on both sides
    (GRAMMY, "Do you mean the 2004 or the 2005 ceremony?", "2004"),
    (FLU, "Globally, or in one particular country?", "worldwide"),
    (FLU, "Whose estimate should I use?", "WHO"),
    (CY_YOUNG, "AL or NL?", "American League"),  # the side that abbreviates the need's name
])
def test_a_choice_or_a_which_gets_the_needs_span(pair, question, expected):
    assert answered(pair, question, model_says=UNKNOWN_REPLY)[0] == expected


@pytest.mark.parametrize(("pair", "question", "expected"), [
    (EMPERORS, "Do you mean AD 69, the Year of the Four Emperors?", "Yes, Year of the Four Emperors"),  # written whole
    (EMPERORS, "Are you thinking of the Crisis of the Third Century?", "No, Year of the Four Emperors"),  # told whole
    (SATURN, "Is pounds okay?", "No, in kilograms"),
    (SATURN, "Would kilograms be fine?", "Yes, in kilograms"),
    (VOGUE, "British Vogue?", "No, American edition"),  # a place that opens the question is a guess
    (VOGUE, "American Vogue?", "Yes, American edition"),
])
def test_a_confirmation_says_yes_or_no_with_the_needs_whole_span(pair, question, expected):
    assert answered(pair, question, model_says=UNKNOWN_REPLY)[0] == expected


def test_the_whole_world_opening_a_question_is_no_place_guessed():
    assert not answered(RIVER, "Worldwide?", model_says=UNKNOWN_REPLY)[0].startswith("No")


@pytest.mark.parametrize(("pair", "question", "model_picks"), [
    (EXAM, "您本人是今年的考生吗？", "2023年"),  # who the user is, not the need's year
    (METRO, "您有北京户口吗？还是常住人口？", "2023年北京"),  # what the user holds
    (RENT, "您关注的是哪个区的公租房项目？", "武汉市"),  # the need names a city, no district
])
def test_what_a_chinese_need_does_not_say_of_the_user_or_its_place_is_unknown(pair, question, model_picks):
    assert answered(pair, question, "zh", model_says=f'{{"answer": "{model_picks}"}}')[0] == UNKNOWN


def test_a_district_the_need_names_is_still_the_models_to_choose():
    assert answered(RENT_IN_A_DISTRICT, "请问是哪个区？", "zh", model_says='{"answer": "朝阳区"}')[0] == "朝阳区"


@pytest.mark.parametrize(("pair", "question", "expected"), [
    (QIANLONG, "要不要把他当太上皇的那几年也算进去？", "不是，不含太上皇时期"),  # what the need leaves out, asked back
    (QIANLONG, "您是想把太上皇训政的时间也算上吗？", "不是，不含太上皇时期"),
    (HURDLES, "是哪一届比赛？", "2008年北京奥运会"),  # the event the need names, not its year alone
    (PLAGUE, "是东北全境还是某个城市的？", "哈尔滨"),  # one city, or the whole region
    (CANAL, "是整条运河还是其中某一段？", "浙江段"),
    (CALL_TO_ARMS, "是1923年的初版吗？", "初版"),  # the year is none the need says
    (CALL_TO_ARMS, "是初版吗？", "是的，初版"),
])
def test_a_chinese_question_gets_the_needs_span(pair, question, expected):
    assert answered(pair, question, "zh", model_says=UNKNOWN_REPLY)[0] == expected


@pytest.mark.parametrize(("pair", "question", "language", "model_picks", "not_expected"), [
    (("GDP of Portugal in 2021 in euros", "GDP of Portugal"), "Would 2019 figures in euros be okay?", "en", "unknown", "Yes, in euros"),
    (("Global average surface temperature in 2016", "Global average surface temperature"),
     "Do you mean a specific year, or the long-term global average?", "en", "2016", "Global"),  # one year, not a place
    (("Number of visitors to the Museum of Modern Art in 2019", "Number of visitors to the modern art museum in 2019"),
     "Do you mean the San Francisco Museum of Modern Art?", "en", "unknown", "Yes, Museum of Modern Art"),  # within a longer name
    (("Per capita consumption of chicken in the United States in 2020", "Per capita consumption of poultry in 2020"),
     "Turkey consumption?", "en", "unknown", "chicken in the United States"),  # no place opens it
    (("Annual ridership at Union Station in Los Angeles in 2019", "Annual ridership at the main station in Los Angeles in 2019"),
     "US or international travellers?", "en", "unknown", "Union Station"),  # "US" abbreviates no station
    (("Death toll of the 2023 earthquake in Turkey according to AFAD", "Death toll of the 2023 earthquake"),
     "Whose count of the dead do you mean, Turkey's or Syria's?", "en", "unknown", "AFAD"),  # a choice, no source
    (("2023年北京海淀的二手房均价", "2023年北京的二手房均价"), "您想了解北京哪个区的房价？", "zh", "海淀", UNKNOWN),  # 海淀 is a district
    (("2024年上海新房成交均价", "2024年上海房价"), "您有兴趣了解的是新房还是二手房？", "zh", "unknown", UNKNOWN),  # no holding
    (("2024年江苏高考本科录取率", "江苏高考本科录取率"), "您自己想查的是2023年的数据吗？", "zh", "unknown", UNKNOWN),  # what is sought
    (("2023年全国人口总数（含港澳台）", "2023年全国人口总数"), "要不要把在港澳工作的内地居民也算进去？", "zh", "unknown", "是的，含港澳台"),
    (("2023年上海马拉松10公里赛的完赛人数", "上海马拉松的完赛人数"), "您问的是哪一届比赛？", "zh", "unknown", "10公里赛"),  # no edition
])
def test_what_the_review_found_the_first_freeze_answered_wrongly(pair, question, language, model_picks, not_expected):
    assert answered(pair, question, language, model_says=f'{{"answer": "{model_picks}"}}')[0] != not_expected
