"""The ReAct deep-search agent in WebDancer's format, stepping a whole batch of runs together.

Each step sends ONE ``model.complete`` batch holding the next turn of every run still going, so an
engine (vLLM) sees whole batches; then it runs every tool call of the step, all searches as one
index query batch and all visit summaries as one model batch. A run ends with its reason recorded:

- ``answer``: the model wrote ``<answer>...</answer>``;
- ``token limit``: the context passed the cap, the model was asked to answer at once, and did;
- ``format error``: too many unreadable replies in a row, or no answer after the token-limit request;
- ``exceed available llm calls``: the call budget was spent without an answer;
- ``answer not found``: the model closed the run with an empty ``<answer>``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from cts_dataset.models.base import ChatModel, ChatRequest, Sampling
from cts_dataset.search.prompts import load_prompt
from cts_dataset.search.react_parse import STOP_STRINGS, ParsedReply, ToolCall, parse_reply
from cts_dataset.search.react_run import ReactRun, TokenCounter, approx_tokens
from cts_dataset.search.records import SearchOutput, Termination, TraceEvent
from cts_dataset.search.tool import SearchTool, format_page, format_search_response
from cts_dataset.search.visit_summary import PageSummarizer
from cts_dataset.search.web_tool import TransientSearchError


class ReactSettings(BaseModel):
    """Agent settings; every one is recorded in each output. Defaults follow WebDancer's demo."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    date: str = Field("2025-01-01", pattern=r"^\d{4}-\d{2}-\d{2}$",
                      description="The 'current date' in the system prompt, pinned so prompts and cache keys never drift.")
    max_llm_calls: int = Field(20, ge=1)
    max_context_tokens: int = Field(32000, ge=64)
    max_tokens_per_call: int = Field(4096, ge=1)
    max_format_errors: int = Field(3, ge=0, description="Unreadable replies in a row tolerated before giving up.")
    temperature: float = Field(0.6, ge=0)
    top_p: float = Field(0.95, gt=0, le=1)
    seed: int | None = None
    search_k: int = Field(10, ge=1, description="Results per search query.")
    max_queries_per_call: int = Field(3, ge=1)
    visit_max_chars: int = Field(8000, ge=100, description="Page text shown by visit without a summary model.")
    summarize_visits: bool = Field(False, description="Let a model summarise visited pages for the goal.")
    prompt_version: str = "v1"
    chat_template_kwargs: dict[str, Any] = Field(default_factory=dict)


class ReactSearcher:
    """``search(queries) -> [SearchOutput]`` with an LLM agent over a search tool."""

    name = "react"

    def __init__(self, model: ChatModel, tool: SearchTool, settings: ReactSettings | None = None,
                 summary_model: ChatModel | None = None, token_counter: TokenCounter = approx_tokens) -> None:
        self.model, self.tool = model, tool
        self.settings = settings or ReactSettings()
        self.count_tokens = token_counter
        version = self.settings.prompt_version
        self.system_prompt = load_prompt("react_system", version)
        self.final_prompt = load_prompt("react_final_answer", version)
        self.error_prompt = load_prompt("react_format_error", version)
        used = [self.system_prompt, self.final_prompt, self.error_prompt]
        self.summarizer = None
        if self.settings.summarize_visits:
            self.summarizer = PageSummarizer(summary_model or model, prompt_version=version)
            used.append(self.summarizer.prompt)
        self.prompts = {p.id: p.hash for p in used}
        self.sampling = Sampling(temperature=self.settings.temperature, top_p=self.settings.top_p,
                                 max_tokens=self.settings.max_tokens_per_call, stop=STOP_STRINGS,
                                 seed=self.settings.seed)

    def describe(self) -> dict[str, Any]:
        """What a run's config.json records about this searcher."""
        return {"kind": self.name, "tool": self.tool.name, "model": self.model.spec,
                "settings": self.settings.model_dump(), "prompts": self.prompts}

    def search(self, queries: Sequence[str], tags: Sequence[str] | None = None) -> list[SearchOutput]:
        tags = list(tags) if tags is not None else [""] * len(queries)
        if len(tags) != len(queries):
            raise ValueError("give one tag per query")
        system = self.system_prompt.render(date=self.settings.date)
        runs = [ReactRun(query=q, tag=t, events=[TraceEvent(kind="system", role="system", content=system),
                                                  TraceEvent(kind="query", role="user", content=q)])
                for q, t in zip(queries, tags)]
        while self.step(runs):
            pass
        settings = self.settings.model_dump()
        return [r.output(self.tool.name, self.model.spec, self.prompts, settings, self.count_tokens) for r in runs]

    def step(self, runs: Sequence[ReactRun]) -> bool:
        """One model batch for every running run, then their tools. False when all have ended."""
        for run in runs:
            if not run.running:
                continue
            if run.llm_calls >= self.settings.max_llm_calls:
                run.finish(Termination.exceed_llm_calls)
            elif run.context_tokens(self.count_tokens) > self.settings.max_context_tokens:
                run.force_final_answer(self.final_prompt.render().strip())
        active = [run for run in runs if run.running]
        if not active:
            return False
        requests = [ChatRequest.of(run.messages(), sampling=self.sampling, role="searcher", tag=run.tag,
                                   chat_template_kwargs=self.settings.chat_template_kwargs) for run in active]
        responses = self.model.complete(requests)
        if len(responses) != len(requests):
            raise RuntimeError(f"{self.model.spec}: {len(responses)} responses for {len(requests)} requests")
        calls: list[tuple[ReactRun, ToolCall]] = []
        for run, response in zip(active, responses):
            reply = parse_reply(response.text, self.settings.max_queries_per_call)
            run.add_assistant(response, reply.content)
            call = self._apply(run, reply)
            if call is not None:
                calls.append((run, call))
        self._run_searches([(r, c) for r, c in calls if c.name == "search"])
        self._run_visits([(r, c) for r, c in calls if c.name == "visit"])
        return any(run.running for run in runs)

    def _apply(self, run: ReactRun, reply: ParsedReply) -> ToolCall | None:
        """Record what the reply means for the run; the tool call to make, if any."""
        if run.forced_final:
            if reply.kind == "answer" and reply.answer:
                run.finish(Termination.token_limit, reply.answer)
            else:
                run.finish(Termination.format_error)
            return None
        if reply.kind == "answer":
            run.finish(Termination.answer if reply.answer else Termination.answer_not_found, reply.answer)
            return None
        if reply.kind == "malformed":
            run.malformed += 1
            run.consecutive_errors += 1
            if run.consecutive_errors > self.settings.max_format_errors:
                run.finish(Termination.format_error)
            else:
                run.add_format_error(self.error_prompt.render(problem=reply.problem).strip())
            return None
        run.consecutive_errors = 0
        return reply.call

    def _run_searches(self, calls: list[tuple[ReactRun, ToolCall]]) -> None:
        if not calls:
            return
        queries = [q for _, call in calls for q in call.arguments["query"]]
        try:
            results = self.tool.search(queries, self.settings.search_k)
        except TransientSearchError as error:  # tell the models, as WebDancer's tool does
            for run, call in calls:
                run.search_calls += 1
                run.add_tool_response("search", call.arguments, f"[search] failed: {error}. Try again later.", [])
            return
        start = 0
        for run, call in calls:
            mine = results[start: start + len(call.arguments["query"])]
            start += len(call.arguments["query"])
            run.search_calls += 1
            text = format_search_response(call.arguments["query"], mine, self.tool.engine_label)
            run.add_tool_response("search", call.arguments, text, [h.doc_id for hits in mine for h in hits])

    def _run_visits(self, calls: list[tuple[ReactRun, ToolCall]]) -> None:
        if not calls:
            return
        visits = [(run, call, self.tool.visit(url, call.arguments["goal"]))
                  for run, call in calls for url in call.arguments["url"]]
        items = [(page, call.arguments["goal"]) for _, call, page in visits]
        if self.summarizer is not None:
            texts = self.summarizer.summarize(items, self.settings.visit_max_chars)
        else:
            texts = [format_page(page, goal, self.settings.visit_max_chars) for page, goal in items]
        for run, call in calls:
            mine = [(page, text) for (r, c, page), text in zip(visits, texts) if c is call]
            run.visit_calls += 1
            doc_ids = [page.doc_id for page, _ in mine if page.found]
            for doc_id in doc_ids:
                run.visited.setdefault(doc_id, None)
            run.add_tool_response("visit", call.arguments, "\n=======\n".join(t for _, t in mine), doc_ids)
