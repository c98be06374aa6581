"""The sides of a choice or a contrast the question offers ("By area or by population?", "The Winter Games, not
the Summer Games?", "您问的是职工医保，而不是城乡居民医保，对吗？"): which side the intent holds, in its own words
or as it writes them.

A side is told by its own words, those the other side lacks ("Winter" of "the Winter Games"); a head both
sides share ("side", "type") tells nothing.
"""

from __future__ import annotations

import itertools
import re

from cts_dataset.diagnostics.rules import classify
from cts_dataset.protocol import answer_choices_zh
from cts_dataset.protocol.answer_choices import EDGE
from cts_dataset.protocol.answer_guesses import (
    capitalised_runs,
    spelled_out,
)
from cts_dataset.protocol.answer_phrasing import (
    alternatives,
    content_words,
    holds,
    written_in_two,
)
from cts_dataset.protocol.span_types import TYPED
from cts_dataset.protocol.word_forms import same_stem, same_word
from cts_dataset.text import tokenize

# Words before the head of a wh-phrase ("Which specific type of novels ...?": novels).
NO_HEAD = frozenset(tokenize("type kind sort form variety category genre style branch field species breed brand model "
                              "edition version specific particular exact "
                              "exactly one ones"))
# the head of a choice's sides that names no thing of its own either ("The Union side or the Confederate side?")
_SIDE = frozenset(tokenize("side"))
MAX_OWN_WORDS_ZH = 2  # of each alternative of a Chinese choice that the query answers (see held_alternative)
MAX_STRETCH_WORDS = 8  # a longer stretch of the intent spans clauses, not one phrase
# What a Chinese alternative asks of its thing, telling no side from another ("价格" of "门票价格还是开放时间？")
_MEASURE_OF_ZH = ("数据", "价格", "时间", "情况", "费用", "金额", "数字", "信息", "标准")
MIN_RUN_ZH = 4  # characters of an untyped run of the query that a question confirms (本科学历)


def side_held(guess: str, other: str, intent: str, spans: list[str], language: str) -> tuple[str, bool] | None:
    """The side of a contrast whose own words the intent holds, where it holds none of the other's, with the
    shortest span of the intent that holds them; and whether it is the guess. A Chinese side may say more
    than the intent (纯 of "纯商业贷款，不是公积金贷款"): the words of its own the intent holds are enough."""
    sides = [guess, other]
    own = [[w for w in content_words(side, language) if not holds(sides[1 - i], w, language)] for i, side in enumerate(sides)]
    for i in (0, 1):
        held = [w for w in own[i] if holds(intent, w, language)]
        if own[i] and own[1 - i] and held and (language == "zh" or held == own[i]) \
                and not any(holds(intent, w, language) for w in own[1 - i]):
            holding = [s for s in spans if all(holds(s, w, language) for w in held)]
            if holding:
                return min(holding, key=len), i == 0
    return None


def side_as_written(guess: str, other: str, intent: str, language: str) -> tuple[str, bool] | None:
    """The side of a contrast that the intent writes, and whether it is the guess: the longest run of a side's
    last words that the intent holds word for word, with a word the other side lacks, where the intent holds
    none of the other side's own words."""
    if language != "en":
        return None
    sides = [guess, other]
    own = [[w for w in content_words(side, "en") if not holds(sides[1 - i], w, "en")] for i, side in enumerate(sides)]
    for i, side in enumerate(sides):
        if not own[i] or any(holds(intent, w, "en") for w in own[1 - i]):
            continue
        words = side.split()  # any run of it ("Best Novel" of "Best Novel category")
        runs = [" ".join(words[k:m]).strip(EDGE) for k in range(len(words)) for m in range(k + 1, len(words) + 1)]
        # the run holds a word of the side's own ("current US dollars" of "Nominal GDP in current US dollars")
        found = [r for r in runs if re.search(rf"\b{re.escape(r)}\b", intent, re.IGNORECASE) and any(holds(r, w, "en") for w in own[i])
                 and (len(r.split()) > 1 or capitalised_runs(r, skip_first=False))]  # "Album of the Year", not "car"
        if found:
            run = max(found, key=len)
            return re.search(rf"\b{re.escape(run)}\b", intent, re.IGNORECASE).group(), i == 0
    return None


def widest_in_zh(span: str, side: str, intent: str) -> str:
    """The longest run of whole words of ``side`` that the intent writes too and that holds ``span``: 最佳故事片
    of 故事片 in "最佳故事片奖" (not 城乡居民医 of "城乡居民医保" against 城乡居民医疗保险)."""
    cuts = [0, *(end for _, _, end in answer_choices_zh.words(side))]
    runs = [side[i:j] for i in cuts for j in cuts if j > i]
    return max((r for r in runs if span in r and r in intent), key=len, default=span)


def elided_by_another(word: str, offered: list[str]) -> bool:
    """Another alternative leaves the word out after the same word ("the first woman to take office, or the
    first to win a general election?"): both speak of it, it tells neither apart."""
    for side in offered:
        found = re.search(rf"\b(\w+)\s+\w*{re.escape(word)}\w*", side, re.IGNORECASE)
        if found and any(re.search(rf"\b{re.escape(found.group(1))}\s+(?:to|who|that|one)\b", other, re.IGNORECASE)
                         for other in offered if other is not side):
            return True
    return False


def telling_zh(word: str, offered: list[str]) -> bool:
    """A Chinese word that tells one alternative from the others: not a single character another one
    writes too ("年" of "年平均人口" against "年末常住人口"; "首" of 首套房 against 二套房 tells)."""
    return len(word) > 1 or sum(word in p for p in offered) == 1


def in_its_sense(word: str, sides: list[list[str]], intent: str) -> bool:
    """An alternative's own word that qualifies the head all alternatives share ("solar" of "the sidereal
    day or the solar day?") means what it says only where the intent has it before that head too: "Solar
    System" is no solar day."""
    side = next(side for side in sides if word in side)
    after = side[side.index(word) + 1:side.index(word) + 2]
    # a head that names no thing of its own ("The Union side or the Confederate side?") needs no match, nor one
    # the intent does not say ("the first female laureate?" of "the first woman to win")
    if not after or not all(after[0] in other for other in sides if other is not side) or after[0] in NO_HEAD | _SIDE \
            or not holds(intent, after[0], "en"):
        return True
    words = tokenize(intent)  # "the electrical conductivity" or, stop words dropped, "a conductor of electricity"
    return any((same_stem(a, word) and same_stem(b, after[0])) or (same_stem(a, after[0]) and same_stem(b, word))
               for a, b in itertools.pairwise(words))


def _own_words_by_side(sides: list[list[str]]) -> list[list[str]]:
    """Per alternative, its words that no other alternative has, in order."""
    return [[w for w in words if not any(w in other for j, other in enumerate(sides) if j != i)]
            for i, words in enumerate(sides)]


def own_words(sides: list[list[str]]) -> list[str]:
    """The words of each alternative that no other alternative has, in order."""
    return [w for words in _own_words_by_side(sides) for w in words]


def sides_held(question: str, intent: str, query: str) -> bool:
    """The intent holds a word that tells one alternative from the others, besides the words the query
    says too ("largest" in "Largest by territory or by population?" tells none apart), or every word of
    one alternative ("the longest river, or the second-longest?")."""
    sides = [content_words(p, "en") for p in alternatives(question, "en")]
    return any(holds(intent, w, "en") and not (query and holds(query, w, "en")) for w in own_words(sides)) \
        or any(side and all(holds(intent, w, "en") for w in side) for side in sides)


def unwritten_hyphenated(side: str, intent: str) -> list[str]:
    """The hyphenated words of a choice's side ("one-way") that the intent writes neither so nor with a space
    ("year end" is "year-end"), lower-cased: one word each, whose parts are no words of the intent's."""
    return [h.lower() for h in re.findall(r"\w+(?:-\w+)+", side)
            if h.lower() not in intent.lower() and h.lower().replace("-", " ") not in intent.lower()]


def held_alternative(question: str, intent: str, query: str, language: str = "en") -> str | None:
    """"Was it an earthquake, or some other kind of disaster?" when the query says earthquake: the one
    alternative whose own words the query (and the intent) all hold, as the intent writes it ("New York
    City, or New York State?" -> "New York City"; "您问的是HPV疫苗还是流感疫苗？" -> "HPV"). In Chinese only
    a short alternative (at most MAX_OWN_WORDS_ZH words of its own): a longer one restricts the query's
    thing ("包括研究生在内，还是只统计本专科毕业生？")."""
    offered = alternatives(question, language)
    if language == "en":  # "within the EU, or Europe as a whole?" of a query for the European Union
        offered = [spelled_out(p, intent) for p in offered]
    sides = [content_words(p, language) for p in offered]
    if language == "en":  # "a one-way or a round trip?": "way" of "one-way" is not the query's "cheapest way"
        joined = [unwritten_hyphenated(p, intent) for p in offered]
        sides = [[w for w in words if not any(w.lower() in h.split("-") for h in whole)] + whole  # the whole word stands
                 for words, whole in zip(sides, joined)]
    own = _own_words_by_side(sides)
    def said(w: str) -> bool:
        return holds(query, w, language) and holds(intent, w, language)

    if language == "zh":  # "门票价格还是开放时间？": a side is told by its words that are no measure of the thing
        own = [[t for t in map(_telling_part_zh, words) if t] for words in own]
    held = [i for i, words in enumerate(own) if words and all(said(w) for w in words)]
    if len(held) != 1:
        return None
    if language == "zh":
        written = re.sub(r"[的之]", "", alternatives(question, language)[held[0]].strip(EDGE + "？?，, "))
        if len(own[held[0]]) > MAX_OWN_WORDS_ZH and not (len(written) >= MIN_RUN_ZH and written in query):
            return None  # unless the query writes the side itself: "缴存基数的上限" of 缴存基数上限
        side = alternatives(question, language)[held[0]].strip(EDGE + "？?，, ")
        joined = "".join(own[held[0]])
        # the whole alternative as the intent writes it ("新能源汽车"), else its own words ("北坡" of "去北坡")
        return side if side in intent else joined if joined in intent else written_in_two(joined, intent) \
            or max(own[held[0]], key=len)
    words = intent.split()
    side = sides[held[0]]
    at = [i for i, w in enumerate(words) if any(same_word(t, s) for t in tokenize(w) for s in side)]

    def says(i: int, j: int, s: str) -> bool:
        return any(same_word(t, s) for w in words[i:j + 1] for t in tokenize(w))
    written = [s for s in side if says(0, len(words) - 1, s)]

    def covers(i: int, j: int) -> bool:
        return all(says(i, j, s) for s in written)
    # the shortest run that says every word of the side the intent writes: "hot desert", not "desert is the
    # largest hot desert" of "Hot deserts only?"
    runs = [(i, j) for i in at for j in at if i <= j and covers(i, j)]
    first, last = min(runs, key=lambda r: (r[1] - r[0], r[0]), default=(0, -1))
    stretch = words[first:last + 1]
    if not stretch or len(stretch) > MAX_STRETCH_WORDS or any(w.endswith(",") for w in stretch[:-1]):
        return None
    return " ".join(stretch).strip(EDGE)


def _telling_part_zh(word: str) -> str:
    """``word`` without a trailing measure of its thing (门票价格 -> 门票; 价格 -> "")."""
    for measure in _MEASURE_OF_ZH:
        if word.endswith(measure):
            return word[:-len(measure)]
    return word


# "the Golden Lion or another prize?", "面积还是别的？": one value against anything else
_OR_ANOTHER = re.compile(r"(?P<side>[^,，、—–:：;；?？]+?)\s*,?\s*(?:\bor\b|还是|或者|或是)\s*"
                         r"(?:\b(?:an?other|some other|any other|a different|other|something else|else)\b|别的|其他|其它|另外)",
                         re.IGNORECASE)
_LEAD_EN = re.compile(r"^.*?\b(?:about|mean|meant|referring to|interested in|looking for|want|is it|was it)\s+", re.IGNORECASE)


def side_before_another(question: str, intent: str, query: str, language: str) -> str | None:
    """The one value a question sets against "another" or "别的", where the query and the intent both write it:
    "Golden Lion" for "Which award are you asking about — the Golden Lion or another prize?" of a query for
    the Golden Lion; "面积" for "“最大”指的是什么，面积还是别的？" of a query for 面积最大. None where the query
    lacks it: a guess is the confirmation rules' to judge."""
    offered = _OR_ANOTHER.search(question)
    other = re.match(r"\s*([\w'’-]+)", question[offered.end():]) if offered else None  # the thing after "another"
    if not offered or not query or (other and language == "en" and classify(f"which {other.group(1)}") in TYPED):
        return None  # "the Nobel Prize in Literature or another year's?" asks which year
    side = _LEAD_EN.sub("", offered.group("side")).strip(EDGE + " ") if language == "en" else offered.group("side").strip()
    side = re.sub(r"^(?:the|a|an)\s+", "", side, flags=re.IGNORECASE) if language == "en" else re.sub(r"^(?:是|指|按)", "", side)
    words = content_words(side, language)
    if not words or not all(holds(query, w, language) and holds(intent, w, language) for w in words):
        return None
    if language == "zh":
        return side if side in intent else None
    found = re.search(rf"\b{re.escape(side)}\b", intent, re.IGNORECASE)
    return found.group() if found else None
