"""What a choosing user answerer may say: spans of its intent, ``unknown``, and for a yes/no question a
yes or a no with its span.

A small model is better at choosing than at writing, so the answerer is offered a short list of the
intent's own words and picks one under a choice grammar. The list begins with what the user's query
lacks, computed from the pair (intent, query) without annotations: the words of the intent that the
blurred query does not hold, as they stand, and their parts (a place, a year, a name). Then come the
intent's other phrases, for a question whose answer the query already holds.
"""

from __future__ import annotations

import re
from difflib import SequenceMatcher

from cts_dataset.protocol import answer_choices_zh, word_forms
from cts_dataset.protocol.span_types import TYPED, span_type
from cts_dataset.protocol.views import UNKNOWN
from cts_dataset.text import CJK, tokenize

CHOICES_VERSION = 1
MAX_CHOICES = 16  # besides unknown: a list a small model reads whole
MAX_PHRASE_WORDS = 7

# Words that end an English phrase of the intent: question words, auxiliaries, prepositions, conjunctions.
_BREAK = frozenset(
    "what which who whom whose when where why how is are was were be been do does did has have had can could will "
    "would should may might shall and or but in on at of from to for by with during since until about between "
    "into over under than as it its they them their there this that these those".split())
_LEADING = frozenset("the a an in on at of from to for by with during since its".split())
_EDGE = ".,;:!?\"'()[]“”‘’"
_WORD = re.compile(r"\S+")

# A question with no question word and no alternatives asks to confirm ("Is that Kraków?", "So the capital
# between 1948 and 1976?", "是2022年那届吗？").
_WH_EN = re.compile(r"\b(?:what|which|who|whom|whose|when|where|why|how)\b", re.IGNORECASE)
_WH_ZH = re.compile(r"哪|什么|多少|几|谁|怎么|怎样|如何|为什么|为何|何时|何地")
# A yes/no question with no guess of its own ("Do you mean a particular year?") is answered yes.
_OPEN_CUE = re.compile(r"\b(?:particular|specific|certain|any|some|specifically)\b|特定|具体|某个|某一", re.IGNORECASE)
# Words of asking, not of what is asked about.
_ASKING_EN = frozenset(tokenize(
    "mean meant meaning ask asking asked talk talking refer referring interested interest want wanting look looking "
    "about question one ones you your please exactly just sure right correct so thinking think mind kind sort type "
    "specifically particular specific certain any some only really actually assume guess exact thing something case "
    "like know tell say said correctly understand wondering confirm check talked well okay ok yes no also"))
_ASKING_ZH = frozenset("您 你 说 说的 指 指的 问 想 想问 想知道 知道 意思 是说 对吧 对 吗 吧 呢 那次 那个 这个 那届 那座 那条 那种 "
                       "那部 那位 版本".split())


def _clean(text: str) -> str:
    return text.strip(_EDGE + " ")


def _without_leading(words: list[str]) -> list[str]:
    """The words without the function words at either end ("the Indonesian island of" -> "Indonesian island")."""
    while words and words[0].lower().strip(_EDGE) in _LEADING:
        words = words[1:]
    while words and words[-1].lower().strip(_EDGE) in _LEADING:
        words = words[:-1]
    return words


def _capital(word: str) -> bool:
    return word[:1].isupper()


def _whole_name(words: list[str], start: int, end: int) -> tuple[int, int]:
    """A block widened over the name it cuts: "the Democratic Republic of the" + "Congo", "Michael" + "Jordan"."""
    joiners = {"of", "the", "de", "von", "van", "and"}
    inner = _without_leading(words[start:end])
    if inner and _capital(inner[0]):
        while start > 1 and _capital(words[start - 1]):
            start -= 1
    if inner and _capital(inner[-1]):
        probe = end
        while probe < len(words) and words[probe].lower() in joiners:
            probe += 1
        if probe < len(words) and _capital(words[probe]) and not words[end - 1].endswith(","):
            end = probe + 1
            while end < len(words) and _capital(words[end]) and not words[end - 1].endswith(","):
                end += 1
    return start, end


def missing_spans(fused_query: str, blurred_query: str, language: str) -> list[str]:
    """The intent's words that the blurred query lacks, as they stand, then their parts."""
    if not blurred_query.strip():
        return []
    if language == "zh":
        return answer_choices_zh.missing_spans(fused_query, blurred_query)
    fused = _WORD.findall(fused_query)
    plain = [w.lower().strip(_EDGE) for w in fused]
    blurred = [w.lower().strip(_EDGE) for w in _WORD.findall(blurred_query)]
    spans: list[str] = []
    for tag, _, _, start, end in SequenceMatcher(None, blurred, plain, autojunk=False).get_opcodes():
        if tag not in ("insert", "replace"):
            continue
        spans += _parts(fused[slice(*_whole_name(fused, start, end))])
    return _unique(spans)


def _parts(words: list[str]) -> list[str]:
    """A block of the intent, the block without its leading function words, its pieces between
    prepositions and commas, and its capitalised names."""
    out = [" ".join(_without_leading(words))]
    piece: list[str] = []
    for word in [*words, "|"]:
        bare = word.lower().strip(_EDGE)
        if word == "|" or bare in _BREAK:
            out.append(" ".join(_without_leading(piece)))
            piece = []
        else:
            piece.append(word)
            if word.endswith(",") and len(words) > 3:  # "Tangshan, Hebei" stays whole; longer lists split
                out.append(" ".join(_without_leading(piece)))
                piece = []
    for i, word in enumerate(words[1:], start=1):  # "from 1346 to 1353" within "in Europe from 1346 to 1353"
        if word.lower().strip(_EDGE) in _BREAK - {"and", "or", "but"}:
            out.append(" ".join(_without_leading(words[i:])))
    names = re.findall(r"(?:[A-Z][\w'’.-]*,?\s?)+", " ".join(words))
    out += names
    return [_clean(o) for o in out]


def phrases(fused_query: str, language: str) -> list[str]:
    """The intent's phrases between its function words, in order (for answers the query already holds)."""
    if language == "zh":
        return answer_choices_zh.phrases(fused_query)
    out, piece = [], []
    for word in [*_WORD.findall(fused_query), "|"]:
        bare = word.lower().strip(_EDGE)
        if word == "|" or bare in _BREAK:
            if piece and len(piece) <= MAX_PHRASE_WORDS:
                out.append(_clean(" ".join(_without_leading(piece))))
            piece = []
        else:
            piece.append(word)
    # Names and numbers inside longer phrases ("Nigerian city", "the 1975 single") stand on their own too.
    body = fused_query.split(" ", 1)[1] if " " in fused_query else ""  # the first word is capitalised anyway
    out += [_clean(m) for m in re.findall(r"[A-Z][\w'’.-]*(?: [A-Z][\w'’.-]*)*|\S*\d\S*", body)]
    return _unique(out)


def choices(fused_query: str, blurred_query: str, language: str) -> list[str]:
    """Spans the answerer may choose from: what the query lacks first, then the intent's phrases."""
    spans = _unique([*missing_spans(fused_query, blurred_query, language), *phrases(fused_query, language)])
    spans = [s for s in spans if tokenize(s) and s.lower() != UNKNOWN and s in fused_query]
    return spans[:MAX_CHOICES]


def typed_choice(question: str, span: str, fused_query: str, blurred_query: str, language: str) -> str:
    """The model's pick, checked against the kind of value the question asks for: a question about a time,
    a number or a place (the rule classifier's type) picked with a span of another kind, or not answered,
    is answered by a span of the asked kind, first of all one the query left out, or it is ``unknown``.
    Other questions, and picks of no known kind, keep the model's pick."""
    from cts_dataset.diagnostics.rules import classify  # the one question-type classifier of the project

    asked = classify(question)
    picked = span_type(span, language) if span != UNKNOWN else None
    # An untyped pick may still be right: span types are told by rules, and only English places by a list.
    untyped_kept = span != UNKNOWN and picked is None and (language != "en" or asked != "region")
    if asked not in TYPED or picked == asked or untyped_kept:
        return span
    missing = [s for s in missing_spans(fused_query, blurred_query, language) if span_type(s, language) == asked]
    if missing:
        return missing[0]
    typed = [s for s in choices(fused_query, blurred_query, language) if span_type(s, language) == asked]
    return typed[0] if len(typed) == 1 else UNKNOWN


def _unique(items: list[str]) -> list[str]:
    return [s for s in dict.fromkeys(i for i in items if i)]


# -- the answer a chosen span makes --------------------------------------------------------------------
def is_yes_no(question: str, language: str) -> bool:
    """A question answered by yes or no ("Do you mean the 1976 one?"), not a choice ("... or ...?") and not
    a question for a value ("Which year?")."""
    zh = language == "zh" or bool(re.search(rf"[{CJK}]", question))
    return not is_either_or(question, language) and not (_WH_ZH if zh else _WH_EN).search(question)


def is_either_or(question: str, language: str) -> bool:
    """A question that offers alternatives ("by area or by population?", "国内还是国外？")."""
    return bool(re.search(r"还是|或者" if language == "zh" or re.search(rf"[{CJK}]", question) else r"\bor\b",
                          question, re.IGNORECASE))


def content_words(text: str, language: str) -> list[str]:
    """What a text is about: its content words without the words of asking (mean, you, 您, 说的 ...)."""
    if language == "zh" or re.search(rf"[{CJK}]", text):
        return [w for w, _, _ in answer_choices_zh.words(text) if answer_choices_zh.is_content(w)
                and w not in _ASKING_ZH]
    return [w for w in tokenize(text) if w not in _ASKING_EN]


def _holds(text: str, word: str, language: str) -> bool:
    if language == "zh" or re.search(rf"[{CJK}]", word):
        return word in word_forms.zh_numerals_to_digits(text) or word in text
    known = tokenize(text)
    return all(any(word_forms.same_word(t, w) for w in known) for t in tokenize(word)) if tokenize(word) else False


def guessed(question: str, fused_query: str, language: str) -> list[str]:
    """The values a question names that the intent does not: its own guess ("Kraków" in "Is that Kraków?",
    "2010" in "Using the 2010 census?"). A value is a number or a capitalised word after the first; other
    words the intent lacks ("released") only rephrase."""
    return [v for v in values_of(question, language, first=False)
            if not all(_holds(fused_query, t, language) for t in (tokenize(v) or [v]))]


def values_of(text: str, language: str, first: bool = True) -> list[str]:
    """Numbers and capitalised words (the first word too, if ``first``); Chinese: content words."""
    if language == "zh" or re.search(rf"[{CJK}]", text):
        return [w for w in content_words(text, language) if re.search(r"\d", w) or len(w) >= 2]
    words = _WORD.findall(text)
    return [w.strip(_EDGE) for i, w in enumerate(words) if tokenize(w)
            and (re.search(r"\d", w) or ((first or i > 0) and _capital(w) and w != "I"))]


def _kind(value: str, language: str) -> str | None:
    """A value's kind: time, number or place, else a name (capitalised), else None."""
    kind = span_type(value, language)
    if kind is None and not (language == "zh" or re.search(rf"[{CJK}]", value)) and values_of(value, language):
        kind = "name"
    return kind


def _same_kind(guess: str, span: str, language: str) -> bool:
    """A guess the span can replace. Chinese has no capitals: two values of no known kind may be alike."""
    guess_kind, span_kind = _kind(guess, language), _kind(span, language)
    return guess_kind == span_kind or (guess_kind is None and language == "zh")


def answer_of(question: str, span: str, fused_query: str, language: str) -> str:
    """The answer the user gives with a chosen span (``unknown`` stays ``unknown``):
    - a yes/no question that guesses nothing the intent lacks: yes, and the span ("Yes, 1976");
    - one whose guess the span replaces, a value of the same kind: no, and the span ("Was that in 1940?" ->
      "No, 1939"; "Using German-speaking cities?" -> "No, French-speaking");
    - one that guesses something about what the span names ("Is Chengdu the one in Sichuan?"), or a value
      of another kind than the span ("Do you mean Munich?" -> "second-largest city"): unknown, the intent
      does not say;
    - any other question: the span, unless the span only repeats the question's own words (an echo:
      "Population as of which year?" -> "population" is no answer), which is unknown.
    """
    if span == UNKNOWN:
        return UNKNOWN
    asked = set(content_words(question, language))
    echoes = bool(content_words(span, language)) and all(_holds(question, w, language) for w in content_words(span, language))
    if is_yes_no(question, language):
        guess = guessed(question, fused_query, language)
        named = values_of(span, language) or content_words(span, language)  # the span's values, else its words
        about_span = (any if language == "en" else all)(_holds(question, w, language) for w in named)  # zh names are loose
        if guess and (about_span
                      or not any(_same_kind(g, span, language) for g in guess)):
            return UNKNOWN
        word = "no" if guess and not _OPEN_CUE.search(question) else "yes"
        if language == "zh":
            return f"{'是的' if word == 'yes' else '不是'}，{span}"
        return f"{word.capitalize()}, {span}"
    if echoes and asked and not is_either_or(question, language):
        return UNKNOWN
    return span
