"""The ReAct agent loop with a scripted model over a small real BM25 corpus."""

from __future__ import annotations

import json
import random

import pytest

from cts_dataset.models.base import ChatRequest, ChatResponse
from cts_dataset.models.scripted import ScriptedModel
from cts_dataset.records import Document
from cts_dataset.search.corpus_tool import CorpusSearchTool
from cts_dataset.search.prompts import load_prompt
from cts_dataset.search.react import ReactSearcher, ReactSettings
from cts_dataset.search.react_parse import STOP_STRINGS
from cts_dataset.search.react_run import estimate_tokens, history_content, trajectory_seed
from cts_dataset.search.records import SearchOutput, Termination

DOCS = [
    Document(id="1976_Tangshan_earthquake", title="1976 Tangshan earthquake", description="Earthquake in Hebei",
             topic="Earth", text="A magnitude 7.6 earthquake struck Tangshan, Hebei, on 28 July 1976. "
                                 "The official death toll was 242,469."),
    Document(id="1755_Lisbon_earthquake", title="1755 Lisbon earthquake", description="Earthquake in Portugal",
             topic="Earth", text="The Lisbon earthquake of 1 November 1755 destroyed much of Lisbon."),
    Document(id="Paris", title="Paris", description="Capital of France", topic="Geography",
             text="Paris is the capital and largest city of France, on the river Seine."),
]
SEARCH = '<think>I should search.</think>\n<tool_call>\n{"name": "search", "arguments": {"query": ["Tangshan earthquake"]}}\n</tool_call>'
ANSWER = "<think>Found it.</think>\n<answer>About 242,469 people died; magnitude 7.6.</answer>"


@pytest.fixture
def tool(tmp_path):
    return CorpusSearchTool(DOCS, cache_root=tmp_path)


def agent(model, tool, **settings) -> ReactSearcher:
    return ReactSearcher(model, tool, ReactSettings(date="2024-05-06", **settings))


def kinds(output) -> list[str]:
    return [event.kind for event in output.trace]


def test_tool_call_tool_response_then_answer(tool):
    model = ScriptedModel({"searcher": [SEARCH, ANSWER]})
    [out] = agent(model, tool).search(["How many died in the Tangshan earthquake?"], tags=["demo-1"])
    assert out.termination is Termination.answer
    assert out.answer == "About 242,469 people died; magnitude 7.6."
    assert kinds(out) == ["system", "query", "assistant", "tool_response", "assistant"]
    assert "Current date: 2024-05-06" in out.trace[0].content
    response = out.trace[3]
    assert response.role == "user" and response.tool == "search"
    assert response.content.startswith("<tool_response>\nA local corpus search for 'Tangshan earthquake' found")
    assert "1. [1976 Tangshan earthquake](https://en.wikipedia.org/wiki/1976_Tangshan_earthquake)" in response.content
    assert response.content.endswith("\n</tool_response>")
    assert out.retrieved_doc_ids[0] == "1976_Tangshan_earthquake"
    assert (out.tool_calls.search, out.tool_calls.visit, out.tool_calls.malformed, out.llm_calls) == (1, 0, 0, 2)
    # The second call saw the whole conversation, with the <think> block kept in the assistant turn.
    second = model.calls[1]
    assert [m.role for m in second.messages] == ["system", "user", "assistant", "user"]
    assert second.messages[2].content.startswith("<think>\nI should search.\n</think>\n<tool_call>")
    assert second.sampling.stop == STOP_STRINGS and second.role == "searcher" and second.tag == "demo-1"
    assert set(out.prompts) == {"react_system.v1", "react_final_answer.v1", "react_format_error.v1"}
    assert out.settings["date"] == "2024-05-06" and out.model == "scripted" and out.tool == tool.name


def test_visit_returns_the_document_text(tool):
    visit = ('<tool_call>{"name": "visit", "arguments": {"url": "https://en.wikipedia.org/wiki/1755_Lisbon_earthquake",'
             ' "goal": "date"}}</tool_call>')
    model = ScriptedModel({"searcher": [visit, "<answer>1 November 1755</answer>"]})
    [out] = agent(model, tool).search(["When was the Lisbon earthquake?"])
    assert out.visited_doc_ids == ["1755_Lisbon_earthquake"] and out.tool_calls.visit == 1
    assert "destroyed much of Lisbon" in out.trace[3].content
    assert out.termination is Termination.answer


def test_malformed_call_is_counted_and_fed_back_so_the_model_can_correct(tool):
    broken = '<tool_call>{"name": "search", "arguments": {"query": [}</tool_call>'
    model = ScriptedModel({"searcher": [broken, SEARCH, ANSWER]})
    [out] = agent(model, tool).search(["Tangshan?"])
    assert out.termination is Termination.answer
    assert kinds(out)[2:] == ["assistant", "format_error", "assistant", "tool_response", "assistant"]
    assert out.tool_calls.malformed == 1 and out.tool_calls.search == 1
    error = out.trace[3]
    assert error.role == "user" and "not valid JSON" in error.content and error.content.startswith("<tool_response>")
    assert model.calls[1].messages[-1].content == error.content


def test_repairable_call_runs_without_an_error(tool):
    sloppy = "<tool_call>```json\n{'name': 'search', 'arguments': {'query': 'Paris capital',},}\n```</tool_call>"
    model = ScriptedModel({"searcher": [sloppy, "<answer>Paris</answer>"]})
    [out] = agent(model, tool).search(["capital of France"])
    assert out.tool_calls.malformed == 0 and out.tool_calls.search == 1
    assert out.trace[3].arguments == {"query": ["Paris capital"]} and "Paris" in out.retrieved_doc_ids


def test_unreadable_replies_in_a_row_end_with_format_error(tool):
    model = ScriptedModel({"searcher": ["I think the answer is Paris.", '<tool_call>{"name": "browse"}</tool_call>']})
    [out] = agent(model, tool, max_format_errors=1).search(["capital of France"])
    assert out.termination is Termination.format_error and out.answer == ""
    assert out.tool_calls.malformed == 2 and out.llm_calls == 2
    assert "neither a <tool_call> nor an <answer>" in out.trace[3].content


def test_call_budget_exhausted(tool):
    model = ScriptedModel(default=SEARCH)
    [out] = agent(model, tool, max_llm_calls=3).search(["Tangshan?"])
    assert out.termination is Termination.exceed_llm_calls
    assert out.llm_calls == 3 == len(model.calls) and out.tool_calls.search == 3 and out.answer == ""


def initial_context_tokens(query: str) -> int:
    system = load_prompt("react_system", "v1").render(date="2024-05-06")
    return estimate_tokens([{"role": "system", "content": system}, {"role": "user", "content": query}])


FIXED_CALLS = {"max_tokens_per_call": 4096, "final_answer_tokens": 4096}


def limit_for_cap(cap: int) -> int:
    """The assumed context limit (max_context_tokens) whose cap is ``cap`` with FIXED_CALLS: a step, the
    final answer and the margin (256) lie above the cap."""
    return cap + 4096 + 4096 + 256


def test_context_cap_forces_an_answer(tool):
    model = ScriptedModel({"searcher": [SEARCH, ANSWER]})
    # The system prompt and query fit; the search call and its result overflow the cap.
    cap = initial_context_tokens("Tangshan?") + 50
    [out] = agent(model, tool, max_context_tokens=limit_for_cap(cap), **FIXED_CALLS).search(["Tangshan?"])
    assert out.termination is Termination.token_limit
    assert out.answer == "About 242,469 people died; magnitude 7.6."
    notice = out.trace[3]
    assert notice.kind == "limit_notice" and "maximum context length" in notice.content
    assert notice.tool == "search" and notice.doc_ids  # what it replaced stays on record
    assert model.calls[1].messages[-1].content == notice.content and out.llm_calls == 2


def test_context_cap_without_an_answer_is_a_format_error(tool):
    model = ScriptedModel({"searcher": [SEARCH, SEARCH]})
    [out] = agent(model, tool, max_context_tokens=limit_for_cap(initial_context_tokens("Tangshan?") + 50),
                  **FIXED_CALLS).search(["Tangshan?"])
    assert out.termination is Termination.format_error and out.llm_calls == 2


def words(messages: list[dict[str, str]]) -> int:
    """A stand-in tokenizer: one token per word, three per message for the template."""
    return sum(len(m["content"].split()) + 3 for m in messages)


class LimitedModel(ScriptedModel):
    """A scripted model that knows its context limit and counts tokens, as a loaded engine does."""

    max_model_len = 600

    def count_tokens(self, messages: list[dict[str, str]]) -> int:
        return words(messages)


def test_requests_never_exceed_max_model_len_and_runs_end_with_token_limit(tool):
    def reply(request: ChatRequest) -> str:
        return ANSWER if "maximum context length" in request.messages[-1].content else SEARCH

    model = LimitedModel(default=reply)
    settings = {"max_tokens_per_call": 100, "final_answer_tokens": 100, "context_margin_tokens": 16,
                "min_tokens_per_call": 32}
    searcher = agent(model, tool, max_context_tokens=10**6, **settings)  # the model's limit wins over this
    assert searcher.context_cap() == 600 - 100 - 100 - 16
    huge = "Tangshan " * 500  # does not fit even before the first call: an error, not a limit notice
    grown, full = searcher.search(["Tangshan?", huge])
    for request in model.calls:
        assert words(request.message_dicts()) + request.sampling.max_tokens <= 600 - 16
    assert grown.termination is Termination.token_limit and grown.answer.startswith("About 242,469")
    assert kinds(grown)[-2:] == ["limit_notice", "assistant"] and grown.tool_calls.search == 3
    assert model.calls[-1].sampling.max_tokens == 100  # the cap left the final answer its whole room
    assert grown.tokens.context == words([{"content": history_content(e)} for e in grown.trace])
    assert full.termination is Termination.error and full.llm_calls == 0 and full.answer == ""
    assert "a context of 600 tokens a request cannot hold the system prompt and this question" in full.error
    assert kinds(full) == ["system", "query"]
    assert searcher.describe()["max_model_len"] == 600 and searcher.describe()["token_counter"] == "model"


class FailingModel(ScriptedModel):
    """Fails every request whose query is in ``fail``, as a backend does after its retries."""

    def __init__(self, fail: set[str], **kwargs) -> None:
        super().__init__(**kwargs)
        self.fail = fail

    def complete(self, requests):
        answers = super().complete(requests)
        return [ChatResponse.failure("HTTP 400: prompt too long", self.spec) if r.messages[1].content in self.fail
                else a for r, a in zip(requests, answers)]


def test_a_failed_request_ends_its_run_with_error_and_the_others_go_on(tool):
    def reply(request: ChatRequest) -> str:
        return ANSWER if any(m.role == "assistant" for m in request.messages) else SEARCH

    model = FailingModel({"B"}, default=reply)
    a, b, c = agent(model, tool).search(["A", "B", "C"])
    assert b.termination is Termination.error and b.error == "HTTP 400: prompt too long" and b.answer == ""
    assert b.llm_calls == 1 and kinds(b) == ["system", "query"]
    assert all(o.termination is Termination.answer and o.error == "" and o.llm_calls == 2 for o in (a, c))
    assert model.batches == [3, 2]
    assert SearchOutput.model_validate_json(b.model_dump_json()) == b


def test_each_run_samples_with_a_seed_from_its_query_alone(tool):
    def seeds(queries: list[str], **settings) -> list[int]:
        model = ScriptedModel(default=lambda r: SEARCH if len(r.messages) == 2 else ANSWER)
        outs = agent(model, tool, **settings).search(queries)
        by_query = {q: {c.sampling.seed for c in model.calls if c.messages[1].content == q} for q in queries}
        assert all(len(s) == 1 for s in by_query.values())  # every call of a run uses the run's seed
        assert [o.seed for o in outs] == [min(by_query[q]) for q in queries]
        return [o.seed for o in outs]

    alone = seeds(["Tangshan?"])
    batch = seeds(["Paris?", "Tangshan?", "Tangshan?"])
    assert batch[1] == batch[2] == alone[0] == trajectory_seed("Tangshan?", 0) and batch[0] != alone[0]
    assert seeds(["Tangshan?"], seed=7) != alone
    # A seed-honouring sampler without a cache gives a repeated query the same sample, in any batch: what
    # the cache gives by answering identical requests once.
    sampler = ScriptedModel(default=lambda r: f"<answer>{random.Random(r.sampling.seed).random()}</answer>")
    twice = agent(sampler, tool).search(["Tangshan?", "Paris?", "Tangshan?"])
    [once] = agent(sampler, tool).search(["Tangshan?"])
    assert twice[0].answer == twice[2].answer == once.answer != twice[1].answer
    assert sampler.calls[0].fingerprint() == sampler.calls[2].fingerprint() == sampler.calls[3].fingerprint()


def test_empty_answer_is_answer_not_found(tool):
    model = ScriptedModel({"searcher": ["<think>nothing fits</think><answer> </answer>"]})
    [out] = agent(model, tool).search(["Tangshan?"])
    assert out.termination is Termination.answer_not_found and out.answer == ""


def test_text_after_a_stop_string_is_dropped(tool):
    chatty = SEARCH + "\n<tool_response>\nmade-up results\n</tool_response>"
    model = ScriptedModel({"searcher": [chatty, ANSWER]})
    [out] = agent(model, tool).search(["Tangshan?"])
    assert "made-up" not in out.trace[2].content and out.trace[2].content.endswith("</tool_call>")


class CountingTool:
    """The corpus tool, counting how often each method is called (to see batching)."""

    def __init__(self, inner: CorpusSearchTool) -> None:
        self.inner, self.name, self.engine_label = inner, inner.name, inner.engine_label
        self.search_batches: list[list[str]] = []

    def search(self, queries, k=10):
        self.search_batches.append(list(queries))
        return self.inner.search(queries, k)

    def visit(self, doc, goal=""):
        return self.inner.visit(doc, goal)


def test_all_agents_of_a_batch_step_together_and_one_may_finish_early(tool):
    def reply(request: ChatRequest) -> str:
        query = request.messages[1].content
        turns = sum(m.role == "assistant" for m in request.messages)
        searches_wanted = {"A": 0, "B": 1, "C": 2}[query]
        if turns < searches_wanted:
            return f'<tool_call>{{"name": "search", "arguments": {{"query": ["{query} earthquake {turns}"]}}}}</tool_call>'
        return f"<answer>answer {query}</answer>"

    counting = CountingTool(tool)
    model = ScriptedModel(default=reply)
    outs = ReactSearcher(model, counting).search(["A", "B", "C"], tags=["a", "b", "c"])
    assert [o.answer for o in outs] == ["answer A", "answer B", "answer C"]
    assert [o.llm_calls for o in outs] == [1, 2, 3] and all(o.termination is Termination.answer for o in outs)
    assert model.batches == [3, 2, 1]  # one model batch per step, holding every running agent
    assert counting.search_batches == [["B earthquake 0", "C earthquake 0"], ["C earthquake 1"]]
    assert [o.tag for o in outs] == ["a", "b", "c"]


def test_output_round_trips_through_json(tool):
    from jsonschema import Draft202012Validator

    from cts_dataset.search.records import SCHEMA_PATH, SearchOutput, generate_schema

    model = ScriptedModel({"searcher": [SEARCH, ANSWER]})
    [out] = agent(model, tool).search(["Tangshan?"])
    data = json.loads(out.model_dump_json())
    assert SearchOutput.model_validate(data) == out
    shipped = json.loads(SCHEMA_PATH.read_text())
    assert shipped == generate_schema(), "run: python -c 'from cts_dataset.search.records import write_schema; write_schema()'"
    Draft202012Validator(shipped).validate(data)
    assert data["termination"] == "answer" and data["seed"] == trajectory_seed("Tangshan?", 0)
    assert {t.value for t in Termination} == set(shipped["$defs"]["Termination"]["enum"]) >= {"error"}
