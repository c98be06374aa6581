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
