"""Chinese confirmations that say the need's value again: in a gloss ("今年，也就是2025年", "今年（2025年）") or
as a year said more finely ("2025年度") of a year the query writes itself."""

from __future__ import annotations

from cts_dataset.protocol.views import UNKNOWN
from tests.test_answer_scope import answered

UNKNOWN_REPLY = f'{{"answer": "{UNKNOWN}"}}'
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
