"""Text tokenisation shared by retrieval (BM25), the protocol guards, the judges and the data checks.

English: lower-cased word tokens, English stop words (NLTK list via bm25s) dropped, Snowball-stemmed (PyStemmer).
Chinese has no spaces, so a run of CJK characters becomes its single characters plus overlapping
character bigrams (the scheme of Lucene's CJK analyser): no dictionary to ship, robust to new words.
"""

from __future__ import annotations

import re
from functools import cache

TOKENIZER_VERSION = "en-snowball-nltkstop+cjk-bigram-v2"
CJK = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
# Words exclude CJK characters, so "1976年唐山" splits into "1976" and a CJK run.
_TOKEN = re.compile(rf"[{CJK}]+|[^\W_{CJK}]+", re.UNICODE)
_IS_CJK = re.compile(rf"[{CJK}]")


@cache
def stemmer():
    """The English Snowball stemmer (PyStemmer), shared by every tokeniser of the project."""
    import Stemmer

    return Stemmer.Stemmer("english")


@cache
def stopwords() -> frozenset[str]:
    """English stop words (NLTK's list, as bm25s ships it)."""
    from bm25s.stopwords import STOPWORDS_EN_PLUS

    return frozenset(STOPWORDS_EN_PLUS)


def cjk_grams(run: str) -> list[str]:
    """Single characters and overlapping bigrams of a run of CJK characters."""
    if len(run) == 1:
        return [run]
    return list(run) + [run[i : i + 2] for i in range(len(run) - 1)]


def tokenize(text: str) -> list[str]:
    """Index/query tokens of one text."""
    tokens: list[str] = []
    words: list[str] = []
    stop = stopwords()
    for match in _TOKEN.finditer(text.lower()):
        piece = match.group(0)
        if _IS_CJK.match(piece):
            tokens.extend(cjk_grams(piece))
        elif piece not in stop:
            words.append(piece)
    return stemmer().stemWords(words) + tokens if words else tokens


def tokenize_many(texts: list[str]) -> list[list[str]]:
    return [tokenize(text) for text in texts]
