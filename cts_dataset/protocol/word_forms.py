"""When an answer's word is the intent's word in another form: a derived form (Mexican/Mexico,
Indonesian/Indonesia), an irregular demonym (French/France), a number written as a word or in Chinese
numerals (two/2, 二〇二三/2023), or a Chinese place name with or without its administrative suffix
(北京市/北京). The answer guard accepts these: they say nothing the intent does not say.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from cts_dataset.text import CJK, tokenize

MIN_SHARED_PREFIX = 4  # "Peru"/"Peruvian"; shorter words must match exactly
# What a derived form adds (stems: "chines" for Chinese, "germani" for Germany).
_ENDINGS = frozenset(("n", "an", "ian", "vian", "ean", "es", "ese", "s", "i", "ish", "ic"))

# Demonyms that do not share the country's stem (tokenised forms: Snowball stems).
_DEMONYMS = {
    "franc": "french", "netherland": "dutch", "holland": "dutch", "wale": "welsh", "spain": "spanish",
    "britain": "british", "norway": "norwegian", "sweden": "swedish", "denmark": "danish", "finland": "finnish",
    "greec": "greek", "switzerland": "swiss", "portug": "portugues", "ireland": "irish", "scotland": "scottish",
    "poland": "polish", "turkey": "turkish", "thailand": "thai", "philippin": "filipino", "england": "english",
    "iraq": "iraqi", "pakistan": "pakistani", "israel": "isra", "kuwait": "kuwaiti", "yemen": "yemeni",
    "bangladesh": "bangladeshi", "afghanistan": "afghan", "lebanon": "lebanes", "cyprus": "cypriot",
    "madagascar": "malagasi", "monaco": "monegasqu", "belgium": "belgian", "argentina": "argentin",
    "flander": "flemish", "florenc": "florentin", "venic": "venetian", "napl": "neapolitan", "moscow": "muscovit",
    "pari": "parisian", "catalonia": "catalan",
}
_DEMONYM_PAIRS = {frozenset(pair) for pair in _DEMONYMS.items()}
IRREGULAR_DEMONYMS = frozenset(_DEMONYMS.values())  # stems of demonyms that do not share the country's
MIN_STEM = 5  # a shorter stem begins too many words ("con", "dis")
# a sex said as a noun or as an adjective ("the first woman" is "the first female laureate")
_SEX_PAIRS = {frozenset(pair) for pair in [("woman", "femal"), ("women", "femal"), ("man", "male"), ("men", "male")]}

_UNITS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
          "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty"]
_TENS = {"thirti": 30, "forti": 40, "fifti": 50, "sixti": 60, "seventi": 70, "eighti": 80, "nineti": 90,
         "hundr": 100, "thousand": 1000, "million": 1_000_000}
_ORDINALS = ["", "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth"]
_NUMBER_WORDS: dict[str, str] = {}
for _value, _word in enumerate(_UNITS):
    _NUMBER_WORDS.update({t: str(_value) for t in tokenize(_word)})
for _word, _value in _TENS.items():
    _NUMBER_WORDS[_word] = str(_value)
for _value, _word in enumerate(_ORDINALS[1:], start=1):
    _NUMBER_WORDS.update({t: str(_value) for t in tokenize(_word)})
_NUMBER_WORDS.update({"1st": "1", "2nd": "2", "3rd": "3"})

_ZH_DIGITS = {"〇": 0, "零": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
_ZH_NUMERAL = re.compile("[〇零一二两三四五六七八九十百千]{2,}|[二两三四五六七八九十]")
_ZH_SUFFIX = "省市县区州镇乡村国人"  # 北京市/北京, 中国人/中国


def zh_numerals_to_digits(text: str, apart: str = "") -> str:
    """Chinese numerals written as digits: 二〇二三年 -> 2023年, 十二 -> 12, 两千 -> 2000; ``apart`` set
    around each ("HPV九价" -> "HPV 9 价" with a space, so the name stays a word of its own)."""
    return _ZH_NUMERAL.sub(lambda m: f"{apart}{_zh_number(m.group(0))}{apart}", text)


def _zh_number(run: str) -> str:
    if not any(c in "十百千" for c in run):  # a digit sequence: 二〇二三
        return "".join(str(_ZH_DIGITS[c]) for c in run)
    total, digit = 0, 0
    for char in run:
        if char in _ZH_DIGITS:
            digit = _ZH_DIGITS[char]
        else:
            total += (digit or 1) * {"十": 10, "百": 100, "千": 1000}[char]
            digit = 0
    return str(total + digit)


def number_of(token: str) -> str | None:
    """The digits a token stands for ("two" -> "2", "2nd" -> "2", "12" -> "12"), or None."""
    if token.isdecimal() and token.isascii():  # not "①" or "²": int() refuses them
        return str(int(token))
    return _NUMBER_WORDS.get(token)


def same_word(a: str, b: str) -> bool:
    """Two tokens are one word in two forms (see the module's docstring)."""
    if a == b:
        return True
    if (na := number_of(a)) is not None and na == number_of(b):
        return True
    if frozenset((a, b)) in _DEMONYM_PAIRS or frozenset((a, b)) in _SEX_PAIRS:
        return True
    if re.match(rf"[{CJK}]", a) or re.match(rf"[{CJK}]", b) or a.isdigit() or b.isdigit():
        return False
    short, long = sorted((a, b), key=len)
    shared = len(short) if long.startswith(short) else next(i for i, (x, y) in enumerate(zip(short, long)) if x != y)
    # One changed ending at most, and a derivational one: Mexico/Mexican, Indonesia/Indonesian, Japan/Japanese,
    # but not Austria/Australia, Niger/Nigeria, India/Indiana, John/Johnson.
    return (len(short) >= MIN_SHARED_PREFIX and shared >= max(MIN_SHARED_PREFIX, len(short) - 1)
            and long[shared:] in _ENDINGS)


def same_stem(a: str, b: str) -> bool:
    """One word in two forms, or in two derived forms whose stems begin alike ("conductor" and "conductivity",
    stems "conductor" and "conduct"; "discovery" and "discovered")."""
    return same_word(a, b) or (min(len(a), len(b)) >= MIN_STEM and (a.startswith(b) or b.startswith(a)))


def comparable_tokens(text: str) -> list[str]:
    """The guard's tokens of a text: Chinese numerals as digits, an administrative suffix dropped from a
    Chinese run (北京市 -> 北京) so that either form matches the other."""
    text = zh_numerals_to_digits(text, apart=" ")  # "HPV九价": not "hpv9"
    text = re.sub(r"(?<=[A-Za-z])(?=\d)|(?<=\d)(?=[A-Za-z])", " ", text)  # "iPhone15" is "iPhone 十五" too
    text = re.sub(rf"([{CJK}]{{2,}})[{_ZH_SUFFIX}](?=[^{CJK}]|$)", r"\1", text)
    return tokenize(text)


def unsupported(answer: str, intent: str) -> list[str]:
    """Tokens of ``answer`` that no form of any token of ``intent`` accounts for."""
    known = set(comparable_tokens(intent))
    return [t for t in dict.fromkeys(comparable_tokens(answer)) if t not in known and not _any_form(t, known)]


def _any_form(token: str, known: Iterable[str]) -> bool:
    return any(same_word(token, k) for k in known)
