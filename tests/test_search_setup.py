"""Search prompts, the searcher factory and goal-focused visit summaries."""

from __future__ import annotations

import json

import pytest

from cts_dataset.models.scripted import ScriptedModel
from cts_dataset.records import Document
from cts_dataset.search import Searcher, load_searcher
from cts_dataset.search.corpus_tool import CorpusSearchTool
from cts_dataset.search.prompts import Prompt, PromptError, load_prompt
from cts_dataset.search.react import ReactSearcher
from cts_dataset.search.react_parse import ToolCall, loads_tolerant, parse_reply
from cts_dataset.search.retrieval import RetrievalSearcher
from cts_dataset.search.searcher import searcher_config

DOCS = [Document(id="Yangtze", title="Yangtze", description="River in China", topic="",
                 text="The Yangtze is the longest river in Asia, 6,300 km long.")]


@pytest.fixture
def tool(tmp_path):
    return CorpusSearchTool(DOCS, cache_root=tmp_path)


def test_prompts_render_only_with_exactly_their_placeholders():
    prompt = load_prompt("react_system", "v1")
    assert prompt.placeholders == {"date"} and prompt.id == "react_system.v1" and len(prompt.hash) == 16
    assert prompt.render(date="2025-01-01").endswith("Current date: 2025-01-01\n")
    assert '{"name": <function-name>, "arguments": <args-json-object>}' in prompt.render(date="x")
    with pytest.raises(PromptError, match=r"missing variables \['date'\]"):
        prompt.render()
    with pytest.raises(PromptError, match=r"unexpected variables \['today'\]"):
        prompt.render(date="2025-01-01", today="x")
    assert load_prompt("visit_summary", "v1").placeholders == {"content", "goal"}
    with pytest.raises(PromptError, match="no prompt file"):
        load_prompt("react_system", "v999")
    with pytest.raises(PromptError, match="line 2"):
        Prompt("bad", "v1", "ok\ncosts $5").placeholders  # noqa: B018


def test_tolerant_parsing_of_tool_calls():
    assert loads_tolerant('```json\n{"a": [1, 2,],}\n```') == {"a": [1, 2]}
    assert loads_tolerant("{'a': True}") == {"a": True}
    reply = parse_reply('<tool_call>{"name": "search", "arguments": "{\\"query\\": \\"x\\"}"}</tool_call>')
    assert reply.call == ToolCall("search", {"query": ["x"]})
    flat = parse_reply('<tool_call>{"name": "visit", "url": "Yangtze"}')  # no "arguments", no closing tag
    assert flat.call == ToolCall("visit", {"url": ["Yangtze"], "goal": ""})
    capped = parse_reply('<tool_call>{"name": "search", "arguments": {"query": ["a", "b", "c", "d"]}}</tool_call>')
    assert capped.call.arguments["query"] == ["a", "b", "c"]
    assert parse_reply('<tool_call>{"name": "search", "arguments": {"query": []}}</tool_call>').problem == "'query' is empty"
    assert "unknown tool" in parse_reply('<tool_call>{"name": "python", "arguments": {}}</tool_call>').problem
    assert parse_reply("<answer>x</answer><tool_call>{}</tool_call>").kind == "answer"


def test_load_searcher_by_name_config_and_runner_shape(tool):
    retrieval = load_searcher("retrieval", tool=tool)
    assert isinstance(retrieval, RetrievalSearcher) and isinstance(retrieval, Searcher)
    react = load_searcher({"kind": "react", "model": "default", "options": {"max_llm_calls": 7,
                                                                          "tool": {"snippet_chars": 50}}},
                          model=ScriptedModel(), tool=tool)
    assert isinstance(react, ReactSearcher) and react.settings.max_llm_calls == 7
    assert react.describe()["settings"]["max_llm_calls"] == 7 and react.describe()["model"] == "scripted"
    config = searcher_config({"kind": "retrieval", "options": {"k": 3, "tool": {"snippet_chars": 50}}})
    assert config.retrieval.k == 3 and config.tool.snippet_chars == 50
    with pytest.raises(ValueError, match="needs a chat model"):
        load_searcher("react", tool=tool)
    with pytest.raises(ValueError, match="unknown option 'max_llm_calls'"):
        searcher_config({"kind": "retrieval", "options": {"max_llm_calls": 3}})
    with pytest.raises(ValueError):
        load_searcher("bing", tool=tool)


def test_visit_summaries_come_from_one_model_batch_per_step(tool):
    summary = json.dumps({"rational": "length", "evidence": "6,300 km long", "summary": "The Yangtze is 6,300 km."})
    visit = '<tool_call>{"name": "visit", "arguments": {"url": ["Yangtze", "Nowhere"], "goal": "length"}}</tool_call>'
    model = ScriptedModel({"searcher": [visit, visit, "<answer>6,300 km</answer>", "<answer>6,300 km</answer>"],
                           "visit_summary": [summary, "not json"]})
    searcher = load_searcher({"kind": "react", "react": {"summarize_visits": True}}, model=model, tool=tool)
    outs = searcher.search(["How long is the Yangtze?", "Yangtze length?"])
    assert model.batches == [2, 2, 2]  # agents, both pages' summaries (the unknown page needs none), agents
    first, second = (out.trace[3].content for out in outs)
    assert "Evidence in page: \n6,300 km long" in first and "Summary: \nThe Yangtze is 6,300 km." in first
    assert "The content of https://en.wikipedia.org/wiki/Yangtze" in second  # unparseable: the page itself
    assert "[visit] Failed to read page: Nowhere" in first
    assert "visit_summary.v1" in outs[0].prompts and outs[0].visited_doc_ids == ["Yangtze"]
    summary_request = next(c for c in model.calls if c.role == "visit_summary")
    assert summary_request.structured is not None and "6,300 km long" in summary_request.messages[0].content
    # The summary call (the found page only) counts in the run's calls and tokens, and in its trace event.
    for out, summary_text in zip(outs, (summary, "not json")):
        assert out.llm_calls == 3 and out.tool_calls.summaries == 1 and out.trace[3].completion_tokens == len(
            summary_text.split())
        assert out.tokens.completion == sum(e.completion_tokens for e in out.trace)
    assert searcher.describe()["summarizer"]["model"] == "scripted"


def test_describe_names_everything_that_changes_outputs(tmp_path):
    def described(documents, **settings) -> dict:
        tool = CorpusSearchTool(documents, cache_root=tmp_path)
        return load_searcher({"kind": "react", "react": settings}, model=ScriptedModel(), tool=tool).describe()

    base = described(DOCS)
    assert base["tool"] == base["tool_config"]["name"] and base["tool_config"]["tokenizer"]
    assert base["model"] == "scripted" and base["max_model_len"] is None and base["token_counter"] == "estimate"
    assert base["settings"]["seed"] == 0 and base["settings"]["context_margin_tokens"] == 256
    assert base["prompts"] == {p.id: p.hash for p in (load_prompt(n, "v1") for n in
                                                      ("react_system", "react_final_answer", "react_format_error"))}
    assert described(DOCS, seed=1)["settings"]["seed"] == 1
    edited = [DOCS[0].model_copy(update={"description": "Asian river"})]
    assert described(edited)["tool_config"]["fingerprint"] != base["tool_config"]["fingerprint"]
    retrieval = load_searcher("retrieval", tool=CorpusSearchTool(DOCS, cache_root=tmp_path))
    assert retrieval.describe()["tool_config"] == base["tool_config"]


def test_search_command_prints_answers_and_records(tmp_path, monkeypatch):
    from click.testing import CliRunner

    from cts_dataset.cli import main
    from cts_dataset.search.records import SearchOutput

    monkeypatch.setenv("CTSBENCH_CACHE_DIR", str(tmp_path))
    corpus = tmp_path / "docs.jsonl"
    corpus.write_text("".join(json.dumps(d.model_dump()) + "\n" for d in DOCS))
    result = CliRunner().invoke(main, ["search", "longest river in Asia", "--corpus-file", str(corpus)])
    assert result.exit_code == 0, result.output
    assert "[answer; llm calls 0; searches 1; visits 0]" in result.output and "documents: Yangtze" in result.output
    result = CliRunner().invoke(main, ["search", "Yangtze", "--corpus-file", str(corpus), "--json"])
    record = SearchOutput.model_validate_json(result.output.strip())
    assert record.retrieved_doc_ids == ["Yangtze"] and record.searcher == "retrieval"
    result = CliRunner().invoke(main, ["search", "x", "--tool", "serper"])
    assert result.exit_code == 2 and "needs a url" in result.output
