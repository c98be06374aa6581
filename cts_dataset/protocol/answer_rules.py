"""Answers a choosing user answerer gives without asking its model, where the question's form and the
pair (intent, query) settle them. Each rule returns a span of the intent (phrased later by
:func:`~.answer_phrasing.answer_of`) or ``unknown``; ``None`` leaves the question to the model.

Why rules first: on questions as clarifiers ask them, a small model picks a phrase the query already holds
("Which fantasy series?" -> "fantasy series") or says ``unknown`` to a question about a year its intent
states. What the question asks is often plain from its form, and what the user left out is computable
from the pair, so those cases need no model, and answer the same on every engine:
- ``own_question``: the question restates the query's own question ("Which city is the second-largest?")
  and addresses no one: the user does not know, that is what they search for;
- ``method``: a question of how to count, measure or present what the search finds ("Should islands that
  are independent countries count?") that names nothing only the intent holds: ``unknown``;
- ``either_or``: one of the offered alternatives is the intent's ("By area or by population?"); alternatives
  that are no values of the asked kind ("In square kilometres or square miles?") are not answered with one;
- ``contrast``: a guess told from another value ("You mean the year 1900, not 1910, right?", "您问的是职工医保，
  而不是城乡居民医保，对吗？") is the choice of the two, said as yes or no; else the guess alone is confirmed;
- ``confirmation``: a yes/no question naming what only the intent holds ("Is this the 1976 one?"), or
  guessing a value of the kind the query left out ("Was it 1940?" -> "No, 1976"; a time that does not hold
  the intent's: "Augustus, who ruled from 27 BC to AD 14?" -> "No, 284 to 305"), or naming nothing of
  the intent at all ("Do you also want climbing routes?" -> unknown);
- ``answer_guess``: a yes/no question naming a thing of the kind the query searches for ("Do you mean
  Munich?" for the second-largest city in Bavaria) guesses the answer, which the user does not know
  (:mod:`.answer_guesses`);
- ``meant``: a question for what the user means that describes it in words the intent lacks ("Are you
  asking about the greatest footballer?" of a need for the greatest road cyclist), answered by the one span
  of no kind the query left out, neither yes nor no;
- ``typed``: a question for a time, a place or a number, answered by the span of that kind the query left
  out, else ``unknown`` when the intent states none (an intent that names no place); a question for one
  level of place ("Which country?") is not answered by a place known to be of another ("Kraków");
- ``specify``: a request to specify a thing the query names ("What type of suit?"), answered by what the
  query left out beside that thing in the intent ("law" for "In law, what is a suit?");
- ``open_request``: a request for any further detail ("Can you be more specific?"), answered by what the
  query left out;
- ``plans``: a Chinese question about the user's plans ("您打算去哪个会场？") that names nothing
  only the need holds, and asks for no kind of value the query left out: ``unknown``;
- ``in_query``: a which-question the query's own words answer ("Which river?" of "the Mekong River",
  "Which country's GDP?" of "the GDP of Brazil");
- ``rank``, ``criterion``, ``fact``: a question for a place in a ranking, for the yardstick of the query's
  ranking or measure, or for a fact in the third person (:mod:`.question_forms`).

Which side of a choice the intent holds is read by :mod:`.answer_sides`; the need's value that a Chinese guess
stands against, by :mod:`.answer_rivals_zh`; whether a question asks about the user, by :mod:`.user_questions`.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, replace

from cts_dataset.diagnostics.rules import classify, scores  # the one question-type classifier of the project
from cts_dataset.protocol import answer_choices_zh, synonyms_zh
from cts_dataset.protocol.answer_choices import EDGE, MAX_CHOICES, unique
from cts_dataset.protocol.answer_guesses import (
    abbreviated,
    agrees,
    asked_level,
    capitalised_runs,
    guesses_the_answer,
    in_its_place,
    is_ordinal,
    levels_as_written,
    levels_asked,
    of_other_level,
    other_of_a_pair,
    place_levels,
    qualifies_the_query,
    rival_of,
    sought,
    time_agreeing,
    wh_phrases,
)
from cts_dataset.protocol.answer_phrasing import (
    STRONG_CUE,
    alternatives,
    answer_of,
    as_a_choice,
    before_relative,
    content_words,
    contrasted,
    echoes,
    guessed,
    hints_its_kind,
    holds,
    is_either_or,
    is_yes_no,
    kind_of,
    names_new,
    new_words,
    restricts_what_it_keeps,
    rivals_a_word_zh,
    values_of,
)
from cts_dataset.protocol.answer_rivals_zh import (
    ORDINAL_ZH,
    PERSON_NOUN_ZH,
    SCOPED_PERSON_ZH,
    a_value_zh,
    bounds_zh,
    compounds_zh,
    one_era,
    ordinal_agreeing_zh,
    ordinal_key,
    other_edition_zh,
    other_number_zh,
    period_zh,
    rival_bound_zh,
    rival_kin_zh,
    rival_place_zh,
    rival_scope_zh,
    rival_sex_zh,
    rival_value_zh,
    same_head_zh,
    same_number,
    variant_of_zh,
    whole_zh,
    with_what_is_asked,
    yardstick_zh,
)
from cts_dataset.protocol.answer_scope import (
    ALSO,
    asks_method,
    clauses,
    more_offered,
    names_nothing,
    scope_asked,
)
from cts_dataset.protocol.answer_sides import (
    MAX_STRETCH_WORDS,
    MIN_RUN_ZH,
    NO_HEAD,
    elided_by_another,
    held_alternative,
    in_its_sense,
    own_words,
    side_as_written,
    side_before_another,
    side_held,
    sides_held,
    telling_zh,
    unwritten_hyphenated,
    widest_in_zh,
)
from cts_dataset.protocol.name_words import NAME_JOINERS, NAME_PARTICLES, initials
from cts_dataset.protocol.question_forms import (
    MEASURE,
    asks_a_fact,
    asks_criterion,
    asks_rank,
    asks_time_or_place,
    guesses_yardstick,
    names_a_measure,
    ranking_sides,
    ranks_in,
    yardstick_in,
)
from cts_dataset.protocol.span_types import (
    ERA_ZH,
    TYPED,
    WORLD_WORDS_EN,
    is_common_word,
    is_time_clause,
    is_zh_place,
    names_a_place,
    names_country_otherwise,
    span_kinds,
    span_type,
    without_admin_suffix,
)
from cts_dataset.protocol.time_spans import (
    NOW_SIDE_EN,
    NOW_SIDE_ZH,
    NOW_WORD,
    THEN_SIDE_EN,
    THEN_SIDE_ZH,
    YEAR,
    dated,
)
from cts_dataset.protocol.units_and_sources import (
    asks_source,
    asks_unit,
    is_a_currencys_place,
    names_a_currency,
    rival_source,
    source_of,
    unit_guessed,
    unit_of,
)
from cts_dataset.protocol.user_questions import ABOUT_THE_USER, TO_USER, TO_USER_AS_SUBJECT
from cts_dataset.protocol.views import UNKNOWN, AnswererView
from cts_dataset.protocol.word_forms import same_word, zh_numerals_to_digits
from cts_dataset.text import CJK, tokenize

# A request for any further detail ("Can you be more specific?", "What other detail should narrow the
# search?"): a cooperative user gives what their query left out.
_OPEN_REQUEST = re.compile(
    r"\b(?:more|other|further|additional) (?:specific|details?|information|context|specifics)\b|\bnarrow (?:it |the \w+ )?down\b"
    r"|\bnarrow the search\b|\belaborate\b|\bbe more specific\b|更具体|具体一点|详细说明|补充说明|补充一下|更多(?:的)?(?:细节|信息)",
    re.IGNORECASE)
# "Is there a particular feature or model you're interested in?": an open request for one thing of no kind asked
_OPEN_KIND = re.compile(r"^\W*(?:is there|do you have) (?:a|any) (?:particular|specific|certain) (?P<kind>[^?]*?)\s*\b(?:you(?:'re| are) "
                        r"(?:interested in|looking for|thinking of|asking about)|you have in mind|in mind|you mean)\b", re.IGNORECASE)
# what such a request may ask for: a kind of the thing itself, not a day, a budget, a use or a reason
_KINDS_OF_THING = frozenset(tokenize("feature features model models version versions variant variants edition editions type "
                                     "types kind kinds category categories aspect aspects nationality part parts group groups "
                                     "section sections"))  # (not an "age group": see decide)
# "during some specific years"; not a compound ("the year-on-year rate")
_ASKS_A_DATE = re.compile(r"\b(?:years?|dates?|days?|months?)\b|年|日期|哪天|几号|几月", re.IGNORECASE)
_NAMES_A_WINNER = re.compile(r"\b(?:won|win|wins|winning|winner|awarded|given) (?:by|to)\b|\bwon\b|\bwinner\b|\bchampion", re.IGNORECASE)
_WHICH_EDITION = re.compile(r"\b(?:which|what)\s+(?:\w+\s+)?(?:editions?|seasons?|instal?ments?|ceremon(?:y|ies)|tournaments?|elections?)\b"
                            r"|\b(?:edition|instal?ment|season)\s+numbers?\b",
                            re.IGNORECASE)
_ASKS_A_PERIOD = re.compile(r"\b(?:what|which)\s+(?:\w+\s+)?(?:period|years|time ?frame|span of \w+|date range)\b", re.IGNORECASE)
_ASKS_A_YEAR = re.compile(r"\byears?\b", re.IGNORECASE)
_OCCURRENCE = re.compile(r"\b(?:first|second|third|last|final|\d+th|\w+teenth|fourth|fifth|sixth|seventh|eighth|ninth|tenth)\s+time\b",
                         re.IGNORECASE)
_TIME_NOUN = re.compile(r"(?<!-)\b(?:years?|dates?|periods?|eras?)\b(?!-)", re.IGNORECASE)
_CATEGORY = re.compile(r"\bcategor(?:y|ies)\b", re.IGNORECASE)  # "Which Nebula category?", "Which award category?"
# A request to specify a thing the query names ("What type of suit?", "Which lakes are you referring to?").
_SPECIFY = re.compile(
    r"\b(?:type|kind|sort|form|variety) of\b|" + _CATEGORY.pattern + r"|\b(?:specific|particular)\b|\bdo you (?:mean|have in mind)\b"
    r"|\bare you (?:referring to|thinking of|asking about|talking about|interested in|looking for)\b"
    r"|\bis (?:being )?(?:referred to|meant|discussed)\b|\b(?:do|would) you (?:want|like) to know about\b",
    re.IGNORECASE)
# Words of a request to specify that content_words keeps (it drops "type", "mean", "refer" ... already).
_SPECIFY_WORDS = frozenset(tokenize("form variety category discuss discussed discussing"))
_SEARCHES_TIME = re.compile(r"\bwhen\b|\b(?:what|which|in what|in which) (?:year|date|decade|century)\b", re.IGNORECASE)
_SEARCHES_NUMBER = re.compile(r"\bhow (?:many|much)\b|\bwhat (?:number|percentage|share)\b", re.IGNORECASE)
# A wh-question by its first words ("Which plant species or genus?", "In which year or decade?"); not a yes/no
# question whose relative clause holds one ("Do you mean ..., or also one who took office ...?").
_LEADING_WH = re.compile(r"\W*(?:(?:could|can|would|will) you (?:please )?(?:tell me|specify|clarify|say|let me know|confirm|"
                         r"indicate)\s+|please (?:specify|tell me|clarify|say)\s+)?(?:[\w'’-]+\s+){0,3}?"
                         r"(?:what|which|who|whom|whose|when|where|why|how)\b", re.IGNORECASE)
# the clause after a lead-in's comma ("There was no men's World Cup in 2011, so which tournament do you mean?")
_AFTER_LEAD_IN = re.compile(r"\s*(?:(?:so|then|and|but)\s+)?(?:(?:could|can|would)\s+you\s+(?:please\s+)?(?:tell me|let me know|say)\s+)?"
                            r"(?P<which>(?:which|what)\b.*)", re.IGNORECASE | re.DOTALL)
_ASKS_A_KIND = re.compile(r"\b(?:kind|type|sort)s? of\b", re.IGNORECASE)
_WHICH_THING = re.compile(r"\W*(?:[\w'’-]+[\s,]+){0,3}?which\b", re.IGNORECASE)  # "Which storm?", "To be sure, which planet's moons?"
_CATEGORY_OF = re.compile(r"\bcategory of\b", re.IGNORECASE)  # "Which category of the Nobel Prize?": which one of it
# Words before a thing that say no kind of it: determiners, and praise ("the famous sculptures").
_NO_KIND = frozenset(["the", "a", "an", "this", "that", "its", "their", "his", "her", "each", "every", "famous",
                      "notable", "main", "major", "important", "key", "principal", "best-known", "well-known", "best",
                      "greatest", "biggest", "largest", "most", "common", "typical", "popular"])
_ASKS_WHAT_IS_MEANT = re.compile(r"\b(?:mean|meant|have in mind|referring|thinking of|interested in|focus(?:ing)? on|"
                                 r"looking for|talking about|asking about)\b", re.IGNORECASE)
# "Which ballet did you mean?", "Which writer are you referring to?", "Which type of novels do you have in
# mind?": a wh-question for which thing the user means.
_WHICH_IS_MEANT = re.compile(r"\s*(?:which|what)\b[^?]*\b(?:(?:do|did) you mean|are you referring to|do you have in mind|"
                             r"are you thinking of|were you thinking of|are you asking about|"
                             r"are you (?:specifically |particularly |most )?interested in)\b", re.IGNORECASE)
_KIND_NOUNS = frozenset(tokenize("continent continents region regions country countries nation city cities area areas part "
                                 "place location state province year years decade decades century centuries period era "
                                 "date time specific particular certain exact"))
_ANOTHER = re.compile(r"\b(?:after|before|preceded|preceding|succeeded|succeeding|next|previous|followed|replaced|"
                      r"other|another|else|rival|opposing)\b", re.IGNORECASE)
_RANKING = re.compile(r"^(?:most|least|best|worst|top|first|last|\w+est|[\w-]+-(?:known|largest|longest|biggest|"
                      r"highest|oldest|smallest|most)|\d+(?:st|nd|rd|th))$", re.IGNORECASE)
# Examples a question gives ("..., like the Caspian Sea", "such as Lake Baikal"); not "Would you like ...".
_EXAMPLES = re.compile(r",?(?<!\byou)(?<!\bwe)(?<!\bI)(?<!\bthey)\s+(?:like|such as|e\.g\.|for example|for instance)\s+[^,;?]*",
                       re.IGNORECASE)
# A question for the field a word is used in ("In which field ...?", "In what sense?", "What context?")
_ASKS_A_FIELD = re.compile(r"\b(?:which|what)\s+(?:\w+\s+)?(?:field|context|sense|domain|discipline|subject area|area of study)s?\b"
                           r"|\bin what (?:sense|context)\b", re.IGNORECASE)
# "Which specific panel of the doors ...?": a part of a thing (not a kind: "Which species of fish?")
_PART_OF = re.compile(r"\s*(?:which|what)\s+(?:specific\s+|particular\s+|exact\s+)?(?P<part>[a-z][\w-]*)\s+of\s+(?:the\s+|its\s+|this\s+)?"
                      r"(?P<whole>[a-z][\w-]*)", re.IGNORECASE)
_PREFERENCE = re.compile(r"\b(?:format|list|table|summary|bullet|level of detail|how much detail|sources?)\b", re.IGNORECASE)
_POINTS_AT_THE_ANSWER = re.compile(r"\s*(?:is|was|would|could|might|will)\s+(?:that|it|this)\b", re.IGNORECASE)
_ASKS_A_REGION = re.compile(r"\b(?:which|what)\s+(?:region|area|part|place|location)s?\b", re.IGNORECASE)
_ASKS_A_VALUE_ZH = re.compile(r"哪|什么|多少|几")
# words that name a kind of value, no value: 省份 or 城市, 年份 or 月份
_KIND_WORDS_ZH = r"(?:请问)?(?:您|你)?(?:所在的|要查的|想查的)?(?:省份|城市|地区|省|市|区县|区|县|国家|年份|月份|季节|时间段|日期)"
_WHEN_ZH = re.compile(r"几月|几号|哪天|哪一天|哪年|哪一年|什么时候|何时|几点|(?:什么|哪个)(?:季节|时间段)")
_HOW_MANY_ZH = re.compile(r"几个|几位|几人|多少")
# a which-question for one occurrence, edition or item (哪一次, 哪届, 哪一款)
_WHICH_ONE_ZH = re.compile(r"哪一?([次届轮期批艘代款档个])")
# Words before a span that deny or avoid it ("避开一个人去", "不是一个人去"): the question does not confirm it.
_AVOIDS_ZH = re.compile(r"避开|避免|除了|排除|不想|不要|(?<!是)不是|不用|以外")  # not 是不是
# A Chinese offer of more than the query asks ("…也算进去吗？", "您还想了解…吗？", "…包括在内吗？").
_MORE_ZH = re.compile(r"也(?:要|需要|想|算|包括|包含|统计|计入|算进|一起|一并|考虑)|还(?:要|需要|想)(?:知道|了解|包括|查)"
                      r"|算进去|计入|包括在内|包含在内|顺带|(?:都|逐一|分别|一一|详细)列出"
                      r"|(?:需要|要不要|是否需要|需不需要)我?(?:帮|为|替)(?:您|你)(?:换算|转换|折算|计算|换成|列出|整理|对比|比较|补充|汇总)"
                      r"|(?:需要|要不要|是否需要|需不需要)(?:同时|另外|额外|再|一并)(?:提供|给出|附上|列出|查)"
                      r"|也列(?:出|上)|(?:需要|要不要|是否需要|需不需要)我?把[^，。？?]{1,20}(?:列出|列上|附上|补充)"
                      r"|是否需要(?![^，。？?]{0,12}(?:具体到|对应到))[^，。？?]{0,12}(?:具体|详细|明细|对应|每)")  # "您是否需要每枚金牌对应的…？"; not "具体到某个区"
# "需要给出具体的面积数据吗？", "是否需要分地市的数据？": figures broken down, more than a need that asks none (各地市, 每年)
_BREAKDOWN_ZH = re.compile(r"(?:^需要|要不要|需不需要|是否需要)(?![^，。？?]{0,12}(?:具体到|对应到))[^，。？?]{0,12}"
                           r"(?:具体|详细|明细|分(?:地市|省份?|城市|区县?|年度?|月份?|季度|项|类))[^，。？?]{0,8}(?:数据|数字|信息|情况|金额)"
                           # "需要按盟市细分吗？", "需要列出具体的字吗？": a breakdown or a list offered
                           r"|(?:^需要|要不要|需不需要|是否需要)(?:把|帮您|为您)?[^，。？?]{0,8}(?:细分|拆分|分开|列出|列举|逐一列|一一列)")
_BROKEN_DOWN_ZH = re.compile(r"各|每|分别|逐")
# "需要帮您换算成人民币吗？" is an offer; "需要帮您查找的是美国的数据，对吗？" confirms what is sought  # "需要把每一场…都列出来吗？"
# "是否需要包括春季高考的考生？": an offer to include more, where the need says nothing of what it includes (not
# "是否包括复读生？" of a need that says 含复读生)
_INCLUDE_ZH = re.compile(r"(?:是否|要不要|需不需要|^需要)(?:需要)?(?:包括|包含|算上)")
_INCLUDES_ZH = re.compile(r"含|包括|包含|除")
_ASKS_INCLUDED_ZH = re.compile(r"把(?P<what>[^吗？?，,。]{1,16}?)也?(?:一起)?(?:算进去|算上|算在内|算进来|计入|包括进来|包含进来)"
                               r"|(?:包括|包含|含|算上|算进)(?P<what2>[^吗？?，,。]{1,12})"  # "要不要把他当太上皇的那几年也算进去？"
                               r"|(?P<what3>[^吗？?，,。]{2,16}?)也?(?:算不算|算吗|算在内吗|计不计入|计入吗)")  # "点球大战的进球算不算？"
_INCLUSION_ZH = re.compile(r"(?P<no>不)?(?:包括|包含|含)(?P<what>.+)")


def _inclusion_zh(question: str, intent: str, missing: list[str]) -> tuple[str, str] | None:
    """The need's own span for what it includes or leaves out, and yes or no, where the question asks whether
    something is included that the span names too (含税 for "是否包含税费？"; a word of two characters in common,
    or the span's one: 珍宝馆 is no 钟表馆)."""
    asked = _ASKS_INCLUDED_ZH.search(question)
    # what the query says too ("世界杯共打进多少个进球（不含点球大战）？"), after what it left out
    # (only a clause of its own, in brackets or after a comma, asked "算不算": not the 含税 of 含税价格)
    stated = [m.group(1) for m in re.finditer(r"[（(，,]\s*(不?(?:包括|包含|含)[^，,。？?（）()]{1,12})", intent)
              if m.group(1) not in missing] if asked and asked.group("what3") else []
    for span in [*missing, *stated] if asked else ():
        said = _INCLUSION_ZH.fullmatch(span)
        what = said.group("what") if said else ""
        named = asked.group("what") or asked.group("what2") or asked.group("what3")
        n = 3 if asked.group("what") and len(what) >= 3 else 2  # (把…也算进去 names a thing of its own: 太上皇, not 港澳 alone)
        if what and (what in named if len(what) == 1 else any(what[k:k + n] in named for k in range(len(what) - n + 1))):
            return span, "no" if said.group("no") else "yes"
    return None


# A Chinese question for a day ("您打算哪天出发？"), which a year or a month does not answer.
_WHICH_EDITION_ZH = re.compile(rf"哪一?届的?(?P<thing>[{CJK}]{{2,}})")  # 哪一届奥运会
_WHEN_ANY_ZH = re.compile(r"什么时候|何时|什么时间")  # a time of any grain, not a year (哪一年) nor a day (哪天)
_ASKS_A_DAY_ZH = re.compile(r"哪天|哪一天|几号|几月几[号日]|星期几|周几|礼拜几")
_A_DAY_ZH = re.compile(r"\d+[日号]|[一二三四五六七八九十]+[日号]|星期|周[一二三四五六日末]|礼拜|节|假|平日|工作日|今天|明天|当天")
# A Chinese question for a spot (a station, a gate, a campus, an exam site) or for the user's birth, age or
# household registration, which a city or a time of the need's does not answer ("您从哪个站上车？" of a need
# about 上海地铁; "您的户籍在哪里？" of a need about 杭州 policy).
_SPOTS_ZH = ("站", "站点", "出口", "入口", "门", "校区", "网点", "窗口", "营业厅", "航站楼", "码头", "小区", "街道", "考点",
             "考场")
_ASKS_A_SPOT_ZH = re.compile(rf"哪(?:个|一个|一)?(?:地铁|火车|高铁|汽车)?(?:{'|'.join(_SPOTS_ZH)})")
_PERSON_ZH = re.compile(r"出生|年龄|多大|岁|户籍|户口|籍贯")
# A Chinese question about the user's own plans, spot or person ("您打算…", "您会从哪里出发…", "您是想顺便…
# 吗？", "您的户籍在哪里？"); not "您想知道…" or "您想了解…": that asks what the user wants to find out.
# the couple or family asking ("你们两人是否都是…"), the date of a thing of theirs ("您的旧车是哪一年注册登记的？")
_THE_COUPLE_ZH = re.compile(r"[您你]们(?:两人|两位|双方|俩)")
_ASKS_A_GRADE_ZH = re.compile(r"几年级|哪个年级|哪一?年级")  # a child's grade, where the need names none
_A_GRADE_ZH = re.compile(r"年级|[高初大][一二三四](?:学生|年)?")  # 高三, 初二, 大一
# what the user applies for ("您申请的是哪个学科？"), where the need left out only a time or a place
_WHAT_THEY_APPLY_FOR_ZH = re.compile(r"[您你](?:要|想)?(?:申请|报考|报名)的是哪(?![^，。？?]{0,6}年)")
_THEIR_THINGS_DATE_ZH = re.compile(r"[您你]家?的[^，。？?]{1,6}?是?(?:哪一?年|什么时候|何时)")
_PLANS_ZH = re.compile(rf"[您你](?:是)?(?:打算|准备|计划|会)|[您你](?:是)?(?:从|在)哪(?:个|一个)?(?:{'|'.join(_SPOTS_ZH)})|顺便"

                       r"|[您你](?:是)?(?:哪一?年|什么时候)出生|[您你](?:本人)?(?:目前|现在)?的?(?:年龄|多大|户籍|户口|籍贯)")
# What is the user's, or a source's, not the need's value: "宝宝的父母有一方是上海户籍吗？", "是按统计局公布的数据吗？"
_NOT_THE_NEEDS_ZH = re.compile(r"户籍|户口|会员|公布|发布|口径|来源")
# How long the user has done something ("您参与摇号已经多少年了？"), or whether they ever did ("您之前是否有过
# 单位职工养老保险的缴费记录？"): nothing of the need answers it.
_OWN_PAST_ZH = re.compile(r"[您你][^，。？?]{0,10}已经[^，。？?]{0,6}(?:多少|几)|[您你][^，。？?]{0,12}(?:几年|多少年|多久)了"
                          r"|[您你](?:之前|以前|此前|曾经?)?(?:是否|有没有)(?:有过|[\u4e00-\u9fff]{1,3}过)")  # "您之前是否有过…记录？"
# A Chinese alternative that gives a value of a time or a number: digits, a numeral with its measure word
# (三月, 两个), or a time said relative to now (去年, 更早); not 三亚 or 附近.
_VALUE_ZH = re.compile(r"\d|[〇一二两三四五六七八九十百千万]+[年月日号天周届次个名位岁]|[去今明前后]年|更早|更晚|以前|之前"
                       r"|以后|之后|[上下]个|最近|近[一二两三四五六七八九十几]")
ASKS_IN_WORDS_ZH = 3  # a Chinese cue's weight that asks for its kind (哪一年, 哪国), not a word about it (现在, 时间)
MIN_NAME_ZH = 3  # characters of an alternative written whole that names a thing (Pro版, Mate 60; not 版 or 一)
NOW_REACH_ZH = 8  # characters after a Chinese word for now that may hold what it qualifies (目前的常住人口)
NOW_REACH_EN = 2  # words either side of an English word for now that may be what it qualifies ("the current CEO")
OWN_QUESTION_MIN_WORDS = 2  # "Which city?" restates little: it may well ask what the user means
OWN_QUESTION_SHARE = 2 / 3  # of the question's content words found in the query


@dataclass(frozen=True)
class Decision:
    span: str  # a span of the intent, or unknown
    rule: str  # which rule settled it
    reply: str | None = None  # to a yes/no question: "no", or "" for the span alone; None: as answer_of says it


def outermost(spans: list[str]) -> list[str]:
    """The spans that no other span holds ("when the first iPhone was released", not "first iPhone")."""
    return [s for s in spans if not any(s != o and s in o for o in spans)]


def decide(view: AnswererView, missing: list[str], spans: list[str]) -> Decision | None:
    """What the rules answer to ``view``'s question, or None when it is the model's to choose.
    ``missing``: the pair's missing spans; ``spans``: every span of the intent an answer may be (:func:`~.answer_choices.choices`)."""
    question, intent, query = view.question, view.fused_query, view.blurred_query
    language = "zh" if re.search(rf"[{CJK}]", question) else "en"  # the question's own script decides
    if language != view.language:  # an English question on a Chinese need, or the reverse: the model chooses
        return None
    if language == "en":  # the "US" of "in US dollars" is no place the query left out (its unit stays an answer)
        missing = [s for s in missing if not names_a_currency(s, intent)]
        # a choice of units may get the intent's ("current US dollars or PPP?"); no other question a currency
        spans = [s for s in spans if not (is_a_currencys_place(s, intent)
                                          or (names_a_currency(s, intent) and not is_either_or(question, language)))]
    contrast = contrasted(question, language)
    if contrast and restricts_what_it_keeps(question, contrast[0], intent, language):
        contrast = None  # "您问的是新能源汽车，不包括燃油车，对吗？" of a need for all cars: a guess of its own
    if contrast:  # "You mean the year 1900, not 1910, right?": the choice of the two, said as yes or no
        return _contrasted(view, *contrast, missing, spans)
    if missing and _OPEN_REQUEST.search(question) and classify(question) not in TYPED:
        return Decision(missing[0], "open_request")
    request = _OPEN_KIND.search(question) if language == "en" else None
    outer = outermost(missing)
    if request and set(tokenize(request.group("kind"))) & _KINDS_OF_THING and len(outer) == 1 \
            and not re.search(r"\b(?:age|income|price|budget)\b", request.group("kind"), re.IGNORECASE) \
            and not _another_part(request.group("kind"), intent, outer[0]) \
            and classify(question) not in TYPED and span_type(outer[0], language) not in TYPED \
            and not guessed(_EXAMPLES.sub("", question), intent, language):  # (a year answers no "particular district")
        # "Is there a particular feature or model you're interested in?": yes, the one thing the query left out
        return Decision(outer[0], "open_request", reply="yes")
    kind_zh = _OPEN_KIND_ZH.search(question) if language == "zh" else None
    if kind_zh and len(outer) == 1 and span_type(outer[0], language) not in TYPED and classify(question) not in TYPED \
            and not guessed(re.sub(r"(?:比如|例如|譬如)[^？?]*", "", question.replace(kind_zh.group(), "")), intent, language) \
            and not rival_sex_zh(question, intent, missing):  # "是特定群体的男博士吗？" of a need for 女性博士
        # "请问是特定动力类型的车吗？" of a need for 新能源汽车, "有没有特定的限定，比如性别？" of one for 女航天员:
        # yes, the one thing the query left out
        return Decision(outer[0], "open_request", reply="yes")
    if language == "en" and missing and names_nothing(question) and classify(question) not in TYPED:
        # "Which specific person, thing or organisation do you mean?": what the query left out, not a time
        # or a number (a question for those names them)
        span = next((s for s in missing if span_type(s, language) not in ("time", "number")), None)
        if span:
            return Decision(span, "open_request")
    part = scope_asked(question, intent) if language == "en" else None
    if part:
        return Decision(part, "scope")
    more = more_offered(question, intent, query) if language == "en" else None
    if more is not None:  # "Do you also want the size of the ground?": yes, if the intent asks for it
        return Decision(more or UNKNOWN, "scope", reply="yes" if more else None)
    both = _both_sides_joined(question, intent) if language == "en" and is_either_or(question, language) else None
    if both:  # "Should I count dragonflies only, or damselflies as well?" of "dragonflies and damselflies": both
        return Decision(both, "either_or")
    unit = language == "en" and asks_unit(question) and not {"currenc", "unit"} & wh_phrases(query)
    if unit or (language == "en" and asks_source(question)):
        # "What units would you like the area in?": the unit the intent gives, else unknown (not "What
        # currency did Estonia use?" asked back: that is what the user searches for)
        found = unit_of(question, intent, missing) if unit else source_of(intent, missing)
        if found or unit:
            return Decision(found or UNKNOWN, "method")
    source = rival_source(question, intent, missing) if language == "en" and is_yes_no(question, language) \
        and not abbreviated(question, missing) else None
    if source:  # "Should I use the GAO estimate?" of a need according to the FDIC: no, and which
        return Decision(source, "method", reply="no")
    given = unit_guessed(question, intent) if language == "en" and is_yes_no(question, language) else None
    if given and (asks_method(question, intent, query)
                  or (_ACCEPTS.search(question) and not guessed(question, intent, language) and not any(
                      not holds(given[0], w, language) for w in new_words(content_words(question, language), intent, query, language)))):
        # "Should the figure be given in euros?" of a need in euros: yes; "Is pounds okay?" of one in kilograms: no
        return Decision(given[0], "method", reply="yes" if given[1] else "no")
    stated = _ranked_by(intent, missing) if language == "en" and is_yes_no(question, language) and guesses_yardstick(question) else None
    if stated and not holds(question, stated, language):
        # "Largest by population?", "Should I rank the lakes by water volume?" of a need ranked by area: the user
        # says what they rank by, neither yes nor no (the guess may name it in other words: "by economic output"
        # for "by GDP"); before the questions of method, which a guessed yardstick is not
        return Decision(stated, "criterion", reply="")
    particular = _ONE_SIDE.search(question) if language == "en" else None  # "restrict the search to a particular country?"
    one_kind = classify(f"which {particular.group('kind')}") if particular else None
    one_level = asked_level(f"which {particular.group('kind')}") if one_kind == "region" else None
    period = (bool(_ASKS_A_PERIOD.search(question)) and any(span_type(s, language) == "time" for s in missing)) \
        or (one_kind in TYPED and any(span_type(s, language) == one_kind and (one_level is None or one_level in place_levels(s))
                                      for s in missing))
    if one_kind in TYPED and is_yes_no(question, language) \
            and not any(span_type(s, language) == one_kind or holds(s, particular.group("kind"), language) for s in spans) \
            and not guessed(_EXAMPLES.sub("", question), intent, language):
        # "Do you need the population figure from a specific year?" of a need that names no year: it says none
        return Decision(UNKNOWN, "scope")
    if language == "en" and query and asks_method(question, intent, query) and not period \
            and not guessed(_EXAMPLES.sub("", question), intent, language):  # "territories such as Western Sahara"
        # (not "Over what period should I count the wins?" of a need since 1990: the need's time answers it)
        # "Should I count only freshwater lakes?" of a need for the largest saltwater lake: a question of what
        # to count is answered by the kind the need counts, where the query left out a word of no kind right
        # before the thing the question counts; else unknown
        # ("Should islands that are independent countries count?")
        scope = [s for s in _untyped_left_out(missing, query) if _qualifies(s, question, intent)]
        return Decision(scope[0] if len(scope) == 1 else UNKNOWN, "method", reply="" if len(scope) == 1 else None)
    # The ranks the query left out, else those it states ("Which ranks?" for "the second and third biggest").
    # Not a question for a time ("Which year's ranking?"), nor a choice between rankings.
    # (nor a question for whose ranking: "Which ranking — QS, THE or ARWU?" asks a source)
    if language == "en" and asks_rank(question) and not is_yes_no(question, language) \
            and not _TIME_NOUN.search(question) and ranking_sides(question) <= 1 and not _WHICH_EDITION.search(question) \
            and not (re.search(r"\b(?:or|,)\s+by\b", question) and _ranked_by(intent, missing)) \
            and not re.search(r"\b(?:whose|which|what)\s+rankings?\b(?!\s+(?:positions?|spots?|places?|numbers?))",
                              question, re.IGNORECASE):
        ranks = ranks_in(intent)
        left = [r for r in ranks if not holds(query, r, language)]
        if ranks:
            return Decision((left or ranks)[0], "rank")
    counted_by = yardstick_zh(question, intent, missing) if language == "zh" else None
    if counted_by:  # "您是按河流长度来比较吗？" of a need 按流域面积计算: no, and what it counts by
        return Decision(counted_by[0], "criterion", reply=counted_by[1])
    which = _WHICH_ONE_ZH.search(question) if language == "zh" else None
    counted = [s for s in missing if which and ORDINAL_ZH.fullmatch(s) and s.endswith(which.group(1))]
    if counted:  # "请问您问的是哪一艘？" of a need for 第一艘: the ordinal it left out
        return Decision(counted[0], "typed", reply="")  # (哪一档 writes 一档: no echo)
    if language == "zh" and (_OWN_PAST_ZH.search(question)
                             or (_THE_COUPLE_ZH.search(question)  # (not "你们俩在哪个城市买房？" of a need for 杭州市)
                                 and not any(span_type(s, language) in _asked_zh(question) for s in missing))
                             or (_ASKS_A_GRADE_ZH.search(question) and not _A_GRADE_ZH.search(intent))
                             or (_WHAT_THEY_APPLY_FOR_ZH.search(question) and missing and all(
                                 span_type(s, language) in ("time", "region", "number") for s in missing)
                                 and not any(span_type(s, language) in _asked_zh(question) for s in missing)) or (
            _THEIR_THINGS_DATE_ZH.search(question) and not any(span_type(s, language) == "time" for s in missing))):
        return Decision(UNKNOWN, "plans")
    if language == "zh" and _PLANS_ZH.search(question) and not names_new(question, intent, query, language) \
            and not ("从哪" in question and re.search(rf"从[{CJK}]{{1,12}}?(?:到|出发|坐|乘|去|飞|上车|上船)", intent)) \
            and not any(span_type(s, language) in _asked_zh(question) and not _too_coarse_zh(question, s)
                        and not is_time_clause(s) for s in missing):  # 开通时 is no plan of the user's
        return Decision(UNKNOWN, "plans")  # "您打算去哪个会场？": the need says nothing of the user's plans
    other_kind = rival_kin_zh(question, intent, missing) if language == "zh" else None
    if other_kind:  # "需要把研究生招生也算进去吗？" of a need for 本科招生: no, and which
        return Decision(whole_zh(other_kind, missing, question), "confirmation", reply="no")
    included = _inclusion_zh(question, intent, missing) if language == "zh" else None
    if included:  # "是否包括复读生？" of a need that says 含复读生: yes; 不含港澳台 for "需要包括港澳台吗？": no
        return Decision(included[0], "scope", reply=included[1])
    offers = _MORE_ZH.search(question) or (_INCLUDE_ZH.search(question) and not _INCLUDES_ZH.search(intent)) \
        or (_BREAKDOWN_ZH.search(question) and not _BROKEN_DOWN_ZH.search(intent))
    if language == "zh" and offers and not _ASKS_A_VALUE_ZH.search(question) \
            and any(not holds(intent, w, language) for w in content_words(question, language)) \
            and not (is_either_or(question, language) and any(len(s) >= 2 and s in question for s in missing)):
        # (not "您是指流动沙漠，还是把戈壁也算在内？", whose first side is the need's own)
        # "您还需要知道2023年的死亡人口吗？" asks for more even where it names the need's own year
        return Decision(UNKNOWN, "scope")  # "您还想了解那年总决赛MVP是谁吗？": more than the need asks
    owner = _owner_in_query(question, intent, query, missing) if language == "en" and query else None
    if owner:  # "Which country's GDP?" of a query for "the GDP of Brazil"
        return Decision(owner, "in_query")
    if is_either_or(question, language) and language == "zh" and _HOLDS_ZH.search(question) \
            and not any(_PERSON_ZH.search(s) for s in missing):
        return Decision(UNKNOWN, "either_or")  # "您有北京户口吗？还是常住人口？": what the user holds, which the need does not say
    if is_either_or(question, language):
        against_any = side_before_another(question, intent, query, language)
        if against_any:  # "the Golden Lion or another prize?" of a query for the Golden Lion: the query's own
            return Decision(against_any, "either_or")
        quoted = _QUOTED_MEANS_ZH.match(question) if language == "zh" else None
        if quoted and quoted.group(1) in intent and not any(
                holds(s, w, language) for p in alternatives(question, language) for w in content_words(p, language)
                for s in missing if not holds(quoted.group(1), w, language)):
            return Decision(UNKNOWN, "either_or")  # "“2021年”是指当年12月的考试，还是2021年入学的那一次？": the need says neither
        ordinal = ordinal_agreeing_zh(question, missing) if language == "zh" else None
        if ordinal:  # "您指的是首届，还是某一特定年份的？" of a need for 第一届: the side said otherwise
            return Decision(ordinal, "either_or")
        whole = _side_written_whole_zh(question, intent, query) if language == "zh" else None
        if whole:  # "您指的是Mate 60、Mate 60 Pro还是Mate 60 Pro+？" of a need for the Mate 60 Pro
            return Decision(whole, "either_or")
        span = _either_or(question, intent, query, missing, spans, language)
        if span:
            return Decision(_a_word_zh(span, question, missing, intent, query) if language == "zh" else span, "either_or")
        sides = alternatives(question, language)
        if language == "en" and len(sides) > 1 and any(span_type(s, language) == "time" and all(
                re.search(rf"(?<![\w-]){re.escape(s)}(?![\w-])", p) for p in sides) for s in missing):
            # "By 2004, do you mean the ceremony held in 2004 or albums released in 2004?": the need's year is on
            # every side, and nothing else of the need's tells them apart
            return Decision(UNKNOWN, "either_or")
        paired = _both_or_negated_zh(question, intent) if language == "zh" else None
        if paired:  # "您想了解申请条件，还是发放标准？" of a need for 申请条件和发放标准: both; "居民用气还是非居民用气？": 居民
            return Decision(paired, "either_or")
        held = held_alternative(question, intent, query, language) \
            if language == "zh" and query and not _ASKS_A_VALUE_ZH.search(question) else None
        if held:  # "您想知道首班车还是末班车？" when the query says 首班车
            return Decision(_a_word_zh(held, question, missing), "either_or")
        then = _now_or_then(question, intent, missing, language)
        if then:  # "古代开封的人口，还是现在的？" for 北宋末年: the need's time
            return Decision(then, "either_or")
        one = _one_or_all(question, missing, language, intent)
        if one:  # "A specific edition, or the all-time top scorer?" of a need for the 2002 World Cup
            return Decision(one, "either_or")
        typed = _typed(question, missing, spans, language, intent, query)  # "Which year or period?" asks for a kind
        offered = alternatives(question, language)
        if language == "zh" and typed is not None and typed.span != UNKNOWN \
                and all(re.fullmatch(_KIND_WORDS_ZH, p.strip("？?。 的是")) for p in alternatives(_asking_part(question), language)):
            return typed  # "请问您所在的省份或城市是？": kinds of place, answered by the need's place
        if language == "zh" and not _takes_a_side(question, intent, spans, language, query) and (typed is None or not any(
                _VALUE_ZH.search(p) or _ASKS_A_VALUE_ZH.search(p) for p in offered)):
            # "男足世界杯还是女足世界杯？" when the need says neither; "农历日期还是公历日期？" asks for no time
            # ("哪一年，还是哪个时期？" does)
            return Decision(UNKNOWN, "either_or")
        # "Just so I can help, which continent or region ...?" asks after its lead-in
        if language != "en" or _LEADING_WH.match(question) or _AFTER_LEAD_IN.match(question.split(",")[-1]):
            # "Which plant species or genus do you mean?" offers kinds; "Which award do you mean — FIFA's, or a
            # magazine poll?" offers values the intent does not name: the intent takes no side
            named = any(guessed(p, intent, language) for p in offered)
            return typed or (None if named else _which_is_meant(question, intent, query, missing))
        held = held_alternative(question, intent, query) if query else None
        # (before a value of a kind no side names: "national parks or provincial parks?" of a query for national
        # parks asks which parks, not where)
        if held and (typed is None or typed.span == UNKNOWN
                     or (not any(holds(p, typed.span, language) for p in offered)
                         and not _ONE_SIDE.search(question)
                         and not (span_type(typed.span, language) == "time" and _offers_kind(question, "time")))):
            # (not "the Nobel Prize in Literature or another year's?": a time asked)
            return Decision(held, "either_or")
        # "Before or after 1900?" offers values of a kind, and the intent's value of that kind answers it.
        # "In kilometres or in miles?", "The city proper or the metropolitan area?" offer none: the intent
        # holds neither side.
        if typed is not None and typed.span != UNKNOWN and _kinds_only(offered) \
                and not any(same_word(w, k) for p in offered for w in content_words(p, "en") for k in wh_phrases(query)):
            return typed  # "Are you referring to a specific continent or region?" asks for a place
        if typed is not None and typed.span != UNKNOWN and not _offers_kind(question, classify(question)):
            return Decision(UNKNOWN, "either_or")
        if typed is None and not (_names_any(question, intent, language) and sides_held(question, intent, query)):
            return Decision(UNKNOWN, "either_or")  # "Largest by wingspan or by body weight?": the intent says neither
        return typed
    if is_yes_no(question, language):
        decision = _confirmation(question, intent, query, missing, spans, language)
        if language == "en" and decision is None:  # not over a rule's unknown: a guess of another kind
            return _what_is_meant(question, intent, query, missing)
        return decision
    field = _field_asked(question, intent, missing) if language == "en" else None
    if field:  # "In which field are you using the word 'dating'?" of "In relationships, what is dating?"
        return Decision(field, "specify")
    # "Which season?" of the 1993–94 NHL season, "Which Oscars ceremony?" of the 1998 one: the year tells
    # the occurrence, not the league or the award the query names
    dated_edition = _dated_edition(question, missing, language)
    named = _named_by_query(question, intent, query, missing) if language == "en" and query and not dated_edition else None
    if named:  # "Which river are you asking about?" of a query that says "the Mekong River"
        return Decision(named, "in_query")
    yardstick = _yardstick(question, intent, missing) if language == "en" and asks_criterion(question) else None
    if yardstick:
        return Decision(yardstick, "criterion")
    before = (_named_before(question, intent, query, missing) or _named_after(question, intent, missing)) \
        if language == "en" and not dated_edition else None
    if before:  # "Which group did he found?" of "the Tata Group": the intent names which
        return Decision(before, "specify")
    # English only: jieba's words are too short to tell a restated query from a question about it.
    if query and language == "en" and _restates_query(question, query, missing, language) \
            and not _asks_a_constraint(question, query, missing) and not dated_edition \
            and not _CATEGORY_OF.search(question):  # "Which category of the Nobel Prize?" asks which one
        return Decision(UNKNOWN, "own_question")
    if query and language == "en" and classify(question) not in TYPED:
        span = _specified(question, intent, query, missing)
        if span:
            return Decision(span, "specify")
    if language == "en" and asks_a_fact(question) and _about_the_search(question, intent, query):
        return Decision(UNKNOWN, "fact")
    headed = _headed_zh(question, missing) if language == "zh" else None
    if headed:  # "请问您乘坐的是哪类航线？" of a need for 国内航线: the span of the thing it names
        return Decision(headed, "typed", reply="")
    district = re.search(r"哪(?:个|一个|一)?(?:区|县)(?![域间])", question) if language == "zh" else None
    places = [s for s in spans if is_zh_place(s)]
    if district and places and all(re.search(r"(?:省|市|自治区)$", p) for p in places) \
            and not any(re.search(r"[区县镇乡旗]$", s) for s in spans):
        # (not 海淀, 南山 or 昆山, places below a city that the need writes without their suffix: the model's)
        return Decision(UNKNOWN, "typed")  # "您关注的是哪个区的公租房项目？" of a need for 武汉市: it names no district
    listed = _listed_before_zh(question, intent, missing) if language == "zh" else _listed_before_en(question, missing)
    if listed:  # "旺季和淡季票价不同，您想了解哪一个？": the one the need says of those the question listed
        return Decision(listed, "listed", reply="")  # (it echoes the list, as a choice does)
    typed = _typed(question, missing, spans, language, intent, query)
    if typed is None and language == "zh" and (_USERS_OWN_VALUE_ZH.search(question) or (
            _YOUR_FIRM_ZH.search(question) and not any(re.search(r"(?:企业|行业|公司|[^专]业)$", s) for s in missing))):
        # "请问您的月收入是？": the user's own, which no span of the need's kind gives; "贵公司属于哪个行业？" of a
        # need that names no kind of firm (制造业企业 would answer it)
        return Decision(UNKNOWN, "typed")
    one = _which_one_zh(question, missing) if typed is None and language == "zh" else None
    if one:  # "华为有多款折叠屏手机，请问您指的是哪一款？" of a need for the Mate X5: the one the query left out
        return Decision(one, "meant", reply="")
    return typed or _which_is_meant(question, intent, query, missing)


_HOLDS_ZH = re.compile(r"[您你](?:本人)?(?:有|是否有|有没有|持有)(?:[^，。？?的想了解关注兴趣]{0,2})"
                       r"(?:户口|户籍|社保|医保|居住证|房产证|驾照|驾驶证|学位|资格证)")
_YOUR_FIRM_ZH = re.compile(r"贵(?:公司|单位|司|企业)")
_USERS_OWN_VALUE_ZH = re.compile(r"[您你]的[^？?，,]*(?:是|为)\s*[？?]")
# "您指的是哪一款？", "请问是哪一次考试？", "您指的是哪一套试卷？", "您想了解哪一类？": which one of the query's thing
# (not "是哪种茶？", which names the thing: the span that ends with it)
_WHICH_ONE_OF_ZH = re.compile(r"哪(?:一?(?P<unit>[款次届期套项])[\u4e00-\u9fff]{0,6}?|一?[类种]|个(?:版本|型号)[\u4e00-\u9fff]{0,6}?|一个)(?:呢)?[？?]\s*$")


def _which_one_zh(question: str, missing: list[str]) -> str | None:
    """The one span the need left out that says which of the query's things a Chinese which-question asks
    for: a time for 哪一次 / 哪一届 / 哪一期, a name of no kind of value for the others (哪一款, 哪个版本)."""
    found = _WHICH_ONE_OF_ZH.search(question)
    before = question[:found.start()].split("，")[-1] if found else ""
    if not found or ABOUT_THE_USER.search(before) or re.search(r"[您你](?:的|是|在|要|打算|计划|购买|租|住|开|家|属于|所在|参加|们)|贵", before):
        return None  # not the user's own ("您购买的是哪一款？")
    timed = (found.group("unit") or "") in ("次", "届", "期")
    fitting = [s for s in outermost(missing) if (span_type(s, "zh") == "time") == timed
               and span_type(s, "zh") not in (("region", "number") if not timed else ())]
    return fitting[0] if len(fitting) == 1 else None


_WHICH_THEN_ZH = re.compile(r"哪一?[个家座所]([\u4e00-\u9fff]{2,6})")
_WHICH_HEAD_ZH = re.compile(r"哪一?[个类种款家条所位项]?(?P<head>[\u4e00-\u9fff]{2,4}?)(?=[的呢？?，,]|$)")


def _headed_zh(question: str, missing: list[str]) -> str | None:
    """The one span the need left out that ends with the thing a Chinese which-question names (国内航线 for
    "哪类航线？")."""
    found = _WHICH_HEAD_ZH.search(question)
    heads = [s for s in outermost(missing) if found and s.endswith(found.group("head")) and s != found.group("head")
             and not re.search(r"[，,、；;]", s)]  # one phrase, not "认定中，B类人才"
    if heads or not (after := _WHICH_THEN_ZH.search(question)):
        return heads[0] if len(heads) == 1 else None
    # "在哪个剧院首演的？": the thing named before the verb that follows it; the longest span that ends with it
    # and holds no time of the need's (米兰斯卡拉歌剧院, not 1926年在米兰斯卡拉歌剧院)
    for head in (after.group(1)[:n] for n in (4, 3, 2) if not found or after.group(1)[:n] != found.group("head")):
        heads = outermost([s for s in missing if s.endswith(head) and s != head and not re.search(r"[，,、；;]", s)
                           and not any(o in s and span_type(o, "zh") == "time" for o in missing)
                           and s[0] not in "于在从对向把被由自"])  # 香港联合交易所, not 于香港联合交易所
        if heads:  # one thing of the kind named (not two airports, where it may be either end)
            return heads[0] if len(heads) == 1 else None
    return None


_WHICH_OF_THOSE_ZH = re.compile(r"哪一?(?:个|种|类|项|档)(?:呢)?[？?]\s*$")


def _listed_before_zh(question: str, intent: str, missing: list[str]) -> str | None:
    """The one span the need left out that the sentence before "哪一个？" names, where that sentence lists what
    "哪一个" picks from ("门票分常规日、特别常规日、高峰日和特别高峰日，您想了解哪一种？")."""
    if not _WHICH_OF_THOSE_ZH.search(question):
        return None
    before = re.split(r"[，,。；;]", question.rstrip("？? "))[:-1]
    listing = "".join(before)
    if not re.search(r"[、和与或及]", listing):
        return None
    named = [s for s in missing if len(s) > 1 and s in listing and not any(s != o and s in o and o in listing for o in missing)]
    if len(named) != 1:
        return None
    span, at = named[0], listing.find(named[0]) + len(named[0])
    while at < len(listing) and span + listing[at] in intent:  # 一日票, not the 一日 the segmenter left out
        span, at = span + listing[at], at + 1
    return span


# "..., which one do you mean?", "- which of these?": a pick from what the words before it list
_WHICH_OF_THOSE_EN = re.compile(r"[,;:.!—–-]\s*(?:so\s+)?which(?:\s+one|\s+of\s+(?:these|those|them|the\s+\w+))?"
                                r"(?:\s+(?:do|did|would|are)\s+you\s+(?:mean|have in mind|want|need|asking about|referring to))?\s*\?\s*$",
                                re.IGNORECASE)


def _listed_before_en(question: str, missing: list[str]) -> str | None:
    """The one time the need left out among the times the words before "which one?" list: "1999" for "Medinah
    hosted it in 1999 and in 2006 - which one do you mean?"."""
    which = _WHICH_OF_THOSE_EN.search(question)
    listing = question[:which.start()] if which else ""
    years = re.findall(r"\b\d{4}s?\b", listing)
    named = [s for s in missing if s in years]
    return named[0] if len(years) >= 2 and len(named) == 1 else None


def _which_is_meant(question: str, intent: str, query: str, missing: list[str]) -> Decision | None:
    """"Which ballet did you mean?" of a need for the ballet that premiered in 1913: where no rule of kinds
    settles it, the user says which with what their query left out. Not a question for a time, a number or
    a place ("Which place or region do you mean?"): the model chooses the span of that kind, which the
    query may hold. A time or a number answers only a question about the thing the query searches for."""
    asking = _asking_part(question)  # after a sentence of reasons too, or a clause ("..., so which tournament ...?")
    last_clause = _AFTER_LEAD_IN.match(asking.split(",")[-1])
    if not (query and missing and (_WHICH_IS_MEANT.match(asking) or (last_clause and _WHICH_IS_MEANT.match(last_clause.group("which"))))):
        return None
    if any(scores(asking).get(kind, 0) > STRONG_CUE for kind in TYPED):  # (not "more than once" of its reason)
        return None  # asks a kind in so many words ("Which place or region?"), not "Which European empires?"
    named = [g for g in guessed(question, intent, "en") if not holds(query, g, "en")]  # not the query's "SI"
    if named or _PREFERENCE.search(question) or not _in_the_spans_clause(question, intent, query, missing[0]):
        return None  # "Which Greece ...?", "What format ..., a list or a table?", a thing of the intent's other question
    part = _PART_OF.match(question)
    if part and not any(holds(intent, w, "en") for w in tokenize(part.group("part"))) \
            and holds(query, part.group("whole"), "en") and not set(tokenize(part.group("part"))) & NO_HEAD:
        return None  # "Which specific panel of the doors ...?" asks a part of the query's thing, which the intent does not name
    # A time or a number says which of the things the query searches for ("Which ballet premiered" in
    # 1913), not which of its other things ("What kind of physics do you mean?" of the 1903 prize in physics).
    phrase = re.match(r"\s*(?:which|what)\s+((?:[\w'’-]+\s+){1,4})", query, re.IGNORECASE)
    searched = set(tokenize(phrase.group(1))) if phrase else set()
    # ("for the first time" counts the thing's occurrences: it says which of them)
    occurrence = _OCCURRENCE.search(missing[0]) and any(holds(query, w, "en") for w in content_words(asking, "en"))
    if span_type(missing[0], "en") in ("time", "number") and not searched & set(content_words(question, "en")) \
            and not _qualifies(missing[0], question, intent) and not occurrence:
        return None
    return Decision(_without_verb(missing[0], intent, missing), "meant")


def _without_verb(span: str, intent: str, missing: list[str]) -> str:
    """"Fyodor Dostoevsky" of "Fyodor Dostoevsky write" in "Which novels did Fyodor Dostoevsky write", where
    the query said another verb too."""
    name = re.fullmatch(r"([A-Z].*\S)\s+([a-z]+)", span)
    verb = name and re.search(rf"\b(?:did|does|do)\s+{re.escape(span)}\b", intent)
    return name.group(1) if verb and name.group(1) in missing else span


# "Which of his fresco cycles?", "Which fresco cycle do you mean?", "Whose album is that?": the thing asked
_THING_ASKED = re.compile(r"^\W*(?P<wh>which|whose)\s+(?:(?:one\s+)?of\s+(?:his|her|their|its|the)\s+)?(?P<thing>(?:[a-z][\w-]*\s+){0,2}?"
                          r"[a-z][\w-]*?)s?(?:\s+(?:is|was)\s+(?:that|this|it)|\s+(?:do|did|are|were)\s+you\b[^?]*)?\s*\?", re.IGNORECASE)


def _named_after(question: str, intent: str, missing: list[str]) -> str | None:
    """The name the query left out that the intent writes right after the thing a which-question asks for:
    "Life of the Virgin" for "Which of his fresco cycles?" of "fresco cycle of the Life of the Virgin", and the
    one it is by for "Whose album is that?" of "the album Brilliant Corners by Thelonious Monk"."""
    asked = _THING_ASKED.match(question)
    if not asked or not tokenize(asked.group("thing")) or tokenize(asked.group("thing"))[-1] in NO_HEAD \
            or classify(question) == "region":  # "Which province?" of "the largest province of Canada": no name of it
        return None
    whose = asked.group("wh").lower() == "whose"
    if whose and re.match(r"\W*whose\b", intent, re.IGNORECASE):
        return None  # "Whose record is that?" of a need that asks whose: what it searches for
    thing = re.escape(asked.group("thing"))
    # whose: a work's title, then "by" its maker ("the album Kind of Blue by Miles Davis"; not "was broken by")
    link = r"[A-Z][\w'’-]*\s+(?:(?:[A-Z][\w'’-]*|of|the|and|in|on|a|an|to)\s+){0,5}by" if whose else r"(?:of|on|for)"
    named = [s for s in missing if s[:1].isupper()
             and re.search(rf"\b(?i:{thing})s?\s+{link}\s+(?:the\s+)?{re.escape(s)}\b", intent)]
    return max(named, key=len, default=None)


def _named_before(question: str, intent: str, query: str, missing: list[str]) -> str | None:
    """The name the query left out that the intent gives the thing a which-question asks for: "Tata Group"
    for "Which group did he found?", "Han and Sui dynasties" for "Which dynasty were they part of?"."""
    asked = re.match(r"\s*(?:which|what)\s+([a-z][\w-]*)\b", question, re.IGNORECASE)
    if not asked or _SPECIFY.search(question) or not tokenize(asked.group(1)) or tokenize(asked.group(1))[0] in NO_HEAD:
        return None  # a request to specify ("Which novel are you referring to?") is _specified's
    thing = tokenize(asked.group(1))[0]
    if _ANOTHER.search(question):
        return None  # "Which dynasty came after it?" asks another one
    if any(same_word(thing, w) for w in wh_phrases(query)) or _ranked_in(thing, query):
        return None  # "Which city is the largest?", "Which novel is the best-known?" ask what the query searches for

    def names(word: str) -> bool:
        return bool(tokenize(word)) and same_word(tokenize(word)[0], thing)

    everything = missing
    missing = [s for s in missing if s[:1].isupper()]  # a name says which ("third-largest city" does not)
    ending = [s for s in missing if len(s.split()) > 1 and names(s.split()[-1])]  # "Tata Group" itself
    if ending:
        return max(ending, key=len)
    name = re.match(r"\s*(?:[Ww]hich|[Ww]hat)\s+((?:[A-Z][\w'’-]*\s+)*[A-Z][\w'’-]*)(?:\s+(?:tournament|edition|event|race|one))?"
                    r"(?=\s*\?|\s+(?:do|did|are|were) you\b)",
                    question)  # "Which Super Bowl?", "Which Super Bowl do you mean?"; not "Which European Union countries ...?"
    after_name = [s for s in everything if name and (s.startswith(name.group(1) + " ")
                                                  or re.search(rf"\b{re.escape(name.group(1))}\s+{re.escape(s)}\b", intent)
                                                  or re.search(rf"\b{re.escape(s)}\s+(?:[\w'’-]+\s+){{0,2}}{re.escape(name.group(1))}\b", intent))]
    # (or right before it: "1962 FIFA World Cup" for "Which World Cup tournament?")
    if after_name:  # "Super Bowl XLIX": the name's own number or title says which
        return after_name[0]
    for span in sorted(missing, key=len, reverse=True):
        after = re.search(rf"\b{re.escape(span)}\s+([\w-]+)", intent)
        if after and names(after.group(1)):
            return span
    return None


def _head(question: str) -> str | None:
    """The thing a which-question asks for, after its wh-word: "census" of "Population figures from which
    census?", "symphoni" of "Which of Mahler's symphonies do you mean?" (not the owner)."""
    wh = re.search(r"\b(?:which|what)\b", question, re.IGNORECASE)
    rest = re.sub(r"\b[\w-]+['’]s\b|^\s*of\b", " ", question[wh.end():] if wh else question)
    return next((w for w in content_words(rest, "en") if w not in NO_HEAD), None)


def _ranked_in(thing: str, query: str) -> bool:
    """The query picks its ``thing`` by a rank ("the best-known novel", "the second-largest city"): which
    one it is, is what the search finds."""
    words = re.findall(r"[\w'’-]+", query)
    return any(tokenize(w) and same_word(tokenize(w)[0], thing)
               for i, w in enumerate(words) if any(_RANKING.search(b) for b in words[max(0, i - 2):i]))


def _field_asked(question: str, intent: str, missing: list[str]) -> str | None:
    """The field the intent sets its word in ("relationships" of "In relationships, what is dating?"), to a
    question for the field, context or sense the word is used in."""
    if not _ASKS_A_FIELD.search(question):
        return None
    return next((s for s in missing if re.search(rf"\b[Ii]n {re.escape(s)}\b", intent)
                 and not span_kinds(s, "en") & {"region", "time"}), None)


def _named_by_query(question: str, intent: str, query: str, missing: list[str]) -> str | None:
    """The name the query gives the thing a which-question asks about, as the intent writes it: "Mekong
    River" for "Which river are you asking about?", "The Frieze of Life" for "Which series of works?" of
    "the series of works known as The Frieze of Life". The user says what their query already says."""
    if not _LEADING_WH.match(question) or is_either_or(question, "en"):
        return None
    head = _head(question)
    if head is None or _CATEGORY.search(question):  # "Which award category?" asks which of the award's, not which award
        return None
    for word in re.findall(r"[\w'’-]+", query):  # "the 2020 census" for "Population figures from which census?"
        if tokenize(word)[:1] and same_word(tokenize(word)[0], head):
            year = re.search(rf"\b({YEAR})\s+{re.escape(word)}\b", query)
            if year and year.group(1) in intent:
                return year.group(1)
    asked = classify(question)
    if asked in TYPED and any(span_type(s, "en") == asked for s in missing):
        return None  # "Which year's contest?" asks which year: the span the query left out
    found = []
    for run in capitalised_runs(query):
        words = tokenize(run)
        kind_last = len(words) > 1 and same_word(words[-1], head)  # "Mekong River", not "European" of "European empires"
        called = re.search(rf"((?:[\w'’-]+\s+){{1,3}})(?:known as|called|named|titled|entitled)\s+{re.escape(run)}", query)
        if not (kind_last or (called and any(same_word(t, head) for t in tokenize(called.group(1))))) or run not in intent \
                or place_levels(run):  # "United States" for "Which state ...?" asks a state of it
            continue
        before = intent[:intent.find(run)].removesuffix("the ").rstrip()
        if any(before.endswith(s) for s in missing):  # "the 1903 Nobel Prize in Physics": which one, the span says
            return None
        found.append(run)
    return found[0] if len(found) == 1 else None  # "the Mekong River or the Yangtze River": which one, the search says


_NAME_RUN = r"((?:[A-Z][\w'’.-]*)(?:\s+[A-Z][\w'’.-]*)*)"


def _owned(text: str) -> list[tuple[str, str]]:
    """The names a text gives as owners, with what they own: ("Saturn", "moons") of "the moons of Saturn"
    and of "Saturn's moons"."""
    pairs = [(m.group(2), m.group(1)) for m in re.finditer(rf"\b([a-z][\w-]*)\s+of\s+(?:the\s+)?{_NAME_RUN}", text)]
    return pairs + [(m.group(1), m.group(2)) for m in re.finditer(rf"{_NAME_RUN}['’]s\s+([a-z][\w-]*)", text)]


def _other_owner(question: str, intent: str, query: str) -> str | None:
    """The owner the query names for a thing a yes/no question gives another owner: "Saturn" for "Do you mean
    Jupiter's moons?" of a query for "the moons of Saturn"."""
    for guess, thing in _owned(question):
        for owner, owned in _owned(query):
            if owner in intent and same_word(tokenize(thing)[:1][0] if tokenize(thing) else thing,
                                             tokenize(owned)[:1][0] if tokenize(owned) else owned) \
                    and not holds(intent, guess, "en") and span_type(guess, "en") == span_type(owner, "en"):
                return owner
    return None


def _owner_in_query(question: str, intent: str, query: str, missing: list[str]) -> str | None:
    """The name whose thing the query names, where a question asks whose it is: "Brazil" for "Which country's
    GDP?" of "the GDP of Brazil", "Canada" for "Which country's prime minister?" of "the Prime Minister of
    Canada"; an owner of another kind where the query names it as one ("Georgian" for "Which language's
    script?" of "the script of the Georgian language")."""
    asked = re.search(r"\b(?:which|what)\s+([\w-]+)['’]s\s+([\w-]+(?:\s+[\w-]+)?)", question, re.IGNORECASE)
    if not asked:
        return None
    region = classify(f"which {asked.group(1)}") == "region"  # "Which year's GDP?" asks a time, not the owner
    name = r"((?:[A-Z][\w'’.-]*)(?:\s+[A-Z][\w'’.-]*)*)"
    runs = []
    for word in re.findall(r"[\w-]+", asked.group(2)):
        w = re.escape(word)
        runs += [m.group(1) for m in re.finditer(rf"(?i:\b{w}\w*)\s+of\s+(?:the\s+)?{name}", query)]
        runs += [m.group(1) for m in re.finditer(rf"{name}['’]s\s+(?i:{w})", query)]
    runs = unique([r for r in runs if r in intent and (span_type(r, "en") == "region" if region  # a place: not "Parliament"
                   else bool(re.search(rf"\b{re.escape(r)}\s+{re.escape(asked.group(1))}\b", query, re.IGNORECASE))
                   # (and not where the need says more of it: "Old Church Slavonic", "England women's")
                   and not any(f"{s} {r}" in intent or f"{r} {s}" in intent or (r in s and r != s) for s in missing))])
    return runs[0] if len(runs) == 1 else None


def _qualifies(span: str, question: str, intent: str) -> bool:
    """The span stands right before a thing the question names ("the 1959 film adaptation" for "There are
    several film adaptations of Ben-Hur. Which one ...?"; not 1903 for the physics of "the 1903 Nobel Prize
    in Physics")."""
    after = re.search(rf"\b{re.escape(span)}\s+((?:[\w'’-]+\s+){{0,1}}[\w'’-]+)", intent)
    # a thing, not a year after it ("Altera in 2015" for "deals that closed in 2015")
    return bool(after) and any(same_word(t, w) for t in tokenize(after.group(1)) if t.isalpha()
                               for w in content_words(question, "en"))


_SUPERLATIVE = re.compile(r"\b(?:highest|most|greatest|largest|biggest|lowest|least|fewest|smallest|top)\b", re.IGNORECASE)


def _ranked_by(intent: str, missing: list[str]) -> str | None:
    """What the intent ranks by: its "by area", else the one span the query left out that names a measure
    ("the highest revenue", "the greatest volume of water"), which says it without a "by"."""
    measures = [s for s in missing if names_a_measure(s) and _SUPERLATIVE.search(s)
                and not any(s != o and s in o for o in missing)]  # not "revenue above $100 billion", a threshold
    return yardstick_in(intent) or (measures[0] if len(measures) == 1 else None)


def _yardstick(question: str, intent: str, missing: list[str]) -> str | None:
    """What a question for the yardstick is answered with: the one the intent ranks by ("by area"), said
    again if the query says it too, unless the question does; else the first span the query left out that
    is not a time ("As of January 2022" ranks nothing), nor a place for a question for a measure ("How
    should 'highest' be measured?"); else the model chooses."""
    if asks_time_or_place(question):  # "Based on which year?": the rules for a time or a place answer
        return None
    stated = yardstick_in(intent)
    if stated and not holds(question, stated, "en"):  # "... the largest cities by population?" asks for the rest
        return stated
    barred = {"time", "region"} if MEASURE.search(question) else {"time"}
    left = [s for s in missing if span_type(s, "en") not in barred]
    # the span that names a measure first: "highest revenue", not the "reported" before it
    return next((s for s in left if names_a_measure(s)), left[0] if left else None)


def _about_the_search(question: str, intent: str, query: str) -> bool:
    """A question of the fact form asks about what the user searches for when it names something of the
    query ("What is the definition of romance?") or guesses a value ("What is the population of Lagos?");
    "What is the context?" names neither and asks what the user means. A question for a time, a place or
    a number counts only with a guess of another kind ("What year was the prize awarded?" asks which prize;
    "Which continent is it in, Asia?" guesses the constraint)."""
    asked = classify(question)
    guesses = guessed(question, intent, "en")
    if asked in TYPED:
        return any(span_type(g, "en") != asked for g in guesses)
    return bool(guesses) or any(holds(query, w, "en") for w in content_words(question, "en"))


def _specified(question: str, intent: str, query: str, missing: list[str]) -> str | None:
    """What the query left out beside the thing a question asks to specify ("What type of suit?" -> "law"
    for "In law, what is a suit?"; "Which epic poem do you mean?" -> "Old English"): the thing is named by
    the query, and the span stands next to it in the intent (at most one other content word between)."""
    if not _SPECIFY.search(question) or not re.match(r"\s*(?:what|which)\b", question, re.IGNORECASE):
        return None
    thing = [w for w in content_words(question, "en") if w not in _SPECIFY_WORDS]
    if not thing or not all(holds(query, w, "en") for w in thing):
        return None
    words = tokenize(intent)
    at = [i for i, t in enumerate(words) if any(same_word(t, w) for w in thing)]
    near = []
    for span in missing:
        span_words = tokenize(span)
        where = [i for i, t in enumerate(words) if any(same_word(t, w) for w in span_words)]
        if span in intent and where and any(abs(i - j) <= 2 for i in at for j in where):
            near.append(span)
    if len(near) < 2:
        return _with_kind_word(question, intent, query, thing, near[0]) if near else None
    # "Irish" and "of 1922" beside "novel": the stretch of the intent that holds them, when it is one
    # phrase (no comma, a few words); else the first of them.
    start = min(intent.index(s) for s in near)
    stretch = intent[start:max(intent.index(s) + len(s) for s in near)]
    return stretch if "," not in stretch and len(stretch.split()) <= MAX_STRETCH_WORDS else near[0]


def _with_kind_word(question: str, intent: str, query: str, thing: list[str], span: str) -> str:
    """To "What kind of revolution?", the kind the query says before the thing with what it left out after
    it: "communist revolution in Cuba" for "the communist revolution" the intent places in Cuba."""
    if not _ASKS_A_KIND.search(question) or span not in intent:
        return span
    words = list(re.finditer(r"\S+", intent))  # with their places in the intent
    at = [i for i, w in enumerate(words) if any(same_word(t, x) for t in tokenize(w.group()) for x in thing)]
    if len(at) != 1 or at[0] == 0 or intent.find(span) < words[at[0]].end():
        return span
    kind = words[at[0] - 1]
    if not tokenize(kind.group()) or not holds(query, kind.group(), "en") or kind.group().strip(EDGE).lower() in _NO_KIND:
        return span
    # the thing and the span stand together, with a preposition at most between them ("revolution in Cuba";
    # not "sculptures were carved from limestone")
    if not re.fullmatch(r"\s*(?:(?:in|of|from|at|on|for|during)\s+(?:the\s+)?)?", intent[words[at[0]].end():intent.find(span)]):
        return span
    stretch = re.sub(r"[\"“”‘’]", "", intent[kind.start():intent.find(span) + len(span)]).strip(EDGE)
    return stretch if "," not in stretch and len(stretch.split()) <= MAX_STRETCH_WORDS else span


def _both_sides_joined(question: str, intent: str) -> str | None:
    """The intent's "A and B" of a choice between A only and B as well ("Dragonflies only, or damselflies as
    well?"): the need takes both."""
    sides = alternatives(question, "en")
    if len(sides) != 2 or not _ONLY.search(sides[0]) or not _AS_WELL.search(sides[1]):
        return None
    said = [content_words(_AS_WELL.sub("", _ONLY.sub("", side)), "en") for side in sides]
    # each side by its own words ("men's" and "women's" of "Men's singles only, or women's singles as well?")
    words = [[w for w in said[i] if w not in said[1 - i]] for i in (0, 1)]
    if not all(words):
        return None
    for joined in re.finditer(r"[\w'’-]+(?:\s+[\w'’-]+)?\s+and\s+[\w'’-]+(?:\s+[\w'’-]+)?", intent):
        if all(any(holds(joined.group(), w, "en") for w in side) for side in words):
            a, b = joined.group().split(" and ", 1)
            named = [[any(holds(t, w, "en") for w in words[0] + words[1]) for t in part.split()] for part in (a, b)]
            if any(named[1]):  # from the first word a side names to the last ("damselflies", not "damselflies breed")
                start, end = named[0].index(True) if any(named[0]) else 0, len(named[1]) - named[1][::-1].index(True)
                return " ".join(a.split()[start:]) + " and " + " ".join(b.split()[:end])
    return None


_ONLY = re.compile(r"\b(?:only|just|alone)\b", re.IGNORECASE)
_AS_WELL = re.compile(r"\b(?:as well|too|also|both)\b", re.IGNORECASE)


def _restates_query(question: str, query: str, missing: list[str], language: str) -> bool:
    words = content_words(question, language)
    if TO_USER.search(question) or len(words) < OWN_QUESTION_MIN_WORDS:
        return False
    in_query = [holds(query, w, language) for w in words]
    if any(not known and any(holds(span, w, language) for span in missing)
           for w, known in zip(words, in_query, strict=True)):
        return False  # it names what only the intent holds: it asks about that
    return sum(in_query) >= OWN_QUESTION_SHARE * len(words)


def _asks_a_constraint(question: str, query: str, missing: list[str]) -> bool:
    """A question in the query's words that asks for a time, a place or a number the query does not search
    for, of which the query left one out ("Which country is the capital of Congo?" for "the Democratic
    Republic of the Congo": the query asks for a city; "What year was the Philippines' capital?")."""
    asked = classify(question)
    if asked not in TYPED or not any(span_type(s, "en") == asked for s in missing):
        return False
    if asked == "region" and _ASKS_A_REGION.search(question):
        return True  # "Second-largest city in which region?": a place of no level, whatever the query seeks
    if asked == "time" and _WHICH_EDITION.search(question):
        return True  # "Which edition of the Pan Am Games?": the Games of one year, whatever the query seeks
    if asked in {classify(clause) for clause in clauses(query)}:  # "... the release date of ...?"
        return False
    if asked == "region" and re.match(r"\W*where\b", question, re.IGNORECASE) and not re.search(r"\bwhere\b", query, re.IGNORECASE):
        return sought(query) <= {"name"}  # "Where were these paintings found?" of a query that seeks no place
    if asked == "region":  # a place known to be of the asked level: "South Sudan" for "Which country?"
        level = asked_level(question)
        return level is not None and level not in sought(query) | levels_asked(query) \
            and any(level in place_levels(s) for s in missing if span_type(s, "en") == "region")
    # It asks for the kind in so many words ("What year ...?", "How many ...?"), and the query does not.
    searched = _SEARCHES_TIME if asked == "time" else _SEARCHES_NUMBER
    return bool(searched.search(question)) and not searched.search(query)


_BOUNDS_OR_PLANS = re.compile(r"\b(?:limits|boundar(?:y|ies)|borders|area|territory|plan|planning|buy|visit|go)\b|范围|边界|辖区|打算|计划|准备",
                              re.IGNORECASE)


# ("the part that lies in one country", "with some condition": one of a kind too; not "one of them", "some of them",
# "some highlights"; read also by the rules for questions of method and for sides held)
_ONE_SIDE = re.compile(r"\b(?:(?:a|one|some)\s+(?:specific|particular|certain|single|given)|(?<=\bin |\bby |\bto )one"
                       r"|some(?=\s+[\w-]*[^\Ws]\b)(?!\s+of\b))\s+(?P<kind>[\w-]+)|(?:某一?[个年届次款条套项批轮期段]|特定)(?P<kind_zh>)",
                       re.IGNORECASE)
_ALL_SIDE = re.compile(r"\b(?:all-time|ever|overall|across all|in general|any|all|every|in total|combined|long-term|globally|worldwide|(?:the|his|her|its|their) (?:whole|entire|full))\b|所有|历年|历届|全部|总体|整体|累计|总数|全国|全境|整条|整个|全程|全线|全段|全域",
                       re.IGNORECASE)


def _one_or_all(question: str, missing: list[str], language: str, intent: str = "") -> str | None:
    """A choice of one thing of a kind and all of them: the one the need left out, of the kind asked ("A
    specific edition, or the all-time top scorer across all World Cups?" -> 2002)."""
    if ABOUT_THE_USER.search(question):  # "Do you hold citizenship of one particular country, or of any?"
        return None
    offered = alternatives(question, language)
    ones = [_ONE_SIDE.search(p) for p in offered]
    if len(offered) < 2 or sum(bool(o) for o in ones) != 1 or not any(_ALL_SIDE.search(p) for p, o in zip(offered, ones) if not o):
        return None
    one = next(o for o in ones if o)
    side = next(p for p, o in zip(offered, ones) if o)
    whole = next(p for p, o in zip(offered, ones) if not o)
    world = re.search(r"\b(?:worldwide|globally|global|in the world|across the world|around the world)\b", intent, re.IGNORECASE) \
        if language == "en" and _says_the_world(whole, language) and classify(f"which {one.group('kind') or ''}") == "region" else None
    world = world if world and any(world.group() in s for s in missing) else None  # (not the query's own "global")
    if world:  # "Globally, or in one particular country?" of a need for deaths worldwide: the whole world
        return world.group()
    asked = "time" if _WHICH_EDITION.search(f"which {one.group('kind') or ''}") else classify(f"which {one.group('kind') or ''}") \
        if language == "en" else "time" if re.search(r"某一?[届年次]", side) else classify(side)  # "某个省份的" asks a place
    unit = re.search(r"某一?([批轮期段])", side) if language == "zh" else None
    of_unit = [s for s in missing if unit and s.endswith(unit.group(1))]
    if len(of_unit) == 1:  # "某一批" of a need for 第一批 or 首批: the batch it names, beside its time (1956年)
        return of_unit[0]
    if asked not in TYPED:  # "Overall, or in a specific sport?": the one thing of no kind the need left out
        untyped = [s for s in outermost(missing) if span_type(s, language) not in TYPED]
        return untyped[0] if len(untyped) == 1 else None  # (beside a time: "某一批" of 1956年第一批)
    found = [s for s in missing if span_type(s, language) == asked and not any(s != o and s in o for o in missing if span_type(o, language) == asked)]
    return found[0] if len(found) == 1 else None


def _now_or_then(question: str, intent: str, missing: list[str], language: str) -> str | None:
    """A choice of now and another time: the intent's word for now where it has one and left out no time
    ("today" for "its historical population or the current one?"), the time it left out where it has no
    word for now ("北宋末年" for "古代开封的人口，还是现在开封市的人口？")."""
    now, then = (NOW_SIDE_ZH, THEN_SIDE_ZH) if language == "zh" else (NOW_SIDE_EN, THEN_SIDE_EN)
    offered = alternatives(question, language)
    if len(offered) < 2 or sum(bool(now.search(p)) for p in offered) != 1 or not any(then.search(p) for p in offered) \
            or _BOUNDS_OR_PLANS.search(question) or ABOUT_THE_USER.search(question):
        return None  # "the current city limits or the historical ones?"; "buy now or later?"; "are you living there now?"
    said = now.search(intent)
    times = [s for s in missing if span_type(s, language) == "time" and not any(s != o and s in o for o in missing)
             and not _in_a_relative_clause(s, intent)]  # "the city that hosted the 1936 Olympics" dates no population
    if said and times:  # "until 1596 ... today": which clause the choice is about, the words do not tell
        return None
    return said.group() if said else times[0] if len(times) == 1 else None


# The whole world as a guess of where ("in the world", "Worldwide?"), not a name ("the World Cup")
_WORLD_ZH = re.compile(r"全世界|全球|世界上|世界范围|世界最")


def _says_the_world(text: str, language: str) -> bool:
    """``text`` names the whole world as a place ("in the world", "Worldwide?", "全球"), not in a name ("the World Cup")."""
    if language == "zh":
        return bool(_WORLD_ZH.search(text))
    names = [r for r in capitalised_runs(text, skip_first=False) if len(r.split()) > 1]
    text = _PART_OF_THE_WORLD.sub(" ", re.sub("|".join(map(re.escape, names)), " ", text) if names else text)
    return bool(set(tokenize(text)) & WORLD_WORDS_EN)


_PART_OF_THE_WORLD = re.compile(r"\b(?:part|region|area|corner|country|countries)s? of the (?:world|globe)\b", re.IGNORECASE)


def _region_not_world(question: str, intent: str, missing: list[str], language: str) -> str | None:
    """The one place the need left out, where a yes/no question guesses the whole world and the need does not."""
    if not is_yes_no(question, language) or not _says_the_world(question, language) or _says_the_world(intent, language) \
            or ABOUT_THE_USER.search(question):
        return None
    if language == "zh":  # 中国, not the block 中国已建成 the segmenter leaves
        places = [s for s in missing if is_zh_place(s)]
        return max(places, key=len) if places else None
    places = [s for s in outermost(missing) if span_type(s, language) == "region"]
    return places[0] if len(places) == 1 else None


# "，也就是最低配置的价格" after a guess: the clarifier's gloss of it, no guess of its own
_APPOSITIVE_ZH = re.compile(r"[，,](?:也就是说?|亦即|即)[^，,？?。]*?(?=[，,]?(?:对[吗吧]|是吗|吧|吗)?[？?。]|$)")
# what an English question says of a name after it ("Herbert von Karajan, the Austrian conductor?")
_APPOSITIVE_EN = re.compile(r",\s+(?:i\.e\.,?\s+|that is,?\s+|namely\s+)?(?:the|a|an)\s+[^,?]*\b[a-z][\w'’-]*\?\s*$")  # a common noun last
# what a Chinese question says again in other words: an appositive, or a gloss in brackets ("今年（2024年）")
_GLOSS_ZH = re.compile(rf"{_APPOSITIVE_ZH.pattern}|[（(][^）)（(]{{1,20}}[）)]")


def _then_not_now(question: str, intent: str, query: str, missing: list[str], language: str) -> str | None:
    """The one time the need left out, where a yes/no question guesses now and the need says no word for now."""
    now, then = (NOW_SIDE_ZH, THEN_SIDE_ZH) if language == "zh" else (NOW_SIDE_EN, THEN_SIDE_EN)
    # not where it says a time gone by too ("需要说明当时的城市名称和今天对应的地名吗？")
    if not is_yes_no(question, language) or not now.search(question) or now.search(intent) or then.search(question) \
            or _BOUNDS_OR_PLANS.search(question) or ABOUT_THE_USER.search(question):
        return None
    if not _now_of_the_query(now.search(question), question, query, language):
        return None  # "Are you asking because of a school project due today?", "您目前持有茅台股票吗？"
    times = [s for s in outermost(missing) if span_type(s, language) == "time" and not _in_a_relative_clause(s, intent)]
    return times[0] if len(times) == 1 else None


def _now_of_the_query(now: re.Match[str], question: str, query: str, language: str) -> bool:
    """The word for now qualifies the query's thing: "the current CEO", "the CEO today", "目前的常住人口"."""
    if language == "zh":
        if question[max(now.start() - 1, 0):now.start()] in ("您", "你"):
            return False  # "您目前持有茅台股票吗？": the user's now
        after = question[now.end():now.end() + NOW_REACH_ZH].lstrip("的")
        return any(after[i:i + 2] in query for i in range(len(after) - 1)
                   if not any(answer_choices_zh.is_function_char(c) for c in after[i:i + 2]))
    if re.match(r"[\s-]+(?:US\s+)?(?:dollars?|prices?|terms)\b", question[now.end():]):
        return False  # "current-dollar GDP", "in current prices": a measure, not a time
    near = question[:now.start()].split()[-NOW_REACH_EN:] + question[now.end():].split()[:NOW_REACH_EN]
    return any(holds(query, w.strip(EDGE), language) or w.strip(EDGE).lower() in _STATE_OF_THINGS
               for w in near if content_words(w, language))  # "the situation today": the query's, as it is now


_STATE_OF_THINGS = frozenset(["situation", "state", "status", "position", "picture"])


def _in_a_relative_clause(span: str, intent: str) -> bool:
    """The span stands in a relative clause of the intent ("the city that hosted the 1936 Olympics")."""
    at = intent.find(span)
    return at >= 0 and bool(re.search(r"(?<=\w\s)(?:that|which|who|whom|where)\b[^,]*$", intent[:at], re.IGNORECASE))


def _qualifies_query_word(guess: str, question: str, query: str) -> bool:
    """A common word guessed right before a word of the query's: "Winter" of "the 1936 Winter Olympics?" for a
    query that says Summer Olympics stands against what the query's thing is."""
    after = re.search(rf"\b{re.escape(guess)}\s+([\w'’-]+)", question)
    return is_common_word(re.sub(r"['’]s$", "", guess)) and bool(after) and holds(query, after.group(1), "en")  # "Women's"


def _contrasted(view: AnswererView, guess: str, other: str, missing: list[str], spans: list[str]) -> Decision | None:
    """"X, not Y, right?" is the choice "X or Y?": yes to the guess's side, no to the other's; else the guess
    alone is confirmed or not ("Do you mean X?")."""
    language = view.language
    chosen = decide(replace(view, question=as_a_choice(guess, other, language)), missing, spans)
    # a side of no words of its own tells nothing ("Salary before tax, not after tax?": only "before" and "after" differ)
    told = any(not holds(guess, w, language) for w in content_words(other, language))
    if chosen is not None and chosen.span != UNKNOWN and told:
        words = [w for w in content_words(chosen.span, language)  # 职工 of 职工医保, not the 医保 both sides say
                 if holds(guess, w, language) != holds(other, w, language)]
        on_guess, on_other = (any(holds(side, w, language) for w in words) for side in (guess, other))
        if on_guess != on_other:
            side = guess if on_guess else other
            span = widest_in_zh(chosen.span, side, view.fused_query) if language == "zh" else chosen.span
            return Decision(span, "contrast", reply="yes" if on_guess else "no")
        if not words and chosen.rule in ("either_or", "typed") and language == "en" and capitalised_runs(chosen.span, skip_first=False):
            # "the UK, not Israel or India?" for United Kingdom: a name neither side writes as the intent does
            return Decision(chosen.span, "contrast", reply="")
    written = side_as_written(guess, other, view.fused_query, language) if told else None
    if written:  # "Album of the Year, not Record of the Year?" of a query that says so: yes, as the intent writes it
        return Decision(written[0], "contrast", reply="yes" if written[1] else "no")
    held = side_held(guess, other, view.fused_query, missing + spans, language)
    if held:  # "The Winter Games, not the Summer Games?" of a need for the Winter Olympics: yes, and its span
        return Decision(held[0], "contrast", reply="yes" if held[1] else "no")
    alone = guess + ("吗？" if language == "zh" else "?")
    # phrased against the guess alone: the other side may name the intent's span ("the Winter Games, not the Summer")
    return _phrased_against(decide(replace(view, question=alone), missing, spans), alone, view.fused_query, language)


def _a_rival_place_alone(question: str, missing: list[str]) -> re.Match[str] | None:
    """A question that is a place name alone ("Iceland?"), of a level the need's place has too: not
    "Washington?" (a city, a state, a person) of a need for the United States."""
    alone = re.fullmatch(r"\s*([A-Z][\w'’.-]*(?:\s+[A-Z][\w'’.-]*){0,2})\s*\?\s*", question) \
        or re.fullmatch(r"\s*([A-Z][\w.-]*(?:\s+[A-Z][\w.-]*){0,2})['’]s\s+[a-z][\w\s-]*\?\s*", question)  # "Paraguay's anthem?"
    levels = levels_as_written(alone.group(1)) if alone else frozenset()
    held = {level for s in missing for run in [s, *re.findall(r"[A-Z][\w'’.-]*(?:\s+[A-Z][\w'’.-]*)*", s)]
            for level in place_levels(run) | levels_as_written(run)}  # "Tromsø, Norway": a country too
    return alone if levels & held else None


def _phrased_against(decision: Decision | None, question: str, intent: str, language: str) -> Decision | None:
    """``decision`` with its yes or no as :func:`answer_of` says it to ``question`` (a part of the question asked)."""
    if decision is None or decision.span == UNKNOWN or decision.reply is not None:
        return decision
    said = answer_of(question, decision.span, intent, language)
    if said == UNKNOWN:
        return Decision(UNKNOWN, decision.rule)
    yes, no = ("是的", "不是") if language == "zh" else ("Yes", "No")
    return replace(decision, reply="yes" if said.startswith(yes) else "no" if said.startswith(no) else "")


def _either_or(question: str, intent: str, query: str, missing: list[str], spans: list[str],
               language: str) -> str | None:
    """The intent's span for the alternative only the intent holds ("by area" in "By area or by
    population?"); None when no alternative names something the query lacks (the model chooses then)."""
    offered = alternatives(question, language)
    sides = [content_words(p, language) for p in offered]
    hits = [w for w in own_words(sides) if holds(intent, w, language) and not (query and holds(query, w, language))
            and (in_its_sense(w, sides, intent) and not elided_by_another(w, offered) if language == "en"
                 else telling_zh(w, offered))]
    if language == "en":  # "one-way or a round trip?": "way" of "one-way" is no word of the need's "cheapest way"
        joined = {part for p in offered for whole in unwritten_hyphenated(p, intent) for part in whole.split("-")}
        hits = [w for w in hits if w.lower() not in joined]
    if not hits and language == "en":  # "the part under the sea?" of a need for the undersea section: one word
        joined = [_compounds(p, intent, query) for p in offered]
        hits = next(iter(j for j in joined if j), []) if sum(bool(j) for j in joined) == 1 else []
    if not hits and language == "en":  # "AL or NL?" of a need for the American League: the name a side abbreviates
        named = unique([" ".join(w[i:j]) for p in offered if (short := p.strip(EDGE + " ?")) and re.fullmatch(r"[A-Z]{2,6}", short)
                        and not names_a_place(short)  # "US or international travellers?" names no "Union Station"
                        for s in outermost(missing) for w in [s.split()] for i in range(len(w)) for j in range(i + 2, len(w) + 1)
                        if w[i][:1].isupper() and w[j - 1][:1].isupper() and initials(" ".join(w[i:j])) == short])
        return named[0] if len(named) == 1 else None
    return _first_holding(hits, missing, spans, language) if hits else None


_LEAD_IN_ZH = re.compile(r"^(?:请问)?(?:您|你)?(?:想|要|是)?(?:了解|查询|查|问|知道)?(?:的是|是)?")


def _both_or_negated_zh(question: str, intent: str) -> str | None:
    """Two sides of a Chinese choice that the need joins with 和/及/与 (the span that joins them), or a side and
    its negation with 非 (居民 / 非居民), of which the need writes one (that one, as the need writes it)."""
    sides = [_LEAD_IN_ZH.sub("", p.strip(EDGE + "？?，,。 的")) for p in alternatives(question, "zh")]
    if len(sides) != 2 or not all(sides):
        return None
    a, b = sides
    for joiner in ("和", "及", "与", "以及"):
        if f"{a}{joiner}{b}" in intent or f"{b}{joiner}{a}" in intent:
            return f"{a}{joiner}{b}" if f"{a}{joiner}{b}" in intent else f"{b}{joiner}{a}"
    plain = a if b == "非" + a else b if a == "非" + b else None
    if plain is None:
        return None
    core = next((plain[:n] for n in range(len(plain), 1, -1) if plain[:n] in intent), None)  # 居民 of 居民用气
    if core is None:
        return None
    return "非" + core if "非" + core in intent else core if not re.search(rf"非{re.escape(core)}", intent) else None


def _compounds(side: str, intent: str, query: str) -> list[str]:
    """Two words of ``side`` that the intent writes as one and the query does not ("under the sea" ->
    "undersea", "off shore" -> "offshore")."""
    words = [w for w in re.findall(r"[a-z]+", side.lower()) if w not in ("the", "a", "an")]
    own = set(tokenize(intent)) - set(tokenize(query))
    return [a + b for a, b in itertools.pairwise(words) if set(tokenize(a + b)) <= own]  # stemmed: "offshor"


def _side_written_whole_zh(question: str, intent: str, query: str) -> str | None:
    """The longest alternative of a Chinese choice that the intent writes whole and the query does not, where
    every other alternative the intent writes is part of it (Mate 60 Pro, not Mate 60 or Mate 60 Pro+)."""
    # the sentence that asks, after its lead-in: "请问您是独生子女还是非独生子女？两者的标准不同。"
    core = re.sub(r"^(?:请问)?(?:[您你]是)?", "", _ASKS_MEANT_ZH.sub("", _asking_part(question))).strip("？?。 ")
    sides = [p.strip(" 的") for p in re.split(r"[、，,]|还是|或者|或是", core) if p.strip(" 的")]
    written = [p for p in sides if len(p) >= MIN_NAME_ZH and p in intent and p not in query]
    if len(sides) < 2 or not written:
        return None
    longest = max(written, key=len)
    return longest if all(p in longest for p in sides if p in intent) else None


def _a_word_zh(span: str, question: str, missing: list[str], intent: str = "", query: str = "") -> str:
    """A lone character that tells one alternative from another, said as the span the query left out that
    begins with it within that alternative (首套 for the 首 of "首套房还是二套房？"), or that counts to that
    alternative's ordinal (第一套住房)."""
    if len(span) != 1:
        return span
    side = next((p for p in alternatives(question, "zh") if span in p), "")
    begun = next((s for s in missing if s.startswith(span) and len(s) > 1 and s in side), None)
    if begun:
        return begun
    wide = widest_in_zh(span, side, intent) if side else span
    if len(wide) > 1 and wide not in query:  # 女航天员 for the 女 of "首位女航天员" where the need writes it so
        return wide
    # 首 of 首套房 for a need that says 第一套住房: the ordinal the side's counts to
    keys = {ordinal_key(o) for o in ORDINAL_ZH.findall(side)}
    counted = [s for s in missing if keys and keys & {ordinal_key(o) for o in ORDINAL_ZH.findall(s)}
               and not any(o != s and o in s and span_type(o, "zh") == "region" for o in missing)]
    return max(counted, key=len) if counted else span


def _confirmation(question: str, intent: str, query: str, missing: list[str], spans: list[str],
                  language: str) -> Decision | None:
    asking = _asking_part(question) if language == "zh" else question
    if asking != question:  # "请问您是学生吗？学生可以享受优惠票价。": a reason after it guesses nothing
        return _confirmation(asking, intent, query, missing, spans, language)
    if language == "en" and query and _ABOUT_THE_USER_EN.search(question) and not _FIRST_PERSON_EN.search(intent) \
            and not new_words(content_words(question, language), intent, query, language) \
            and not guessed(question, intent, language):
        # "Are you shooting film yourself?", "Are you comparing it with other countries?": who the user is or
        # what they do, which a need that never speaks of its asker does not say
        return Decision(UNKNOWN, "confirmation")
    gloss = _APPOSITIVE_EN.search(question) if language == "en" and query else None
    head = tokenize(gloss.group())[-1:] if gloss else []
    # a description with no time of its own ("the 1911 laureate", "of the Cold War era", "today")
    timeless = bool(head) and not re.search(r"\d|\b(?:era|age|today|now|current|modern|century|period|time|former|late|"
                                            r"incumbent|ex)\b", gloss.group())
    said = _confirmation(question[:gloss.start()] + "?", intent, query, missing, spans, language) if timeless else None
    if said and said.reply == "yes" and said.span in query and len(said.span.split()) >= 2 and holds(intent, head[0], language) \
            and (not _described_in(said.span, intent) or all(holds(intent, w, language) for w in content_words(gloss.group(), language))):
        # "You mean Herbert von Karajan, the Austrian conductor?" of a need for the conductor's orchestra: the
        # query's own name, where the intent bears the description out by its head, and by every word where it
        # describes the name itself ("the Dutch painter Rembrandt" belies "the Flemish painter")
        return said
    glossed = [s for s in missing if language == "zh" and not ABOUT_THE_USER.search(question) and any(
        re.search(rf"(?<![\d-]){re.escape(s)}(?![\d-])", g.group()) and not re.search(r"[不非除没]", g.group())
        for g in _GLOSS_ZH.finditer(question))]  # not "（不含2024年）", "（非上海户籍）"
    if glossed:  # "您指的是今年，也就是2024年的分数线吗？", "是今年（2024年）这一届的吗？": the need's value, said again
        return Decision(with_what_is_asked(max(glossed, key=len), missing, question), "confirmation", reply="yes")
    unglossed = _APPOSITIVE_ZH.sub("", question) if language == "zh" else question
    if unglossed != question and any(holds(intent, w, language) for w in content_words(unglossed, language)):
        # "您问的是起售价，也就是最低配置的价格吧？": the appositive glosses the guess, it guesses nothing of its own
        decision = _confirmation(unglossed, intent, query, missing, spans, language)
        return _phrased_against(decision, unglossed, intent, language)
    plain = _plain_instead(question, intent, query, missing, language)
    if plain:  # "Do you mean the standard Model S?" for the Plaid: no, and which
        return Decision(plain, "confirmation", reply="no")
    period = period_zh(question, missing) if language == "zh" else None
    if period:  # "是2024年全年的营收吗？" of a need for 2024年上半年: no, and which part of the year
        return Decision(period[0], "confirmation", reply="yes" if period[1] else "no")
    short = abbreviated(question, missing) if language == "en" else None
    if short:  # "Should I use International Monetary Fund data?" of a need according to the IMF
        return Decision(short, "confirmation", reply="yes")
    titles = [s for s in missing if language == "zh" and f"《{s.strip('《》')}》" in intent]
    guessed_titles = re.findall(r"(?:是|说|指|问)(《[^》]+》)(?=吗|吧|呢|？|\?|，)", question) if titles else []  # "您是说《彷徨》吗？"
    if guessed_titles and not any(t in intent for t in guessed_titles):
        return Decision(titles[0], "confirmation", reply="no")  # "您是说《彷徨》吗？" of a need for 《呐喊》: another work
    if language == "zh" and SCOPED_PERSON_ZH.search(question) and ABOUT_THE_USER.search(question) \
            and not any(re.search(re.escape(s) + f"的?{PERSON_NOUN_ZH}", intent) for s in missing):
        return Decision(UNKNOWN, "confirmation")  # "您是国外游客吗？" of a need for 国内航班: who the user is
    here = [s for s in missing if language == "zh" and is_zh_place(s) and f"在{without_admin_suffix(s)}" in question]
    if here and not rival_place_zh(question, guessed(question, intent, language), query, missing):
        return Decision(here[0], "confirmation", reply="yes")  # "您是在山东参加考试吧？" of a need in 山东省
    region = _region_not_world(question, intent, missing, language)
    if region:  # "Do you mean the longest river in the world?" of a need for the Iberian Peninsula's
        return Decision(region, "confirmation", reply="no")
    then = _then_not_now(question, intent, query, missing, language)
    if then:  # "Do you mean the current CEO?" of a need for the one "when the first iPhone was released"
        return Decision(then, "confirmation", reply="no")
    owner = _other_owner(question, intent, query) if language == "en" and query else None
    if owner:  # "Do you mean Jupiter's moons?" of a query for the moons of Saturn
        return Decision(owner, "confirmation", reply="no")
    written = [s for s in missing if language == "en" and len(capitalised_runs(s, skip_first=False)) == 1
               and len(s.split()) >= 3 and s[:1].isupper() and s in capitalised_runs(question, skip_first=False)
               and not re.search(rf"\b(?:rather than|not|excluding|instead of|other than)\s+(?:the\s+)?{re.escape(s)}", question)]
    if written and not any(kind_of(g, language) == kind_of(s, language) for g in guessed(question, intent, language)
                           for s in missing if s not in written[0]):
        # "Do you mean AD 69, the Year of the Four Emperors?": the need's name, written whole; the rest describes it
        return Decision(max(written, key=len), "confirmation", reply="yes")
    words = content_words(question, language)
    new = new_words(words, intent, query, language) if query else []
    # names given as examples ("excluding saltwater ones like the Caspian Sea") guess nothing of their own
    guesses = guessed(_EXAMPLES.sub("", question) if language == "en" else question, intent, language)
    opening = (re.match(r"\s*([A-Z][\w'’-]*)(?=\s+[A-Z][\w'’-]*\s*\?)", question)  # "British Vogue?"
               or _a_rival_place_alone(question, missing)) if language == "en" else None  # "Iceland?"
    opened = [opening.group(1)] if opening and not guesses and names_a_place(opening.group(1)) \
        and not _says_the_world(opening.group(1), language) and not holds(intent, opening.group(1), language) else []
    guesses = guesses or opened  # "British Vogue?": a place that opens the question is a guess too
    bounded = [s for s in missing if language == "zh" and bounds_zh(s) & bounds_zh(question) and not re.search(YEAR, s)]
    if bounded:  # "7座以内的小客车吧？" for 7座及以下小型客车: the same bound, said otherwise
        return Decision(max(bounded, key=len), "confirmation", reply="yes")
    rival = (rival_of(question, guesses, intent, query, missing) or other_of_a_pair(question, intent, missing)) if language == "en" \
        else rival_value_zh(question, guesses, missing)
    if language == "zh" and ABOUT_THE_USER.search(question) and any(
            g[1] == n[1] for g in bounds_zh(question) for s in missing for n in bounds_zh(s)):
        return Decision(UNKNOWN, "confirmation")  # "您家的房子面积在120平方米以内吗？": the user's house, not the need
    agreeing_ordinal = ordinal_agreeing_zh(question, missing) if language == "zh" and not rival else None
    if agreeing_ordinal:  # "您是说永乐三年的那次首航吗？" for 第一次: yes
        return Decision(agreeing_ordinal, "confirmation", reply="yes")
    if language == "zh" and not rival:  # "是Max版吗？" of a need for 标准版: another edition
        rival = other_edition_zh(question, missing) or other_number_zh(question, missing) \
            or same_head_zh(question, intent, missing)
    if language == "zh" and not rival:  # "您只买单程的吧？" of a need for 往返票: another of its kind
        rival = rival_scope_zh(question, missing) or rival_bound_zh(question, missing) \
            or rival_place_zh(question, guesses, query, missing) \
            or synonyms_zh.stood_against(question, intent, missing) or rival_sex_zh(question, intent, missing) \
            or _rival_of_the_querys_place_zh(question, guesses, intent, query, missing)
    agreeing = time_agreeing(question, intent, missing) if language == "en" else None
    if agreeing and not rival:  # "Do you mean in the 19th century?" for 1865: yes
        return Decision(agreeing, "confirmation", reply="yes")
    if rival and language == "zh" and re.search(r"[您你](?:本人|自己)(?:是|有|在|属于|参加)", question):
        return Decision(UNKNOWN, "confirmation")  # "您本人是今年的考生吗？": who the user is, not the need's year
    if rival:  # "Are you asking about the Spanish Civil War?" for the Nigerian one: no, and which
        return Decision(whole_zh(rival, missing, question) if language == "zh" else _with_rivals_of_other_kinds(
            rival, guesses, intent, missing), "confirmation", reply="no")
    placed = in_its_place(question, intent, query, missing) if language == "en" and query else None
    if placed:  # "the largest natural lake?" for the artificial one: the span; "no" only to a value of its kind
        guess, span = placed
        # names may be spelt otherwise ("Asoka" for Ashoka), words said otherwise ("man-made"): only a time,
        # a number or a place of its own is surely another value
        differ = kind_of(guess, language) in TYPED and kind_of(guess, language) == kind_of(span, language)
        return Decision(span, "confirmation", reply="no" if differ else "")
    if guesses and language == "en" and guesses_the_answer(before_relative(question), query, intent, missing):
        return Decision(UNKNOWN, "answer_guess")
    # names only (not "Winter", "Physics", "Women's": another of the query's thing), and none the answer's
    # ("the one won by Sweden?", "awarded to Bob Dylan?")
    dated_too = [s for s in missing if language == "en" and guesses and span_type(s, language) == "time"
                 and holds(question, s, language) and not _NAMES_A_WINNER.search(question)
                 and not guesses_the_answer(question, query, intent, missing)
                 and not any(kind_of(g, language) == "time" or (re.search(r"\d", g) and not is_ordinal(g.split("-")[0]))
                             or is_common_word(re.sub(r"['’]s$", "", g.strip(EDGE)))
                             or _qualifies_query_word(g, question, query) for g in guesses)]
    if dated_too:  # "The 2012 contest, the one held in Baku?": the year is the need's; the rest it does not say
        year = min(dated_too, key=len)  # said whole: "second quarter of 2013" for "Q2 2013?", not "Nepal in April 2015"
        whole = [s for s in missing if s == year or year in s and span_type(s, language) == "time"
                 and all(span_type(r, language) == "time" for r in capitalised_runs(s, skip_first=False))]
        return Decision(max(whole, key=len), "confirmation", reply="")  # the year alone: the rest is no need's
    years_said = [s for s in missing if language == "en" and new and span_type(s, language) == "time" and re.search(r"\d", s)
                  and holds(question, s, language) and all(holds(s, w, language) for w in new)
                  and not any(s != o and s in o and span_type(o, language) == "time" for o in missing)]  # not 1975 of "the start of 1975"
    if years_said and guesses and not _NAMES_A_WINNER.search(question) \
            and not any(_qualifies_query_word(g, question, query) for g in guesses) \
            and not any(re.search(r"\b\d{4}\b", g) and not holds(years_said[0], g, language) for g in guesses):
        # "the mid-90s festival, the 1994 one?", "just before the First World War, in 1912?": the need's year,
        # described in words it neither says nor denies (not "The 2010 Women's World Cup?": another of the query's thing)
        return Decision(min(years_said, key=len), "confirmation", reply="")
    rivals = guesses + (compounds_zh(question, intent) if language == "zh" else [])
    if language == "zh":  # "是清朝的科举吗？" of a need for 清代 names the same era otherwise: yes
        era = next((s for s in missing for g in guesses if ERA_ZH.search(s) and ERA_ZH.search(g) and one_era(g, s)), None)
        if era:
            return Decision(era, "confirmation", reply="yes")
    # (a Chinese guess stands in for no span of the need's in a question of whether a thing is so or is to be
    # weighed: "商家有没有承诺包邮？", "要考虑丰水期和枯水期的面积差异吗？")
    variant = (_variant_of(question, missing, language) if language == "en"
               else variant_of_zh(question, intent, missing, rivals) if not _WHETHER_ZH.search(question) else None) if rivals else None
    if variant:  # "Middle English, from Chaucer's era?" for Old English: no, and what the user means
        return Decision(whole_zh(variant, missing, question) if language == "zh" else variant, "confirmation", reply="no")
    aliased = [s for s in missing if language == "en" and span_type(s, language) == "region" and names_country_otherwise(question, s)]
    if aliased:  # "Is this about the United Kingdom's Labour Party?" for "UK": yes
        return Decision(min(aliased, key=len), "confirmation", reply="yes")
    if new and not guesses:
        if language == "zh" and _AVOIDS_ZH.search(question):
            return Decision(UNKNOWN, "confirmation")  # "您是要避开一个人去的情况吗？" confirms nothing the need says
        # a Chinese question that writes a span out whole ("您是一个人去对吗？"), though the segmenter cuts
        # it otherwise there ("一个|人去")
        whole = [s for s in missing if language == "zh" and len(s) >= 2 and s in question
                 and not any(s != o and s in o for o in missing)]  # not "套房" of 首套房 in "二套房吗？"
        if language == "en" and _ALSO.search(question) and all(_qualified_otherwise(w, question, intent) for w in new):
            return Decision(UNKNOWN, "confirmation")  # "counting metro and commuter passengers too?": other passengers
        says_more = _SAYS_MORE.search(question) if language == "en" else None
        if says_more and any(not holds(intent, w, language) and not holds(query, w, language)
                             for w in content_words(question[says_more.end():], language)):
            return Decision(UNKNOWN, "confirmation")  # "Are you applying from overseas?": the need says nothing of where
        span = max(whole, key=len) if whole else _first_holding(new, missing, spans, language)
        # with its examples' names left out, the question names the span: yes ("freshwater lakes, ... like the Caspian?")
        exemplified = language == "en" and bool(guessed(question, intent, language))
        return Decision(span, "confirmation", reply="yes" if exemplified else None) if span else None
    confirmed = _query_confirmed_zh(question, intent, query) \
        if language == "zh" and query and not new and not any(kind_of(g, language) and g not in query for g in guesses) else None
    if confirmed:  # "您问的是本科学历对应的分值，对吗？" of a query that says 本科学历: yes, its own words
        return Decision(confirmed, "confirmation", reply="yes")
    if guesses and not new and language == "zh" and _WHETHER_ZH.search(question) \
            and len({kind_of(g, language) for g in guesses} - {None}) == 1 and len([g for g in guesses if kind_of(g, language)]) >= 2:
        return Decision(UNKNOWN, "confirmation")  # "需要区分夏季和冬季吗？": a breakdown offered, no value guessed
    if guesses and not new:
        # a name of several words is one guess: "United States" is a place though "States" is a name
        named = [r for r in capitalised_runs(question) if language == "en" and any(g in r.split() for g in guesses)] + opened
        kinds = {kind_of(g, language) for g in [*guesses, *named] if language == "en" or a_value_zh(g, question)} - {None}
        same = [s for s in missing if kind_of(s, language) in kinds]
        if language == "en" and query:  # "New Zealand", not the block "Prime Minister of New Zealand" the query half says
            same.sort(key=lambda s: any(holds(query, w, language) for w in content_words(s, language)))
        if same and language == "en" and any(agrees(g, same[0]) for g in guesses):
            return Decision(same[0], "confirmation", reply="yes")  # "the 16th president?" for "sixteenth"
        if same and language == "en" and any(qualifies_the_query(before_relative(question), g, query) for g in guesses):
            # "the Mughal emperor?" for Shah Jahan: the intent neither says nor denies it, only who it is
            return Decision(same[0], "confirmation", reply="")
        agreeing = [s for s in same if language == "zh" and kind_of(s, language) == "time"
                    and any(kind_of(g, language) == "time" and same_number(g, s) for g in guesses)]
        if agreeing:  # "您是想了解2024年度的标准吗？" for 2024年: the year said more finely
            return Decision(min(agreeing, key=len), "confirmation", reply="yes")
        times = [g for g in guesses if language == "zh" and kind_of(g, language) == "time"]
        query_years = re.findall(rf"{YEAR}年", query) if times and not same and not ABOUT_THE_USER.search(question) \
            and not _ASIDE_ZH.search(question) else []
        if len(query_years) == 1:  # (not "您是2024年度参加高考的吗？")
            # "您说的是2024年度的标准，对吧？" of a query that says 2024年: its own year, said more finely; "2023年度的
            # 缴费基数吧？": another year, no
            same_year = all(same_number(g, query_years[0]) for g in times)
            if same_year or all(re.search(YEAR, g) for g in times):
                return Decision(query_years[0], "confirmation", reply="yes" if same_year else "no")
        if same and language == "zh" and kind_of(same[0], language) == "time" and not re.search(r"\d", same[0]) \
                and all(re.search(r"\d", g) for g in guesses if kind_of(g, language) == "time"):
            # "您是指4月到10月这段时间的票价吗？" of a need for 旺季: dates against a named season, neither yes nor no
            return Decision(same[0], "confirmation", reply="")
        if same and language == "en" and _SOURCE_PHRASE.match(same[0]) and _INCLUDES.search(question):
            return Decision(UNKNOWN, "confirmation")  # "include the Alashan Plateau?" guesses no rival of the need's source
        if same and language == "en" and kind_of(same[0], language) == "name" \
                and all(_qualifies_another_thing(g, question, intent, same[0]) for g in guesses):
            return Decision(UNKNOWN, "confirmation")  # "5G phones only?" of a need "according to IDC": no rival name
        if same:  # the whole name the guess stands against: "No, 433 Eros" for "Are you asking about Vesta?"
            whole = _whole_name(same[0], missing) if language == "en" else same[0]
            # "the United States?" for Canada: a place of several words; not one that describes ("the emperor who
            # converted after the war in Kalinga?")
            run_of_its_kind = any(kind_of(r, language) == kind_of(same[0], language) in TYPED
                                  and r in before_relative(question) for r in named)
            return Decision(whole, "confirmation", reply="no" if whole != same[0] or run_of_its_kind else None)
        # A guess of another kind than what the query left out ("Is that Quezon City?") asks what the user
        # searches for, or what their need does not say. One that describes its guess in a relative clause
        # ("the Polish king who relieved Vienna in 1683?") may describe the intent's own: the model chooses.
        if before_relative(question) != question:
            return None
        # "Do you mean the Vancouver Games?" of a need for 2010, "Are you asking about the Disney movie?" of
        # one for the folk tale: what the user means, in the need's words, neither yes nor no (the guess may
        # well be the need's value said otherwise)
        meant = _meant_otherwise(question, intent, query, missing, guesses) if language == "en" else None
        return Decision(meant, "confirmation", reply="") if meant else Decision(UNKNOWN, "confirmation")
    dated = [g for g in guesses if language == "zh" and kind_of(g, language) == "time" and any(same_number(g, s) for s in missing)]
    if new and dated and all(g in dated or not kind_of(g, language) for g in guesses):
        # "您是指2023年推出的冠军版车型吗？" of a need for 2023款冠军版: the block of the need's year and the new words
        blocks = [s for s in missing if all(holds(s, w, language) for w in new) and any(same_number(g, s) for g in dated)]
        if blocks:
            return Decision(min(blocks, key=len), "confirmation", reply="yes")
    said_times = [s for s in missing if language == "zh" and span_type(s, language) == "time" and re.search(r"\d", s)
                  and s in question]
    said_times = [s for s in said_times if not re.search(rf"[A-Za-z\d-]\s*{re.escape(s)}", question)  # not 2014 of "GB 2760-2014"
                  and not any(s != o and s in o and o in question for o in missing)]
    guessed_kinds = {kind_of(g, language) for g in guesses}
    if said_times and guessed_kinds & {"region", "name", "number"} and "time" not in guessed_kinds \
            and not any(s not in said_times and kind_of(s, language) in guessed_kinds for s in missing) \
            and not (ABOUT_THE_USER.search(question) or _PERSON_ZH.search(question) or _WHETHER_ZH.search(question)
                     or re.search(r"只|仅|不", question)):
        # "是1990年意大利世界杯吗？", "从1997年7月泰国放弃固定汇率开始算吗？": the need's time, written whole, with
        # words it cannot check: the time, neither yes nor no
        return Decision(max(said_times, key=len), "confirmation", reply="")
    said_whole = [s for s in missing if language == "zh" and len(s) >= 2 and s in question and span_type(s, language) != "time"
                  and not any(s != o and s in o and o in question for o in missing)]
    if said_whole and guessed_kinds == {"time"} and not any(span_type(s, language) == "time" for s in missing) \
            and not (ABOUT_THE_USER.search(question) or _WHETHER_ZH.search(question) or re.search(r"只|仅|不", question)):
        # "是1923年的初版吗？" of a need for 初版 that dates nothing: the need's span, the year it cannot check
        return Decision(max(said_whole, key=len), "confirmation", reply="")
    if guesses and new and language == "zh" and not any(kind_of(g, language) for g in guesses):
        # Chinese guesses are loose (any word the need lacks: "那一届", "码头"): the span the question names
        # is phrased by answer_of, which says unknown to a guess about it ("从...码头出发吗？"). The part it
        # names, not its block: "是2024年的惊喜夜活动对吧？" confirms 2024年, not 2024年北京.
        if _WHETHER_ZH.search(question):  # "要考虑丰水期和枯水期的面积差异吗？" of a need 按面积计算: it says not
            return Decision(UNKNOWN, "confirmation")
        span = _first_holding(new, missing, spans, language, shortest=True, question=question)
        if span and answer_of(question, span, intent, language) == UNKNOWN and not ABOUT_THE_USER.search(question) \
                and not _PLANS_ZH.search(question) and not (_NOT_THE_NEEDS_ZH.search(question) and not span.startswith("《")) \
                and f"{span}是" not in question and not any(rivals_a_word_zh(w, intent) for w in new):
            # "是省会长沙的那一所吗？" of a need for 长沙: the need's value with words it cannot check, said
            # neither yes nor no (not a question about the user, their plans, or where figures come from, nor
            # one that asks what the value is like, "您说的3号线是开往白云机场那条吧？", or another of the need's
            # measures: "是公路桥部分的高度吧？" of a need for its 长度); yes where the other words add nothing
            # ("您说的是海南离岛免税政策吧？") or name the field the value fills ("出发地是北京吗？")
            extra = [w for w in content_words(question, language) if not holds(intent, w, language)]
            plain = (all(w in _ADDS_NOTHING_ZH for w in extra) or _FIELD_IS_ZH.match(question)) \
                and not re.search(r"只|仅", question)  # "只有北京吗？" of a need for 北京和上海 restricts it
            return Decision(span, "confirmation", reply="yes" if plain else "")
        if span and _PLANS_ZH.search(question) and not any(holds(question, w, language) for w in content_words(span, language)):
            return Decision(UNKNOWN, "plans")  # "您是打算在家自己做吗？" of a need 按照顺德的传统做法: the user's plans
        return Decision(span, "confirmation") if span else None
    if not guesses and not new:
        # "the greatest scientists of the century?" asks no time when the query says "of the century"
        own = " ".join(w for w in question.split() if not (language == "en" and (
            (query and holds(query, w.strip("?,.!"), language)) or NOW_WORD.fullmatch(w.strip("?,.!")))))
        # (an offer or a question about the user asks a kind only in so many words: not "Would a chart of the
        # rate history help?", "Are you applying as an international student?", whose words hint at one)
        hinted = hints_its_kind(question) and bool(TO_USER_AS_SUBJECT.search(question) or _OFFERS_EN.search(question))
        typed = _typed(question, missing, spans, language, intent, query) \
            if language != "en" or (classify(own) == classify(question) and not hinted) else None
        # "Just to confirm, you're asking about Kenya's medal count?" of a query that says Kenya: yes
        said = [v for v in (re.sub(r"['’]s$", "", v) for v in values_of(question, language, first=False))
                if language == "en" and query and v in query and v in intent and _ASKS_WHAT_IS_MEANT.search(question)
                and not TO_USER_AS_SUBJECT.search(question)]
        if said and (typed is None or typed.span == UNKNOWN):  # the name as the query writes it ("Gustav Mahler")
            runs = [r for r in (re.sub(r"['’]s$", "", r) for r in capitalised_runs(query, skip_first=False))
                    if said[0] in r and r in intent and all(w[:1].isupper() or w in NAME_PARTICLES for w in r.split())]  # not "Prime Minister of Canada"
            return Decision(max(runs, key=len, default=said[0]), "confirmation", reply="yes")
        if typed is not None:
            return typed
        run = _query_confirmed_en(question, intent, query) if language == "en" and query else None
        if run:  # "The men's competition, correct?" of a query for the men's race walk: yes, the query's words
            return Decision(run, "confirmation", reply="yes")
        # "Do you mean brain abscesses?" of a query for brain infections describes the query's thing: what
        # is meant (_what_is_meant); "Do you also want climbing routes?" names nothing of the pair
        describes = language == "en" and bool(query) and bool(_ASKS_WHAT_IS_MEANT.search(question)) \
            and _names_any(question, query, language)
        if not _names_any(question, intent, language) and not describes:
            return Decision(UNKNOWN, "confirmation")
    return None


# a request for a kind of the thing, in Chinese: "是特定动力类型的车吗？", "有没有特定的限定？"
# (the words between name a dimension, not a value: "特定的混动类型" guesses 混动)
_OPEN_KIND_ZH = re.compile(r"(?:(?:特定|某种|某一?类)的?){1,2}(?:(?:动力|能源|燃料|性别|年龄段?|学历|身份|人员|人群|车辆|产品)"
                           r"(?:类型|种类|类别|群体|限定|范围)?|类型|种类|类别|群体|限定)")  # (not "特定的科室要求", "特别的预算范围")
_USERS_NOW_ZH = re.compile(r"[您你](?:目前|现在|当前)")
_GENERIC_EVENTS_ZH = frozenset(["比赛", "赛事", "活动", "大会", "会议"])
_BORN_ZH = re.compile(r"出生(?!人口|率|数|量|缺陷|证)|生日|出世")  # a birth, not 出生人口 or 出生率
_PART_OF_A_YEAR_ZH = re.compile(r"月|季|春|夏|秋|冬|半年|旬|假|节|期间|黄金周|双十一|双11|618|元旦|寒|暑|日|号")
_SOMEONES_ZH = re.compile(r"[您你]|孩子|宝宝|小孩|子女|本人|家人|老人")
_A_MONTH_ZH = re.compile(r"哪个?月|几月|月份")
_ASKS_A_TIME_ZH = re.compile(r"哪一?年|哪个月|什么时候|何时|几月|几号|时间|日期|年份")
_WHOLE_LAND_ZH = r"全国|全球|全世界|世界|全省|全市"
_WIDER_THAN_ZH = {"省": re.compile(rf"^(?:{_WHOLE_LAND_ZH})$"), "市": re.compile(rf"^(?:{_WHOLE_LAND_ZH})$|省$"),
                  "城市": re.compile(rf"^(?:{_WHOLE_LAND_ZH})$|省$"), "区": re.compile(rf"^(?:{_WHOLE_LAND_ZH})$|[省市]$"),
                  "县": re.compile(rf"^(?:{_WHOLE_LAND_ZH})$|[省市]$")}
_QUOTED_MEANS_ZH = re.compile(r"[“\"「‘]([^”\"」’]+)[”\"」’](?:是|具体)?(?:指的是|是指|指)")  # what the need's own word means
# an English offer ("Would a chart help?", "Do you want ...?", "Should I ...?")
# the user as the subject of a verb of their own, not "Do you have a year in mind?" nor "Are you a student?"
# (nor "Are you limiting this to terrestrial mammals?", "Are you including ...?": what the search counts)
_ABOUT_THE_USER_EN = re.compile(rf"{TO_USER_AS_SUBJECT.pattern}(?!(?:\w+ly\s+)?(?:have|had|a|an|the|limiting|restricting|narrowing|"
                                r"including|counting|considering|excluding|covering|leaving|ranking|measuring|using|only|just|"
                                r"prefer|require|include|consider|count|treat|accept|allow|care|mind|expect|wish|like|exclude|"
                                r"rank|measure|use)\b)", re.IGNORECASE)  # ("Do you prefer flights without layovers?" asks the search)
_FIRST_PERSON_EN = re.compile(r"\b(?:I|my|me|we|our|us)\b")
_ACCEPTS = re.compile(r"\b(?:okay|ok|fine|acceptable|alright|all right)\b(?:\s+for you)?\s*\?*\s*$", re.IGNORECASE)
_OFFERS_EN = re.compile(r"\bhelp\b|\bwould you like\b|\bdo you (?:also )?(?:want|need)\b|\bshould I\b", re.IGNORECASE)
# whether a thing is so, or an offer of more ("需要附上下载链接吗？", "需要地级市的加发标准吗？"): not a guess of a
# value; not a yardstick ("需要按户籍人口统计吗？") nor a request for a kind ("是否需要具体到某个区的数据？")
_WHETHER_ZH = re.compile(r"有没有|是否有|考虑|^(?:请问)?(?:[您你])?(?:还|也)?(?:需要|需不需要|要不要|是否需要)(?!的|按|以)"
                         r"(?![^，。？?]*(?:某|特定|具体到))")
# a field said with its value: "终点是大兴机场站，对吗？", "出发地是北京吗？", "适用范围是广州吗？"
_FIELD_IS_ZH = re.compile(r"^[\u4e00-\u9fff]{1,3}(?:站|点|地|围|象|类)是(?![否不])")
_ASKS_MEANT_ZH = re.compile(r"您(?:是)?(?:想|要)?(?:问|指|说|了解|知道|查|关心)的?(?:是|就是)|您(?:要|需要)的是|您是(?:想|要)?(?:问|指|说|了解|知道|查)|确认一下"
                            r"|^(?:请问)?是(?![否不])|^(?:这里)?(?:问|说|指)的(?:是|就是)"
                            rf"|{_FIELD_IS_ZH.pattern}")  # "是广州市的政策吧？", "这里说的是…"


# Words a yes/no question may say of the query's thing without naming anything of it ("competition", "event")
_GENERIC_THING_EN = frozenset(tokenize("competition competitions event events contest tournament race one ones edition "
                                       "figure figures number data thing question"))
_CHECKING_EN = frozenset(tokenize("correct right check checking just confirm held took place hosted staged"))


def _qualifies_another_thing(guess: str, question: str, intent: str, span: str) -> bool:
    """A guessed name right before a common noun that the intent does not write after ``span``: it restricts
    a thing ("5G phones", "Apple phones"), it does not stand against the name the query left out ("the Oxford
    dictionary" against "Cambridge dictionary" does)."""
    if re.search(rf"\b(?:the|this|that)\s+(?:[\w-]+\s+){{0,2}}{re.escape(guess)}\b", question, re.IGNORECASE):
        return False  # "the Rembrandt seascape", "the first Asian writer" name one
    after_guess = re.search(rf"\b{re.escape(guess)}\s+([a-z][\w-]*)", question)
    if not after_guess or not tokenize(after_guess.group(1)) or holds(intent, after_guess.group(1), "en"):
        return False  # "Jupiter's moons" of a need for Saturn's moon: the intent's own thing, another owner
    after_span = re.search(rf"\b{re.escape(span)}\s+([\w-]+)", intent)
    return not (after_span and same_word(after_guess.group(1), after_span.group(1)))


_ALSO = re.compile(r"\b(?:too|also|as well|includ\w*|count(?:s|ed|ing)?)\b", re.IGNORECASE)  # asks for more of the thing


def _another_part(kind: str, intent: str, span: str) -> bool:
    """A request for a part or section of a whole ("a particular part of Texas") that the span left out is
    no part of: "far side" is the part of "the far side of the Moon", "public" no part of Texas."""
    whole = re.match(r"\s*(?:part|parts|section|sections)\s+of\s+(?:the\s+)?(?P<whole>[\w'’ -]+)", kind, re.IGNORECASE)
    return bool(whole) and not re.search(rf"\b{re.escape(span)}\s+of\s+(?:the\s+)?{re.escape(whole.group('whole').strip())}",
                                         intent, re.IGNORECASE)


def _qualified_otherwise(word: str, question: str, intent: str) -> bool:
    """The question says ``word`` after a content word the intent lacks: another of that thing ("commuter
    passengers" of a need by "annual passenger numbers"), not the intent's."""
    before = re.search(rf"\b([a-z][\w-]*)\s+{re.escape(word)}", question)
    return bool(before) and bool(tokenize(before.group(1))) and not holds(intent, before.group(1), "en") \
        and not _ALSO.fullmatch(before.group(1))  # "counting international students too?" counts the intent's own


_NAMED_OCCURRENCE = re.compile(r"\b(?:Games|Olympics|Cup|Open|Festival|Championships?|Grand Prix|Expo|Series|Bowl|Final|"
                               r"games|tournament|ceremony|edition|season|election|race|contest|festival|final|championships?|"
                               r"version|adaptation|remake|original)\b")  # what a year tells apart


def _meant_otherwise(question: str, intent: str, query: str, missing: list[str], guesses: list[str]) -> str | None:
    """The one block the query left out, for an English question of what is meant that guesses another value
    of it (not the answer: the rules of answer guesses come first): where the question describes its guess in
    words of no name that the query lacks ("Are you asking about the Disney movie?" of a need for the folk
    tale; not "Is the capital you have in mind Kinshasa?" of a query for the capital), or names an occurrence
    against a block that holds a name, a time or a number ("Do you mean the Vancouver Games?" of a need for
    2010). A bare name may be the answer itself ("Are you thinking of the Amazon?")."""
    outer = outermost(missing)
    if len(outer) != 1 or not _ASKS_WHAT_IS_MEANT.search(question) or ABOUT_THE_USER.search(question) \
            or len(re.findall(r"\byou(?:r|'ve|'d)?\b", question, re.IGNORECASE)) > 1:  # "the Games you went to"
        return None
    if guesses and all(_qualifies_another_thing(g, question, intent, outer[0]) for g in guesses):
        return None  # "Do you mean Apple phones?": a kind of the answers, no value of the need's
    if any(re.search(r"\d", g) and kind_of(g, "en") != kind_of(outer[0], "en") for g in guesses):
        return None  # "the 2020 census figure?" of a need for a city: a value of another slot
    occurrence = bool(_NAMED_OCCURRENCE.search(question))
    if kind_of(outer[0], "en") == "time" and not occurrence:
        return None  # a year is told by an occurrence; "the Conservatives led by Boris Johnson?" guesses the answer
    described = [w for w in re.findall(r"\b[a-z][\w'’-]*", _ASKS_WHAT_IS_MEANT.sub("", question))
                 if tokenize(w) and not holds(query, w, "en")]
    # a name of an occurrence ("the Sochi Games?" against 2014); a bare name may be the answer itself
    # ("James Whale?" of a need for the director of the 1931 film)
    named = occurrence and bool(re.search(r"\d|\b[A-Z][\w'’]*\b(?!-)", outer[0]))
    return outer[0] if described or named else None


def _query_confirmed_en(question: str, intent: str, query: str) -> str | None:
    """The longest run of a yes/no question's words that the query and the intent both write, a time or a place
    first, where every other content word of it is the query's too or a generic one ("The men's competition,
    correct?" -> "men's"; "this is the Grand Final that was held in Beijing, correct?" -> "Beijing")."""
    words = [w for w in content_words(question, "en") if w not in _GENERIC_THING_EN and w not in _CHECKING_EN]
    if not words or not all(holds(query, w, "en") for w in words) or ABOUT_THE_USER.search(question) \
            or re.search(r"\b(?:specific|particular|certain|exact)\b", question, re.IGNORECASE):
        return None  # "Are you from Kenya?" asks of the user; "Is there a specific stadium you mean?" asks which
    tokens = question.rstrip("?!. ").split()
    runs = {re.sub(r"^(?:the|a|an)\s+", "", " ".join(tokens[i:j]).strip(EDGE + ":"), flags=re.IGNORECASE)
            for i in range(len(tokens)) for j in range(i + 1, len(tokens) + 1)}  # "1998", not "the 1998"
    # as the intent writes it: "men's singles" for "Men's singles, correct?"
    held = [found.group() for r in runs if content_words(r, "en") and not set(content_words(r, "en")) <= _GENERIC_THING_EN
            and re.search(rf"\b{re.escape(r)}\b", query, re.IGNORECASE)
            and (found := re.search(rf"\b{re.escape(r)}\b", intent, re.IGNORECASE))]
    typed = [r for r in held if span_type(r, "en") in ("time", "region")]
    return max(typed or held, key=len, default=None)


def _query_confirmed_zh(question: str, intent: str, query: str) -> str | None:
    """The longest run of a question asking what is meant that the query and the intent both write, a time or
    a place first ("您问的是2024年度的缴存基数，对吧？" -> 2024年度); None for a question about the user
    ("您是本科学历吗？")."""
    found = _ASKS_MEANT_ZH.search(question)
    if not found:
        return None
    asked = question[found.end():]
    cuts = [0, *(end for _, _, end in answer_choices_zh.words(asked))]  # runs of whole words: not 2023年全 of 全国
    runs = list(dict.fromkeys(asked[i:j] for i in cuts for j in cuts if j - i >= 2))  # in order: ties go to the first
    held = [r for r in runs if r in intent and r in query and re.fullmatch(rf"[{CJK}\w]+", r)
            and content_words(r, "zh") and not any(r != o and r in o and o in intent and o in query for o in runs)]
    # the run qualifies what the question names after it (本科学历|对应的分值); a word of the question's own before
    # it qualifies the run instead (每次的|额度, 谢震业的|成绩), and a short untyped run may be a name (茅台的|投资价值)
    typed = [r for r in held if span_type(r, "zh") in ("time", "region")]
    # (or the thing the query asks the value of: 起售价 of "起售价是多少")
    sought = [r for r in held if re.search(re.escape(r) + r"(?:是|为|有)?(?:多少|几|哪|什么)", query)]
    run = max(typed or [r for r in held if len(r) >= MIN_RUN_ZH] or sought, key=len, default=None)
    run = run.rstrip("的") if run else run  # 单程票, not 单程票的
    if run and is_zh_place(run):  # 上海市 as the query writes it, for the 上海 of "这里说的是上海的居住证积分"
        run = next((run + level for level in "省市区县" if run + level in intent and run + level in query), run)
    if run is None or any(not holds(intent, w, "zh") and w not in _ADDS_NOTHING_ZH for w in content_words(asked[:asked.find(run)], "zh")):
        return None
    # the question's other words say what the need asks in other words (分值 of 多少分), or a time (全年), or nothing
    # of their own (对应); not another thing of it (下限, 计算方法, 中位数)
    measure = re.search(r"(?:多少|几)([\u4e00-\u9fff])", intent)  # 分 of 多少分: 分值 says it otherwise, 分数线 does not
    return run if all(w in _ADDS_NOTHING_ZH or span_type(w, "zh") == "time" or (measure and len(w) <= 2 and w[0] == measure.group(1))
                      for w in content_words(asked, "zh") if not holds(intent, w, "zh")) else None


# Words a Chinese confirmation may add to the query's own without naming anything more (对应 of "本科学历对应的
# 分值", 规定 of "成都的限行规定"); not answer_phrasing's words that are no guess, which a guess rule reads
_ADDS_NOTHING_ZH = frozenset(["对应", "相关", "具体", "全年", "年度", "全年度", "情况", "规定", "政策", "要求", "规则", "信息", "境内",
                              "价格", "标准", "数据"])


# The plain one of a thing the need qualifies: "the standard Model S?", "普通小客车指标吗？", "是标准版吗？"
_PLAIN_EN = re.compile(r"\b(?:standard|regular|ordinary|basic|base|normal|plain|vanilla)\s+(?P<next>[\w'’-]+)", re.IGNORECASE)
_PLAIN_ZH = re.compile(r"(?:普通|标准|基础|入门)(?P<next>[版款型])|普通(?P<thing>[\u4e00-\u9fff]{2,})")
_PLAIN_HEADS_EN = frozenset(["version", "edition", "model", "variant", "trim"])
# a plain price or ticket is no variant of the thing: "the standard price before incentives?", "a normal fare?"
_PRICES = frozenset(tokenize("price prices fare fares ticket tickets rate rates cost costs fee fees 票价 价格 门票 票"))


def _plain_instead(question: str, intent: str, query: str, missing: list[str], language: str) -> str | None:
    """The qualifier the need left out, where a yes/no question guesses the plain one of the query's thing
    (a plain word the need lacks before a word of the query's, or before "version", 版, 款)."""
    if not query or not is_yes_no(question, language) or ABOUT_THE_USER.search(question):
        return None  # "Are you a regular Costco shopper?"
    found = (_PLAIN_ZH if language == "zh" else _PLAIN_EN).search(question)
    if not found or holds(intent, found.group().split()[0] if language == "en" else found.group()[:2], language):
        return None
    if language == "zh":
        thing = found.group("thing") or ""
        of_query = bool(found.group("next")) or (bool(thing) and not any(p in thing for p in _PRICES)
                                                 and any(query.find(thing[:k]) >= 0 for k in (len(thing), 2)))
    else:
        after = found.group("next")
        # "a regular economy ticket?" for premium economy: the plain word stands for the span's qualifier
        qualified = [s for s in missing if len(s.split()) > 1 and s.split()[-1].lower() == after.lower()]
        if len(qualified) == 1:
            return qualified[0]
        of_query = after.lower() in _PLAIN_HEADS_EN or (holds(query, after, language) and not set(tokenize(after)) & _PRICES)
    left = [s for s in missing if kind_of(s, language) in (None, "name") and not holds(question, s, language)
            and not any(s != o and s in o for o in missing)]
    return left[0] if of_query and len(left) == 1 else None


def _what_is_meant(question: str, intent: str, query: str, missing: list[str]) -> Decision | None:
    """"Are you asking about the greatest footballer of all time?" of a need for the greatest road cyclist:
    a question for what the user means that describes it in words the intent lacks. The user says what
    they mean, the span the query left out, neither yes nor no: the intent neither says nor denies the
    description. Only a span of no kind (a kind, a field, a description: "road cyclist", "in science"),
    and only where the query left out one such span; not a question that names a value (a name, a time, a
    number: the other rules') or points at the answer with "that" or "it"."""
    if not query or not _ASKS_WHAT_IS_MEANT.search(question):
        return None
    untyped = _untyped_left_out(missing, query)
    if len(untyped) != 1 or ALSO.search(question):  # "Are you interested in its melting point too?" offers more
        return None
    described = [w for w in content_words(before_relative(question), "en") if not holds(intent, w, "en")]
    if not described or guessed(before_relative(question), intent, "en") or _POINTS_AT_THE_ANSWER.match(question):
        return None  # "Are you thinking of the Amazon?", "Is that blue agave you're thinking of?" guess the answer
    return Decision(re.sub(r"^(?:Which|What|Whose)\s+", "", untyped[0]), "meant", reply="")  # not "Which footballer ..."


def _untyped_left_out(missing: list[str], query: str) -> list[str]:
    """The spans of no kind the query left out (a kind, a field, a description: "saltwater", "in athletics"):
    not a word the query says too ("area" of "metropolitan areas"), nor a part of a longer one ("footballer"
    of "footballer and boxer")."""
    untyped = [s for s in missing if span_type(s, "en") is None
               and not all(holds(query, w, "en") for w in content_words(s, "en"))]
    return [s for s in untyped if not any(s != o and s in o for o in untyped)]


def _whole_name(span: str, missing: list[str]) -> str:
    """The longest span the query left out that is ``span`` with more of its name: "433 Eros" for "Eros"
    (not "433 Eros in days")."""
    whole = [s for s in missing if span in s and all(w[:1].isupper() or w[:1].isdigit() or w in NAME_JOINERS | {"and"}
                                                     for w in s.replace(span, " ").split())]  # "Year of the Four Emperors"
    return max(whole, key=len, default=span)



def _variant_of(question: str, missing: list[str], language: str) -> str | None:
    """The span the query left out of which a guessing question names another variant: it names some of
    the span's words and not the others ("Middle English" for "Old English", "the German state of Bavaria"
    for "the Bavarian dialect area", "the Republic of the Sudan" for "South Sudan")."""
    asked = tokenize(question)
    for span in missing:
        words = content_words(span, language)
        named = [w for w in words if any(same_word(w, t) for t in asked)]
        if named and len(named) < len(words):
            return span
    return None


def _kinds_only(offered: list[str]) -> bool:
    """Alternatives that name kinds of value, no value ("a specific continent", "region"; "year or decade")."""
    return all(content_words(p, "en") and set(content_words(p, "en")) - _ONLY_ASK <= _KIND_NOUNS for p in offered)


# words around kinds offered that only ask ("Is there a particular continent or country you're focusing on?")
_ONLY_ASK = frozenset(tokenize("particular specific certain given single focusing focused focus interested mind looking"))


def _offers_kind(question: str, kind: str | None) -> bool:
    """One of the alternatives of an either-or question is a value of ``kind`` ("after 1900", "in Asia")."""
    return any(span_type(part, "en") == kind or (kind == "time" and _TIME_NOUN.search(part))
               for part in alternatives(question, "en"))


def _takes_a_side(question: str, intent: str, spans: list[str], language: str, query: str) -> bool:
    """The intent holds a word that one alternative of the question has and the others lack, not one the
    query says too ("美国东部时间还是北京时间？" for "美国总统大选…"), or a value of the kind an alternative is
    ("去年的数据还是更早的？" for a need that names 2024年)."""
    offered = alternatives(question, language)
    # A place word names many things; "农历日期还是公历日期" offers no value of a time, "去年的还是更早的" does.
    kinds = {span_type(p, language) for p in offered if language != "zh" or _VALUE_ZH.search(p)} & {"time", "number"}
    if any(span_type(s, language) in kinds for s in spans):
        return True
    sides = [content_words(p, language) for p in offered]
    if any(holds(intent, w, language) and not (query and holds(query, w, language))
           and (language == "en" or telling_zh(w, offered)) for w in own_words(sides)):
        return True
    # Parallel alternatives ("一战还是二战", "男子还是女子比赛"): the intent takes a side when it holds a
    # character that tells them apart ("第二次世界大战", "男篮"), or its numeral (二 -> 2: "第2次").
    digits = zh_numerals_to_digits(intent)
    said = {c for side in sides for w in side if query and holds(query, w, language) for c in w}  # 常住 of 常住人口
    return any((c in intent or zh_numerals_to_digits(c) in digits) and telling_zh(c, offered) and c not in said
               and not (query and c in query and c not in "一二三四五六七八九十两")  # the 线 of 全线 is the query's 线路 too
               for chars in answer_choices_zh.contrasts(offered, sides) for c in chars)


def _too_coarse_zh(question: str, span: str) -> bool:
    """A question for a day ("您打算哪天出发？") that a time of the need's does not answer: a year or a month
    (2024年), no date, weekday or holiday; a question for a spot ("您从哪个站上车？") that a city does not; a
    question for the user's birth, age or household registration that no time, number or place of the
    need's answers unless it says so."""
    kind = span_type(span, "zh")
    return (bool(_ASKS_A_DAY_ZH.search(question)) and kind == "time" and not _A_DAY_ZH.search(span)) \
        or (bool(_ASKS_A_SPOT_ZH.search(question)) and kind == "region" and is_zh_place(span)) \
        or (bool(_PERSON_ZH.search(question)) and kind in ("time", "number", "region") and not _PERSON_ZH.search(span))


def _asked_zh(question: str) -> set[str | None]:
    """The kinds of value a Chinese question asks for: its class, and a time or a number by its wh-word
    ("您打算几月去？" classifies as a preference and asks for a month)."""
    kinds: set[str | None] = {k for k, weight in scores(question).items() if weight >= ASKS_IN_WORDS_ZH}  # not 现在
    if _WHEN_ZH.search(question):
        kinds.add("time")
    if _HOW_MANY_ZH.search(question):
        kinds.add("number")
    return kinds


def _names_any(question: str, intent: str, language: str) -> bool:
    """The question names something the intent holds (a word of it, in any form)."""
    return any(holds(intent, w, language) for w in content_words(question, language))


# A value a Chinese question brings beside the need's, not in its place: a comparison, an offer, a stop on
# the way, a publication date ("您想和深圳对比一下吗？", "中途在泉州停靠吗？", "是2023年发布的收费文件吗？")
_ASIDE_ZH = re.compile(r"对比|相比|比较|参考|附上|一起|都|包括|包含|顺便|经停|中途|停靠|途经|发布|出台|公布|调整")


def _rival_of_the_querys_place_zh(question: str, guesses: list[str], intent: str, query: str, missing: list[str]) -> str | None:
    """The one gazetteer place a Chinese query names (and the intent too) that a guessed place of its level stands
    against, where the need left out no place ("这里说的是深圳的常住人口吗？" of "广州市常住人口是多少？"), and the
    guess is no value brought beside it."""
    held = [w for w, _, _ in answer_choices_zh.words(query) if is_zh_place(w) and w in intent] if query else []
    if len(held) != 1 or _ASIDE_ZH.search(question) \
            or any(is_zh_place(w) for s in missing for w, _, _ in answer_choices_zh.words(s)):
        return None
    return rival_place_zh(question, guesses, "", held)


def _described_in(name: str, intent: str) -> bool:
    """The intent describes ``name`` with words of its own before it ("the conductor Herbert von Karajan")."""
    return bool(re.search(rf"\bthe\s+(?:[a-z][\w-]*\s+|[A-Z][a-z]+(?:n|an|ese|ish|ch)\s+){{1,3}}{re.escape(name)}", intent))


def _dated_edition(question: str, missing: list[str], language: str) -> bool:
    """A question for an occurrence ("Which season?", "Which Oscars ceremony?", "Which election?") of a need the
    query left a time out of, and no name besides it, not within it: the year tells the occurrence (not for
    Wimbledon of "the 2008 title at Wimbledon"; the NHL of "the 1993–94 NHL season" is within its time)."""
    times = [t for t in missing if span_type(t, language) == "time"]
    return bool(_WHICH_EDITION.search(question)) and bool(times) and not any(
        span_type(s, language) is None and s[:1].isupper() and not any(s in t for t in times) for s in missing)


_GRADE_ZH = re.compile(r"哪一?级(?![别行政])|哪个(?:级别|等级)|什么(?:级别|等级)|几级")


def _typed(question: str, missing: list[str], spans: list[str], language: str, intent: str,
           query: str = "") -> Decision | None:
    asking = _asking_part(question)  # "哪一年的标准？价格调整过好几次。" asks a year, whatever its reason counts
    asked = classify(asking)
    if asked not in TYPED and _dated_edition(asking, missing, language):
        asked = "time"  # "Which election are you thinking of?" of a need dated 1955: an occurrence, told by its year
    if asked not in TYPED:
        return None
    if asked == "time" and language == "zh" and _USERS_NOW_ZH.search(asking) and not _ASKS_A_TIME_ZH.search(asking):
        return Decision(UNKNOWN, "typed")  # "您目前是按60%还是100%的档次缴费？", "您现在读大几？": the user's present, no time
    if asked == "time" and language == "zh" and _BORN_ZH.search(asking) and _SOMEONES_ZH.search(asking) \
            and not _BORN_ZH.search(intent):
        return Decision(UNKNOWN, "typed")  # "请问孩子是哪年几月出生的？": a birth the need does not date
    if asked == "time" and language == "zh" and _A_MONTH_ZH.search(asking) and TO_USER.search(asking) \
            and not _ASKS_MEANT_ZH.search(asking) \
            and not any(_PART_OF_A_YEAR_ZH.search(s) for s in missing if span_type(s, language) == "time"):
        # (not 暑假期间, 双十一期间: a part of a year may answer it)
        return Decision(UNKNOWN, "typed")  # "您具体是在哪个月份离职的？" of a need dated 2022年: the user's month, which no year says
    if asked == "region" and language == "zh" and _GRADE_ZH.search(asking):
        # "您一般在哪一级医院就诊？" asks a grade, not a place: the need's grade, if it says one ("三级医院")
        thing = re.search(r"级(?:别|的)?([\u4e00-\u9fff]{2})", asking)  # 医院 of 哪一级医院
        graded = [s for s in missing if re.search(r"[一二三四五六七八九十\d]级|[省市县区]级|[一二三]甲|级别|等级", s)
                  and (not thing or thing.group(1) in s or s + thing.group(1) in intent)]  # not a 一级建造师 of the need
        return Decision(min(graded, key=len) if graded else UNKNOWN, "typed")
    level = re.search(r"哪(?:个|一)?(省|市|城市|区|县)", asking) if asked == "region" and language == "zh" else None
    if level and (ABOUT_THE_USER.search(asking) or re.search(r"[您你](?:所在|在|户籍|户口)", asking)):
        # "您是在哪个省领取养老金的？" of a need for 全国, "您在哪个区申请？" of one for 深圳市: where the user is,
        # which a need of a wider place does not say
        # (with their parts and the blocks that hold them: "杭州" and "杭州市新生儿" of 杭州市)
        wider = [s for s in spans if _WIDER_THAN_ZH[level.group(1)].search(s)]
        missing = [s for s in missing if not any(s in w or w in s for w in wider)]
        spans = [s for s in spans if not any(s in w or w in s for w in wider)]
    if asked == "region" and language == "en":  # "Which country's GDP?" is not answered by the "US" of "US dollars"
        missing = [s for s in missing if not names_a_currency(s, intent)]
        spans = [s for s in spans if not names_a_currency(s, intent)]
    if asked == "time" and (_ASKS_A_DATE.search(asking) or ABOUT_THE_USER.search(asking)):
        # "哪一年的车型？" is not answered by 开通时, nor "When did you visit the bridge?" by "after Roebling died"
        missing = [s for s in missing if not is_time_clause(s)]
        spans = [s for s in spans if not is_time_clause(s)]
    kinds = {k for k, weight in scores(asking).items() if k in TYPED and weight >= STRONG_CUE}
    if len(kinds) > 1:  # "Which region and era?": the block that holds a place and a time
        both = [s for s in missing if set().union(*(span_kinds(o, language) for o in missing if o in s)) >= kinds]
        if both:  # of the level asked, if one is ("Which country and year?")
            return _at_level(question, both) if "region" in kinds and language == "en" else Decision(both[0], "typed")
    # "284 to 305" and its parts are years where the intent dates them ("ruled from 284 to 305"); the range
    # answers a question for a time when the query left out no time of its own
    bare = unique([re.sub(r"[,;]?\s+(?:and|or)$", "", s.strip()).strip(EDGE) for s in missing])
    years = [s for s in bare if dated(s, intent)] if asked == "time" and language == "en" else []
    if years and not any(span_type(s, language) == "time" for s in missing):
        return Decision(next(d for d in years if not any(d != o and d in o for o in years)), "typed")

    def during(span: str) -> str | None:  # "during the Suez Crisis": a named event that dates the need
        found = re.search(rf"\b(?:during|amid|amidst|throughout|at the time of|in the wake of)\s+(?:the\s+)?{re.escape(span)}",
                          intent) if language == "en" and span[:1].isupper() and span_type(span, language) != "time" \
            and not _ASKS_A_YEAR.search(asking) else None  # not "during pregnancy", nor an answer to "Which year?"
        return found.group() if found else None

    def kind(span: str) -> str | None:
        return "time" if any(span in d for d in years) or during(span) else span_type(span, language)

    # else a block that holds one ("Tang-dynasty China" for "Which country?")
    of_kind = [s for s in missing if kind(s) == asked] or [s for s in missing if asked in span_kinds(s, language)]
    if language == "zh" and asked == "region" and _ASKS_A_COUNTRY_ZH.search(asking):
        of_kind = [s for s in of_kind if not _WITHIN_A_COUNTRY_ZH.search(s)]  # 上海市 tells no 国籍
    # A block that also holds a value of another kind ("2023年杭州" for "Which year?") gives way to its part.
    # (a number within a time is of it: "second quarter of 2013")
    pure = [s for s in of_kind if not any(o != s and o in s and kind(o) not in (asked, None)
                                          and not (asked == "time" and kind(o) == "number") for o in missing)]
    if of_kind and asked == "region" and language == "en":
        return _at_level(question, pure or of_kind)
    edition = _WHICH_EDITION_ZH.search(asking) if language == "zh" and asked == "time" else None
    if edition:  # "请问是哪一届奥运会？" of a need for the 里约奥运会 or the 2024年巴黎奥运会: the edition by its whole name
        thing = edition.group("thing")
        named = [s for s in missing if s + thing[:2] in intent]
        if not named and thing[:2] in _GENERIC_EVENTS_ZH:  # "是哪一届比赛？" of 2008年北京奥运会: the event the need names
            events = [s for s in missing if re.search(rf"{YEAR}年|第.{{1,4}}届", s) and re.search(r"(?:会|赛|节|展|杯)$", s)]
            if events:
                return Decision(max(events, key=len), "typed")
        if named:
            span = max(named, key=len)
            return Decision(span + thing if span + thing in intent else span, "typed")
    if of_kind:
        span = (pure or of_kind)[0]
        if language == "zh" and asked == "time" and _WHEN_ANY_ZH.search(asking):
            span = max(pure or of_kind, key=len)  # "是从什么时候开始执行的？" asks no year: 2023年7月起, not 2023年
        return Decision(during(span) or span if asked == "time" else span, "typed")
    # an ordinal of the event itself: not where the query dates it ("fourth in the 2010 World Cup") or counts in
    # it ("season 8")
    edition = [s for s in missing if is_ordinal(s) or is_ordinal(s.split()[0])] \
        if asked == "time" and _WHICH_EDITION.search(asking) and not re.search(r"\d", query) else []
    if edition:  # "Which edition of the tournament?" of "the sixth men's Rugby World Cup"
        return Decision(edition[0], "typed")
    level = asked_level(question) if asked == "region" and language == "en" else None
    # "Which city's central station?" of "Helsinki Central railway station": a name that holds a place of the level asked
    owned = re.search(r"\bwhich\s+\w+['’]s\s+([\w-]+)", question, re.IGNORECASE)  # "which city's central station"
    holding = [s for s in missing if level and owned and _near(owned.group(1), s, intent)
               and any(level in levels_as_written(w) for w in re.findall(r"\b[A-Z][\w'’-]+", s))]
    if holding:
        return Decision(holding[0], "typed")
    venue = _venue(question, intent) if asked == "region" and language == "en" else None
    if venue:  # "Where is the tournament played?" of "at Augusta National": the ground the intent names
        return Decision(venue, "typed")
    # "Under what temperature conditions?" of "at room temperature": the question names what only a span holds
    named = [s for s in missing if span_type(s, language) in (asked, None) and any(
        holds(s, w, language) and not holds(query, w, language) for w in content_words(question, language))] \
        if query and language == "en" and asked != "region" and not asks_a_fact(question) else []
    if named:
        return Decision(named[0], "typed")
    typed = [s for s in spans if span_type(s, language) == asked]
    if language == "zh" and asked == "region" and _ASKS_A_COUNTRY_ZH.search(asking):
        typed = [s for s in typed if not _WITHIN_A_COUNTRY_ZH.search(s)]
    if asked == "region" and language == "en" and asked_level(question) and not _ASKS_WHAT_IS_MEANT.search(question):
        # "Which continent does the lake belong to?" asks a fact the world's does not give; "Which continent
        # do you mean?" may well be answered "the world"
        typed = [s for s in typed if not of_other_level(s, asked_level(question))]
    if typed:  # one the query holds too: the model chooses
        return None
    return Decision(UNKNOWN, "typed")


# where something is played or held, and a ground the intent names after "at" (not an event: "at the 2012 Olympics")
_WHERE_HELD = re.compile(r"\bwhere\b.*\b(?:played|held|staged|hosted|contested|take[sn]?\s+place|took\s+place|located|situated)\b|"
                         r"\b(?:which|what)\s+(?:venue|course|stadium|ground|arena|circuit)\b", re.IGNORECASE)
_AT_A_GROUND = re.compile(r"\bat\s+(?:the\s+)?((?:The\s+)?[A-Z][\w'’.-]*(?:\s+(?:of\s+)?[A-Z][\w'’.-]*)*)")
_EVENT_WORDS = re.compile(r"\b(?:Olympics?|Games|Open|Cup|Championships?|Festival|Awards?|Summit|Conference|Expo|Grand Prix|"
                          r"Series|Tournament|Classic|Masters|Bowl|Trophy|Congress)\b")


def _venue(question: str, intent: str) -> str | None:
    """The ground the intent puts its event at, for a question of where it is played or held."""
    if not _WHERE_HELD.search(question):
        return None
    grounds = [m.group(1) for m in _AT_A_GROUND.finditer(intent) if not _EVENT_WORDS.search(m.group(1))]
    return grounds[0] if len(grounds) == 1 else None


# a yes/no question about what the user does or wants done ("Are you applying from overseas?", "Do you want the
# value converted into another currency?"): words of its own that neither the need nor the query says ask more
_SAYS_MORE = re.compile(r"^\W*(?:are|were)\s+you\s+(?!(?:asking|looking|thinking|referring|talking|focusing|interested|"
                        r"searching|hoping|trying|wondering|planning|counting|including|considering|going|meaning|"
                        r"after|seeking|wanting|needing|comparing|checking|getting|using|limiting)\b)\w+ing\b|^\W*do\s+you\s+(?:want|need)\s+(?:the|it|them|this)\b[^?]*?\b"
                        r"(?:converted|translated|broken\s+down|split|adjusted|rounded)\b", re.IGNORECASE)  # (what follows it)
_INCLUDES = re.compile(r"\b(?:include[sd]?|including|count(?:ed)?|cover(?:ed)?)\b", re.IGNORECASE)
_SOURCE_PHRASE = re.compile(r"(?:according to|as reported by|as measured by|as estimated by|per)\b", re.IGNORECASE)
_ASKS_A_COUNTRY_ZH = re.compile(r"哪个?国家|哪国|国籍")
_WITHIN_A_COUNTRY_ZH = re.compile(r"[省市县]|(?:区|镇|乡|州)$")  # 上海市, 上海市办理涉外; not 日本


def _near(word: str, span: str, intent: str) -> bool:
    """``word`` is in the span or one of the two words after it in the intent ("central" of "Helsinki
    Central railway station")."""
    stretch = re.search(rf"{re.escape(span)}(?:\s+[\w-]+){{0,2}}", intent)
    return bool(stretch) and word.lower() in stretch.group().lower()


def _asking_part(question: str) -> str:
    """The sentences of a question that ask (end in a question mark), without those that give a reason
    ("价格调整过好几次。", "Rome burned more than once."); the whole question when none does."""
    sentences = re.split(r"(?<=[。！!？?])|(?<=\.)\s+(?=[A-Z])", question)  # not "D.C." or "i.e."
    asking = "".join(s for s in sentences if s.strip().endswith(("?", "？")))
    return asking.strip() or question


def _in_the_spans_clause(question: str, intent: str, query: str, span: str) -> bool:
    """The question's thing is in the query's clause that matches the intent's clause holding the span
    ("Which writer ...?" and "Which novels did the writer produce"), or in no clause of the query at all;
    not in another clause only ("Which poem ...?" of "Which Romantic poet wrote it, and which poem ...?")."""
    asked, own = clauses(intent), clauses(query)
    at = next((i for i, clause in enumerate(asked) if span in clause), None)
    words = content_words(question, "en")
    holding = [i for i, clause in enumerate(own) if any(holds(clause, w, "en") for w in words)]
    return not holding or at is None or len(asked) != len(own) or at in holding


def _at_level(question: str, places: list[str]) -> Decision:
    """A question for one level of place ("Which country?") is answered by the first place not known to
    be of another level only; "Tangshan, Hebei" (a city) does not say the country: unknown."""
    level = asked_level(question)
    fitting = [p for p in places if level is None or not of_other_level(p, level)]
    return Decision(fitting[0] if fitting else UNKNOWN, "typed")


def _with_rivals_of_other_kinds(rival: str, guesses: list[str], intent: str, missing: list[str]) -> str:
    """The rival with the need's value of every other kind the question guesses, as the intent writes them
    together: "1968 invasion of Czechoslovakia" for "Do you mean the 1956 intervention in Hungary?" (a year
    and a place guessed; the query left out both). The rival alone where the intent writes them apart."""
    start, end = intent.find(rival), intent.find(rival) + len(rival)
    for kind in {kind_of(g, "en") for g in guesses} - {kind_of(rival, "en"), None}:
        # (a place may be one no list names: "Czechoslovakia" is a name to kind_of)
        of_kind = [s for s in outermost(missing) if s not in rival
                   and (kind_of(s, "en") == kind or (kind == "region" and kind_of(s, "en") == "name"
                                                    and re.search(rf"\b(?:in|of|at) {re.escape(s)}", intent)))]
        if len(of_kind) != 1 or start < 0:
            return rival
        at = intent.find(of_kind[0])
        start, end = min(start, at), max(end, at + len(of_kind[0]))
    joined = intent[start:end]
    return joined if start >= 0 and len(joined.split()) <= 6 and not re.search(r"[,;:?]", joined) else rival


def _first_holding(words: list[str], missing: list[str], spans: list[str], language: str,
                   shortest: bool = False, question: str = "") -> str | None:
    """The first span the query left out that holds every word (whole blocks come before their parts;
    ``shortest``: a title ``question`` writes whole first, then the shortest of them that is a time, a number
    or a place, if any), else the shortest of the intent's spans that does; else the span holding most of them."""
    holding = [s for s in missing if all(holds(s, w, language) for w in words)]
    if holding:
        # a title the question writes whole first ("《财富》" of "是《财富》杂志的榜单吗？", not 2022年《财富》)
        titles = [h for h in holding if shortest and h.startswith("《") and h in question]
        typed = [h for h in titles or holding if span_type(h, language) in TYPED] if shortest else []
        return min(typed, key=len) if typed else max(titles, key=len) if titles else holding[0]
    holding = [s for s in spans if all(holds(s, w, language) for w in words)]
    if holding:
        return min(holding, key=len)
    scored = [(sum(holds(s, w, language) for w in words), -len(s), s) for s in [*missing, *spans]]
    best = max(scored, default=(0, 0, ""))
    return best[2] if best[0] else None


def offered_for(question: str, spans: list[str], missing: list[str], language: str) -> list[str]:
    """The spans a model is offered for one question: what the query left out, then the spans the question
    points at (they share a word with it: "Population figures from which census?" -> "2020 census") or
    that are of the kind it asks for (a time, a place, a number). A wide list invites a small model to pick
    a phrase the query already holds ("Which fantasy series?" -> "fantasy series"), so the rest is left
    out. A question for a value is never answered with its own words: those spans are dropped for it."""
    if language == "zh":  # a Chinese question names its value by paraphrase more often than by a shared word
        return spans[:MAX_CHOICES]
    words = content_words(question, language)
    asked = classify(question)
    pointed = [s for s in spans if s not in missing and (any(holds(s, w, language) for w in words)
                                                         or span_type(s, language) == asked)]
    # a which-question for a thing of no typed kind may ask for the one the query names ("Which storm?" of
    # Typhoon Haiyan): the query's names are offered too, never its other phrases
    asks_a_thing = asked not in TYPED and bool(_WHICH_THING.match(question)) and not is_yes_no(question, language)
    named = [s for s in spans if asks_a_thing and s not in missing and capitalised_runs(s, skip_first=False) == [s]]
    offered = unique([*missing, *pointed, *named])
    if not is_yes_no(question, language) and not is_either_or(question, language):
        offered = [s for s in offered if not echoes(s, question, language)] or offered
    return offered[:MAX_CHOICES]
