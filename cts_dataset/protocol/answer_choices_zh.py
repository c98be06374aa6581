"""Chinese options of a choosing answerer: the intent cut into words (jieba, the most used Chinese word
segmenter: a dictionary and an HMM for unknown words, offline), so that an option is never half a word
("桥公路" from 南京长江大桥公路桥)."""

from __future__ import annotations

import logging
import re
from difflib import SequenceMatcher
from functools import cache

from cts_dataset.text import CJK

MAX_RUN_WORDS = 3  # adjacent content words an option may join: 广州地铁3号线, HPV九价疫苗
NAME_TAGS = frozenset(["nr", "ns", "nt", "nz"])  # jieba's tags of names: persons, places, organisations, others
# Words that say how the question is asked, not what it is about.
_FUNCTION = frozenset(
    ["的", "地", "得", "了", "着", "过", "是", "吗", "呢", "吧", "啊", "呀", "和", "与", "及", "或", "或者", "还是", "在", "于", "从", "到", "对", "把", "被", "给", "向", "有", "没有", "要", "需要", "想", "能", "可以", "会", "应该", "哪", "哪个", "哪些", "哪里", "哪儿", "哪一", "哪种", "什么", "多少", "几", "几个", "几点", "几号", "几针", "怎么", "怎样", "如何", "为什么", "为何", "谁", "是否", "是不是", "请问", "一共", "大概", "大约", "最", "都", "也", "就", "还", "又", "很", "这", "那", "这个", "那个", "其", "之", "所", "以", "及其", "等", "中", "里", "上", "下", "一个", "一下", "具体", "呢",
     "并", "并且", "以及", "而", "且"])  # joining words: no span ends in them ("报废旧车并")
# Words that join an inserted text to its neighbours, not part of it (a count such as 一个 is).
_EDGE_WORDS = frozenset(["的", "了", "在", "到", "从", "还", "一共", "大概", "都", "也", "就", "把", "被", "给", "跟", "和",
                         "与", "上", "里", "中", "并", "并且", "以及", "而", "且"])
_MEASURE = re.compile(r"^(?:年代|世纪|年|月|日|号|号线|届|岁|万|亿|个|名|位|次|米|元|千米|公里|度|%|点)")
_PUNCT = re.compile(rf"^[^{CJK}A-Za-z0-9]+$")


@cache
def _jieba():
    import jieba

    jieba.setLogLevel(logging.WARNING)
    for frame in _ASKING_FRAMES:  # "您是指程乙本吗？": 是|指程|乙本 without it
        jieba.add_word(frame, _FRAME_FREQUENCY, "v")
    return jieba


# Words that frame a clarifying question, kept whole so they take no character of the guess after them
_ASKING_FRAMES = ("是指",)
_FRAME_FREQUENCY = 100_000


def words(text: str) -> list[tuple[str, int, int]]:
    """The words of a text with their offsets; a number joins its measure word (2023年, 3号线, 14岁)."""
    out: list[tuple[str, int, int]] = []
    for word, start, end in _jieba().tokenize(text):
        if out and re.fullmatch(r"\d+(?:\.\d+)?", out[-1][0]) and _MEASURE.match(word):
            out[-1] = (out[-1][0] + word, out[-1][1], end)
        else:
            out.append((word, start, end))
    return out


@cache
def tagged_words(text: str) -> tuple[tuple[str, str], ...]:
    """The words of a text with jieba's part-of-speech tag (``ns`` for a place name)."""
    from jieba import posseg

    _jieba()
    return tuple((w.word, w.flag) for w in posseg.cut(text))


def is_content(word: str) -> bool:
    return word not in _FUNCTION and not _PUNCT.match(word) and word.strip() != ""


def is_function_char(char: str) -> bool:
    return char in _FUNCTION or bool(_PUNCT.match(char))


def of_function_words(word: str) -> bool:
    """A word jieba joined from 是 and a preposition ("是从" in "是从中医的说法来理解吗？", "是在"); not 地下, 以上."""
    return len(word) == 2 and word[0] == "是" and word[1] in _FUNCTION


def _runs(tokens: list[tuple[str, int, int]], text: str) -> list[str]:
    """Single content words, then runs of 2 .. MAX_RUN_WORDS adjacent ones, as written in ``text``."""
    spans: list[str] = []
    for size in range(1, MAX_RUN_WORDS + 1):
        for i in range(len(tokens) - size + 1):
            run = tokens[i:i + size]
            if all(is_content(t[0]) for t in run):
                spans.append(text[run[0][1]:run[-1][2]])
    return spans


def missing_spans(fused_query: str, blurred_query: str) -> list[str]:
    """The intent's words that the blurred query lacks, widened to whole words, then their parts."""
    tokens = words(fused_query)
    spans: list[str] = []
    for tag, _, query_at, start, end in SequenceMatcher(None, blurred_query, fused_query, autojunk=False).get_opcodes():
        if tag not in ("insert", "replace"):
            continue
        inside = [t for t in tokens if t[1] < end and t[2] > start]
        while inside and not is_content(inside[0][0]):
            inside = inside[1:]
        while inside and not is_content(inside[-1][0]):
            inside = inside[:-1]
        if inside:
            stop, last = inside[-1][2], end
            while last < len(fused_query) and fused_query[last] == fused_query[last - (end - start)]:
                last += 1  # "赛18强" of 预选赛18强赛 is as well "18强赛": the insertion as far on as it may go
            # only where the need inserts words: a replaced word may share its end with the query's (去泰国 for 出国)
            # (where what it ran on into is a word of the query's, or the segmenter's word is too short to be one
            # of the need's: not the 税 of 个人所得税, though the query's 税收收入 begins with it)
            at_query = query_at + last - end
            if tag == "insert" and stop > last and blurred_query[at_query:].startswith(fused_query[last:stop]) \
                    and (at_query + stop - last in {stop_q for _, _, stop_q in words(blurred_query)}
                         or len(inside[-1][0]) <= 2):
                stop = last  # "庚辰|本现|藏于": the segmenter ran on into the query's own 现藏于
            whole = _with_title_closed(fused_query, inside[0][1], stop)
            spans.append(whole)
            spans += re.findall(r"《[^《》]+》", whole) if whole.count("《") > 1 or not whole.startswith("《") else []
            spans += _runs(inside, fused_query)
        raw = _inserted(tokens, fused_query, start, end)
        if raw and raw not in spans:
            spans.append(raw)
    spans = list(dict.fromkeys(s for s in spans if s))
    # a lone character of a name the segmenter cut ("约" of 里约) is no span where the whole name is one
    return [s for s in spans if not (re.fullmatch(rf"[{CJK}]", s) and any(s in o and o != s for o in spans))]


def _with_title_closed(text: str, start: int, stop: int) -> str:
    """``text[start:stop]``, on to the title mark that closes one it opens ("2022年《财富》", not "2022年《财富")."""
    span = text[start:stop]
    while span.count("《") > span.count("》") and stop < len(text) and "》" in text[stop:]:
        stop = text.index("》", stop) + 1
        span = text[start:stop]
    return span


def _inserted(tokens: list[tuple[str, int, int]], text: str, start: int, end: int) -> str | None:
    """The text inserted at ``start:end`` as a span of its own, where the segmenter cuts it across words
    ("一个|人去" of 一个人去…: 一个人): it begins where a word begins, and whole function words at its edges
    are no part of it ("到39度" -> 39度); it may end within a word."""
    if not any(t[1] == start for t in tokens):
        return None  # it begins inside a word ("个平台上" of 哪个平台上)
    whole = (start, end)
    for word, at, stop in tokens:
        if at == start and stop <= end and word in _EDGE_WORDS:
            start = stop
    for word, at, stop in reversed(tokens):
        if stop == end and at >= start and word in _EDGE_WORDS:
            end = at
    if end - start < 2:  # a name the segmenter cut into characters ("里|约" of 里约): no function word at its edge
        start, end = whole
    raw = text[start:end].strip()
    return raw if len(raw) >= 2 and re.fullmatch(rf"[{CJK}A-Za-z0-9]+", raw) else None


def phrases(fused_query: str) -> list[str]:
    """The intent's content words and short runs of them, in order."""
    return list(dict.fromkeys(s for s in _runs(words(fused_query), fused_query) if s))


def contrasts(alternatives: list[str], side_words: list[list[str]]) -> list[set[str]]:
    """The characters that tell parallel alternatives apart, per alternative: 一 and 二 in "一战还是二战",
    沪 and 广 in "京沪线还是京广线", 男 and 女 in "男子还是女子比赛". Read from two alternatives written alike
    up to a shared ending, and from words of the same length, one from each side, alike in a place;
    empty sets where the alternatives are not parallel."""
    own: list[set[str]] = [set() for _ in alternatives]
    if len(alternatives) == 2:  # 京沪线 / 京广线: align the two from their shared ending
        first, second = (re.sub(rf"[^{CJK}A-Za-z0-9]", "", p) for p in alternatives)
        tail = len(_common_prefix(first[::-1], second[::-1]))
        if tail:
            ends = [first[:-tail], second[:-tail]]
            width = min(len(e) for e in ends)
            ends = [e[len(e) - width:] for e in ends]
            head = len(_common_prefix(*ends))
            own[0] |= set(ends[0][head:]) - set(ends[1][head:])
            own[1] |= set(ends[1][head:]) - set(ends[0][head:])
    # 男子 / 女子, 第一次 / 第二次世界大战: a word and the start of a word of the other side, alike in a
    # place and unlike in another
    for i, words_i in enumerate(side_words):
        for j, words_j in enumerate(side_words):
            for a, b in ((a, b[:len(a)]) for a in words_i for b in words_j if i != j and len(b) >= len(a) > 1):
                if any(x == y for x, y in zip(a, b, strict=True)):
                    own[i] |= {x for x, y in zip(a, b, strict=True) if x != y}
                    own[j] |= {y for x, y in zip(a, b, strict=True) if x != y}
    return [{c for c in chars if c not in _FUNCTION} for chars in own]


def _common_prefix(a: str, b: str) -> str:
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return a[:n]
