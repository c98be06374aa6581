"""The User Answerer: answers a question only from what the hidden intent states, else ``unknown``.

Answer modes (``mode``): ``choose`` offers the intent's own phrases (what the query left out first, see
:mod:`.answer_choices`) and ``unknown`` under a choice grammar, and phrases the chosen span as the
answer (``Yes, 1976`` to a yes/no question); ``replace`` and ``spans`` let the model write (the paper's
free-form answerer) and guard what it wrote; ``off`` records without guarding.

The answer is the only channel from the intent to the clarifier and the rewriter, so it is guarded:
a reply that is not the requested JSON is never forwarded (it may echo the intent): it becomes
``unknown`` and is counted as unparsed; a failed request forwards nothing and is retried on a rerun.
Content words that do not occur in the intent are flagged (the simulator invented something).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cached_property

from cts_dataset.models.base import ChatModel, ChatRequest, ChatResponse, StructuredOutput
from cts_dataset.prompts import ChatPrompt, PromptError
from cts_dataset.protocol import answer_rules
from cts_dataset.protocol.answer_choices import choices, missing_spans
from cts_dataset.protocol.answer_phrasing import answer_of, typed_choice, yes_or_no
from cts_dataset.protocol.role_guards import AnswerMode, span_schema, unsupported_words
from cts_dataset.protocol.roles import RoleSettings
from cts_dataset.protocol.span_types import without_province
from cts_dataset.protocol.synonyms_zh import said_as_the_need_says
from cts_dataset.protocol.views import UNKNOWN, AnswererView

ROLE = "user_answerer"
ANSWER_SCHEMA = {
    "type": "object",
    "properties": {"answer": {"type": "string"}},
    "required": ["answer"],
    "additionalProperties": False,
}
_UNKNOWN_FORMS = {"unknown", "not stated", "not specified", "i don't know", "i do not know", "未知", "不知道", "没有说明"}
_JSON_OBJECT = re.compile(r"\{.*\}", re.DOTALL)


@dataclass(frozen=True)
class Answer:
    text: str  # the answer, or exactly "unknown"
    raw: str
    parsed: bool  # False when the reply was not the requested JSON: then the text is "unknown"
    unsupported: tuple[str, ...]  # content words of the answer that the intent does not contain
    error: str = ""  # the request failed after retries: nothing is forwarded
    empty_at_length: bool = False  # the reply hit max_tokens with no content (a reasoning model?)
    replaced: str = ""  # an answer the guard turned into "unknown" (it held content the intent lacks)
    decided_by: str = ""  # the rule that answered without the model (see :mod:`.answer_rules`), else ""

    @property
    def is_unknown(self) -> bool:
        return self.text == UNKNOWN

    @property
    def faithful(self) -> bool:
        return not self.unsupported


def check_prompt(prompt: ChatPrompt, mode: AnswerMode) -> None:
    """A choosing answerer's prompt lists the options; a writing one's does not."""
    lists = "options" in prompt.placeholders
    if lists != (mode == "choose"):
        need = "a prompt with ${options} (v3)" if mode == "choose" else "a prompt without ${options} (v1, v2)"
        other = "choose" if lists else "replace, spans or off"
        raise PromptError(f"user-answerer prompt {prompt.id}: answer mode {mode!r} needs {need}; "
                          f"this prompt is for answer mode {other}")


def options_of(view: AnswererView, spans: list[str] | None = None, missing: list[str] | None = None) -> list[str]:
    """What a choosing answerer may answer: the spans the query left out, the intent's spans the question
    points at (see :func:`~.answer_rules.offered_for`), ``unknown``. ``spans`` and ``missing``: the
    view's :func:`~.answer_choices.choices` and :func:`~.answer_choices.missing_spans`, when the caller has
    them already."""
    if missing is None:
        missing = missing_spans(view.fused_query, view.blurred_query, view.language)
    if spans is None:
        spans = choices(view.fused_query, view.blurred_query, view.language, missing)
    return [*answer_rules.offered_for(view.question, spans, missing, view.language), UNKNOWN]


def answerer_request(view: AnswererView, settings: RoleSettings, tag: str = "", mode: AnswerMode = "off",
                     options: list[str] | None = None) -> ChatRequest:
    """``options``: the view's :func:`options_of`, when the caller has them already."""
    prompt = settings.prompt("answerer", view.language)
    check_prompt(prompt, mode)
    if mode == "choose":
        options = options if options is not None else options_of(view)
        messages = prompt.render(fused_query=view.fused_query, question=view.question,
                                 options=" | ".join(json.dumps(o, ensure_ascii=False) for o in options))
        schema = _enum_schema(options)
    else:
        messages = prompt.render(fused_query=view.fused_query, question=view.question)
        schema = span_schema(view.fused_query, view.language) if mode == "spans" else ANSWER_SCHEMA
    return settings.request(ROLE, messages, tag, StructuredOutput(json_schema=schema))


def _enum_schema(options: Sequence[str]) -> dict:
    return {"type": "object", "properties": {"answer": {"type": "string", "enum": list(options)}},
            "required": ["answer"], "additionalProperties": False}


def normalise(answer: str) -> str:
    """``unknown`` for every way of saying it; the stripped answer otherwise."""
    text = answer.strip().strip("\"'.。 ")
    return UNKNOWN if not text or text.lower() in _UNKNOWN_FORMS else text


def parse_answer(raw: str, fused_query: str) -> Answer:
    """The answer of a reply; anything but ``{"answer": "..."}`` is ``unknown`` (never the raw text)."""
    parsed, text = False, UNKNOWN
    match = _JSON_OBJECT.search(raw)
    if match:
        try:
            value = json.loads(match.group(0))
            if isinstance(value, dict) and isinstance(value.get("answer"), str):
                text, parsed = value["answer"], True
        except json.JSONDecodeError:
            pass
    text = normalise(text)
    unsupported = () if text == UNKNOWN else unsupported_words(text, fused_query)
    return Answer(text=text, raw=raw, parsed=parsed, unsupported=unsupported)


def answer(model: ChatModel, views: Sequence[AnswererView], settings: RoleSettings, tags: Sequence[str] = (),
           mode: AnswerMode = "off") -> list[Answer]:
    """One answer per view, all in one model batch, guarded by ``mode`` (see :mod:`.role_guards`)."""
    tags = list(tags) or [""] * len(views)
    if mode == "choose":  # "是来回的票价吗？" asks of 往返: the rules and the model read the need's words
        views = [replace(v, question=without_province(said_as_the_need_says(v.question, v.fused_query), v.fused_query))
                 if v.language == "zh" else v for v in views]
    # A choosing answerer's spans are found once per view: the rules read them, the request lists them,
    # the reply is checked against them. What the rules settle is never sent to the model.
    spans = [_Spans.of(v) if mode == "choose" else None for v in views]
    decisions = [answer_rules.decide(v, s.missing, s.spans) if s else None
                 for v, s in zip(views, spans, strict=True)]
    asked = [i for i, d in enumerate(decisions) if d is None]
    replies = model.complete([answerer_request(views[i], settings, tags[i], mode, spans[i].options if spans[i] else None)
                              for i in asked]) if asked else []
    if len(replies) != len(asked):
        raise ValueError(f"user answerer: {len(asked)} requests sent, {len(replies)} replies received")
    responses = dict(zip(asked, replies, strict=True))
    return [_decided(v, d) if d is not None else _answer_of(responses[i], v, mode, s)
            for i, (v, s, d) in enumerate(zip(views, spans, decisions, strict=True))]


def _decided(view: AnswererView, decision: answer_rules.Decision) -> Answer:
    if decision.reply is None:
        text = answer_of(view.question, decision.span, view.fused_query, view.language)
    else:
        text = yes_or_no(decision.reply, decision.span, view.language) if decision.reply else decision.span
    unsupported = () if text == UNKNOWN else unsupported_words(text, view.fused_query)
    if unsupported:  # a span of the intent never adds content; kept as a guard all the same
        return Answer(text=UNKNOWN, raw="", parsed=True, unsupported=unsupported, replaced=text,
                      decided_by=decision.rule)
    return Answer(text=text, raw="", parsed=True, unsupported=(), decided_by=decision.rule)


@dataclass(frozen=True)
class _Spans:
    view: AnswererView
    missing: list[str]  # what the query left out
    spans: list[str]  # every span of the intent an answer may be

    @staticmethod
    def of(view: AnswererView) -> _Spans:
        missing = missing_spans(view.fused_query, view.blurred_query, view.language)
        return _Spans(view, missing, choices(view.fused_query, view.blurred_query, view.language, missing))

    @cached_property
    def options(self) -> list[str]:
        """What the model is offered for this question, unknown last: built only for a question the rules
        leave to the model."""
        return options_of(self.view, self.spans, self.missing)


def _answer_of(response: ChatResponse, view: AnswererView, mode: AnswerMode, spans: _Spans | None = None) -> Answer:
    if response.failed:
        return Answer(text=UNKNOWN, raw="", parsed=False, unsupported=(), error=response.error)
    answer = parse_answer(response.text, view.fused_query)
    if mode == "choose" and answer.parsed:
        spans = spans or _Spans.of(view)
        if answer.text != UNKNOWN and answer.text not in spans.options:  # a backend that ignored the grammar
            answer = replace(answer, text=UNKNOWN, replaced=answer.text)
        else:
            span = typed_choice(view.question, answer.text, view.fused_query, view.blurred_query, view.language,
                                spans.missing, spans.spans)
            answer = replace(answer, text=answer_of(view.question, span, view.fused_query, view.language))
            answer = replace(answer, unsupported=() if answer.is_unknown else unsupported_words(answer.text, view.fused_query))
    if response.finish_reason == "length" and not response.text.strip():
        answer = replace(answer, empty_at_length=True)
    if mode != "off" and answer.unsupported and not answer.replaced:
        answer = replace(answer, text=UNKNOWN, replaced=answer.text)
    return answer
