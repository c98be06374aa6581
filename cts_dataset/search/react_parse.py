"""Reading one agent reply in WebDancer's format, tolerantly.

A reply is ``<think>...</think>`` (already split off by the backend) followed by either
``<tool_call>{"name": ..., "arguments": {...}}</tool_call>`` or ``<answer>...</answer>``. Models get
the JSON slightly wrong often enough (code fences, single quotes, trailing commas, arguments as a
string, a missing closing tag cut by the stop string) that we repair what is unambiguous and report
the rest as a problem the model can read and correct.
"""

from __future__ import annotations

import ast
import json
import re
from dataclasses import dataclass, field
from typing import Any, Literal

STOP_STRINGS = ("\n<tool_response>", "<tool_response>")
_FENCE = re.compile(r"^```(?:json)?\s*|\s*```$")
_TRAILING_COMMA = re.compile(r",\s*([}\]])")


@dataclass(frozen=True)
class ToolCall:
    name: str
    arguments: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class ParsedReply:
    """What a reply asks for. ``content`` is the reply cut at the first stop string."""

    kind: Literal["tool_call", "answer", "malformed"]
    content: str
    answer: str = ""
    call: ToolCall | None = None
    problem: str = ""


def cut_at_stop(text: str, stops: tuple[str, ...] = STOP_STRINGS) -> str:
    """The text before the first stop string (for backends that ignore ``stop``)."""
    positions = [text.find(s) for s in stops if s in text]
    return text[: min(positions)] if positions else text


def _between(text: str, open_tag: str, close_tag: str) -> str:
    body = text.split(open_tag, 1)[1]
    return body.split(close_tag, 1)[0] if close_tag in body else body


def loads_tolerant(text: str) -> Any:
    """JSON, or the JSON-like object a model meant; raises ValueError when nothing fits."""
    text = _FENCE.sub("", text.strip())
    candidates = [text]
    if "{" in text and "}" in text:
        candidates.append(text[text.index("{"): text.rindex("}") + 1])
    for candidate in candidates:
        for attempt in (candidate, _TRAILING_COMMA.sub(r"\1", candidate)):
            try:
                return json.loads(attempt)
            except json.JSONDecodeError:
                pass
            try:  # single quotes, Python literals
                return ast.literal_eval(attempt)
            except (ValueError, SyntaxError, MemoryError, RecursionError):
                pass
    raise ValueError("the tool call is not valid JSON")


def _string_list(value: Any, field_name: str) -> list[str]:
    items = [value] if isinstance(value, str) else value
    if not isinstance(items, list) or not all(isinstance(i, str) for i in items):
        raise ValueError(f"'{field_name}' must be a string or an array of strings")
    items = [i.strip() for i in items if i.strip()]
    if not items:
        raise ValueError(f"'{field_name}' is empty")
    return items


def read_tool_call(body: str, max_queries: int) -> ToolCall:
    """A checked tool call from the text inside ``<tool_call>``; ValueError names what is wrong."""
    data = loads_tolerant(body)
    if not isinstance(data, dict) or not isinstance(data.get("name"), str):
        raise ValueError('the tool call must be a JSON object with a "name" and an "arguments" field')  # noqa: TRY004  (one error type: a problem to show the model)
    arguments = data.get("arguments", {k: v for k, v in data.items() if k != "name"})
    if isinstance(arguments, str):  # OpenAI-style arguments serialised as a string
        arguments = loads_tolerant(arguments)
    if not isinstance(arguments, dict):
        raise ValueError('"arguments" must be a JSON object')  # noqa: TRY004
    name = data["name"].strip()
    if name == "search":
        return ToolCall("search", {"query": _string_list(arguments.get("query"), "query")[:max_queries]})
    if name == "visit":
        goal = arguments.get("goal", "")
        return ToolCall("visit", {"url": _string_list(arguments.get("url"), "url"),
                                  "goal": goal if isinstance(goal, str) else json.dumps(goal)})
    raise ValueError(f"unknown tool {name!r}; the tools are 'search' and 'visit'")


def parse_reply(text: str, max_queries: int = 3) -> ParsedReply:
    """Classify one reply: an answer wins over a tool call (it ends the run either way)."""
    content = cut_at_stop(text).strip()
    if "<answer>" in content:
        return ParsedReply("answer", content, answer=_between(content, "<answer>", "</answer>").strip())
    if "<tool_call>" in content:
        try:
            call = read_tool_call(_between(content, "<tool_call>", "</tool_call>"), max_queries)
        except ValueError as error:
            return ParsedReply("malformed", content, problem=str(error))
        return ParsedReply("tool_call", content, call=call)
    if not content:
        return ParsedReply("malformed", content, problem="the reply is empty")
    return ParsedReply("malformed", content, problem="the reply has neither a <tool_call> nor an <answer>")
