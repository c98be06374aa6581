"""The User Answerer: answers a question only from what the hidden intent states, else ``unknown``.

Answers are checked for fidelity: content words that do not occur in the intent are flagged (the
simulator invented something), never silently accepted.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass

from cts_dataset.models.base import ChatModel, ChatRequest, StructuredOutput
from cts_dataset.protocol.roles import RoleSettings, first_line
from cts_dataset.protocol.views import UNKNOWN, AnswererView
from cts_dataset.text import tokenize

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
    parsed: bool  # False when the reply was not the requested JSON (its text was used as is)
    unsupported: tuple[str, ...]  # content words of the answer that the intent does not contain

    @property
    def is_unknown(self) -> bool:
        return self.text == UNKNOWN

    @property
    def faithful(self) -> bool:
        return not self.unsupported


def answerer_request(view: AnswererView, settings: RoleSettings, tag: str = "") -> ChatRequest:
    prompt = settings.prompt("answerer", view.language)
    messages = prompt.render(fused_query=view.fused_query, question=view.question)
    return settings.request(ROLE, messages, tag, StructuredOutput(json_schema=ANSWER_SCHEMA))


def normalise(answer: str) -> str:
    """``unknown`` for every way of saying it; the stripped answer otherwise."""
    text = answer.strip().strip("\"'.。 ")
    return UNKNOWN if not text or text.lower() in _UNKNOWN_FORMS else text


def parse_answer(raw: str, fused_query: str) -> Answer:
    parsed = False
    text = first_line(raw)
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


def unsupported_words(answer: str, fused_query: str) -> tuple[str, ...]:
    intent = set(tokenize(fused_query))
    return tuple(dict.fromkeys(w for w in tokenize(answer) if w not in intent))


def answer(model: ChatModel, views: Sequence[AnswererView], settings: RoleSettings, tags: Sequence[str] = ()) -> list[Answer]:
    """One answer per view, all in one model batch."""
    tags = list(tags) or [""] * len(views)
    requests = [answerer_request(v, settings, t) for v, t in zip(views, tags, strict=True)]
    responses = model.complete(requests)
    return [parse_answer(r.text, v.fused_query) for r, v in zip(responses, views, strict=True)]
