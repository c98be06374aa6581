"""Role guards: protocol rules that make any model safe to use in a role, whatever its size.

- User answerer (``answer_mode``): ``choose`` lets the model pick one of the intent's phrases or
  ``unknown`` under a choice grammar (see :mod:`.answer_choices`), then applies ``replace``; ``spans`` constrains the answer to spans of the intent or
  ``unknown`` (an enum in the structured output, so the model cannot write anything else) and then
  applies ``replace``; ``replace`` turns an answer holding content words the intent does not contain
  into ``unknown`` (counted); ``off`` records such answers and forwards them.
- Clarifier: a reply that is not one short question (empty, an answer to the query, a list, too long,
  the query asked back) is invalid; it is asked once more with a fresh sample, then recorded as invalid.
- Rewriter: a rewrite that keeps too few of the query's content words, drops an elicited answer, or adds
  content words found in neither the query nor the dialogue is replaced by a deterministic rewrite (the query and the elicited
  answers); with nothing elicited the query itself is the rewrite, without a model call.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from difflib import SequenceMatcher
from functools import cache
from pathlib import Path
from typing import Literal

from cts_dataset.protocol import word_forms
from cts_dataset.protocol.views import QA, UNKNOWN
from cts_dataset.text import CJK, tokenize

AnswerMode = Literal["off", "replace", "spans", "choose"]
ANSWER_MODES: tuple[str, ...] = ("off", "replace", "spans", "choose")

MAX_QUESTION_WORDS = 40
MAX_QUESTION_CHARS = 160  # CJK questions have no spaces
MAX_SPAN_WORDS = 8
MAX_SPAN_CHARS_ZH = 10
MIN_KEPT_SHARE = 0.6  # of the query's content words a rewrite must keep
MIN_ANSWER_SHARE = 0.5  # of each elicited answer's content words a rewrite must hold
MAX_NEW_WORDS = 1  # content words a rewrite may add beyond the query and the dialogue (a connective noun)
# A reply asks the query back when nearly all its content words are the query's, it holds most of them,
# and it reads nearly the same ("Which law?" for "What is a law?" is a question, not the query again).
ECHO_INSIDE_SHARE = 0.9
ECHO_COVER_SHARE = 0.8
ECHO_TEXT_RATIO = 0.8

_QUESTION_START = re.compile(
    r"^(what|which|when|where|who|whom|whose|why|how|do|does|did|is|are|was|were|can|could|would|should|will|"
    r"have|has|had|may|might|shall|in|for|at|by|from|about|on|to|of|please|any|if)\b", re.IGNORECASE)
_ZH_QUESTION = re.compile(r"[？?]|吗|什么|哪|多少|几|怎么|怎样|是否|谁|何|呢")
_LIST_LINE = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s+", re.MULTILINE)
_EDGE = ".,;:!?\"'()[]“”‘’"
_LABEL = re.compile(r"^[^:：?？\n]{1,40}[:：]\s*")  # "Q2: ", "搜索查询：", "The user asked: "
# Bump when a guard's rule changes (in any of GUARD_FILES): it names the rules for people. The run identity
# also holds guards_source(), a hash of those files, so a folder is never resumed across an edit nobody bumped.
GUARDS_VERSION = 39
# The files whose rules decide what the guards let through (relative to the package): the guards, the
# answerer and its rules, the question-type rules it relies on, what each role sees and how a dialogue is
# rendered for it, the tokeniser they all read words with.
GUARD_FILES = tuple(f"protocol/{name}.py" for name in (
    "role_guards", "answerer", "answer_rules", "answer_rivals_zh", "answer_sides", "user_questions", "answer_scope",
    "answer_phrasing", "answer_guesses", "answer_choices", "answer_choices_zh", "synonyms_zh", "time_spans",
    "units_and_sources", "name_words", "question_forms", "span_types", "word_forms", "clarifier", "rewriter", "roles", "views")) + (
    "diagnostics/rules.py", "diagnostics/types.py", "text.py")
_YES_NO = r"(?:yes|yeah|yep|no|nope|是的|是|对的|对|没错|不是|不对|不)"
_CONFIRMATION = re.compile(rf"^\s*{_YES_NO}(?:[\s,，.。!！;；:：-]+|$)", re.IGNORECASE)  # "Yes, the 1976 one"
_DONT_KNOW = re.compile(r"^\s*(?:i\s+(?:don'?t|do not)\s+know|not sure|no idea|不知道|不清楚|不确定)\W*$", re.IGNORECASE)
_QUOTED = re.compile(r"“[^”]*”|「[^」]*」|\"[^\"]*\"")  # a quoted query's "?" does not make a reply a question


@cache
def guards_source(package: Path | None = None) -> str:
    """A hash of :data:`GUARD_FILES` as installed (``package``: the ``cts_dataset`` folder to read)."""
    package = package or Path(__file__).resolve().parents[1]
    digest = hashlib.sha256()
    for name in GUARD_FILES:
        text = (package / name).read_bytes().replace(b"\r\n", b"\n")  # a checkout's line endings are no rule
        digest.update(name.encode() + b"\0" + text + b"\0")
    return digest.hexdigest()[:16]


# -- user answerer ----------------------------------------------------------------------------------
def intent_spans(fused_query: str, language: str) -> list[str]:
    """Every contiguous span of the intent up to a few words (CJK: a few characters), in order of
    appearance, without duplicates: what a ``spans`` answer may say, besides ``unknown``."""
    spans: dict[str, None] = {}
    if language == "zh":
        for run in re.findall(rf"[{CJK}]+|[A-Za-z0-9][A-Za-z0-9.,-]*", fused_query):
            if re.match(rf"[{CJK}]", run):
                for start in range(len(run)):
                    for end in range(start + 1, min(len(run), start + MAX_SPAN_CHARS_ZH) + 1):
                        spans[run[start:end]] = None
            else:
                spans[run.strip(".,")] = None
    else:  # spans of the text as written ("Tangshan, Hebei"), edge punctuation trimmed
        words = list(re.finditer(r"\S+", fused_query))
        for start in range(len(words)):
            for end in range(start + 1, min(len(words), start + MAX_SPAN_WORDS) + 1):
                text = fused_query[words[start].start():words[end - 1].end()].strip(_EDGE)
                if text:
                    spans[text] = None
    spans.pop(UNKNOWN, None)
    return [UNKNOWN, *spans]


def span_schema(fused_query: str, language: str) -> dict:
    return {"type": "object", "properties": {"answer": {"type": "string", "enum": intent_spans(fused_query, language)}},
            "required": ["answer"], "additionalProperties": False}


def stated(answer: str) -> str:
    """What an answer states beyond a leading yes or no ("No, 1976" -> "1976"; "Yes" -> "")."""
    return _CONFIRMATION.sub("", answer, count=1).strip()


def unsupported_words(answer: str, fused_query: str) -> tuple[str, ...]:
    """Content words of the answer that the intent does not contain (stemmed, stop words dropped; a
    leading yes or no and other forms of the intent's words are not content the intent lacks)."""
    return tuple(word_forms.unsupported(stated(answer), fused_query))


# -- clarifier --------------------------------------------------------------------------------------
def question_problem(text: str, blurred_query: str, language: str) -> str | None:
    """Why a clarifier reply is not one usable question (None when it is)."""
    stripped = text.strip()
    if not stripped:
        return "empty"
    if len(_LIST_LINE.findall(stripped)) >= 2 or stripped.count("?") + stripped.count("？") >= 3:
        return "a list of questions"
    if asks_query_back(stripped, blurred_query):
        return "asks the query back"
    if language == "zh" or re.search(rf"[{CJK}]", stripped):
        if len(stripped) > MAX_QUESTION_CHARS:
            return "too long"
        return None if _ZH_QUESTION.search(_QUOTED.sub("", stripped)) else "not a question"
    if len(stripped.split()) > MAX_QUESTION_WORDS:
        return "too long"
    if stripped.endswith("?") or _QUESTION_START.match(stripped):
        return None
    return "not a question (answers or restates the query)"


def asks_query_back(text: str, blurred_query: str) -> bool:
    """The reply is the query itself (after a label such as "Q2:" or "搜索查询："), nothing to clarify."""
    body = _LABEL.sub("", text.strip(), count=1)
    reply, query = set(tokenize(body)), set(tokenize(blurred_query))
    if not reply or not query:
        return False
    shared = len(reply & query)
    if shared / len(reply) < ECHO_INSIDE_SHARE or shared / len(query) < ECHO_COVER_SHARE:
        return False
    plain = [re.sub(r"[\W_]+", "", t.lower()) for t in (body, blurred_query)]
    return SequenceMatcher(None, *plain).ratio() >= ECHO_TEXT_RATIO


# -- rewriter ---------------------------------------------------------------------------------------
def elicited(dialogue: Sequence[QA]) -> list[str]:
    """The answers that state something (not ``unknown``, not "I don't know"); a bare yes or no states
    nothing a query can hold, whichever it is."""
    return [qa.answer for qa in dialogue
            if qa.answer != UNKNOWN and qa.answer.strip() and not _DONT_KNOW.match(qa.answer) and stated(qa.answer)]


def deterministic_rewrite(blurred_query: str, dialogue: Sequence[QA], language: str) -> str:
    """The query with what the elicited answers state appended: what the rewrite falls back to."""
    answers = [stated(a) for a in elicited(dialogue)]
    if not answers:
        return blurred_query
    joiner = "；" if language == "zh" else "; "
    opening, closing = ("（", "）") if language == "zh" else (" (", ")")
    return f"{blurred_query.rstrip()}{opening}{joiner.join(answers)}{closing}"


def _cjk_bigram(token: str) -> bool:
    return len(token) > 1 and bool(re.match(rf"[{CJK}]", token))


def rewrite_problem(rewrite: str, blurred_query: str, dialogue: Sequence[QA]) -> str | None:
    """Why a rewrite cannot be used (None when it can): it drops the query or what the user said, or adds
    what nobody said."""
    if not rewrite.strip():
        return "empty"
    query = set(tokenize(blurred_query))
    words = set(tokenize(rewrite))
    if query and len(query & words) / len(query) < MIN_KEPT_SHARE:
        return f"keeps {len(query & words)} of the query's {len(query)} content words"
    for answer in elicited(dialogue):  # what the dialogue was for: a rewrite without it wastes the turn
        # A leading "yes"/"是的" confirms the question's words: a rewrite need not say it. CJK bigrams do not
        # count (as below): a fluent rewrite may join the answer's characters to other words.
        said = {w for w in tokenize(stated(answer)) if not _cjk_bigram(w)}
        if said and len(said & words) / len(said) < MIN_ANSWER_SHARE:
            return f"drops the answer {answer!r}"
    allowed = query | {w for qa in dialogue for text in (qa.question, qa.answer) for w in tokenize(text)}
    # CJK text is tokenised into characters and bigrams: a fluent rewrite forms new bigrams at word
    # joins, so only characters count as added content there.
    added = sorted(w for w in words - allowed if not _cjk_bigram(w))
    if len(added) > MAX_NEW_WORDS:
        return f"adds words nobody said: {', '.join(added[:8])}"
    return None
