"""The ReAct agent on the packaged model for real (llama.cpp, Qwen2.5-Coder-1.5B, 4,096 tokens a slot):
with the react-cpu preset's settings it takes valid steps, searches the question first and answers."""

import pytest

from cts_dataset.pipeline.config import preset
from cts_dataset.search import load_searcher
from cts_dataset.search.records import Termination

QUESTION = "Which city served as Kazakhstan's capital until 1997, and how many people live there?"


@pytest.fixture(scope="module")
def model(packaged_model):
    return packaged_model


def test_the_packaged_model_searches_first_and_answers_with_the_react_cpu_settings(model):
    options = {**preset("react-cpu")["searcher"]["options"], "max_llm_calls": 3, "temperature": 0.0}
    searcher = load_searcher({"kind": "react", "options": options}, model=model)
    assert searcher.describe()["max_model_len"] == 4096 and searcher.context_cap() >= 2048
    [out] = searcher.search([QUESTION])
    steps = [e for e in out.trace if e.kind == "assistant"]
    assert "maximum context length" not in out.trace[1].content
    assert out.tool_calls.malformed == 0 and not any(e.kind == "format_error" for e in out.trace)
    first = out.trace[3]
    assert first.tool == "search" and first.arguments["query"][0] == QUESTION
    assert "Almaty" in out.retrieved_doc_ids
    assert out.termination in (Termination.answer, Termination.token_limit, Termination.exceed_llm_calls)
    assert 1 <= len(steps) <= 4
    if out.termination is not Termination.exceed_llm_calls:
        assert out.answer
