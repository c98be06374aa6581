"""The state of one ReAct run: its conversation (as trace events), counters and ending."""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from cts_dataset.models.base import ChatResponse, Usage
from cts_dataset.search.records import SearchOutput, Termination, TokenCounts, ToolCounts, TraceEvent

_CJK = re.compile(r"[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]")
MESSAGE_OVERHEAD_TOKENS = 4  # role markers a chat template adds per message
# chars/4 undercounts digits (Qwen-style tokenizers split them one per token), URLs and markdown: on
# search listings and pages a real BPE tokenizer counted up to ~15% more, so the estimate is raised by 25%.
ESTIMATE_SAFETY = 1.25


def approx_tokens(text: str) -> int:
    """A tokenizer-free token estimate: one per CJK character, one per four other characters."""
    cjk = len(_CJK.findall(text))
    return cjk + math.ceil((len(text) - cjk) / 4)


def estimate_tokens(messages: list[dict[str, str]]) -> int:
    """A conversation's prompt length when the model cannot count it: :func:`approx_tokens` plus the
    per-message template overhead, times :data:`ESTIMATE_SAFETY` (meant to err on the high side)."""
    raw = sum(approx_tokens(m["content"]) + MESSAGE_OVERHEAD_TOKENS for m in messages)
    return math.ceil(raw * ESTIMATE_SAFETY)


def trajectory_seed(query: str, seed: int) -> int:
    """The sampling seed of one run: a function of the query text and the settings seed only, so the
    same query samples the same way in any batch, with the response cache on or off, on any machine
    (for an engine that honours seeds). 31 bits: every backend accepts it."""
    digest = hashlib.sha256(f"{seed}\0{query}".encode()).digest()
    return int.from_bytes(digest[:4], "big") & 0x7FFFFFFF


def history_content(event: TraceEvent) -> str:
    """The message content the model sees again: an assistant turn keeps its <think> block."""
    if event.role == "assistant" and event.reasoning:
        return f"<think>\n{event.reasoning}\n</think>\n{event.content}"
    return event.content


@dataclass
class ReactRun:
    query: str
    tag: str
    events: list[TraceEvent]
    seed: int
    language: str = "en"  # picks the run's prompts (system, final answer, format error, visit summaries)
    agent_calls: int = 0  # the agent's own requests: what max_llm_calls limits
    summary_calls: int = 0
    consecutive_errors: int = 0
    forced_final: bool = False
    search_calls: int = 0
    visit_calls: int = 0
    malformed: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    retrieved: dict[str, None] = field(default_factory=dict)  # an ordered set
    visited: dict[str, None] = field(default_factory=dict)
    links: dict[str, None] = field(default_factory=dict)  # the links search results showed (what a visit may name)
    termination: Termination | None = None
    answer: str = ""
    error: str = ""

    @property
    def running(self) -> bool:
        return self.termination is None

    def messages(self) -> list[dict[str, str]]:
        return [{"role": e.role, "content": history_content(e)} for e in self.events]

    def add_assistant(self, response: ChatResponse, content: str) -> None:
        self.agent_calls += 1
        self.prompt_tokens += response.usage.prompt_tokens
        self.completion_tokens += response.usage.completion_tokens
        self.events.append(TraceEvent(
            kind="assistant", role="assistant", content=content, reasoning=response.reasoning,
            prompt_tokens=response.usage.prompt_tokens, completion_tokens=response.usage.completion_tokens,
            finish_reason=response.finish_reason))

    def add_tool_response(self, tool: str, arguments: dict, result: str, doc_ids: list[str],
                          summaries: Sequence[Usage] = ()) -> None:
        """A tool's result; ``summaries``: the usage of the visit-summary calls that made it."""
        for doc_id in doc_ids:
            self.retrieved.setdefault(doc_id, None)
        prompt, completion = sum(u.prompt_tokens for u in summaries), sum(u.completion_tokens for u in summaries)
        self.summary_calls += len(summaries)
        self.prompt_tokens += prompt
        self.completion_tokens += completion
        self.events.append(TraceEvent(kind="tool_response", role="user", tool=tool, arguments=arguments,
                                      content=f"<tool_response>\n{result}\n</tool_response>", doc_ids=doc_ids,
                                      prompt_tokens=prompt, completion_tokens=completion))

    def add_format_error(self, message: str) -> None:
        self.events.append(TraceEvent(kind="format_error", role="user",
                                      content=f"<tool_response>\n{message}\n</tool_response>"))

    def force_final_answer(self, notice: str) -> None:
        """Replace the last user turn (what overflowed the context) by the request to answer now."""
        last = self.events[-1]
        content = notice if last.kind != "query" else f"{last.content}\n\n{notice}"
        self.events[-1] = TraceEvent(kind="limit_notice", role="user", content=content, tool=last.tool,
                                     arguments=last.arguments, doc_ids=last.doc_ids)
        self.forced_final = True

    def finish(self, termination: Termination, answer: str = "") -> None:
        self.termination, self.answer = termination, answer

    def fail(self, error: str, called: bool = True) -> None:
        """The agent's request failed after the backend's retries (or, ``called=False``, could not be made):
        this run ends, the others go on."""
        self.agent_calls += called
        self.error = error or "the model request failed"
        self.finish(Termination.error)

    def output(self, tool_name: str, model_spec: str, prompts: dict[str, str], settings: dict,
               context_tokens: int) -> SearchOutput:
        return SearchOutput(
            query=self.query, answer=self.answer, searcher="react", tool=tool_name, model=model_spec,
            termination=self.termination or Termination.answer_not_found,
            retrieved_doc_ids=list(self.retrieved), visited_doc_ids=list(self.visited),
            tool_calls=ToolCounts(search=self.search_calls, visit=self.visit_calls, malformed=self.malformed,
                                  summaries=self.summary_calls),
            llm_calls=self.agent_calls + self.summary_calls,
            tokens=TokenCounts(prompt=self.prompt_tokens, completion=self.completion_tokens, context=context_tokens),
            seed=self.seed, error=self.error, prompts=prompts, settings=settings, trace=list(self.events),
            tag=self.tag)
