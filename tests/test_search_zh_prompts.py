"""Chinese prompts of the ReAct agent and the visit summaries, chosen by the query's language."""

from __future__ import annotations

import json

import pytest

from cts_dataset.models.scripted import ScriptedModel
from cts_dataset.records import Document
from cts_dataset.search.corpus_tool import CorpusSearchTool
from cts_dataset.search.language import detect_language, languages_of
from cts_dataset.search.prompts import PromptError, load_prompt
from cts_dataset.search.react import ReactSearcher, ReactSettings
from cts_dataset.search.react_run import estimate_tokens
from cts_dataset.search.records import Termination
from cts_dataset.search.retrieval import RetrievalSearcher

DOCS = [Document(id="Yangtze", title="Yangtze", description="River in China", topic="",
                 text="The Yangtze is the longest river in Asia, 6,300 km long. 长江全长6300公里。")]
NAMES = ("react_system", "react_final_answer", "react_format_error", "visit_summary")


@pytest.fixture
def tool(tmp_path):
    return CorpusSearchTool(DOCS, cache_root=tmp_path)


def test_every_search_prompt_has_a_chinese_version_with_the_same_placeholders():
    for name in NAMES:
        en, zh = load_prompt(name, "v1"), load_prompt(name, "v1", "zh")
        assert zh.id == f"{name}.v1.zh" and zh.placeholders == en.placeholders and zh.hash != en.hash
        assert sum("\u4e00" <= c <= "\u9fff" for c in zh.text) > 20
    with pytest.raises(PromptError, match=r"prompts/react_system.v1.fr.txt"):
        load_prompt("react_system", "v1", "fr")


def test_language_is_detected_from_the_query_or_given():
    assert detect_language("2023年青松市的人口是多少？") == "zh"
    assert detect_language("2023年iPhone在中国的销量") == "zh"
    assert detect_language("How long is the Yangtze (长江)?") == "en"
    assert languages_of(["长江多长？", "How long?"]) == ["zh", "en"]
    assert languages_of(["长江多长？"], ["en"]) == ["en"]
    with pytest.raises(ValueError, match="one language per query"):
        languages_of(["a", "b"], ["en"])
    with pytest.raises(ValueError, match="unknown language"):
        languages_of(["a"], ["fr"])


def test_a_chinese_query_runs_on_the_chinese_prompts_and_an_english_one_on_the_english(tool):
    broken = "我想直接回答。"
    search = '<tool_call>{"name": "search", "arguments": {"query": ["长江"]}}</tool_call>'
    model = ScriptedModel({"searcher": [broken, "I know.", search, "<answer>6,300 km</answer>",
                                        "<answer>6300公里</answer>"]})
    agent = ReactSearcher(model, tool, ReactSettings(date="2024-05-06"))
    zh, en = agent.search(["长江有多长？", "How long is the Yangtze?"])
    assert zh.trace[0].content == load_prompt("react_system", "v1", "zh").render(date="2024-05-06")
    assert "当前日期：2024-05-06" in zh.trace[0].content and "Current date: 2024-05-06" in en.trace[0].content
    assert zh.trace[3].kind == "format_error" and zh.trace[3].content.startswith("<tool_response>\n错误：")
    assert en.trace[3].content.startswith("<tool_response>\nError: ")
    assert set(zh.prompts) == {"react_system.v1.zh", "react_final_answer.v1.zh", "react_format_error.v1.zh"}
    assert set(en.prompts) == {"react_system.v1", "react_final_answer.v1", "react_format_error.v1"}
    assert zh.termination is Termination.answer and zh.answer == "6300公里"
    described = agent.describe()
    assert set(described["prompts"]) == set(en.prompts)
    assert described["prompts_by_language"]["zh"] == zh.prompts


def test_given_languages_override_detection_and_the_final_answer_notice_is_chinese(tool):
    search = '<tool_call>{"name": "search", "arguments": {"query": ["Yangtze"]}}</tool_call>'
    model = ScriptedModel({"searcher": [search, "<answer>6,300 km</answer>"]})
    system = load_prompt("react_system", "v1", "zh").render(date="2025-01-01")
    query = "How long is the Yangtze?"
    cap = estimate_tokens([{"role": "system", "content": system}, {"role": "user", "content": query}]) + 50
    agent = ReactSearcher(model, tool, ReactSettings(max_context_tokens=cap + 4096 + 4096 + 256, max_tokens_per_call=4096,
                                                     final_answer_tokens=4096))  # the cap under the limit
    [out] = agent.search([query], languages=["zh"])  # the search result overflows the cap
    assert out.trace[0].content == system
    assert out.trace[3].kind == "limit_notice" and "最大上下文长度" in out.trace[3].content
    assert out.termination is Termination.token_limit


def test_visit_summaries_use_the_run_language(tool):
    visit = '<tool_call>{"name": "visit", "arguments": {"url": "Yangtze", "goal": "长度"}}</tool_call>'
    summary = json.dumps({"rational": "长度", "evidence": "长江全长6300公里。", "summary": "长江长6300公里。"},
                         ensure_ascii=False)
    model = ScriptedModel({"searcher": [visit, visit, "<answer>6300公里</answer>", "<answer>6,300 km</answer>"],
                           "visit_summary": [summary, summary]})
    agent = ReactSearcher(model, tool, ReactSettings(summarize_visits=True))
    zh, en = agent.search(["长江有多长？", "How long is the Yangtze?"])
    prompts = [c.messages[0].content for c in model.calls if c.role == "visit_summary"]
    assert prompts[0].startswith("请处理下面的文档内容和用户目标") and prompts[1].startswith("Please process")
    assert "visit_summary.v1.zh" in zh.prompts and "visit_summary.v1" in en.prompts
    assert "visit_summary.v1.zh" in agent.describe()["prompts_by_language"]["zh"]


def test_a_prompt_version_without_chinese_files_refuses_chinese_queries(tool, monkeypatch):
    from cts_dataset.search import react

    real = react.load_prompt

    def english_only(name, version="v1", language="en"):
        if language != "en":
            raise PromptError(f"no prompt file prompts/{name}.{version}.{language}.txt in cts_dataset.search")
        return real(name, version)

    monkeypatch.setattr(react, "load_prompt", english_only)
    agent = ReactSearcher(ScriptedModel(default="<answer>x</answer>"), tool)
    assert agent.describe()["prompts_by_language"] == {}
    assert agent.search(["How long?"])[0].answer == "x"
    with pytest.raises(PromptError, match="has no zh prompts"):
        agent.search(["长江有多长？"])


def test_the_retrieval_searcher_accepts_languages(tool):
    [out] = RetrievalSearcher(tool).search(["长江"], languages=["zh"])
    assert out.retrieved_doc_ids == ["Yangtze"]
