"""Chinese questions that say the need's value again or otherwise: in a gloss ("今年，也就是2025年", "今年（2025年）"),
as a year said more finely ("2025年度"), as a part of the year (半年报, 年末), with words the need cannot check
("是省会长沙的那一所吗？"), as the query writes it; and the spans a segmenter's cuts must not break (里|约)."""

from __future__ import annotations

import pytest

from cts_dataset.protocol.views import UNKNOWN
from tests.test_answer_scope import UNKNOWN_REPLY, answered

FARE = ("2025年杭州市地铁学生票的折扣是多少？", "杭州市地铁学生票的折扣是多少？")
RENT = ("南京市2025年公租房的租金标准是每平方米多少元？", "2025年公租房的租金标准是每平方米多少元？")


def test_a_value_said_again_in_a_gloss_is_confirmed():
    assert answered(FARE, "您指的是今年，也就是2025年的折扣吗？", "zh") == ("是的，2025年", "confirmation")
    assert answered(FARE, "是今年（2025年）的标准吗？", "zh") == ("是的，2025年", "confirmation")
    pair = ("2024年3月全国英语等级考试北京考区的报名费是多少元？", "全国英语等级考试的报名费是多少元？")
    # the block the gloss's value belongs to, where the question says the rest of it
    assert answered(pair, "是2024年春季（3月）那次考试吗？", "zh") == ("是的，2024年3月", "confirmation")


def test_a_gloss_that_holds_another_value_confirms_nothing():
    # a part of another season's name is no value of the need said again
    pair = ("哈尔滨冰雪大世界2025-2026季的开园日期是哪天？", "哈尔滨冰雪大世界的开园日期是哪天？")
    assert answered(pair, "是上一季，也就是2024-2025季的吗？", "zh") == ("不是，2025-2026季", "confirmation")
    assert answered(FARE, "是去年（2024年）的标准吗？", "zh") == ("不是，2025年", "confirmation")


def test_the_querys_own_year_said_more_finely_is_confirmed():
    assert answered(RENT, "您说的是2025年度的标准，对吧？", "zh") == ("是的，2025年", "confirmation")
    # another year is no year of the query's said finely
    assert answered(RENT, "您问的是2024年度的标准吗？", "zh", model_says=UNKNOWN_REPLY)[0] != "是的，2025年"


def test_the_needs_value_named_with_words_it_cannot_check_is_said_without_yes_or_no():
    pair = ("明代四大名窑中，位于江西景德镇的是哪一座？", "明代四大名窑中，位于江西的是哪一座？")
    assert answered(pair, "是瓷都景德镇的那一座吗？", "zh") == ("景德镇", "confirmation")
    # not a question about the user, a source, what the value is like, or another of the need's measures
    pair = ("2024年青岛市城镇居民人均可支配收入是多少元？", "城镇居民人均可支配收入是多少元？")
    assert answered(pair, "是按青岛市统计局公布的数据吗？", "zh", model_says=UNKNOWN_REPLY)[0] == UNKNOWN
    pair = ("深圳地铁11号线的末班车是几点？", "地铁的末班车是几点？")
    assert answered(pair, "您说的11号线是去机场那条吧？", "zh", model_says=UNKNOWN_REPLY)[0] == UNKNOWN
    pair = ("杭州湾跨海大桥主桥部分的长度是多少？", "杭州湾跨海大桥的长度是多少？")
    assert answered(pair, "是主桥部分的宽度吧？", "zh", model_says=UNKNOWN_REPLY)[0] == UNKNOWN


def test_a_question_for_when_gets_the_whole_time_and_one_for_the_year_the_year():
    pair = ("广州市2024年9月起执行的出租车运价标准是多少？", "出租车运价标准是多少？")
    assert answered(pair, "这个标准是从什么时候开始执行的？", "zh") == ("2024年9月起", "typed")
    assert answered(pair, "是哪一年的标准？", "zh") == ("2024年", "typed")


def test_a_name_the_segmenter_cuts_into_characters_is_left_out_whole():
    from cts_dataset.protocol.answer_choices import missing_spans
    pair = ("中国男篮在里约奥运会小组赛中的对手有哪些？", "中国男篮在奥运会小组赛中的对手有哪些？")
    assert missing_spans(pair[0], pair[1], "zh") == ["里约"]
    assert answered(pair, "是2008年北京奥运会的小组赛吗？", "zh") == ("不是，里约", "confirmation")
    # a which-question for an edition the need names by its place
    assert answered(pair, "请问是哪一届奥运会？", "zh") == ("里约奥运会", "typed")


def test_a_choice_about_the_user_that_the_need_writes_whole_and_a_reason_after_it():
    pair = ("2024年个税汇算中，独生子女赡养老人专项附加扣除每月最多可扣多少元？", "个税汇算中，赡养老人专项附加扣除每月最多可扣多少元？")
    assert answered(pair, "请问您是独生子女还是非独生子女？两者的扣除标准不同。", "zh") == ("独生子女", "either_or")


def test_the_querys_own_words_confirmed_with_a_pointing_word_or_a_place_said_short():
    pair = ("2025年福建省初中学业水平考试中道德与法治科目满分是多少分？", "初中学业水平考试中道德与法治科目满分是多少分？")
    assert answered(pair, "您问的是道德与法治这一科，对吧？", "zh") == ("是的，道德与法治", "confirmation")
    pair = ("2024年广州市居住证积分中，持证人硕士学历可以获得多少积分？", "2024年广州市居住证积分中，持证人的学历能获得多少积分？")
    assert answered(pair, "这里说的是广州的居住证积分，对吧？", "zh") == ("是的，广州市", "confirmation")


def test_another_work_in_title_marks_is_another_of_the_needs():
    pair = ("巴金的长篇小说《家》首次出版是在哪一年？", "巴金的长篇小说首次出版是在哪一年？")
    assert answered(pair, "您是说《春》吗？", "zh") == ("不是，家", "confirmation")
    assert answered(pair, "是《家》吗？", "zh") == ("是的，家", "confirmation")


def test_offers_to_list_more_are_unknown():
    pair = ("2024年北京环球影城成人门票在旺季的价格是多少？", "2024年北京环球影城成人门票的价格是多少？")
    assert answered(pair, "需要我把优速通的价格也列出来吗？", "zh", model_says=UNKNOWN_REPLY) == (UNKNOWN, "scope")
    pair = ("2023年成都大运会跳水项目中国队获得了几枚金牌？", "2023年成都大运会中国队获得了几枚金牌？")
    assert answered(pair, "您是否需要每枚金牌对应的具体比赛项目？", "zh", model_says=UNKNOWN_REPLY) == (UNKNOWN, "scope")


@pytest.mark.parametrize(("question", "expected"), [
    ("是2024年全年的营收吗？", "不是，2024年上半年"),  # another part of the year
    ("您指的是2024年半年报里的数字吧？", "是的，2024年上半年"),  # 半年 for 上半年
    ("是2023年上半年的吗？", "不是，2024年上半年"),  # the part agrees, the year does not
])
def test_a_part_of_the_year_confirms_or_stands_against_the_needs(question, expected):
    pair = ("比亚迪2024年上半年的净利润是多少亿元？", "比亚迪2024年的净利润是多少亿元？")
    assert answered(pair, question, "zh") == (expected, "confirmation")


def test_the_end_of_a_year_said_otherwise_is_the_needs():
    pair = ("截至2024年底，全国高铁运营里程是多少万公里？", "全国高铁运营里程是多少万公里？")
    assert answered(pair, "是指2024年年末的统计数字吗？", "zh") == ("是的，截至2024年底", "confirmation")
    assert answered(pair, "是截至2023年底的吗？", "zh") == ("不是，截至2024年底", "confirmation")


def test_the_needs_own_words_keep_their_province_and_their_whole_word():
    pair = ("2025年每位旅客在海南离岛免税店的年度免税额度是多少元？", "每位旅客在海南离岛免税店的年度免税额度是多少元？")
    assert answered(pair, "您问的是海南离岛免税，对吗？", "zh") == ("是的，海南离岛免税", "confirmation")
    pair = ("2024年全国个人所得税收入是多少亿元？", "2024年全国税收收入是多少亿元？")
    assert answered(pair, "是个税的收入吗？", "zh") == ("是的，个人所得税", "confirmation")


def test_a_field_said_with_its_value_confirms_the_querys_value():
    pair = ("乘坐上海地铁2号线从徐泾东站到浦东国际机场站全程需要多长时间？", "乘坐上海地铁2号线到浦东国际机场站全程需要多长时间？")
    assert answered(pair, "终点是浦东国际机场站，对吗？", "zh") == ("是的，浦东国际机场站", "confirmation")


def test_which_one_of_a_set_or_an_item_gets_the_one_span_left_out():
    pair = ("2025年高考新课标一卷数学压轴题考的是什么？", "2025年高考数学压轴题考的是什么？")
    assert answered(pair, "请问是哪一套试卷？", "zh") == ("新课标一卷", "meant")
    pair = ("2024年个人所得税汇算中，住房贷款利息专项附加扣除的标准是每月多少元？", "2024年个人所得税汇算中，专项附加扣除的标准是每月多少元？")
    assert answered(pair, "专项附加扣除包含多个项目，请问您想了解哪一项？", "zh") == ("住房贷款利息", "meant")
    # 哪个 with its own noun names the kind it asks: not the span of another ("哪个品牌的手机？" for Pro)
    pair = ("小米14 Ultra的电池容量是多少毫安？", "小米14的电池容量是多少毫安？")
    assert answered(pair, "您问的是哪个品牌的手机？", "zh", model_says=UNKNOWN_REPLY)[0] != "Ultra"


@pytest.mark.parametrize(("question", "expected"), [
    ("您是按河流长度来比较吗？", "不是，按流域面积计算"),
    ("是按流域面积算的吗？", "是的，按流域面积计算"),
    ("请问您说的“最大”以什么指标来衡量？", "按流域面积计算"),
    ("请问您说的“最大”按什么口径计算？", "按流域面积计算"),  # asks, guesses nothing
])
def test_what_a_chinese_need_counts_by_is_asked_or_guessed(question, expected):
    pair = ("按流域面积计算，黄河最大的支流是哪一条？", "黄河最大的支流是哪一条？")
    assert answered(pair, question, "zh") == (expected, "criterion")


def test_a_reason_after_a_question_about_the_user_guesses_nothing():
    pair = ("广州南站到深圳北站G6001次列车的一等座票价是多少？", "广州南站到深圳北站G6001次列车的票价是多少？")
    assert answered(pair, "请问您是学生吗？学生可以享受优惠票价。", "zh", model_says=UNKNOWN_REPLY)[0] == UNKNOWN
    pair = ("成都市2024年灵活就业人员医疗保险最低缴费金额是多少？", "2024年医疗保险最低缴费金额是多少？")
    assert answered(pair, "请问您之前是否有过单位职工医保的缴费记录？", "zh", model_says=UNKNOWN_REPLY)[0] == UNKNOWN


def test_a_contrasted_side_that_says_more_than_the_need_is_still_its_side():
    pair = ("杭州市首套房商业贷款的首付比例最低是多少？", "商业贷款的首付比例最低是多少？")
    assert answered(pair, "您问的是纯商业贷款，不是公积金贷款，对吗？", "zh") == ("是的，商业贷款", "contrast")


def test_which_edition_gets_its_whole_name_and_the_other_sex_is_a_rival():
    pair = ("中国代表团在2021年东京奥运会上获得了多少枚银牌？", "中国代表团在奥运会上获得了多少枚银牌？")
    assert answered(pair, "请问是哪一届奥运会？", "zh") == ("2021年东京奥运会", "typed")
    pair = ("中国首位获得奥运会游泳金牌的女运动员是谁？", "中国首位获得奥运会游泳金牌的运动员是谁？")
    assert answered(pair, "您是问首位男运动员吗？", "zh") == ("不是，女运动员", "confirmation")


@pytest.mark.parametrize(("pair", "question"), [
    # a gloss that negates, or one about the user
    (("2024年全国民航旅客运输量是多少？", "全国民航旅客运输量是多少？"), "是2023年的数据（不含2024年）吗？"),
    (("上海居住证积分达到多少分可以落户？", "居住证积分达到多少分可以落户？"), "您本人是外地户籍（非上海户籍）吗？"),
    # the query's year said finely, of the user
    (("2024年浙江高考物理类本科线是多少？", "2024年浙江高考本科线是多少？"), "您孩子是2024年度毕业的吗？"),
    # a title in a clause, not guessed
    (("鲁迅的小说集《彷徨》收录了多少篇小说？", "鲁迅的小说集收录了多少篇小说？"), "是收录在《鲁迅全集》里的那个版本吗？"),
    # half a year counted back from now, or a publication at the start of a year
    (("2024年上半年杭州新能源车指标中签率是多少？", "杭州新能源车指标中签率是多少？"), "您的社保是否已连续缴纳满半年？"),
    (("2024年上半年深圳市二手房成交量是多少？", "深圳市二手房成交量是多少？"), "您是打算在半年内买房吗？"),
    (("2024年末杭州市常住人口是多少？", "2024年杭州市常住人口是多少？"), "是年初公布的那份统计公报的数据吗？"),
    # a source, a unit, a grain or the user: no yardstick
    (("按流域面积计算，中国第二大的河流是哪条？", "中国第二大的河流是哪条？"), "需要给出数据来源依据吗？"),
    (("按出货量排名，2024年全球最大的平板电脑厂商是哪家？", "2024年全球最大的平板电脑厂商是哪家？"), "您是以什么用途购买平板？"),
    (("按流域面积计算，中国第三大的河流是哪条？", "中国第三大的河流是哪条？"), "您是以什么身份查询的？"),
])
def test_rules_for_glosses_years_titles_parts_of_the_year_and_yardsticks_do_not_overreach(pair, question):
    assert answered(pair, question, "zh", model_says=UNKNOWN_REPLY)[0] in (UNKNOWN, "不是，2024年")


def test_asking_to_narrow_to_a_district_is_no_offer_and_a_choice_of_yardsticks_is_the_either_or_rules():
    pair = ("2024年广州市天河区二手房成交均价是多少？", "2024年广州市二手房成交均价是多少？")
    assert answered(pair, "是否需要具体到某个区的数据？", "zh")[0].endswith("天河区")
    pair = ("按出货量排名，2024年全球最大的平板电脑厂商是哪家？", "2024年全球最大的平板电脑厂商是哪家？")
    assert answered(pair, "是按出货量还是按销售额排名？", "zh") == ("按出货量", "either_or")


def test_a_choice_told_only_by_a_character_the_query_writes_takes_no_side():
    pair = ("深圳地铁第一条线路是哪一年开通运营的？", "地铁第一条线路是哪一年开通运营的？")
    assert answered(pair, "“开通运营”是指首段试运营，还是全线正式运营？", "zh", model_says='{"answer": "开通运营"}') == (UNKNOWN, "either_or")
    # a numeral tells its side though the query writes it too (哪一年): no rule's unknown, the model chooses
    pair = ("第一次世界大战是哪一年结束的？", "世界大战是哪一年结束的？")
    assert answered(pair, "您问的是一战还是二战？", "zh", model_says=UNKNOWN_REPLY)[1] != "either_or"


def test_the_querys_own_year_or_place_guessed_otherwise_is_denied():
    pair = ("2024年上海市灵活就业人员社保缴费基数下限是多少？", "2024年灵活就业人员社保缴费基数下限是多少？")
    assert answered(pair, "您说的是2023年度的缴费基数吧？", "zh") == ("不是，2024年", "confirmation")
    pair = ("2023年杭州市常住人口是多少？", "杭州市常住人口是多少？")
    assert answered(pair, "这里说的是宁波的常住人口吗？", "zh") == ("不是，杭州市", "confirmation")
    # not where the need left out a place of its own: that one stands against the guess
    pair = ("2024年巴黎奥运会中国代表团获得多少枚银牌？", "奥运会中国代表团获得多少枚银牌？")
    assert answered(pair, "是在英国举办的那一届吧？", "zh", model_says=UNKNOWN_REPLY)[0] != "不是，中国"


def test_kinds_of_place_a_time_of_day_asked_and_one_edition_or_all_of_them():
    pair = ("2024年浙江省新能源乘用车置换更新的补贴金额是多少？", "2024年新能源乘用车置换更新的补贴金额是多少？")
    assert answered(pair, "请问您所在的省份或城市是？各地可能还有叠加补贴。", "zh") == ("浙江省", "typed")
    pair = ("南京中山陵旺季成人门票价格是多少？", "南京中山陵门票价格是多少？")
    assert answered(pair, "请问您计划在什么时间段参观？不同季节票价不同。", "zh")[0].startswith("旺季")
    pair = ("中国乒乓球队在2016年里约奥运会上获得了几枚金牌？", "中国乒乓球队在奥运会上获得了几枚金牌？")
    assert "里约" in answered(pair, "您是指某一届，还是历届奥运会的总数？", "zh")[0]


def test_a_latin_letter_tells_a_chinese_choice():
    pair = ("2024年考研国家线中理学学术型硕士的B区总分线是多少？", "考研国家线中理学学术型硕士的总分线是多少？")
    assert answered(pair, "您需要A区还是B区的分数线？", "zh") == ("B区", "either_or")


def test_an_abbreviation_of_the_needs_word_tells_a_chinese_choice():
    pair = ("2024年浙江大学软件工程专业学术型硕士的复试分数线是多少？", "2024年软件工程专业硕士的复试分数线是多少？")
    assert "学术型" in answered(pair, "您想查询学硕还是专硕的分数线？", "zh")[0]


@pytest.mark.parametrize(("pair", "question"), [
    (("2024年苏州市出租车起步价是多少？", "苏州市出租车起步价是多少？"), "您想和无锡对比一下吗？"),
    (("2024年南京到上海的高铁二等座票价是多少？", "南京到上海的高铁票价是多少？"), "中途在苏州停靠吗？"),
    (("2024年杭州市公办幼儿园保教费是多少？", "2024年公办幼儿园保教费是多少？"), "是2023年发布的收费文件吗？"),
])
def test_a_value_brought_beside_the_querys_is_no_guess_against_it(pair, question):
    assert not answered(pair, question, "zh", model_says=UNKNOWN_REPLY)[0].startswith("不是")
