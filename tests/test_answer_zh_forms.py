"""Chinese question forms: a value asked with a trailing 是 ("请问您所在的城市是？"), an ordinal's own thing said
in other words ("第一次出发的时间"), and a choice whose side the query writes with a measure of its thing
("门票价格还是开放时间？")."""

from __future__ import annotations

from cts_dataset.protocol.views import UNKNOWN
from tests.test_answer_scope import answered

UNKNOWN_REPLY = f'{{"answer": "{UNKNOWN}"}}'
POWER = ("2024年成都市居民阶梯电价第一档的年用电量上限是多少度？", "居民阶梯电价第一档的年用电量上限是多少度？")
ENVOY = ("张骞第一次出使西域是在哪一年？", "张骞出使西域是在哪一年？")


def test_a_value_asked_with_a_trailing_shi_is_answered_with_the_value():
    assert answered(POWER, "请问您所在的城市是？", "zh") == ("成都市", "typed")
    assert answered(POWER, "为了查到准确的标准，您想查询的年份是？", "zh") == ("2024年", "typed")
    # "是不是？" still asks yes or no
    assert answered(POWER, "您说的是成都吧，是不是？", "zh", model_says=UNKNOWN_REPLY)[0].startswith("是的")


def test_an_ordinals_thing_said_in_other_words_is_no_guess():
    assert answered(ENVOY, "您是问第一次出发的时间吗？", "zh") == ("是的，第一次", "confirmation")
    # a clause that says more of the span is a guess the need does not hold
    pair = ("广州地铁3号线的首班车是早上几点？", "地铁的首班车是早上几点？")
    assert answered(pair, "您说的3号线是开往白云机场那条吧？", "zh", model_says=UNKNOWN_REPLY)[0] == UNKNOWN


def test_a_side_the_query_writes_with_a_measure_of_its_thing_is_chosen():
    pair = ("苏州拙政园旺季的门票是多少钱？", "拙政园的门票是多少钱？")
    assert answered(pair, "您想了解门票价格还是开放时间？", "zh") == ("门票", "either_or")
    pair = ("2024年全国居民人均消费支出是多少元？", "全国居民人均消费支出是多少元？")
    assert answered(pair, "您想看的是全国的数据还是某个省份的？", "zh") == ("全国", "either_or")
    pair = ("2024年广州市职工医保缴费基数下限是多少元？", "职工医保缴费基数下限是多少元？")  # the side as the query writes it
    assert answered(pair, "您问的是缴费基数的下限还是上限？", "zh") == ("缴费基数下限", "either_or")
    # a side told only by a measure tells nothing
    pair = ("苏州拙政园旺季的门票价格是多少钱？", "拙政园的门票价格是多少钱？")
    assert answered(pair, "您想了解价格还是时间？", "zh", model_says=UNKNOWN_REPLY)[0] == UNKNOWN
