"""The answer a choosing user answerer gives with the span it picked: checked against the kind of value
the question asks for, phrased as yes or no for a yes/no question, or ``unknown`` where the pick answers
nothing (it echoes the question, or the question guesses what the intent does not say)."""

from __future__ import annotations

import re

from cts_dataset.protocol import answer_choices_zh, word_forms
from cts_dataset.protocol.answer_choices import EDGE, WORD, choices, is_capitalised, missing_spans, names_nothing
from cts_dataset.protocol.span_types import TYPED, is_common_word, span_type
from cts_dataset.protocol.units_and_sources import names_a_currency
from cts_dataset.protocol.views import UNKNOWN
from cts_dataset.text import CJK, tokenize

# A question with no question word and no alternatives asks to confirm ("Is that Kraków?", "So the capital
# between 1948 and 1976?", "是2022年那届吗？").
WH_EN = re.compile(r"\b(?:what|which|who|whom|whose|when|where|why|how)\b", re.IGNORECASE)
# "请问您所在的省份是？" asks a value as "哪个省份" does ("是不是？" asks yes or no)
# (多大, 多高, 多远: "how old", "how tall", "how far" ask for a value: "您今年多大年纪？")
_WH_ZH = re.compile(r"哪|什么|多少|几|谁|怎么|怎样|如何|为什么|为何|何时|何地|(?<![很众许诸好])多(?:大|高|远|重|深|宽|老)(?=年纪|岁|了|呢|啊|\s*[？?]|$)|(?<!不)(?:是|为)\s*[？?]")
# A yes/no question with no guess of its own ("Do you mean a particular year?") is answered yes.
_OPEN_CUE = re.compile(r"\b(?:particular|specific|certain|any|some|specifically)\b|特定|具体|某个|某一", re.IGNORECASE)
# Words of asking, not of what is asked about.
ASKING_EN = frozenset(tokenize(
    "mean meant meaning ask asking asked talk talking refer referring interested interest want wanting look looking "
    "about question one ones you your please exactly just sure right correct so thinking think mind kind sort type "
    "specifically particular specific certain any some only really actually assume guess exact thing something case "
    "like know tell say said correctly understand wondering confirm check talked well okay ok yes no also"))
# "那一届", "这家", "一趟": a demonstrative or a count with its measure word points at a thing, it names none.
_POINTING_ZH = re.compile(r"^(?:[那这哪]一?|一)[个次届座条种部位家所场本款期版只辆趟班样些批件张台枚份组轮艘架科项门]?$")
# Words a Chinese question says of the thing it names whatever the thing ("是2024年的数据吧？", "是从中医的
# 说法来理解吗？"): no guess beside 2024年, 中医. A measure (长度, 票价) is one, unless the need says it.
# Verbs and adverbs name no value a Chinese guess could be ("打算" in "您是打算二月去吧？", "举办", "发布"):
# jieba's tags for them.
_ACTS_ZH = frozenset(["v", "vd", "d", "ad"])
_LEVEL_ZH = re.compile(r"(?<=[^\W\d]{2})[省市县区]$")  # the word for a place's level after its name (广州市)
_NAMING_TAGS_ZH = answer_choices_zh.NAME_TAGS | {"m", "t", "mq", "en"}  # and numerals, times; "eng" for Latin
_NEUTRAL_ZH = frozenset(["数据", "统计", "数字", "说法", "角度", "意义", "部分", "情况", "标准"])
_ASKING_ZH = frozenset(["您", "你", "说", "说的", "指", "指的", "问", "想", "想问", "想知道", "知道", "了解", "想了解", "意思", "理解", "是说", "对吧", "对", "吗", "吧", "呢", "版本",
                        "查", "要查", "你查", "您查", "想查", "查的", "查询", "关心", "关注", "感兴趣", "在意"])  # demonstratives: _POINTING_ZH


STRONG_CUE = 2  # a question type's cue weight that asks for that kind in so many words ("region", "era"), not a hint ("history")


def hints_its_kind(question: str) -> bool:
    """The question's type rests on weak cues only ("Would a chart of the rate history help?": "history" hints at
    a time, asks none)."""
    from cts_dataset.diagnostics.rules import (  # the one question-type classifier of the project
        classify,
        scores,
    )

    return scores(question).get(classify(question), 0) < STRONG_CUE


def typed_choice(question: str, span: str, fused_query: str, blurred_query: str, language: str,
                 missing: list[str] | None = None, offered: list[str] | None = None) -> str:
    """The model's pick, checked against the kind of value the question asks for: a question about a time,
    a number or a place (the rule classifier's type) picked with a span of another kind, or not answered,
    is answered by a span of the asked kind, first of all one the query left out, or it is ``unknown``.
    Other questions, and picks of no known kind, keep the model's pick. ``missing`` and ``offered``: the
    pair's :func:`missing_spans` and :func:`choices`, when the caller has them already."""
    from cts_dataset.diagnostics.rules import classify  # the one question-type classifier of the project

    asked = classify(question)
    picked = span_type(span, language) if span != UNKNOWN else None
    # An untyped pick may still be right: span types are told by rules, and only English places by a list.
    untyped_kept = span != UNKNOWN and picked is None and (language != "en" or asked != "region")
    # "unknown" stands where the question only hints at the kind ("Would a chart of the rate history help?")
    hinted = span == UNKNOWN and hints_its_kind(question)
    if asked not in TYPED or picked == asked or untyped_kept or hinted:
        return span
    if missing is None:
        missing = missing_spans(fused_query, blurred_query, language)
    if asked == "region" and language == "en":  # not the "US" of "US dollars"
        missing = [s for s in missing if not names_a_currency(s, fused_query)]
    of_kind = [s for s in missing if span_type(s, language) == asked]
    # a block that also holds a value of another kind ("2023年杭州市") gives way to its part (2023年)
    pure = [s for s in of_kind if not any(o != s and o in s and span_type(o, language) not in (asked, None) for o in missing)]
    if of_kind:
        return (pure or of_kind)[0]
    if offered is None:
        offered = choices(fused_query, blurred_query, language, missing)
    untyped = set(missing)  # none of them is of the asked kind: no need to tell their kind again
    typed = [s for s in offered if s not in untyped and span_type(s, language) == asked
             and not (asked == "region" and language == "en" and names_a_currency(s, fused_query))]
    return typed[0] if len(typed) == 1 else UNKNOWN


# "or" in Chinese: 还是, 或者, 或是, a lone 或 ("男足或女足？", "一个或多个", "现在或将来", "时间或地点"), not in the
# words 或许 ("perhaps"), 或将 ("may"), 或称 ("also called"), 或多或少, 不可或缺, 或然.
_OR_ZH = r"还是|或者|或是|(?<!不可)(?<!或多)或(?!许|将(?!来)|称(?![号呼谓])|多或少|然)"


def is_yes_no(question: str, language: str) -> bool:
    """A question answered by yes or no ("Do you mean the 1976 one?"), not a choice ("... or ...?") and not
    a question for a value ("Which year?"). In a question led by a verb, a question word that opens a
    relative clause after a noun asks nothing ("Are you asking about the king who took the throne in
    2014?", "Is this the war in which Hannibal crossed the Alps?", "Augustus, who ruled until AD 14?");
    one after a verb or an adjective does ("Do you know what year ...?", "Are you interested in which
    year ...?", "Could you confirm which year?")."""
    zh = bool(re.search(rf"[{CJK}]", question))
    if is_either_or(question, language):
        return False
    if zh:
        return not _WH_ZH.search(question)
    if not WH_EN.search(question):
        return True
    return bool(_LED_BY_A_VERB.match(question)) and all(_relative(question[:m.start()], m.group())
                                                        for m in WH_EN.finditer(question))


def _relative(before: str, wh: str) -> bool:
    """The question word ``wh`` after ``before`` opens a relative clause: it follows a noun after a
    determiner ("the king who", "the war in which": a preposition may stand between for which and whom),
    a plural noun ("shapeshifters who") or a name and a comma ("Augustus, who")."""
    if wh.lower() in ("which", "whom"):
        before = _PREPOSITION_BEFORE.sub(" ", before)
    noun = _AFTER_A_DETERMINER.search(before) or _NAME_AND_COMMA.search(before) or _PLURAL.search(before)
    return bool(noun) and noun.group("head").lower() not in _NO_ANTECEDENT


def before_relative(question: str) -> str:
    """A yes/no question up to the relative clause that describes what it guesses: "Is this the Mughal
    emperor" of "Is this the Mughal emperor who commissioned the Taj Mahal?"."""
    if not is_yes_no(question, "en"):
        return question
    found = WH_EN.search(question)
    return question[:found.start()].rstrip(" ,") + "?" if found else question


_LED_BY_A_VERB = re.compile(r"\s*(?:do|does|did|are|is|was|were|would|should|could|can|will|shall|has|have|had)\b",
                            re.IGNORECASE)
_PREPOSITION_BEFORE = re.compile(r"\s(?:in|on|at|during|from|of|by|with|for|to|under|after)\s+$", re.IGNORECASE)  # "the war in which"
_AFTER_A_DETERMINER = re.compile(r"\b(?:the|a|an|this|that|these|those|his|her|its|their)\s+(?:[\w'’-]+\s+){0,2}"
                                 r"(?P<head>[\w'’-]+),?\s+$", re.IGNORECASE)
_NAME_AND_COMMA = re.compile(r"(?P<head>[A-Z][\w'’-]*),\s+$")
_PLURAL = re.compile(r"(?P<head>[a-z][\w'’-]*[^siu]s),?\s+$")  # "shapeshifters who"; not "curious", "glass"
# Words after which a question word asks ("Is the question which country won?", "a description of how ...").
_NO_ANTECEDENT = frozenset(["question", "breakdown", "list", "idea", "choice", "matter", "issue", "case", "point",
                            "of", "in", "on", "at", "to", "for", "from", "with", "about", "by", "as", "into", "over",
                            "this", "is", "was", "does", "has", "us", "yes", "always", "perhaps", "details", "options"])


def is_either_or(question: str, language: str) -> bool:
    """A question that offers alternatives ("by area or by population?", "国内还是国外？")."""
    return bool(re.search(_OR_ZH if re.search(rf"[{CJK}]", question) else r"\bor\b",
                          question, re.IGNORECASE))


# What a guess leaves out ("Hot deserts only, leaving out polar deserts?", "新建商品房，不包括二手房，对吗？"); not
# 不含税, a price's attribute
_LEAVING_OUT_EN = r"not counting|not including|excluding|leaving out"
_LEAVING_OUT_ZH = r"不包括|不包含|不含(?!税)|排除"
# "You mean the year 1900, not 1910, right?", "the Summer Games rather than the Winter ones?": a guess and the
# value it is told from, or what it leaves out. Not "whether or not", nor "but not" (what to count: "cities but
# not towns?").
_CONTRAST_EN = re.compile(rf"(?:(?:,\s*(?:right|correct))?\s*[,—–]\s*(?:(?:and|so|but)\s+)?(?:{_LEAVING_OUT_EN}|not)|\s+(?:and|but)\s+not|\s+(?:rather than|instead of|as opposed to))"
                          r"\s+(?P<other>[^;?]+?)"
                          r"(?=,\s*(?:right|correct|yes|is that)\b|[;?]|$)",
                          re.IGNORECASE)
# "您问的是职工医保，而不是城乡居民医保，对吗？", "是省考而非国考吧？": 不是 only after a comma or 而 (是不是 asks)
_CONTRAST_ZH = re.compile(rf"(?:[，,]\s*(?:而)?(?:不是|并非|而非)|而不是|而非|并非|[，,]\s*(?:{_LEAVING_OUT_ZH}))(?P<other>[^？?。；;]+?)(?=[，,]?(?:对[吗吧]|是吗|吧|吗)|[？?。；;]|$)")
_TAIL_EN = re.compile(r"\s*(?:,\s*)?(?:right|correct|is that right|is that correct|yes)?\s*\?*\s*$", re.IGNORECASE)


_LEAVES_OUT = re.compile(rf"\b(?:{_LEAVING_OUT_EN})\b|{_LEAVING_OUT_ZH}", re.IGNORECASE)
# words that frame a guess without restricting it ("范围是中国大陆")
_FRAME_WORDS = frozenset(["范围", "口径", "数据", "统计", "情况"])


def restricts_what_it_keeps(question: str, guess: str, intent: str, language: str) -> bool:
    """A guess told from what it leaves out ("新能源汽车，不包括燃油车") names words the intent does not hold: it
    restricts the need, and what it leaves out tells nothing of the need's side."""
    return bool(_LEAVES_OUT.search(question)) and any(
        not holds(intent, w, language) and w not in _FRAME_WORDS for w in content_words(guess, language))


def contrasted(question: str, language: str) -> tuple[str, str] | None:
    """A yes/no question that tells its guess from another value: ("You mean the year 1900", "1910") of
    "You mean the year 1900, not 1910, right?"; ("您问的是职工医保", "城乡居民医保") of "您问的是职工医保，而不是城乡
    居民医保，对吗？". None for any other question."""
    found = (_CONTRAST_ZH if language == "zh" else _CONTRAST_EN).search(question)
    # "A, not B or C?" tells A from two; "Which year, not month?" asks for a value
    if not found or not is_yes_no(question[:found.start()] + "?", language):
        return None
    guess, other = question[:found.start()].strip(" ,，"), found.group("other").strip(EDGE + " ，,")
    if language == "en":
        other = _TAIL_EN.sub("", other)
    if not content_words(guess, language) or not content_words(other, language):
        return None
    return guess, other


def as_a_choice(guess: str, other: str, language: str) -> str:
    """The choice a contrasted question offers: "You mean the year 1900 or 1910?", "您问的是职工医保还是城乡居民医保？"."""
    return f"{guess}还是{other}？" if language == "zh" else f"{guess} or {other}?"


# A leading phrase that names what the choice is about, before the question proper ("By background, do you
# mean ...", "When you say the Renaissance, do you mean ..."); not a first alternative ("For the capital, or
# for the whole country?"), which no verb follows.
_FRAME_EN = re.compile(r"^\s*(?:by|when you say|in terms of|regarding|as for|as to|about|for)\b(?:(?!\bor\b)[^,;:?])*,\s*"
                       r"(?=(?:do|does|did|are|is|was|would|should|could|can|will|which|what)\b)", re.IGNORECASE)


_ASKING_VERB = re.compile(r"\b(?:rank|measur|sort|count|order|compar|calculat|list|group|judg|rat|weigh)ed\s*$", re.IGNORECASE)


def alternatives(question: str, language: str) -> list[str]:
    """The alternatives an either-or question offers, as written: "What kind of poem: epic, lyric, or
    ballad?" -> "epic", "lyric", "ballad" (a colon parts the choice from the words that only ask, on either
    side: "Area or volume: which one?"); "国内还是国外？" -> 国内, 国外, "您要考的是学术类还是培训类？" -> 学术类,
    培训类. Empty pieces are dropped."""
    if language == "zh":
        parts = re.split(_OR_ZH, question)
        # "您要考的是学术类还是培训类？": the choice begins after 是, one not of a word (是否, 于是, 是非)
        leads = [m.end() for m in re.finditer(r"(?<![于但可总就倒凡若要])是(?![否非])", parts[0])]
        if len(parts) > 1 and leads and leads[-1] < len(parts[0]):
            parts[0] = parts[0][leads[-1]:]
    else:
        asked = question
        if ":" in question:
            lead, rest = question.split(":", 1)
            asked = lead if re.search(r"\bor\b", lead, re.IGNORECASE) and not re.search(r"\bor\b", rest) else rest
        asked = _FRAME_EN.sub("", asked)  # "By background, do you mean his family origins or ...?"
        parts = [p for p in re.split(r"\bor\b|[,;]", asked, flags=re.IGNORECASE) if p.strip(EDGE + " ？?")]
        # "Ranked by market capitalization or by revenue?": the sides are parallel, "by ..." and "by ..."; the
        # verb before the first one's preposition only asks (not "The prize in physics, or in chemistry?")
        last = re.match(r"\s*(by|in|on|at|for|from)\b", parts[-1], re.IGNORECASE) if len(parts) > 1 else None
        first = re.search(rf"\b{last.group(1)}\b", parts[0], re.IGNORECASE) if last else None
        if first and _ASKING_VERB.search(parts[0][:first.start()]):
            parts[0] = parts[0][first.start():]
    return [p.strip() for p in parts if p.strip(EDGE + " ？?")]


def content_words(text: str, language: str) -> list[str]:
    """What a text is about: its content words without the words of asking (mean, you, 您, 说的 ...)."""
    if re.search(rf"[{CJK}]", text):
        return [w for w, _, _ in answer_choices_zh.words(text) if answer_choices_zh.is_content(w)
                and not answer_choices_zh.of_function_words(w) and w not in _ASKING_ZH and not _POINTING_ZH.match(w)]
    return [w for w in tokenize(text) if w not in ASKING_EN]


def holds(text: str, word: str, language: str) -> bool:
    if re.search(rf"[{CJK}]", word):
        # a numeral written otherwise (三月, 3月); a number whole, not a digit of one (二 of 二套房 in 2024年)
        digits = word_forms.zh_numerals_to_digits(word)
        return word in text or bool(re.search(rf"(?<!\d){re.escape(digits)}(?!\d)" if re.fullmatch(r"\d+", digits)
                                              else re.escape(digits), word_forms.zh_numerals_to_digits(text))) \
            or bool(written_in_two(word, text))
    if language == "zh" and re.fullmatch(r"[A-Z]", word):  # the A of "A区" in a Chinese text (no English stop word)
        return bool(re.search(rf"(?<![A-Za-z0-9-]){word}(?![A-Za-z0-9-])", text))
    known = tokenize(text)
    if word in known:  # a stem already ("confeder"), which stemming again would cut further
        return True
    return all(any(word_forms.same_word(t, w) for w in known) for t in tokenize(word)) if tokenize(word) else False


def written_in_two(word: str, text: str) -> str | None:
    """The stretch of ``text`` that writes ``word`` in two parts, in order (全年销售收入 for 全年收入), else None."""
    if len(word) < 4 or not re.fullmatch(rf"[{CJK}]+", word):
        return None
    for i in range(2, len(word) - 1):
        start = text.find(word[:i])
        end = text.find(word[i:], start + i) if start >= 0 else -1
        if end >= 0 and end - start <= len(word) + 6:  # near each other: one phrase, not two
            return text[start:end + len(word) - i]
    return None


def new_words(words: list[str], intent: str, query: str, language: str) -> list[str]:
    """The words the intent holds and the query does not."""
    return [w for w in words if holds(intent, w, language) and not holds(query, w, language)]


def names_new(question: str, intent: str, query: str, language: str) -> bool:
    """The question names something the intent holds and the query does not."""
    return bool(new_words(content_words(question, language), intent, query, language))


def guessed(question: str, fused_query: str, language: str) -> list[str]:
    """The values a question names that the intent does not: its own guess ("Kraków" in "Is that Kraków?",
    "2010" in "Using the 2010 census?"). A value is a number or a capitalised word after the first; other
    words the intent lacks ("released") only rephrase. Chinese: a content word, not a verb or an adverb."""
    acts = {w for w, tag in answer_choices_zh.tagged_words(question) if tag in _ACTS_ZH} if language == "zh" else set()
    return [v for v in values_of(question, language, first=False) if not (language == "zh" and v in _NEUTRAL_ZH | acts)
            and not all(holds(fused_query, t, language) for t in (tokenize(v) or [v]))
            and not (language == "en" and _heads_a_held_value(question, v, fused_query))]


def _heads_a_held_value(question: str, word: str, fused_query: str) -> bool:
    """A capitalised common word right after a number the intent holds, and last of its capitalised run:
    the thing that number qualifies ("Games" in "Do you mean the 1936 Games?"), no guess of its own. Not
    "Winter" in "the 1936 Winter Olympics?", which stands against the intent's Summer, nor a word after a
    name ("Revolution" in "the American Revolution?" stands against the intent's American Civil War)."""
    before = re.search(rf"\b(\d[\w'’-]*)\s+{re.escape(word)}\b(?!\s+[A-Z0-9])", question)
    return bool(before) and is_common_word(word) and holds(fused_query, before.group(1), "en")


def _guessing_zh(question: str, guesses: list[str], fused_query: str, span: str) -> list[str]:
    """The Chinese guesses that say something of their own: a name, a place, an organisation, a time or a
    number as the question is tagged ("四川" in "是四川的成都吗？"), or a common noun that is neither
    - the thing the span qualifies ("活动" in "是2024年的惊喜夜活动对吧？", after the span and 的), unless it
      ends as a word of the need's does ("高度" of a need for a 长度); after an ordinal or a number the 的 may
      go ("出航" in "您是问第一次出航的时间吗？");
    - nor one whose leading characters (all but its head, the last) the need's other words hold ("票价" in
      "是往返的票价吗？" says the need's 票 otherwise; "码头" in "您是从厦门邮轮中心码头出发吗？" does not)."""
    tags = dict(answer_choices_zh.tagged_words(question))
    rest = {c for c in fused_query.replace(span, "") if not answer_choices_zh.is_function_char(c)}
    said = next((f for f in (span, _LEVEL_ZH.sub("", span)) if f + "的" in question), span)  # 广州 for 广州市
    qualified = question.find(said + "的")
    heads = question[qualified + len(said) + 1:] if qualified >= 0 else ""
    if not heads and said in question and re.search(r"[\dA-Za-z]|第|首", said):  # "第一次出航", "Pro这款机型": no 的
        # its noun phrase, not a clause that says more of it ("3号线是开往白云机场那条吧？")
        heads = re.split(r"[是，,。？?吧吗那]", question[question.find(said) + len(said):])[0]
    return [g for g in guesses if re.search(r"\d", g) or tags.get(g, "n")[:2] in _NAMING_TAGS_ZH
            or not ((g in heads and not rivals_a_word_zh(g, fused_query)) or set(g[:-1]) & rest)]


def rivals_a_word_zh(word: str, fused_query: str) -> bool:
    """``word`` ends as a word of the need's but is another: "高度" where the need has 长度, another of its measures."""
    return any(w[-1] == word[-1] and w != word for w, _, _ in answer_choices_zh.words(fused_query) if len(w) >= 2)


def values_of(text: str, language: str, first: bool = True) -> list[str]:
    """Numbers and capitalised words (the first word too, if ``first``); Chinese: content words."""
    if re.search(rf"[{CJK}]", text):
        return [w for w in content_words(text, language) if re.search(r"\d", w) or len(w) >= 2]
    words = WORD.findall(text)

    def opens(i: int) -> bool:  # "Could" of "... at a particular time? Could you specify ...?" names nothing
        return i == 0 or (words[i - 1][-1:] in ".?!:" and is_common_word(words[i].strip(EDGE)))

    return [w.strip(EDGE) for i, w in enumerate(words) if tokenize(w)
            and (re.search(r"\d", w) or ((first or not opens(i)) and is_capitalised(w) and not names_nothing(w.strip(EDGE), words[i - 1] if i else "")))]


def kind_of(value: str, language: str) -> str | None:
    """A value's kind: time, number or place, else a name (capitalised), else None."""
    kind = span_type(value, language)
    if kind is None and not re.search(rf"[{CJK}]", value) and values_of(value, language):
        kind = "name"
    return kind


def _same_kind(guess: str, span: str, language: str) -> bool:
    """A guess the span can replace. Chinese has no capitals: a guess of no known kind may be a value like
    the span, unless the span is a time or a number ("打算" in "您是打算二月去吧？" guesses no month)."""
    guess_kind, span_kind = kind_of(guess, language), kind_of(span, language)
    return guess_kind == span_kind or (guess_kind is None and language == "zh" and span_kind not in ("time", "number"))


def echoes(span: str, question: str, language: str) -> bool:
    """Every content word of the span is the question's own: no answer to it ("Which river?" -> "river")."""
    words = content_words(span, language)
    return bool(words) and all(holds(question, w, language) for w in words)


def answer_of(question: str, span: str, fused_query: str, language: str) -> str:
    """The answer the user gives with a chosen span (``unknown`` stays ``unknown``):
    - a yes/no question that guesses nothing the intent lacks: yes, and the span ("Yes, 1976");
    - one whose guess the span replaces, a value of the same kind: no, and the span ("Was that in 1940?" ->
      "No, 1939"; "Using German-speaking cities?" -> "No, French-speaking");
    - one that guesses something about what the span names ("Is Chengdu the one in Sichuan?"), or a value
      of another kind than the span ("Do you mean Munich?" -> "second-largest city"): unknown, the intent
      does not say;
    - one that describes its guess in a relative clause ("the Polish king who relieved Vienna?"): the span
      alone, neither yes nor no;
    - any other question: the span, unless the span only repeats the question's own words (an echo:
      "Population as of which year?" -> "population" is no answer), which is unknown.
    """
    if span == UNKNOWN:
        return UNKNOWN
    asked = set(content_words(question, language))
    echo = echoes(span, question, language)
    if is_yes_no(question, language):
        guess = guessed(question, fused_query, language)
        named = values_of(span, language) or content_words(span, language)  # the span's values, else its words
        if language == "zh":  # "广州" names 广州市: a place without the word for its level
            named = [_LEVEL_ZH.sub("", w) for w in named]
        about_span = (any if language == "en" else all)(holds(question, w, language) for w in named)  # zh names are loose
        if language == "zh" and about_span:  # "是往返的票价吗？": the need's thing said otherwise, not a guess
            guess = _guessing_zh(question, guess, fused_query, span)
        if guess and about_span:
            return UNKNOWN
        if language == "en" and before_relative(question) != question:
            return span  # "the Polish king who relieved Vienna?": its description is not the intent's to judge
        if guess and not any(_same_kind(g, span, language) for g in guess):
            return UNKNOWN
        if language == "zh" and guess and all(_refines(g, span, question) for g in guess):
            return span  # "是2023年12月的吗？" of a need for 2023年: the need's year, neither yes nor no
        return yes_or_no("no" if guess and not _OPEN_CUE.search(question) else "yes", span, language)
    if echo and asked and not is_either_or(question, language):
        return UNKNOWN
    return span


def _refines(guess: str, span: str, question: str) -> bool:
    """A Chinese time guess written right after the span, saying it more finely (12月 of "2023年12月" for 2023年)."""
    return span_type(guess, "zh") == "time" and f"{span}{guess}" in question


def yes_or_no(word: str, span: str, language: str) -> str:
    """The span after "yes" or "no" ("No, 1903"; "不是，成都")."""
    if language == "zh":
        return f"{'是的' if word == 'yes' else '不是'}，{span}"
    return f"{word.capitalize()}, {span}"
