"""Scripted runs for the diagnostics tests: real BM25 retrieval and lexical judge, scripted roles whose
answers are known, and a tracing wrapper so scripted calls land in calls.jsonl like loaded models'."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from cts_dataset.judges.lexical import LexicalJudge
from cts_dataset.models.base import ChatRequest, ChatResponse, Usage
from cts_dataset.models.scripted import ScriptedModel
from cts_dataset.models.trace import Trace, TraceWriter
from cts_dataset.pipeline.config import load_config
from cts_dataset.pipeline.experiment import Experiment
from cts_dataset.records import Instance
from tests.scripted_roles import make_models

REGION_QUESTION = "Which country or region do you mean?"


def run(folder: Path, searcher: Any, models: dict[str, Any] | None = None, judge: Any = None,
        **overrides: Any) -> dict[str, Any]:
    # The hand counts assume the scripted answer is the answer: the free-form answerer forwards it as given
    # (answer mode choose would check a pick against the question's type).
    config = load_config(out_dir=folder, **{"limit": 6, "answer_mode": "replace", "prompts": {"user_answerer": "v2"},
                                            **overrides})
    return Experiment(config, models=models or make_models(), searcher=searcher, judge=judge or LexicalJudge(),
                      progress=False).run()


def region_answerer(instances: Sequence[Instance]) -> ScriptedModel:
    """A faithful user for region questions: states its intent's region constraint, else unknown."""
    regions = {i.fused_query: [c.value for c in i.removed_constraints if c.type.value == "region"] for i in instances}

    def answer(request: ChatRequest) -> str:
        intent = request.messages[1].content.split("\n")[0]
        found = next((values for query, values in regions.items() if query in intent), [])
        return json.dumps({"answer": found[0] if found else "unknown"})

    return ScriptedModel(default=answer)


def region_only_models(instances: Sequence[Instance]) -> dict[str, Any]:
    models = make_models()
    models["clarifier"] = ScriptedModel(default=REGION_QUESTION)
    models["user_answerer"] = region_answerer(instances)
    return models


class Traced:
    """A model that writes one Trace per call, with made-up but known usage and latency."""

    def __init__(self, model: Any, path: Path) -> None:
        self.model, self.spec = model, model.spec
        self.writer = TraceWriter(path)

    def complete(self, requests: Sequence[ChatRequest]) -> list[ChatResponse]:
        responses = []
        for request, response in zip(requests, self.model.complete(requests), strict=True):
            words = sum(len(m.content.split()) for m in request.messages)
            responses.append(dataclasses.replace(response, usage=Usage(words, response.usage.completion_tokens),
                                                 latency_s=0.25))
        self.writer.write([Trace.of(q, r, self.spec) for q, r in zip(requests, responses, strict=True)])
        return responses

    def close(self) -> None:
        self.writer.close()


def traced_models(folder: Path) -> dict[str, Traced]:
    folder.mkdir(parents=True, exist_ok=True)
    return {role: Traced(model, folder / "calls.jsonl") for role, model in make_models().items()}
