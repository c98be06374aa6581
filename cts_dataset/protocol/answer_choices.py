"""What a choosing user answerer may say: spans of its intent, or ``unknown``.

A small model is better at choosing than at writing, so the answerer is offered a short list of the
intent's own words and picks one under a choice grammar. The list begins with what the user's query
lacks, computed from the pair (intent, query) without annotations: the words of the intent that the
blurred query does not hold, as they stand, and their parts (a place, a year, a name). Then come the
intent's other phrases, for a question whose answer the query already holds.
"""

from __future__ import annotations

import re
from difflib import SequenceMatcher

from cts_dataset.protocol import answer_choices_zh
from cts_dataset.protocol.span_types import WORLD_WORDS_EN, is_common_word, span_type
from cts_dataset.protocol.views import UNKNOWN
from cts_dataset.text import tokenize

MAX_CHOICES = 16  # besides unknown: a list a small model reads whole
MAX_PHRASEWORDS = 7

# Words that end an English phrase of the intent: question words, auxiliaries, prepositions, conjunctions.
_BREAK = frozenset(
    ["what", "which", "who", "whom", "whose", "when", "where", "why", "how", "is", "are", "was", "were", "be", "been", "do", "does", "did", "has", "have", "had", "can", "could", "will", "would", "should", "may", "might", "shall", "and", "or", "but", "in", "on", "at", "of", "from", "to", "for", "by", "with", "during", "since", "until", "about", "between", "into", "over", "under", "than", "as", "it", "its", "they", "them", "their", "there", "this", "that", "these", "those"])
_LEADING = frozenset(["the", "a", "an", "in", "on", "at", "of", "from", "to", "for", "by", "with", "during", "since", "its"])
EDGE = ".,;:!?\"'()[]“”‘’"
WORD = re.compile(r"\S+")

def _clean(text: str) -> str:
    return text.strip(EDGE + " ")


def _without_leading(words: list[str]) -> list[str]:
    """The words without the function words at either end ("the Indonesian island of" -> "Indonesian island")."""
    while words and words[0].lower().strip(EDGE) in _LEADING:
        words = words[1:]
    while words and words[-1].lower().strip(EDGE) in _LEADING:
        words = words[:-1]
    return words


def names_nothing(word: str, before: str = "") -> bool:
    """A capitalised word that names nothing: the pronoun, and "OK" of "Is the Pauling scale OK?" (not after a
    comma, where it is Oklahoma: "Ardmore, OK?"). ``before``: the word before it, as written."""
    return word == "I" or (word == "OK" and not before.endswith(","))


def is_capitalised(word: str) -> bool:
    return word[:1].isupper()


def _whole_name(words: list[str], start: int, end: int, said: frozenset[str] = frozenset()) -> tuple[int, int]:
    """A block widened over the name it cuts: "the Democratic Republic of the" + "Congo", "Michael" + "Jordan"."""
    joiners = {"of", "the", "de", "von", "van", "and"}
    inner = _without_leading(words[start:end])
    # back over a name it cuts ("Michael" + "Jordan", "Super Bowl" + "XLIX", "Francis I" + "of France", "Republic" of
    # "the republic" + "of China"); after a preposition, not over a common word the query writes as the intent
    # does ("Prime Minister" before "of New Zealand", "Awards" before "for Best Director")
    continues = bool(inner) and inner[0] == words[start]

    def of_the_name(word: str) -> bool:
        bare = word.strip(EDGE)
        return continues or bare not in said or bare == "I" or not is_common_word(bare)  # (the regnal "I" is a name)

    if inner and is_capitalised(inner[0]):
        while start > 1 and is_capitalised(words[start - 1]) and of_the_name(words[start - 1]):
            start -= 1
    if inner and is_capitalised(inner[-1]):
        probe = end
        while probe < len(words) and words[probe].lower() in joiners:
            probe += 1
        if probe < len(words) and is_capitalised(words[probe]) and not words[end - 1].endswith(","):
            end = probe + 1
            while end < len(words) and is_capitalised(words[end]) and not words[end - 1].endswith(","):
                end += 1
    return start, end


def missing_spans(fused_query: str, blurred_query: str, language: str) -> list[str]:
    """The intent's words that the blurred query lacks, as they stand, then their parts."""
    if not blurred_query.strip():
        return []
    if language == "zh":
        return answer_choices_zh.missing_spans(fused_query, blurred_query)
    fused = WORD.findall(fused_query)
    plain = [w.lower().strip(EDGE) for w in fused]
    blurred = [w.lower().strip(EDGE) for w in WORD.findall(blurred_query)]
    said = frozenset(w.strip(EDGE) for w in WORD.findall(blurred_query))  # the query's words as it writes them
    spans: list[str] = []
    for tag, _, _, start, end in SequenceMatcher(None, blurred, plain, autojunk=False).get_opcodes():
        if tag not in ("insert", "replace"):
            continue
        whole = _whole_name(fused, start, end, said)
        spans += _parts(fused[slice(*whole)])
        # "UK" of "UK Poet Laureate", where the query writes "Poet Laureate" as a name of its own: the place that
        # qualifies it (not "Lincoln" of "the Lincoln Memorial", where the query says "the memorial")
        inserted = " ".join(_without_leading(fused[start:end]))
        widened = fused[whole[0]:start] + fused[end:whole[1]]
        if widened and span_type(inserted, "en") == "region" \
                and all(is_capitalised(w) and w.strip(EDGE) in said for w in widened):
            spans.append(_clean(inserted))
    worldwide = set(tokenize(blurred_query)) & WORLD_WORDS_EN
    return [s for s in unique(spans) if tokenize(s)  # not a bare function word ("In" of "In law, ...")
            and not (worldwide and set(tokenize(s)) <= WORLD_WORDS_EN)]  # "the world's" where the query says "on Earth"


def _parts(words: list[str]) -> list[str]:
    """A block of the intent, the block without its leading function words, its pieces between
    prepositions and commas, and its capitalised names."""
    out = [" ".join(_without_leading(words))]
    piece: list[str] = []
    for word in [*words, "|"]:
        bare = word.lower().strip(EDGE)
        if word == "|" or bare in _BREAK:
            out.append(" ".join(_without_leading(piece)))
            piece = []
        else:
            piece.append(word)
            if word.endswith(",") and len(words) > 3:  # "Tangshan, Hebei" stays whole; longer lists split
                out.append(" ".join(_without_leading(piece)))
                piece = []
    for i, word in enumerate(words[1:], start=1):  # "from 1346 to 1353" within "in Europe from 1346 to 1353"
        if word.lower().strip(EDGE) in _BREAK - {"and", "or", "but"}:
            out.append(" ".join(_without_leading(words[i:])))
    # not "Columbian" of "pre-Columbian"; a work's number is part of its name ("String Quartet No. 8")
    names = re.findall(r"(?<![\w'’.-])(?:(?:[A-Z][\w'’.-]*|(?<=(?:No|Op)\. )\d+[a-z]?),?\s?)+", " ".join(words))
    out += names
    return [_clean(o) for o in out]


def phrases(fused_query: str, language: str) -> list[str]:
    """The intent's phrases between its function words, in order (for answers the query already holds)."""
    if language == "zh":
        return answer_choices_zh.phrases(fused_query)
    out, piece = [], []
    for word in [*WORD.findall(fused_query), "|"]:
        bare = word.lower().strip(EDGE)
        if word == "|" or bare in _BREAK:
            if piece and len(piece) <= MAX_PHRASEWORDS:
                out.append(_clean(" ".join(_without_leading(piece))))
            piece = []
        else:
            piece.append(word)
    # Names and numbers inside longer phrases ("Nigerian city", "the 1975 single") stand on their own too.
    body = fused_query.split(" ", 1)[1] if " " in fused_query else ""  # the first word is capitalised anyway
    out += [_clean(m) for m in re.findall(r"[A-Z][\w'’.-]*(?: (?:[A-Z][\w'’.-]*|(?<=(?:No|Op)\. )\d+[a-z]?))*|\S*\d\S*", body)]
    return unique(out)


def choices(fused_query: str, blurred_query: str, language: str, missing: list[str] | None = None) -> list[str]:
    """Spans the answerer may choose from: what the query lacks first, then the intent's phrases.
    ``missing``: :func:`missing_spans` of the same pair, when the caller has it already."""
    if missing is None:
        missing = missing_spans(fused_query, blurred_query, language)
    spans = unique([*missing, *phrases(fused_query, language)])
    spans = [s for s in spans if tokenize(s) and s.lower() != UNKNOWN and s in fused_query]
    return spans[:MAX_CHOICES]


def unique(items: list[str]) -> list[str]:
    return [s for s in dict.fromkeys(i for i in items if i)]
