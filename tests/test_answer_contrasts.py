"""Questions that tell a guess from another value ("X, not Y, right?"), confirm what the query already says,
or guess by kind rather than by name: a scope, a bound, an ordinal, the plain one of a thing, an owner."""

from __future__ import annotations

import pytest

from cts_dataset.protocol.views import UNKNOWN
from tests.test_answer_scope import UNKNOWN_REPLY, answered

BERLIN = ("What was the population of Berlin in 1900?", "What was the population of Berlin?")
INSURANCE = ("2023年杭州市灵活就业人员缴纳职工医保的月缴费基数下限是多少？", "灵活就业人员缴纳职工医保的月缴费基数下限是多少？")
OPEN = ("Who won the men's singles title at the 1987 Wimbledon Championships?",
        "Who won the men's singles title at the Wimbledon Championships?")


@pytest.mark.parametrize(("pair", "question", "language", "expected"), [
    (BERLIN, "You mean the year 1900, not 1910, right?", "en", "Yes, 1900"),
    (BERLIN, "You mean 1910 rather than 1900?", "en", "No, 1900"),
    (OPEN, "Just to confirm, you mean men's singles rather than doubles or mixed doubles?", "en", "Yes, men's singles"),
    (INSURANCE, "您问的是职工医保，而不是城乡居民医保，对吗？", "zh", "是的，职工医保"),
    (INSURANCE, "您问的是城乡居民医保，不是职工医保吧？", "zh", "不是，职工医保"),
    (("2024年北京市城乡居民医疗保险的个人缴费标准是多少？", "2024年城乡居民医疗保险的个人缴费标准是多少？"),
     "确认一下，您问的是城乡居民医保，而不是职工医保？", "zh", "是的，城乡居民"),
    (("自2023年起乘坐国内铁路列车的儿童票按什么标准划分？", "乘坐国内铁路列车的儿童票按什么标准划分？"),
     "您问的是铁路列车，不是飞机或长途汽车，对吧？", "zh", "是的，铁路列车"),
])
def test_a_guess_told_from_another_value_is_the_choice_of_the_two(pair, question, language, expected):
    text, rule = answered(pair, question, language)
    assert text == expected and rule == "contrast"


def test_a_chinese_year_said_more_finely_confirms_the_year_and_a_month_stands_for_no_place():
    assert answered(INSURANCE, "您是想了解2023年度的标准吗？", "zh")[0] == "是的，2023年"
    assert not answered(INSURANCE, "是2023年12月的吗？", "zh", model_says='{"answer": "unknown"}')[0].startswith("不是")
    assert answered(INSURANCE, "是2022年度的吗？", "zh")[0].startswith("不是，2023年")


@pytest.mark.parametrize(("pair", "question", "expected"), [
    (("在苏州市办理居住证积分，硕士学历可以加多少分？", "办理居住证积分，硕士学历可以加多少分？"), "您问的是硕士学历对应的分值，对吗？", "是的，硕士学历"),
    (("2022年全国新能源汽车销量排名第一的品牌是哪个？", "2022年全国汽车销量排名第一的品牌是哪个？"), "您问的是2022年全年的销量吧？", "是的，2022年"),
])
def test_a_question_of_what_is_meant_that_names_the_querys_words_is_confirmed(pair, question, expected):
    assert answered(pair, question, "zh")[0] == expected


def test_a_question_that_qualifies_the_querys_words_with_its_own_is_not_confirmed():
    pair = ("截至2024年6月底，贵州茅台在A股的总市值是多少？", "贵州茅台在A股的总市值是多少？")
    assert answered(pair, "您是想了解茅台的投资价值吗？", "zh", model_says='{"answer": "unknown"}')[0] == UNKNOWN
    pair = ("2024年海南离岛免税每人每年的购物额度是多少？", "离岛免税每人的购物额度是多少？")
    assert not answered(pair, "您是说每次的额度吗？", "zh", model_says='{"answer": "unknown"}')[0].startswith("是的")


@pytest.mark.parametrize(("pair", "question", "language", "expected"), [
    (("Who was the mayor of Lima when the Metropolitano bus system opened?", "Who was the mayor of Lima?"),
     "Lima has had many mayors. At what point in time are you asking about?", "en", "when the Metropolitano bus system opened"),
    (("Who led Nokia when it sold its handset business to Microsoft?", "Who led Nokia?"),
     "At what point in Nokia's history?", "en", "when it sold its handset business to Microsoft"),
    (("沪宁城际铁路开通运营时最快列车的运行时间是多少？", "沪宁城际铁路最快列车的运行时间是多少？"),
     "请问您想了解哪个时期的运行时间？", "zh", "开通运营时"),
])
def test_a_clause_of_time_answers_a_question_for_a_time(pair, question, language, expected):
    assert answered(pair, question, language)[0] == expected


def test_a_capitalised_word_that_opens_a_sentence_is_no_guess():
    pair = ("Who was the chief engineer of the Golden Gate Bridge after Leon Moisseiff resigned in 1930?",
            "Who was the chief engineer of the Golden Gate Bridge?")
    text, _ = answered(pair, "Do you mean the engineer who held the post at some point? Could you specify the period?")
    assert "after Leon Moisseiff resigned" in text


def test_a_question_for_the_year_or_the_edition_asks_the_time_the_query_left_out():
    assert answered(("Who won the Eurovision Song Contest in 2014?", "Who won the Eurovision Song Contest?"),
                    "Which year's contest?")[0] == "2014"
    assert answered(("Which country topped the medal table at the 2015 Pan American Games?",
                     "Which country topped the medal table at the Pan American Games?"),
                    "Which edition of the Pan Am Games?")[0] == "2015"


UNIVERSITY = ("Which German university is affiliated with the most Nobel laureates?",
              "Which university is affiliated with the most Nobel laureates?")
AIRLINE = ("Which airline carried the most domestic passengers in 2018?", "Which airline carried the most passengers?")


def test_a_value_of_the_spans_kind_before_the_querys_word_stands_against_it():
    assert answered(UNIVERSITY, "Do you mean among British universities?")[0] == "No, German"
    # domestic and international exclude each other: no, and the need's
    assert answered(AIRLINE, "Do you mean international passengers?")[0] == "No, domestic"
    # a qualifier of another sense may well hold of the need's: not denied
    assert not answered(UNIVERSITY, "Are you thinking of a top university?", model_says='{"answer": "unknown"}')[0].startswith("No")


def test_a_place_of_several_words_is_one_guess():
    pair = ("What is the largest national park in Mexico by area?", "What is the largest national park?")
    assert answered(pair, "Do you mean in the United States?")[0].startswith("No, Mexico")


@pytest.mark.parametrize(("pair", "question", "expected"), [
    (("乘坐国内民航航班时，托运行李的重量上限是多少公斤？", "托运行李的重量上限是多少公斤？"), "您是指国际航班吗？", "不是，国内"),
    (("2024年个人首次购买144平方米及以下普通住房的契税税率是多少？", "2024年个人购买普通住房的契税税率是多少？"),
     "您买的是144平方米以上的房子吗？", "不是，144平方米及以下"),
    (("明朝永乐年间郑和第一次下西洋带了多少艘船？", "明朝永乐年间郑和下西洋带了多少艘船？"), "您是说永乐三年的那次首航吗？", "是的，第一次"),
    (("第一届中国电影金鸡奖最佳导演是谁？", "中国电影金鸡奖最佳导演是谁？"), "您是问最近一届的获奖者吗？", "不是，第一届"),
    (("中国第一艘航空母舰的舰长是谁？", "中国航空母舰的舰长是谁？"), "中国目前有多艘航母，请问您问的是哪一艘？", "第一艘"),
    (("小米14 Pro在2023年10月开售时16GB+512GB版本的售价是多少？", "小米14 Pro的售价是多少？"), "您是说16GB+1TB版本吗？", "不是，16GB+512GB版本"),
    (("2024年上海市小客车新能源牌照的申请条件是什么？", "上海市小客车牌照的申请条件是什么？"), "您是指普通小客车牌照吗？", "不是，新能源"),
])
def test_a_chinese_guess_by_kind_stands_against_or_agrees_with_the_needs(pair, question, expected):
    assert answered(pair, question, "zh")[0] == expected


def test_the_plain_one_of_a_thing_stands_against_the_needs_qualifier():
    pair = ("What is the range of the Lucid Air Grand Touring?", "What is the range of the Lucid Air?")
    assert answered(pair, "Do you mean the standard Lucid Air?") == ("No, Lucid Air Grand Touring", "confirmation")


def test_a_choice_of_now_and_another_time_is_answered_by_the_needs_time():
    pair = ("南宋末年临安城的人口大约有多少？", "临安城的人口大约有多少？")
    assert answered(pair, "您是想了解古代临安的人口，还是现在杭州市的人口？", "zh")[0] == "南宋末年"
    # a need that says now for one clause and left out a time for another: the words do not tell which
    pair = ("Which city was the official capital of Poland until 1596, and how many people live there today?",
            "Which city was the official capital of Poland, and how many people live there today?")
    assert answered(pair, "The present-day capital, or one from an earlier era?", model_says='{"answer": "unknown"}')[0] != "today"


def test_a_confirmation_of_the_needs_year_with_a_description_of_its_own_gets_the_year_alone():
    pair = ("Who won the Eurovision Song Contest in 2016?", "Who won the Eurovision Song Contest?")
    assert answered(pair, "The 2016 contest, the one held in Stockholm?") == ("2016", "confirmation")
    pair = ("What was the unemployment rate in Spain in the first quarter of 2013?", "What was the unemployment rate in Spain?")
    assert answered(pair, "Do you mean early 2013, while Mariano Rajoy was in office?")[0] == "first quarter of 2013"
    # not where the description names the answer, or another of the query's thing
    pair = ("Which country won the 2012 Eurovision Song Contest?", "Which country won the Eurovision Song Contest?")
    assert answered(pair, "The 2012 contest, the one won by Sweden?", model_says='{"answer": "unknown"}')[0] == UNKNOWN
    pair = ("Which team won the 2010 FIFA World Cup?", "Which team won the FIFA World Cup?")
    assert "2010" not in answered(pair, "The 2010 Women's World Cup?", model_says='{"answer": "unknown"}')[0]


@pytest.mark.parametrize(("pair", "question", "language"), [
    (("What magnitude was the earthquake that struck Chile in February 2010?", "What magnitude was the earthquake that struck Chile?"),
     "Which magnitude scale would you like: moment magnitude or local (Richter) magnitude?", "en"),
    (("Galaxy S24 Ultra在韩国的官方首发售价是多少韩元？", "Galaxy S24 Ultra的官方首发售价是多少？"), "需要帮您换算成人民币吗？", "zh"),
    (("2024年杭州市小客车指标的个人配额是多少个？", "杭州市小客车指标的个人配额是多少个？"), "请问您参与摇号或排队已经多少年了？", "zh"),
])
def test_a_scale_an_offer_to_convert_and_the_users_own_past_are_unknown(pair, question, language):
    assert answered(pair, question, language)[0] == UNKNOWN


def test_an_owner_the_query_names_answers_whose_and_stands_against_another():
    gdp = ("What was the GDP of Chile in 2012 in US dollars?", "What was the GDP of Chile?")
    assert answered(gdp, "Which country's GDP?") == ("Chile", "in_query")
    assert answered(gdp, "Which country?", model_says='{"answer": "unknown"}')[0] != "US"  # the US of "US dollars"
    moons = ("How many moons of Neptune had been confirmed by the end of 2022?", "How many moons of Neptune had been confirmed?")
    assert answered(moons, "Do you mean Uranus's moons?") == ("No, Neptune", "confirmation")




@pytest.mark.parametrize(("pair", "question", "language", "not_said"), [
    # an owner answers "which country's", never "which year's"
    (("What was the GDP of Brazil in 2020?", "What was the GDP of Brazil?"), "Which year's GDP?", "en", "Brazil"),
    # a condition is no time
    (("How much does a ticket to the Louvre cost when booked online?", "How much does a ticket to the Louvre cost?"),
     "For which date?", "en", "when booked online"),
    (("What is the median salary in Norway before tax?", "What is the median salary in Norway?"), "For which year?", "en", "before tax"),
    (("特斯拉Model 3快充时的充电功率是多少？", "特斯拉Model 3的充电功率是多少？"), "请问您想了解哪一年的车型？", "zh", "快充时"),
    # another thing of the query's, or a rival, is not confirmed
    (("2024年广州市住房公积金的月缴存基数上限是多少元？", "住房公积金的月缴存基数上限是多少元？"), "您是想知道缴存基数下限吗？", "zh", "是的"),
    (("2024年广州市住房公积金的月缴存基数上限是多少元？", "住房公积金的月缴存基数上限是多少元？"), "您问的是缴存基数上限的计算方法吗？", "zh", "是的"),
    # a wider region, a person's scope, a plain price are no rivals
    (("Which French university is the oldest?", "Which university is the oldest?"), "Are you asking about European universities?", "en", "No"),
    (("2023年首都机场国内航班的准点率是多少？", "首都机场航班的准点率是多少？"), "您是本地旅客吗？", "zh", "不是"),
    (("2019年中国国际旅游收入是多少亿美元？", "2019年中国旅游收入是多少亿美元？"), "您是说境外游客带来的收入吗？", "zh", "不是"),
    (("What is the price of the Tesla Model S Plaid?", "What is the price of the Tesla Model S?"),
     "Are you asking about the standard price before incentives?", "en", "No"),
    (("How much is an adult ticket to the Louvre?", "How much is a ticket to the Louvre?"), "Do you mean a standard ticket?", "en", "No"),
    # a plan or a boundary is no choice of now and then
    (("What was the price of a one-day ticket to Disneyland in 2019?", "What was the price of a one-day ticket to Disneyland?"),
     "Are you planning to buy now or later?", "en", "2019"),
    (("What was the population of Berlin in 1900?", "What was the population of Berlin?"),
     "Within the current city limits or the historical ones?", "en", "1900"),
    # 上一届 is the last held, as 最近一届 is
    (("最近一届世界杯的冠军是哪支球队？", "世界杯的冠军是哪支球队？"), "您问的是上一届世界杯吗？", "zh", "不是"),
    # the place of a currency is no place of the need
    (("How much is the minimum wage in Ohio in US dollars per hour?", "How much is the minimum wage in Ohio per hour?"),
     "Do you mean in the US?", "en", "US dollars"),
])
def test_what_a_review_found_wrong_stays_right(pair, question, language, not_said):
    assert not_said not in answered(pair, question, language, model_says=UNKNOWN_REPLY)[0]


def test_a_contrast_whose_other_side_names_the_span_is_answered_by_the_guess_alone():
    pair = ("Which country won the most gold medals at the 1936 Summer Olympics?",
            "Which country won the most gold medals at the 1936 Olympics?")
    text, _ = answered(pair, "The Winter Games, not the Summer Games, right?")
    assert text.startswith("No, ") and "Summer" in text


def test_a_scale_the_intent_names_answers_a_question_for_a_scale():
    pair = ("What was the magnitude of the 2011 Tohoku earthquake on the moment magnitude scale?",
            "What was the magnitude of the 2011 Tohoku earthquake?")
    assert answered(pair, "Which magnitude scale would you like: moment or Richter?") == ("moment magnitude scale", "method")


def test_a_question_for_an_edition_or_a_period_gets_the_whole_time():
    pair = ("Which team won the fifth men's Cricket World Cup?", "Which team won the men's Cricket World Cup?")
    assert answered(pair, "Which edition of the tournament do you mean?") == ("fifth", "typed")
    pair = ("What was the inflation rate in Italy in the third quarter of 2011?", "What was the inflation rate in Italy?")
    assert answered(pair, "For what period?")[0] == "third quarter of 2011"


def test_a_choice_of_one_thing_and_all_of_them_gets_the_one_left_out():
    pair = ("Who was the top scorer of the 1998 FIFA World Cup?", "Who was the top scorer of the FIFA World Cup?")
    assert answered(pair, "A specific edition, or the all-time top scorer across all World Cups?") == ("1998", "either_or")


def test_a_lone_chinese_numeral_holds_no_digit_of_a_year():
    pair = ("杭州市2024年个人住房公积金贷款最高额度是多少？", "个人住房公积金贷款最高额度是多少？")
    assert "2024" not in answered(pair, "请问您是首套房还是二套房？", "zh", model_says=UNKNOWN_REPLY)[0]
    pair = ("三亚亚龙湾2月份的平均海水温度是多少度？", "亚龙湾的平均海水温度是多少度？")  # 二月 is 2月 all the same
    assert answered(pair, "您是想了解二月的水温吗？", "zh")[0] == "是的，2月份"


def test_a_guessed_bound_of_the_same_unit_stands_against_the_needs():
    pair = ("2024年购买面积90平方米及以下的首套住房契税税率是多少？", "2024年购买首套住房契税税率是多少？")
    assert answered(pair, "是140平方米以上的大户型吗？", "zh")[0].startswith("不是") and "90平方米及以下" in answered(pair, "是140平方米以上的大户型吗？", "zh")[0]
    pair = ("2024年年收入12万元以上的个人需要办理个税汇算吗？", "2024年个人需要办理个税汇算吗？")
    assert not answered(pair, "您的月收入是5000元以上吗？", "zh", model_says=UNKNOWN_REPLY)[0].startswith("不是")


@pytest.mark.parametrize(("pair", "question", "language", "not_said"), [
    (("Which team finished fourth in the 2010 World Cup?", "Which team finished in the 2010 World Cup?"),
     "Which edition of the tournament?", "en", "fourth"),  # an ordinal of no edition where the query dates the event
    (("What was the population of Berlin in 1900?", "What was the population of Berlin?"),
     "Are you currently living in Berlin, or did you live there in the past?", "en", "1900"),  # about the user
    (("How many people live in the city that hosted the 1936 Summer Olympics?", "How many people live in the city that hosted the Summer Olympics?"),
     "Do you want the current population or the historical one?", "en", "1936"),  # the year dates the Games, not the population
    (("How much is the minimum wage in US dollars per hour?", "How much is the minimum wage per hour?"),
     "Are you asking about the US federal minimum wage?", "en", "Yes"),  # the place of a currency
    (("本科学历在苏州落户能加多少分？", "本科学历落户能加多少分？"), "您问的是本科学历的分数线吗？", "zh", "是的"),
    (("2023年首都机场国内航班的准点率是多少？", "2023年首都机场航班的准点率是多少？"), "您问的是首都国际机场吗？", "zh", "不是"),
    (("2024年上海首套房90平方米及以下的契税税率是多少？", "2024年上海首套房的契税税率是多少？"), "您家的房子面积在120平方米以内吗？", "zh", "不是"),
    (("How much does a Costco Executive membership cost per year?", "How much does a Costco membership cost per year?"),
     "Are you a regular Costco shopper?", "en", "No"),
    (("What is the average salary of a software engineer in New York City?", "What is the average salary of a software engineer?"),
     "Salary before tax, not after tax, right?", "en", "Yes"),
    (("How long does a Tesla Model 3 take to charge when it rains?", "How long does a Tesla Model 3 take to charge?"),
     "When are you planning to drive?", "en", "rains"),  # a condition is no time
])
def test_what_a_second_review_found_wrong_stays_right(pair, question, language, not_said):
    assert not_said not in answered(pair, question, language, model_says=UNKNOWN_REPLY)[0]


def test_the_side_of_a_contrast_that_the_intent_holds_is_confirmed():
    pair = ("Which country won the most medals at the 1936 Winter Olympics?", "Which country won the most medals at the 1936 Olympics?")
    assert answered(pair, "The Winter Games, not the Summer Games, right?")[0] == "Yes, Winter Olympics"
    assert answered(pair, "The Summer Games, not the Winter Games, right?")[0] == "No, Winter Olympics"


def test_a_question_for_a_scale_the_intent_does_not_name_gets_its_unit():
    pair = ("What is the average July temperature in Paris in degrees Celsius?", "What is the average July temperature in Paris?")
    assert "Celsius" in answered(pair, "What scale would you like: Celsius or Fahrenheit?")[0]


@pytest.mark.parametrize(("pair", "question", "expected"), [
    # a province or a title written before the need's own place is no guess of another place
    (("2024年成都市首套住房商业贷款最低首付比例是多少？", "2024年住房商业贷款最低首付比例是多少？"), "是四川成都吗？", "是的，成都市"),
    (("青岛市2024年生育津贴的计发标准是怎么规定的？", "2024年生育津贴的计发标准是怎么规定的？"), "是山东青岛的政策吗？", "是的，青岛市"),
    (("北京地铁普通单程票的最高票价是多少元？", "地铁普通单程票的最高票价是多少元？"), "您说的是首都北京的地铁吧？", "是的，北京"),
    # another edition; a lone telling character said as the need's word
    (("小米SU7标准版的CLTC纯电续航里程是多少公里？", "小米SU7的CLTC纯电续航里程是多少公里？"), "是Max版吗？", "不是，标准版"),
    (("2024年成都市首套住房商业贷款最低首付比例是多少？", "2024年住房商业贷款最低首付比例是多少？"), "首套房还是二套房？", "首套"),
])
def test_a_chinese_place_edition_or_choice_is_read_as_the_need_writes_it(pair, question, expected):
    assert answered(pair, question, "zh")[0].startswith(expected)


def test_a_season_named_by_its_first_year_is_not_denied():
    pair = ("哈尔滨冰雪大世界2024-2025季的门票价格是多少？", "哈尔滨冰雪大世界的门票价格是多少？")
    assert not answered(pair, "是2024年底开园的那一季吗？", "zh", model_says=UNKNOWN_REPLY)[0].startswith("不是")
    pair = ("2024年6月大学英语四级考试笔试的具体日期是哪天？", "大学英语四级考试笔试的具体日期是哪天？")
    assert answered(pair, "是2024年12月那次吗？", "zh")[0].startswith("不是")  # another month of the year: no
