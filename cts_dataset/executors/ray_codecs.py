"""Requests and responses as JSON strings: Ray rows hold strings, so there is no schema to unify across rows."""

from __future__ import annotations

import json
from dataclasses import asdict

from cts_dataset.models.base import ChatRequest, ChatResponse, Message, Sampling, StructuredOutput, Usage


def request_to_json(request: ChatRequest) -> str:
    return json.dumps(asdict(request), ensure_ascii=False)


def request_from_json(text: str) -> ChatRequest:
    data = json.loads(text)
    sampling = data["sampling"]
    structured = data["structured"]
    return ChatRequest(
        messages=tuple(Message(m["role"], m["content"]) for m in data["messages"]),
        sampling=Sampling(**{**sampling, "stop": tuple(sampling["stop"])}),
        structured=None if structured is None else StructuredOutput(
            json_schema=structured["json_schema"],
            choice=tuple(structured["choice"]) if structured["choice"] is not None else None,
            grammar=structured.get("grammar")),
        chat_template_kwargs=tuple((k, v) for k, v in data["chat_template_kwargs"]),
        sample_index=data["sample_index"], role=data["role"], tag=data["tag"])


def response_to_json(response: ChatResponse) -> str:
    return json.dumps(asdict(response), ensure_ascii=False)


def response_from_json(text: str) -> ChatResponse:
    data = json.loads(text)
    return ChatResponse(**{**data, "usage": Usage(**data["usage"])})


__all__ = ["request_from_json", "request_to_json", "response_from_json", "response_to_json"]
