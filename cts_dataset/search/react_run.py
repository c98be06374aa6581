"""The state of one ReAct run: its conversation (as trace events), counters and ending."""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from cts_dataset.models.base import ChatResponse
from cts_dataset.search.records import SearchOutput, Termination, TokenCounts, ToolCounts, TraceEvent

_CJK = re.compile(r"[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]")
TokenCounter = Callable[[str], int]
MESSAGE_OVERHEAD_TOKENS = 4  # role markers a chat template adds per message


def approx_tokens(text: str) -> int:
    """A tokenizer-free token estimate: one per CJK character, one per four other characters.

    Deterministic and backend-independent, so the context cap ends a run at the same step on any
    engine; pass a real tokenizer's counter to the agent for exact caps.
    """
    cjk = len(_CJK.findall(text))
    return cjk + math.ceil((len(text) - cjk) / 4)


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
    llm_calls: int = 0
    consecutive_errors: int = 0
    forced_final: bool = False
    search_calls: int = 0
    visit_calls: int = 0
    malformed: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    retrieved: dict[str, None] = field(default_factory=dict)  # an ordered set
    visited: dict[str, None] = field(default_factory=dict)
    termination: Termination | None = None
    answer: str = ""

    @property
    def running(self) -> bool:
        return self.termination is None

    def messages(self) -> list[dict[str, str]]:
        return [{"role": e.role, "content": history_content(e)} for e in self.events]

    def context_tokens(self, counter: TokenCounter) -> int:
        return sum(counter(m["content"]) + MESSAGE_OVERHEAD_TOKENS for m in self.messages())

    def add_assistant(self, response: ChatResponse, content: str) -> None:
        self.llm_calls += 1
        self.prompt_tokens += response.usage.prompt_tokens
        self.completion_tokens += response.usage.completion_tokens
        self.events.append(TraceEvent(
            kind="assistant", role="assistant", content=content, reasoning=response.reasoning,
            prompt_tokens=response.usage.prompt_tokens, completion_tokens=response.usage.completion_tokens,
            finish_reason=response.finish_reason))

    def add_tool_response(self, tool: str, arguments: dict, result: str, doc_ids: list[str]) -> None:
        for doc_id in doc_ids:
            self.retrieved.setdefault(doc_id, None)
        self.events.append(TraceEvent(kind="tool_response", role="user", tool=tool, arguments=arguments,
                                      content=f"<tool_response>\n{result}\n</tool_response>", doc_ids=doc_ids))

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

    def output(self, tool_name: str, model_spec: str, prompts: dict[str, str], settings: dict,
               counter: TokenCounter) -> SearchOutput:
        return SearchOutput(
            query=self.query, answer=self.answer, searcher="react", tool=tool_name, model=model_spec,
            termination=self.termination or Termination.answer_not_found,
            retrieved_doc_ids=list(self.retrieved), visited_doc_ids=list(self.visited),
            tool_calls=ToolCounts(search=self.search_calls, visit=self.visit_calls, malformed=self.malformed),
            llm_calls=self.llm_calls,
            tokens=TokenCounts(prompt=self.prompt_tokens, completion=self.completion_tokens,
                               context=self.context_tokens(counter)),
            prompts=prompts, settings=settings, trace=list(self.events), tag=self.tag)
