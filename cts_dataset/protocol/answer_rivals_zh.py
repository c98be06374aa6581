"""Chinese guesses against the need's values: the value the query left out that a guessed value of its kind
stands against, so that "是Max版吗？" is answered "不是，标准版" and not with another span of the need.

Each finder takes the question and the spans the query left out and returns the need's rival value, or
``None`` where the guess stands against none: a scope of the same axis (国内 for 国际), a bound of the same
unit (90平方米及以下 for 90平方米以上), an edition (标准版 for Max版), an ordinal (第一次 for 最后一次), a time
(2023年 for 2024年, 北宋时期 for 战国时期), a place of the same level (深圳市 for 广州), or the span a guess is
written like (诺贝尔物理学奖 for 诺贝尔化学奖).
"""

from __future__ import annotations

import itertools
import os
import re

from cts_dataset.protocol import answer_choices_zh
from cts_dataset.protocol.answer_phrasing import (
    kind_of,
)
from cts_dataset.protocol.span_types import (
    ERA_ZH,
    TYPED,
    is_zh_place,
    span_type,
    zh_place_level,
)
from cts_dataset.protocol.time_spans import (
    NOW_ZH,
    YEAR,
)
from cts_dataset.protocol.user_questions import ABOUT_THE_USER
from cts_dataset.protocol.word_forms import zh_numerals_to_digits
from cts_dataset.text import CJK

_NUMERAL_ZH = re.compile(r"[一二两三四五六七八九十百首末第\d]+")
_NAMED_WITH_LEVEL_ZH = re.compile(rf"[{CJK}]{{2,}}[省市县区]|国内|国外|海外|全国|全球|世界|境内|境外")  # 朝阳区; not 城镇
_SCOPE_ENDS_ZH = "的范围上内外各地还或和与及"  # after a scope of the world that is no part of a name ("全国的", "国内外")
# Chinese ordinals of a time or a round ("第一次", "最后一次", "第22届"); 首次 is 第一次.
ORDINAL_ZH = re.compile(r"第[一二三四五六七八九十百\d]+(?:[次届轮期批艘代款套个档]|季度)|首[次届轮期批航艘代款套个]|头一[次回届个]|末次"
                        r"|(?:最后|上|下|最近|最新)一[次届轮期批艘代款个]|本届|这一届|二套"  # 二套房 is the second home
                        r"|(?<![第\d一二三四五六七八九十])[一二三四1-4]季度|(?<![第\d一二三四五六七八九十])[一二三四五1-5]档")  # 一季度, 一档
# what an ordinal counts to: 首航 and 第一次 are the first; 最近一届 and 本届 the latest
_ORDINAL_KEYS_ZH = (("首", "1"), ("头一", "1"), ("二套", "2"), ("末", "last"), ("最后", "last"), ("上一", "latest"), ("下一", "next"),
                    ("最近", "latest"), ("最新", "latest"), ("本届", "latest"), ("这一届", "latest"))  # 上一届: the last held
_NAME_STARTS_ZH = ("世界",)  # a scope that begins names (世界文化遗产名录, 世界杯); 国内市场, 全国铁路 are scopes
_PLACE_SUFFIX_ZH = re.compile(r"(?:[省市县区州]|大陆|地区|本土|境内|全境)?")  # after a place's name (深圳市, 中国大陆)
EDGE_CHARS_ZH = 2  # a guess may be written with so many of the span's neighbours ("往返票" for 单程|票)
# Scopes that stand against each other, by axis: at home or abroad; how much of the land
_SCOPE_AXES_ZH = (("国内", "国外", "国际", "海外", "境内", "境外"), ("全国", "全球", "全省", "全市"))
_SCOPE_ZH = re.compile("|".join(w for axis in _SCOPE_AXES_ZH for w in axis))
_NAME_AFTER_SCOPE_ZH = re.compile(r"机场|大学|学院|学校|酒店|饭店|中心|组织|公司|会议|集团|航空|广场|贸易|博览|展览|关系|新闻|频道")  # 首都国际机场
# a scope that qualifies a person (境外游客, 本地旅客) asks who the user is or whom the figure counts
PERSON_NOUN_ZH = "(?:游客|旅客|人员|居民|学生|考生|人士|人|乘客|用户)"
SCOPED_PERSON_ZH = re.compile(rf"(?:{_SCOPE_ZH.pattern})(?:的)?{PERSON_NOUN_ZH}")


def rival_scope_zh(question: str, missing: list[str]) -> str | None:
    """The scope the need left out that a guessed scope of its axis stands against: 国内 for "您是指国际航班吗？"."""
    if SCOPED_PERSON_ZH.search(question) or ABOUT_THE_USER.search(question):
        return None
    said = {m.group() for m in _SCOPE_ZH.finditer(question) if not _NAME_AFTER_SCOPE_ZH.match(question, m.end())}
    own = [s for s in missing if _SCOPE_ZH.fullmatch(s)]
    rivals = [s for s in own if not said & {s} and any(s in axis and said & set(axis) for axis in _SCOPE_AXES_ZH)]
    return rivals[0] if rivals and not said & set(own) else None


_BOUND_ZH = re.compile(r"(\d+(?:\.\d+)?)([^\d，。？?、]{0,4}?)(及以上|以上|及以下|以下|以内|之内|之上|之下)")


def rival_bound_zh(question: str, missing: list[str]) -> str | None:
    """The bound the need left out that another guessed bound stands against: 90平方米及以下 for "您买的是90平方米
    以上的房子吗？" and for "是140平方米以上的大户型吗？"."""
    if ABOUT_THE_USER.search(question):  # "您家的房子面积在120平方米以内吗？"
        return None
    said = bounds_zh(question)
    # of one unit (平方米): not "您的月收入是5000元以上吗？" against 12万元以上 a year
    # another bound of the unit stands against the need's, whether the ranges meet or not ("6000米以上" for 7000米以上)
    own = [s for s in missing if any(g[1] == n[1] and g != n for g in said for n in bounds_zh(s))]
    return max(own, key=len) if own else None


def bounds_zh(text: str) -> set[tuple[str, str, bool]]:
    """The bounds a Chinese text sets: (number, unit, upward) of 90平方米及以下 is ("90", "平方米", False)."""
    return {(m.group(1), m.group(2), "上" in m.group(3)) for m in _BOUND_ZH.finditer(text)}


_EDITION_ZH = re.compile(r"(?:[A-Za-z0-9+]+|[\u4e00-\u9fff]{1,3})(?:版|款)")
_NO_EDITION_ZH = re.compile(r"[那这哪一的]")  # 那一款 points at an edition, it names none


def other_edition_zh(question: str, missing: list[str]) -> str | None:
    """The edition the need left out that another guessed edition stands against: 标准版 for "是Max版吗？"."""
    own = [s for s in missing if re.search(r"[版款]$", s) and len(s) > 1 and s not in question]
    said = [m.group() for m in _EDITION_ZH.finditer(question) if not _NO_EDITION_ZH.search(m.group())]
    return own[0] if own and said and not any(s in o or o in s for s in said for o in own) else None


# a name numbered within its series: 神舟五号, 长征五号, 嫦娥四号 (not 第五届: an ordinal)
_NUMBERED_ZH = re.compile(r"(?P<stem>[\u4e00-\u9fff]{2,4}?)(?P<n>[一二三四五六七八九十百零两\d]+)(?P<unit>号|型)")


def other_number_zh(question: str, missing: list[str]) -> str | None:
    """The numbered name the need left out that the question numbers otherwise: 神舟五号 for "是神舟十二号吗？"."""
    for span in missing:
        own = _NUMBERED_ZH.fullmatch(span)
        if not own or own.group("stem").startswith("第"):
            continue
        said = [m for m in _NUMBERED_ZH.finditer(question) if m.group("stem").endswith(own.group("stem"))
                and m.group("unit") == own.group("unit")]
        if said and all(m.group("n") != own.group("n") for m in said):
            return span
    return None


# "是科创板吗？", "您说的是散文杂文奖吗？": a question that guesses one thing, with nothing else of its own
_GUESS_ONLY_ZH = re.compile(r"^(?:请问)?(?:您|你)?(?:(?:问|说|指|要|想问|想了解|想查)的)?(?:是不是|就是|是)(?P<guess>[\u4e00-\u9fff]{2,8}?)(?:吗|吧|呢|对吗|对吧)?[？?]$")
# heads that name a kind of their own (创业板, 诗歌奖, 化学部): a guess with the same head is another of that
# kind; not heads a category shares with its members (高铁站 of 南站, 新区 of 余杭区, 三甲医院)
_KIND_HEADS_ZH = "板奖部杯馆"


def same_head_zh(question: str, intent: str, missing: list[str]) -> str | None:
    """The span the need left out that a guess with the same head stands against: 创业板 for "是科创板吗？",
    诗歌奖 for "是散文杂文奖吗？" (a guess the need does not write, of the words before the head)."""
    found = _GUESS_ONLY_ZH.match(question.strip())
    guess = found.group("guess") if found else ""
    if not guess or guess in intent or guess[-1] not in _KIND_HEADS_ZH:
        return None
    same = [s for s in missing if len(s) >= 3 and len(guess) >= 3 and s[-1] == guess[-1] and s not in guess and guess not in s
            and not any(s != o and s in o and o[-1] == s[-1] for o in missing)]
    return same[0] if len(same) == 1 else None


def whole_zh(span: str, missing: list[str], question: str) -> str:
    """The whole name a part of which stands against a Chinese guess: "8 Gen 3" for the 3 of "骁龙8 Gen 2吗？",
    "A17 Pro" for its Pro, "河南舞阳贾湖遗址" for the 河南 of "浙江河姆渡遗址吗？" (from the part to the end of
    a block the query left out, where it ends as the guess does, and is a value of the part's kind); then the
    longest block that holds it (:func:`_widened_zh`)."""
    return _widened_zh(_name_from_part_zh(span, missing, question), missing)


def _name_from_part_zh(span: str, missing: list[str], question: str) -> str:
    best = span
    for block in (s for s in missing if span in s and s != span):
        joined = re.search(r"[A-Za-z0-9.]+\+$", block[:block.index(span)])  # 12GB+512GB: one spec, joined by +
        if joined and re.match(r"[A-Za-z0-9]", span):
            best = max(best, joined.group() + span, key=len)
        if re.fullmatch(r"[A-Za-z0-9 .+-]+", block):
            whole = block
        else:
            whole = block[block.index(span):]
            if whole[-2:] not in question or span_type(whole, "zh") != span_type(span, "zh"):
                continue
        best = max(best, whole, key=len)
    return best


_BOUND_END_ZH = re.compile(r"(?:以上|以下|以内|之内)$")


def _widened_zh(span: str, missing: list[str]) -> str:
    """The longest block the query left out that holds ``span`` and no value of another kind: "特别高峰日" for
    the 高峰日 a guessed 常规日 stands against, "灵活就业人员" for 就业人员 (not 2024年特别高峰日, nor 辽宁对新疆
    for 新疆, nor a segmenter's fragment: 广州南到)."""
    kind = span_type(span, "zh")
    blocks = [b for b in missing if span in b and b != span and span_type(b, "zh") == kind
              and (not answer_choices_zh.is_function_char(b[-1]) or _BOUND_END_ZH.search(b))  # 5年期以上
              and not answer_choices_zh.is_function_char(b[0])
              # (a place inside the place, 北京房山区 for 北京, is the same place said finer)
              and not any(o != b and o in b and span_type(o, "zh") in TYPED and o not in span and span not in o
                          and not (kind == "region" == span_type(o, "zh") and b == span + o and o[-1] in "市区县镇乡")
                          for o in missing)]
    return max(blocks, key=len, default=span)


def ordinal_key(ordinal: str) -> str:
    """What a Chinese ordinal counts to: "1" for 首航 and 第一届, "last", "latest" (最近一届), "previous", "next"."""
    number = re.match(r"第?([一二三四五六七八九十百\d]+)", ordinal)  # 一季度 as 第一季度
    if number:  # 第一 as 1: the converter leaves a lone numeral as it is
        return str("零一二三四五六七八九".index(number.group(1))) if len(number.group(1)) == 1 \
            and number.group(1) in "零一二三四五六七八九" else zh_numerals_to_digits(number.group(1))
    return next((key for start, key in _ORDINAL_KEYS_ZH if ordinal.startswith(start)), ordinal)


def ordinal_agreeing_zh(question: str, missing: list[str]) -> str | None:
    """The ordinal the need left out that the question's says otherwise: 第一次 for "永乐三年的那次首航吗？"."""
    said = {ordinal_key(o) for o in ORDINAL_ZH.findall(question)}
    own = [s for s in missing if ORDINAL_ZH.fullmatch(s) and s not in question]
    return next((s for s in own if said and said <= {ordinal_key(o) for o in ORDINAL_ZH.findall(s)}), None)


def rival_value_zh(question: str, guesses: list[str], missing: list[str]) -> str | None:
    """The time the need left out that a guessed time stands against ("2024届" for 2023年, 战国时期 for 北宋时期),
    or the ordinal that a guessed one does ("最后一次" for 第一次). Not a number:
    "B1" or "36强" name things as often as they count them."""
    # "您指的是最新的实时市值吗？" of a need as of 2024年6月底: the time alone, not a block with its place
    of_a_year = [s for s in missing if span_type(s, "zh") == "time" and re.search(YEAR, s)
                 and not any(o != s and o in s and span_type(o, "zh") == "region" for o in missing)]
    if of_a_year and NOW_ZH.search(question) and not NOW_ZH.search("".join(of_a_year)):
        return max(of_a_year, key=len)
    ordinals = [s for s in missing if ORDINAL_ZH.search(s)]
    said = {ordinal_key(o) for o in ORDINAL_ZH.findall(question)}
    if ordinals and said and not said & {ordinal_key(o) for s in ordinals for o in ORDINAL_ZH.findall(s)}:
        # the ordinal with its thing, not the block with its place: 第一套住房 of 苏州市第一套住房
        own = [s for s in ordinals if not any(o != s and o in s and span_type(o, "zh") == "region" for o in missing)]
        return max(own, key=len) if own else ordinals[0]
    times = [s for s in missing if span_type(s, "zh") == "time"]
    for guess in guesses:
        if times and span_type(guess, "zh") == "time" and re.search(YEAR, guess) \
                and not same_number(guess, times[0]):  # a year: not "4月"
            return with_what_is_asked(times[0], missing, guess)
        eras = [s for s in times if ERA_ZH.search(s)]
        if eras and ERA_ZH.search(guess) and not any(one_era(guess, s) for s in eras):
            return eras[0]  # "是战国时期魏国定都的时候吗？" for 北宋时期: another era
    return None


_LEVEL_NOUNS_ZH = frozenset(["地级市", "县级市", "直辖市", "省会城市", "副省级城市", "计划单列市", "自治区", "自治州", "自治县",
                             "市辖区", "新区", "地级", "县级", "省级", "市级", "区县", "地市"])


def a_value_zh(guess: str, question: str) -> bool:
    """A Chinese guess that is a value of its kind: a time or a number, or a place of the gazetteer, named
    with its level (朝阳区) or a scope of the world (国内, 全球); not a common word jieba tags as a place (城镇
    in "需要区分城镇和乡村人口吗？"), nor a scope that begins a name ("世界文化遗产名录", "全国人大")."""
    if span_type(guess, "zh") != "region" or is_zh_place(guess):
        return True
    if guess in _LEVEL_NOUNS_ZH:  # "需要地级市的加发标准吗？": a level of place, no place
        return False
    after = question[question.find(guess) + len(guess):][:1]
    return bool(_NAMED_WITH_LEVEL_ZH.fullmatch(guess)) \
        and not (guess in _NAME_STARTS_ZH and re.match(rf"[{CJK}]", after) and after not in _SCOPE_ENDS_ZH)


def rival_place_zh(question: str, guesses: list[str], query: str, missing: list[str]) -> str | None:
    """The place the need left out that a guessed place of its level stands against ("你说的是广州的车牌摇号吗？"
    for 深圳市, "是广东对辽宁那次吗？" for 新疆), as the longest span the query left out that is the place and a
    word for its level or extent (中国大陆, 深圳市; not 2024年深圳市, 辽宁对新疆 or 美国留学).
    - Only gazetteer places: jieba tags 长度 a place, and 广州站 and 广州南 may be one station.
    - Not a place the question names too: "是四川的成都吗？" asks about 成都.
    - Not where the query holds a place of that level the question does not name: "是飞大阪吗？" may stand
      against 东京 of "上海到东京的航班"; a place of persons (中国 of 中国公民) is none."""
    guessed = [g for g in guesses if is_zh_place(g)]
    # (a place of persons is none the guess could stand for: 中国 of 中国公民)
    held = {zh_place_level(w) for w, _, end in answer_choices_zh.words(query) if is_zh_place(w) and w not in question
            and not re.match(r"(?:公民|国籍|籍|人|居民|护照)", query[end:])}
    for span in sorted(missing, key=len):
        for word, _, _ in answer_choices_zh.words(span) if guessed else ():
            if word in question or not is_zh_place(word):
                continue
            if any(zh_place_level(g) == zh_place_level(word) not in held for g in guessed):
                said = [m for m in missing if m.startswith(word) and _PLACE_SUFFIX_ZH.fullmatch(m[len(word):])]
                return max(said, key=len, default=word)
    return None


def one_era(guess: str, span: str) -> bool:
    """Two names of one era, or of an era and a part of it: 清朝 and 清代, 宋代 and 北宋时期."""
    def core(text: str) -> str:
        found = ERA_ZH.search(text)
        return re.sub(r"(?:时期|时代|[代朝])$", "", found.group()) if found else text

    a, b = core(guess), core(span)
    return a in b or b in a


def same_number(guess: str, span: str) -> bool:
    """The two begin with the same number ("2022年度", "2022年4月" and 2022年; "7000米级" and 7000米以上):
    the guess says the span more finely, or in other words, it does not stand against it."""
    first = [re.findall(r"\d+", zh_numerals_to_digits(t))[:1] for t in (guess, span)]
    return bool(first[0]) and first[0] == first[1]


def variant_of_zh(question: str, intent: str, missing: list[str], guesses: list[str]) -> str | None:
    """The span the query left out that a Chinese guess stands in for: the two sit between the same two
    characters ("SU7 Max" for SU7标准版, "2022年广东省" for 2023年广东省); else the stretch of the intent the
    guess is written like (:func:`_written_alike`: "诺贝尔物理学奖" for "诺贝尔化学奖", "单程票" for "往返票",
    "8000米以上" for "7000米以上")."""
    def beside(text: str, part: str) -> tuple[str, str]:
        at = text.find(part)
        return text[max(at - 2, 0):at], text[at + len(part):at + len(part) + 2]

    def telling(context: str) -> bool:  # two characters that are not all function words
        return len(context) == 2 and not all(answer_choices_zh.is_function_char(c) for c in context)

    asked, said = re.sub(r"\s+", "", question), re.sub(r"\s+", "", intent)
    alike: list[tuple[int, int, str]] = []
    # a block's part the question says itself is no part the guess stands in for: "是2023年12月的吗？" names
    # 2023年 of 2023年杭州市, and 12月 stands for no 杭州市
    # (not a span whose year the question writes, against a guess of no number: "2024年底开园的那一季" is 2024-2025季)
    years = set(re.findall(r"\d{4}", asked))
    other_numbers = any(re.search(r"\d", re.sub(r"\d{4}", "", g)) for g in guesses)  # 12月 of "2024年12月" is one
    parts = [_unsaid_part(s, missing, asked) for s in missing if s not in asked
             and not (years and not other_numbers and any(s in b and years <= set(re.findall(r"\d{4}", b)) for b in missing))]
    for guess in (g for g in guesses if g in asked):
        around = beside(asked, guess)
        for span in (s for s in dict.fromkeys(parts) if s and s in said):
            # not after a year the question says, where the two differ in kind: 2023年|12月 against 2023年|杭州市
            after_said_year = kind_of(guess, "zh") != kind_of(span, "zh") \
                and any(re.search(YEAR, t) and t in asked for t in missing)
            if any(telling(a) and a == b and not (after_said_year and any(a in t for t in missing if t in asked))
                   for a, b in zip(around, beside(said, span), strict=True)):
                return with_what_is_asked(span, missing, asked)
            alike += _written_alike(guess, span, said)
    return with_what_is_asked(min(alike)[2], missing, asked) if alike else None  # the closest to its guess


def compounds_zh(question: str, intent: str) -> list[str]:
    """A numeral the need lacks joined to the need's word after it ("二|套房" -> "二套房"): a guess written
    like the need's span (首套房) that the segmenter cut apart. Only a numeral: other words before the
    need's ("安排|冬至", "新|护照") say something else of it, not another one."""
    words = [w for w, _, _ in answer_choices_zh.words(question)]
    return [a + b for a, b in itertools.pairwise(words)
            if _NUMERAL_ZH.fullmatch(a) and answer_choices_zh.is_content(b)
            and a not in intent and b in intent and a + b not in intent]


def _unsaid_part(span: str, missing: list[str], asked: str) -> str:
    """``span`` without the years inside it that the question writes: 杭州市 of 2023年杭州市 where it says 2023年."""
    said = [m for m in missing if m != span and m in span and m in asked and re.search(YEAR, m)]
    for part in said:
        span = span.replace(part, "", 1)
    return span if span in "".join(missing) else ""


def with_what_is_asked(span: str, missing: list[str], asked: str) -> str:
    """The block the query left out that holds ``span`` and, besides, only what the question says too
    ("8000米以上" for 8000米 in "您说的是7000米以上的山峰吗？"), else ``span``."""
    return next((m for m in missing if span in m and m != span and m.replace(span, "", 1) in asked), span)


def _written_alike(guess: str, span: str, said: str) -> list[tuple[int, int, str]]:
    """The stretches of ``said`` made of ``span`` and up to ``EDGE_CHARS_ZH`` of its neighbours that
    ``guess`` is written like: alike at a beginning or an ending (two characters, or one where the parts
    that differ are as long: 往返|票 for 单程|票, not 邮|轮 for 往返|轮), different within the span. Each
    with how much of it differs and its length, to prefer the closest."""
    found = []
    at = said.find(span)
    for before in range(min(at, EDGE_CHARS_ZH) + 1):
        for after in range(min(len(said) - at - len(span), EDGE_CHARS_ZH) + 1):
            window = said[at - before:at + len(span) + after]
            head = len(os.path.commonprefix([guess, window]))
            tail = len(os.path.commonprefix([guess[head:][::-1], window[head:][::-1]]))
            shared = [c for c in guess[:head] + guess[len(guess) - tail:] if not answer_choices_zh.is_function_char(c)]
            differs = len(window) - head - tail
            if len(guess) == head + tail or not differs or head < before or tail < after:
                continue  # the guess holds the window, or they differ outside the span
            if (len(shared) >= 2 or (shared and differs == len(guess) - head - tail)) \
                    and not same_number(guess, window):
                found.append((differs, len(window), window))
    return found


# Parts of a year a figure may cover: 全年 against 上半年, 年末 as 年底 ("是2024年全年的营收吗？" for 上半年)
# (半年报 and 半年度 are the first half; 满半年, 半年内, 近半年 count back from now; 年初公布 dates a publication)
_PERIOD_ZH = re.compile(r"全年|[上下]半年|半年报|半年度|前三季度|第?[一二三四1-4]季度|年初(?!公布|发布)|年中|年底|年末")
_SAME_PERIOD_ZH = {"年末": "年底", "半年报": "上半年", "半年度": "上半年"}


def _period(text: str) -> str:
    return _SAME_PERIOD_ZH.get(text, text.lstrip("第").translate(str.maketrans("1234", "一二三四")))


def period_zh(question: str, missing: list[str]) -> tuple[str, bool] | None:
    """The part of a year the need left out, where the question names one, and whether the two agree:
    (2024年上半年, False) for "是2024年全年的营收吗？", (2024年底, True) for "是指2024年年末的数字吗？"."""
    if ABOUT_THE_USER.search(question):  # "您是打算在半年内买房吗？": the user's time, not the need's
        return None
    said = {_period(p) for p in _PERIOD_ZH.findall(question)}
    own = [s for s in missing if _PERIOD_ZH.search(s) and span_type(s, "zh") == "time"
           and not any(o != s and o in s and span_type(o, "zh") == "region" for o in missing)]
    if not said or not own:
        return None
    span = max(own, key=len)
    years = [set(re.findall(YEAR, t)) for t in (question, span)]  # "是截至2022年底的吗？" for 2023年底: another year
    return span, said == {_period(p) for p in _PERIOD_ZH.findall(span)} and not (all(years) and not years[0] & years[1])


# What a Chinese need ranks or counts by ("按流域面积计算", "按出货量排名"), and a question that asks for it or
# guesses one ("排名依据是什么？", "您是按河流长度来比较吗？")
_YARDSTICK_ZH = re.compile(r"按(?:照)?(?P<by>[\u4e00-\u9fff]{2,6}?)(?:来)?(?:计算|统计|排名|排序|比较|衡量|算|排)")
# a guess of what to rank by names a measure (河流长度, 销售额), not a unit, a grain or a price (按人民币, 按季度)
_MEASURE_ZH = re.compile(r"面积|长度|人口|销量|销售额|出货量|营收|收入|产量|产值|票房|高度|流量|里程|数量|市值|规模|人数|客流|GDP|总量")
_ASKS_YARDSTICK_ZH = re.compile(r"(?<!来源)依据|口径|按什么|按哪|以什么(?:指标|标准|为准|来衡量|衡量)|怎么(?:算|比较|排|衡量)|什么标准")


def yardstick_zh(question: str, intent: str, missing: list[str]) -> tuple[str, str | None] | None:
    """The span the need left out that says what it ranks by, where the question asks for a yardstick or
    guesses one, with yes or no to a guess: (按流域面积, "no") for "您是按河流长度来比较吗？"."""
    stated = _YARDSTICK_ZH.search(intent)
    if not stated or not any(stated.group("by") in s for s in missing):
        return None
    span = next((s for s in missing if s.startswith("按") and stated.group("by") in s), stated.group("by"))
    if ABOUT_THE_USER.search(question) or re.search(r"还是|或者", question):  # a choice is the either-or rules'
        return None
    guess = _YARDSTICK_ZH.search(question)
    if guess and not re.search(r"什么|哪|何", guess.group("by")):  # "按什么口径计算？" asks, it guesses nothing
        if not _MEASURE_ZH.search(guess.group("by")):
            return None  # "需要按季度统计吗？", "金额是按人民币计算吗？" ask how to give it
        return span, "yes" if guess.group("by") in stated.group("by") or stated.group("by") in guess.group("by") else "no"
    return (span, None) if _ASKS_YARDSTICK_ZH.search(question) else None


_OTHER_SEX_ZH = {"男": "女", "女": "男"}
# Kinds that exclude each other in the needs people search for: a question that names one of an axis, of a need
# that says another ("是护照到期换发吗？" of a need for 首次申领), guesses another kind. (Not 硕士 of 研究生:
# one is a kind of the other; not 全日制 and 非全日制: one writes the other.)
_KIN_AXES_ZH = (("本科", "专科", "研究生"), ("硕士", "博士"), ("本科", "专科", "硕士", "博士"), ("国有", "民营", "外资"), ("累计", "新增"),
                ("首次申领", "换发", "补发"), ("公办", "民办"), ("城镇", "农村"), ("个人缴费", "单位缴费"),
                ("成人", "儿童"), ("一等座", "二等座", "商务座"), ("经济舱", "商务舱", "头等舱"), ("出口", "进口"),
                ("常住人口", "户籍人口"))


def rival_sex_zh(question: str, intent: str, missing: list[str]) -> str | None:
    """The span the need left out that names one sex, where the question names the other and the need does
    not, said with what follows it in both (女航天员 for "您是问首位男航天员吗？")."""
    for span in missing:
        for sex, other in _OTHER_SEX_ZH.items():
            if sex in span and other in question and other not in intent:
                at = question.find(other)
                said = [question[at:end].replace(other, sex, 1) for end in range(len(question), at, -1)]
                return next((w for w in said if w in intent and len(w) > len(span)), span)
    return None


_LEAVES_OUT_ZH = re.compile(r"不[包含算计]|除了|除去|排除|以外")


def rival_kin_zh(question: str, intent: str, missing: list[str]) -> str | None:
    """The span the need left out that names one kind of an axis, where the question names another that the need
    does not (首次申领 for "是护照到期换发吗？", 民营企业 for "国有企业也包括在内吗？")."""
    if _LEAVES_OUT_ZH.search(question) or ABOUT_THE_USER.search(question):
        return None  # "不包括研究生吧？" leaves the other kind out, "您是研究生吗？" asks who the user is: no guess of it
    for axis in _KIN_AXES_ZH:
        for span in missing:
            own = [k for k in axis if k in span]
            if not own or any(k in question for k in own) or re.search(rf"{own[0]}(?:及|或)?以上", intent):
                continue  # (本科及以上 takes 博士 in)
            at = intent.find(own[0]) + len(own[0])
            for other in (k for k in axis if k not in own and k in question and k not in intent):
                # the other kind of the same thing ("研究生招生" of 本科招生, "是专科吗？"), not of another
                # ("进口零部件" of a need for 出口量)
                after = question[question.find(other) + len(other):].lstrip("的")
                if not after or after[0] in "吗吧呢？?，,。也" or intent[at:].lstrip("的").startswith(after[:2]):
                    return span
    return None

