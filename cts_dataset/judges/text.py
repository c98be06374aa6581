"""Text helpers of the offline judges: content-word tokens and sentence splitting, English and Chinese.

English: lower-cased words, stop words dropped (bm25s' NLTK-based list), Snowball-stemmed (PyStemmer),
numbers kept as written ("242,469" -> "242469"). Chinese has no spaces: a run of CJK characters becomes
its overlapping character bigrams (a lone character stays itself), which needs no dictionary.
Unlike the BM25 tokeniser (``cts_dataset.text``) it keeps no CJK unigrams, which would let
common characters inflate coverage, and it splits digits from adjacent CJK ("24万人" -> "24", "万人").
"""

from __future__ import annotations

import re

from cts_dataset.text import CJK, stemmer, stopwords

# CJK runs first, then digit groups with thousands separators or decimals, then other word runs.
_TOKEN = re.compile(rf"[{CJK}]+|\d+(?:[.,]\d+)*|[^\W\d_{CJK}]+", re.UNICODE)
_IS_CJK = re.compile(rf"[{CJK}]")
_SENTENCE_END = re.compile(rf"(?<=[.!?])\s+(?=[\"'(\[A-Z0-9{CJK}])|(?<=[。！？；])|\n+")


def content_tokens(text: str) -> list[str]:
    """Content-word tokens of a text (English stems, numbers, CJK bigrams), in order."""
    tokens: list[str] = []
    stop = stopwords()
    for match in _TOKEN.finditer(text.lower()):
        piece = match.group(0)
        if _IS_CJK.match(piece):
            tokens.extend([piece] if len(piece) == 1 else [piece[i:i + 2] for i in range(len(piece) - 1)])
        elif piece[0].isdigit():
            tokens.append(piece.replace(",", ""))
        elif piece not in stop:
            tokens.append(stemmer().stemWord(piece))
    return tokens


def sentences(text: str) -> list[str]:
    """The sentences of a text (end punctuation in English and Chinese, or line breaks)."""
    return [part.strip() for part in _SENTENCE_END.split(text) if part and part.strip()]
