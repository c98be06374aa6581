"""The ReAct agent's context budget and its action grammar (scripted models over a real BM25 index;
the grammar checked with xgrammar, the grammar engine vLLM uses)."""

from __future__ import annotations

import inspect

import pytest
from xgrammar.testing import _is_grammar_accept_string as accepts

from cts_dataset.models.base import ChatRequest
from cts_dataset.models.llamacpp_backend import LlamaCppModel
from cts_dataset.models.scripted import ScriptedModel
from cts_dataset.records import Document
from cts_dataset.search.corpus_tool import CorpusSearchTool
from cts_dataset.search.react import ContextTooSmallError, ReactSearcher, ReactSettings
from cts_dataset.search.react_grammar import step_grammar
from cts_dataset.search.react_parse import parse_reply
from cts_dataset.search.react_run import estimate_tokens
from cts_dataset.search.records import Termination

DOCS = [
    Document(id="Almaty", title="Almaty", description="City in Kazakhstan", topic="Geography",
             text="Almaty was the capital of Kazakhstan until 1997. About 2.2 million people live there."),
    Document(id="Astana", title="Astana", description="Capital of Kazakhstan", topic="Geography",
             text="Astana has been the capital of Kazakhstan since 1997."),
]
QUESTION = "Which city served as Kazakhstan's capital until 1997, and how many people live there?"
SEARCH = ('<think>\nSearch first.\n</think>\n<tool_call>\n{"name": "search", "arguments": {"query": '
          '["Kazakhstan capital until 1997"]}}\n</tool_call>')
VISIT = ('<think>\nRead it.\n</think>\n<tool_call>\n{"name": "visit", "arguments": {"url": '
         '["https://en.wikipedia.org/wiki/Almaty"], "goal": "population"}}\n</tool_call>')
ANSWER = "<think>\nFound it.\n</think>\n<answer>Almaty; about 2.2 million people.</answer>"
# The packaged model's slot: llama.cpp's n_ctx shared by its n_parallel slots, as LlamaCppModel starts it.
_DEFAULTS = inspect.signature(LlamaCppModel.__init__).parameters
PACKAGED_SLOT = _DEFAULTS["n_ctx"].default // _DEFAULTS["n_parallel"].default


class SlotModel(ScriptedModel):
    """A scripted model with a context limit and a token count, like a llama.cpp slot."""

    def __init__(self, max_model_len: int, **kwargs) -> None:
        super().__init__(**kwargs)
        self.max_model_len = max_model_len
        self.requests: list[ChatRequest] = []

    def count_tokens(self, messages) -> int:
        return estimate_tokens(messages)

    def complete(self, requests):
        self.requests.extend(requests)
        return super().complete(requests)


@pytest.fixture
def tool(tmp_path):
    return CorpusSearchTool(DOCS, cache_root=tmp_path)


def test_the_packaged_models_slot_holds_the_start_a_step_and_the_final_answer(tool):
    model = SlotModel(PACKAGED_SLOT, replies={"searcher": [SEARCH, ANSWER]})
    searcher = ReactSearcher(model, tool, ReactSettings())
    assert PACKAGED_SLOT == 4096
    assert (searcher.step_tokens(), searcher.final_tokens(), searcher.context_cap()) == (512, 1024, 4096 - 512 - 1024 - 256)
    [out] = searcher.search([QUESTION])
    first = model.requests[0]
    assert "maximum context length" not in first.messages[-1].content and first.messages[-1].content == QUESTION
    assert first.sampling.max_tokens == 512
    assert out.termination is Termination.answer and out.tool_calls.search == 1
    described = searcher.describe()
    assert (described["step_tokens"], described["final_answer_tokens"], described["context_cap"]) == (512, 1024, 2304)


def test_a_large_context_keeps_webdancers_limits(tool):
    searcher = ReactSearcher(SlotModel(131072), tool, ReactSettings())
    assert (searcher.step_tokens(), searcher.final_tokens()) == (4096, 4096)
    assert searcher.context_cap() == 131072 - 4096 - 4096 - 256


def test_a_context_below_the_system_prompt_is_refused_naming_the_figures(tool):
    with pytest.raises(ContextTooSmallError, match=r"a context of 1200 tokens a request cannot hold the en system "
                                                   r"prompt \(\d+ tokens\), a step \(256\), the final answer \(512\)"):
        ReactSearcher(SlotModel(1200), tool, ReactSettings()).search([QUESTION])


def test_an_answer_before_the_first_search_is_refused_when_a_search_is_required(tool):
    model = SlotModel(PACKAGED_SLOT, replies={"searcher": ["<answer>Astana</answer>", SEARCH, ANSWER]})
    [out] = ReactSearcher(model, tool, ReactSettings(first_action="search")).search([QUESTION])
    assert [e.kind for e in out.trace[2:]] == ["assistant", "format_error", "assistant", "tool_response", "assistant"]
    assert "search for documents before you answer" in out.trace[3].content
    assert out.termination is Termination.answer and out.answer.startswith("Almaty")


def test_the_grammar_allows_what_the_run_may_do_next(tool):
    model = SlotModel(PACKAGED_SLOT, replies={"searcher": [SEARCH, VISIT, ANSWER]})
    searcher = ReactSearcher(model, tool, ReactSettings(action_grammar=True, first_action="question"))
    [out] = searcher.search([QUESTION])
    assert out.termination is Termination.answer and out.tool_calls.visit == 1
    first, second, third = (r.structured.grammar for r in model.requests)
    question_first = ('<think>\nSearch first.\n</think>\n<tool_call>\n{"name": "search", "arguments": {"query": '
                      f'["{QUESTION}", "Almaty population"]}}}}\n</tool_call>')
    assert accepts(first, question_first) and not accepts(first, SEARCH)  # the question comes first
    assert not accepts(first, ANSWER)  # no answer before a search
    assert not accepts(first, VISIT)  # no link shown yet
    assert accepts(second, VISIT) and accepts(second, ANSWER) and accepts(second, SEARCH)
    assert not accepts(second, VISIT.replace("Almaty", "Paris"))  # only links the results showed
    assert third == second


def test_a_question_holding_a_tag_is_not_forced_as_the_first_query(tool):
    model = SlotModel(PACKAGED_SLOT, replies={"searcher": [SEARCH, ANSWER]})
    settings = ReactSettings(action_grammar=True, first_action="question")
    ReactSearcher(model, tool, settings).search(["Is <answer> a tag?"])
    first = model.requests[0].structured.grammar
    assert "<answer> a tag" not in first and accepts(first, SEARCH) and not accepts(first, ANSWER)


def test_the_grammar_accepts_exactly_replies_the_parser_reads():
    grammar = step_grammar(search=True, visit_urls=["https://en.wikipedia.org/wiki/Almaty"], answer=True)
    for reply in (SEARCH, VISIT, ANSWER):
        assert accepts(grammar, reply) and parse_reply(reply.split("</think>\n", 1)[1]).kind != "malformed"
    fenced = '<think>\nx\n</think>\n```json\n{"name": "search", "arguments": {"query": ["x"]}}\n```'
    blank, carriage = (SEARCH.replace("Kazakhstan capital until 1997", text) for text in (" ", "a\rb"))
    assert parse_reply(blank.split("</think>\n", 1)[1]).kind == "malformed"  # what the grammar must rule out
    for bad in (fenced, SEARCH.removeprefix("<think>\nSearch first.\n</think>\n"), "<answer>x</answer>", blank,
                carriage, '<think>\nx\n</think>\n<tool_call>\n{"name": "search", "arguments": {"query": []}}\n</tool_call>'):
        assert not accepts(grammar, bad)
    assert "visit" not in step_grammar(search=True, visit_urls=["", " "])  # no link to name: no visit
    only_answer = step_grammar(search=False, answer=True)
    assert accepts(only_answer, ANSWER) and not accepts(only_answer, SEARCH)


def test_the_run_asked_to_answer_may_only_answer(tmp_path):
    long_page = Document(id="Long", title="Long", description="d", topic="t", text="Kazakhstan capital " * 900)
    big = CorpusSearchTool([*DOCS, long_page], cache_root=tmp_path)
    visit_long = VISIT.replace("Almaty", "Long")
    model = SlotModel(PACKAGED_SLOT, replies={"searcher": [SEARCH, visit_long, ANSWER]})
    settings = ReactSettings(action_grammar=True, visit_max_chars=12000)
    [out] = ReactSearcher(model, big, settings).search([QUESTION])
    assert out.termination is Termination.token_limit and out.answer.startswith("Almaty")
    last = model.requests[-1]
    assert "maximum context length" in last.messages[-1].content
    assert accepts(last.structured.grammar, ANSWER) and not accepts(last.structured.grammar, SEARCH)
    assert last.sampling.max_tokens <= 1024


class HostedModel(ScriptedModel):
    """A hosted API: no max_model_len, no token count; it refuses a request over its 8,000-token context."""

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.requests: list[ChatRequest] = []

    def complete(self, requests):
        for request in requests:
            assert estimate_tokens(request.message_dicts()) + request.sampling.max_tokens <= 8000, "HTTP 400"
        self.requests.extend(requests)
        return super().complete(requests)


def test_a_hosted_model_is_held_to_the_assumed_context(tool):
    def reply(request: ChatRequest) -> str:
        if "maximum context length" in request.messages[-1].content:
            return ANSWER
        return SEARCH.replace("until 1997", f"step {len(request.messages)}")

    model = HostedModel(default=reply)
    settings = ReactSettings(max_context_tokens=8000, search_k=2, max_llm_calls=40)
    [out] = ReactSearcher(model, tool, settings).search([QUESTION])
    assert out.termination is Termination.token_limit and out.error == ""
    assert "maximum context length" in model.requests[-1].messages[-1].content  # every request fitted 8,000


def test_the_agents_model_is_described_by_its_resolved_identity(tool):
    model = SlotModel(PACKAGED_SLOT)
    model.identity = {"backend": "llamacpp", "files": "sha256:cc324af070c2"}
    described = ReactSearcher(model, tool, ReactSettings()).describe()
    assert described["model_identity"] == {"backend": "llamacpp", "files": "sha256:cc324af070c2"}


def test_the_packaged_model_gets_the_react_cpu_agent_from_search_and_build_unless_told_otherwise():
    from cts_dataset.pipeline.config import preset
    from cts_dataset.search.searcher import small_model_agent_options

    shipped = preset("react-cpu")["searcher"]["options"]
    assert small_model_agent_options("default") == shipped and shipped["action_grammar"] is True
    assert small_model_agent_options("default", action_grammar=False) == {}
    assert small_model_agent_options("vllm:Qwen/Qwen3-8B") == {}
    assert small_model_agent_options("vllm:Qwen/Qwen3-8B", action_grammar=True) == shipped
    ReactSettings.model_validate(shipped)  # the preset's options are valid settings


class SummaryFailsModel(ScriptedModel):
    """Every visit-summary request fails, as a backend's does after its retries."""

    def complete(self, requests):
        from cts_dataset.models.base import ChatResponse

        answers = super().complete(requests)
        return [ChatResponse.failure("HTTP 503: overloaded", self.spec) if r.role == "visit_summary" else a
                for r, a in zip(requests, answers, strict=True)]


def test_a_failed_visit_summary_ends_the_run_as_an_error_that_a_rerun_retries(tool):
    model = SummaryFailsModel({"searcher": [SEARCH, VISIT, ANSWER]}, default="{}")
    [out] = ReactSearcher(model, tool, ReactSettings(summarize_visits=True)).search([QUESTION])
    assert out.termination is Termination.error and "HTTP 503: overloaded" in out.error
    assert out.answer == "" and out.tool_calls.visit == 1  # the agent never read a page it was not shown


def test_a_web_tools_allowed_hosts_come_from_the_config():
    from cts_dataset.search.searcher import ToolConfig, load_tool

    tool = load_tool({"kind": "searxng", "url": "http://127.0.0.1:8888", "allow_hosts": ["10.0.0.5"]})
    assert tool.refused("http://10.0.0.5/wiki/page") is None
    assert tool.refused("http://10.0.0.6/wiki/page") and tool.refused("http://169.254.169.254/latest/meta-data/")
    assert load_tool({"kind": "searxng", "url": "http://127.0.0.1:8888"}).refused("http://10.0.0.5/wiki/page")
    with pytest.raises(ValueError, match="allow_hosts is for web tools"):
        ToolConfig(kind="corpus", allow_hosts=["x"])


def test_the_token_counter_is_named_by_what_counts(tool):
    class NoCount(SlotModel):
        def count_tokens(self, messages):  # an HTTP backend without a tokenizer endpoint
            return None

    assert ReactSearcher(SlotModel(PACKAGED_SLOT), tool).describe()["token_counter"] == "model"
    assert ReactSearcher(NoCount(PACKAGED_SLOT), tool).describe()["token_counter"] == "estimate"
