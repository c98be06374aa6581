"""The ReAct deep-search agent in WebDancer's format, stepping a whole batch of runs together.

Each step sends ONE ``model.complete`` batch holding the next turn of every run still going, so an
engine (vLLM) sees whole batches; then it runs every tool call of the step, all searches as one
index query batch and all visit summaries as one model batch. A run ends with its reason recorded:

- ``answer``: the model wrote ``<answer>...</answer>``;
- ``token limit``: the context passed the cap, the model was asked to answer at once, and did; or
  too little room was left under the model's ``max_model_len`` to ask at all (no answer);
- ``format error``: too many unreadable replies in a row, or no answer after the token-limit request;
- ``exceed available llm calls``: the call budget was spent without an answer;
- ``answer not found``: the model closed the run with an empty ``<answer>``;
- ``error``: the model request failed after the backend's retries (the message is kept); the other
  runs of the step go on.

Context: a step's generation limit fits the model (an eighth of its ``max_model_len``, 256 to 4,096
tokens), the final answer gets twice that; the cap is ``max_model_len`` less a step (the reply that
passes the cap stays in the history), the final answer and a margin, so a run asked to answer always has
room to. A model whose context puts the cap below the
system prompt is refused before any call; a question that puts it below the starting prompt ends
its run with an error naming the figures (never a limit notice before the first step). Every call's
``max_tokens`` is clamped to the room left, so no request exceeds the engine's limit; a model that
reports none (a hosted API) is held to ``max_context_tokens`` the same way.
Small models: ``action_grammar`` holds each reply to free thinking and then one valid action (a GBNF
grammar, :mod:`cts_dataset.search.react_grammar`); ``first_action: search`` makes the first step a
search, so the answer rests on documents rather than on the model's memory, and ``question`` (with the
grammar) makes the user's question its first query, so the agent is shown at least what one retrieval is.
Sampling: each run is seeded from its query text and the settings seed, so a query samples the same
way in any batch, with or without the response cache, on any engine that honours seeds.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from cts_dataset.errors import CtsbenchError
from cts_dataset.models.base import ChatModel, ChatRequest, Sampling, StructuredOutput
from cts_dataset.search.language import LANGUAGES, languages_of
from cts_dataset.search.prompts import PromptError, TextPrompt, load_prompt
from cts_dataset.search.react_grammar import step_grammar
from cts_dataset.search.react_parse import STOP_STRINGS, ParsedReply, ToolCall, parse_reply
from cts_dataset.search.react_run import ReactRun, estimate_tokens, trajectory_seed
from cts_dataset.search.react_settings import ReactSettings
from cts_dataset.search.records import SearchOutput, Termination, TraceEvent
from cts_dataset.search.tool import (
    SearchTool,
    SearchToolError,
    describe_tool,
    format_page,
    format_search_response,
    search_each,
)
from cts_dataset.search.visit_summary import PageSummarizer, request_error

STEP_TOKENS_FLOOR, STEP_TOKENS_CEILING = 256, 4096


class ContextTooSmallError(CtsbenchError, ValueError):
    """The model's context cannot hold the agent's system prompt, a step and the final answer."""


class ReactSearcher:
    """``search(queries) -> [SearchOutput]`` with an LLM agent over a search tool."""

    name = "react"

    def __init__(self, model: ChatModel, tool: SearchTool, settings: ReactSettings | None = None,
                 summary_model: ChatModel | None = None) -> None:
        self.model, self.tool = model, tool
        self.settings = settings or ReactSettings()
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
        # A run is prompted in its query's language: (system, final answer, format error) per language, for
        # the languages this prompt version has files for; each output records the prompts its run used.
        self.prompt_sets: dict[str, tuple[TextPrompt, TextPrompt, TextPrompt]] = {
            "en": (self.system_prompt, self.final_prompt, self.error_prompt)}
        self.language_prompts: dict[str, dict[str, str]] = {"en": self.prompts}
        for language in LANGUAGES[1:]:
            try:
                found = tuple(load_prompt(name, version, language)
                              for name in ("react_system", "react_final_answer", "react_format_error"))
                summary = (self.summarizer.prompt_for(language),) if self.summarizer is not None else ()
            except PromptError:
                continue
            self.prompt_sets[language] = found  # type: ignore[assignment]
            self.language_prompts[language] = {p.id: p.hash for p in (*found, *summary)}
        self.sampling = Sampling(temperature=self.settings.temperature, top_p=self.settings.top_p,
                                 max_tokens=self.step_tokens(), stop=STOP_STRINGS)

    @property
    def max_model_len(self) -> int | None:
        """The engine's context limit, when the model reports one (scripted models do not)."""
        value = getattr(self.model, "max_model_len", None)
        return value if isinstance(value, int) and value > 0 else None

    def step_tokens(self) -> int:
        """A step's generation limit: the setting, else one that fits the model's context."""
        if self.settings.max_tokens_per_call is not None:
            return self.settings.max_tokens_per_call
        return max(STEP_TOKENS_FLOOR, min(STEP_TOKENS_CEILING, self.context_limit // 8))

    @property
    def context_limit(self) -> int:
        """The limit every request is kept under: the model's, else the assumed ``max_context_tokens``."""
        return self.max_model_len or self.settings.max_context_tokens

    def final_tokens(self) -> int:
        """The final answer's generation limit (it states every fact found, so it gets more than a step)."""
        if self.settings.final_answer_tokens is not None:
            return self.settings.final_answer_tokens
        return max(self.step_tokens(), min(STEP_TOKENS_CEILING, 2 * self.step_tokens()))

    def context_cap(self) -> int:
        """The context length past which the agent is asked to answer at once."""
        return (self.context_limit - self.step_tokens() - self.final_tokens()
                - self.settings.context_margin_tokens)

    def check_fits(self, system: str, what: str, query: str = "") -> None:
        """Raise :class:`ContextTooSmallError` when the prompt a run starts with is over the cap (the run would
        be told to answer before its first step)."""
        limit = self.context_limit
        start = self.prompt_tokens([{"role": "system", "content": system}, {"role": "user", "content": query}])
        if start > self.context_cap():
            raise ContextTooSmallError(
                f"{self.model.spec}: a context of {limit} tokens a request cannot hold {what} ({start} tokens), "
                f"a step ({self.step_tokens()}), the final answer ({self.final_tokens()}) and the margin "
                f"({self.settings.context_margin_tokens}); serve the model with a longer context (llama.cpp: a "
                "larger n_ctx or fewer n_parallel slots) or lower max_tokens_per_call / final_answer_tokens")

    def prompt_tokens(self, messages: list[dict[str, str]]) -> int:
        """A prompt's length: the model's tokenizer when it gives a count, else the high-side estimate."""
        count = getattr(self.model, "count_tokens", None)
        counted = None
        if callable(count):  # the template kwargs (thinking on/off) change the rendered prompt
            kwargs = self.settings.chat_template_kwargs
            counted = count(messages, chat_template_kwargs=kwargs) if kwargs else count(messages)
        return counted if isinstance(counted, int) else estimate_tokens(messages)

    def token_counter(self) -> str:
        """``model`` when the model counts prompt tokens itself (an HTTP backend may offer the method and
        return None), else ``estimate``."""
        count = getattr(self.model, "count_tokens", None)
        probe = [{"role": "user", "content": "x"}]
        return "model" if callable(count) and isinstance(count(probe), int) else "estimate"

    def describe(self) -> dict[str, Any]:
        """Everything that changes this searcher's outputs (a run and its resumption must agree on it)."""
        return {"kind": self.name, "tool": self.tool.name, "tool_config": describe_tool(self.tool),
                "model": self.model.spec, "model_identity": getattr(self.model, "identity", None),
                "max_model_len": self.max_model_len, "step_tokens": self.step_tokens(),
                "final_answer_tokens": self.final_tokens(), "context_cap": self.context_cap(),
                "token_counter": self.token_counter(),
                "summarizer": self.summarizer.describe() if self.summarizer is not None else None,
                "settings": self.settings.model_dump(), "prompts": self.prompts,
                "prompts_by_language": {k: v for k, v in self.language_prompts.items() if k != "en"}}

    def prompt_set(self, language: str) -> tuple[TextPrompt, TextPrompt, TextPrompt]:
        """(system, final answer, format error) prompts of a language; PromptError when the version has none."""
        if language not in self.prompt_sets:
            raise PromptError(f"prompt version {self.settings.prompt_version!r} has no {language} prompts "
                              f"(prompts/react_system.{self.settings.prompt_version}.{language}.txt and its siblings)")
        return self.prompt_sets[language]

    def search(self, queries: Sequence[str], tags: Sequence[str] | None = None,
               languages: Sequence[str] | None = None) -> list[SearchOutput]:
        """One output per query; ``languages`` (``en``/``zh`` per query, e.g. the instances') pick the prompts,
        detected from each query's text when not given."""
        tags = list(tags) if tags is not None else [""] * len(queries)
        if len(tags) != len(queries):
            raise ValueError("give one tag per query")
        chosen = languages_of(queries, languages)
        systems = {lang: self.prompt_set(lang)[0].render(date=self.settings.date) for lang in set(chosen)}
        runs = [ReactRun(query=q, tag=t, seed=trajectory_seed(q, self.settings.seed), language=lang,
                         events=[TraceEvent(kind="system", role="system", content=systems[lang]),
                                 TraceEvent(kind="query", role="user", content=q)])
                for q, t, lang in zip(queries, tags, chosen, strict=True)]
        for language, system in systems.items():  # no run of this language could take a step
            self.check_fits(system, f"the {language} system prompt")
        for run in runs:
            try:
                self.check_fits(systems[run.language], "the system prompt and this question", run.query)
            except ContextTooSmallError as error:
                run.fail(str(error), called=False)
        while self.step(runs):
            pass
        settings = self.settings.model_dump()
        return [r.output(self.tool.name, self.model.spec, self.language_prompts[r.language], settings,
                         self.prompt_tokens(r.messages()))
                for r in runs]

    def _max_tokens(self, run: ReactRun, limit: int, cap: int) -> int | None:
        """The next call's max_tokens, once the run was asked to answer if its context passed the cap;
        None when no reply fits under the model's limit any more (the run then ends)."""
        tokens = self.prompt_tokens(run.messages())
        if tokens > cap and not run.forced_final:
            run.force_final_answer(self.prompt_set(run.language)[1].render().strip())
            tokens = self.prompt_tokens(run.messages())
        wanted = self.final_tokens() if run.forced_final else self.step_tokens()
        room = limit - tokens - self.settings.context_margin_tokens
        if room < min(self.settings.min_tokens_per_call, wanted):
            run.finish(Termination.token_limit)
            return None
        return min(wanted, room)

    def _structured(self, run: ReactRun) -> StructuredOutput | None:
        """The step's grammar, when actions are held to one: only an answer once the run was asked for it,
        no answer before the first search when one is required, visits only to links the run was shown."""
        if not self.settings.action_grammar:
            return None
        if run.forced_final:
            return StructuredOutput(grammar=step_grammar(search=False, answer=True))
        first = self._must_search(run)
        # A question holding "<" could close a tag inside the call; its first query is then the model's own.
        question = first and self.settings.first_action == "question" and "<" not in run.query
        return StructuredOutput(grammar=step_grammar(
            search=True, visit_urls=list(run.links), answer=not first,
            max_queries=self.settings.max_queries_per_call, first_query=run.query if question else None))

    def _must_search(self, run: ReactRun) -> bool:
        return self.settings.first_action != "any" and run.search_calls == 0

    def step(self, runs: Sequence[ReactRun]) -> bool:
        """One model batch for every running run, then their tools. False when all have ended."""
        limit, cap = self.context_limit, self.context_cap()
        active: list[ReactRun] = []
        requests: list[ChatRequest] = []
        for run in runs:
            if not run.running:
                continue
            if run.agent_calls >= self.settings.max_llm_calls:
                run.finish(Termination.exceed_llm_calls)
                continue
            max_tokens = self._max_tokens(run, limit, cap)
            if max_tokens is None:
                continue
            active.append(run)
            requests.append(ChatRequest.of(run.messages(), sampling=replace(self.sampling, max_tokens=max_tokens,
                                                                           seed=run.seed),
                                           structured=self._structured(run), role="searcher", tag=run.tag,
                                           chat_template_kwargs=self.settings.chat_template_kwargs))
        if not active:
            return False
        responses = self.model.complete(requests)
        if len(responses) != len(requests):
            raise RuntimeError(f"{self.model.spec}: {len(responses)} responses for {len(requests)} requests")
        calls: list[tuple[ReactRun, ToolCall]] = []
        for run, response in zip(active, responses, strict=True):
            if response.failed:
                run.fail(response.error)
                continue
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
        if reply.kind == "answer" and self._must_search(run):
            reply = ParsedReply("malformed", reply.content, problem="search for documents before you answer")
        if reply.kind == "answer":
            run.finish(Termination.answer if reply.answer else Termination.answer_not_found, reply.answer)
            return None
        if reply.kind == "malformed":
            run.malformed += 1
            run.consecutive_errors += 1
            if run.consecutive_errors > self.settings.max_format_errors:
                run.finish(Termination.format_error)
            else:
                run.add_format_error(self.prompt_set(run.language)[2].render(problem=reply.problem).strip())
            return None
        run.consecutive_errors = 0
        return reply.call

    def _run_searches(self, calls: list[tuple[ReactRun, ToolCall]]) -> None:
        """All searches of the step as one batch; a query the tool failed on shows its error to that run
        (as WebDancer's tool does), which goes on: it may retry or rephrase within its call budget."""
        if not calls:
            return
        queries = [q for _, call in calls for q in call.arguments["query"]]
        results = search_each(self.tool, queries, self.settings.search_k)
        start = 0
        for run, call in calls:
            mine = results[start: start + len(call.arguments["query"])]
            start += len(call.arguments["query"])
            run.search_calls += 1
            text = format_search_response(call.arguments["query"], mine, self.tool.engine_label)
            shown = [h for hits in mine if not isinstance(hits, SearchToolError) for h in hits]
            doc_ids = [h.doc_id for h in shown]
            for hit in shown:
                run.links.setdefault(hit.url, None)
            run.add_tool_response("search", call.arguments, text, doc_ids)

    def _run_visits(self, calls: list[tuple[ReactRun, ToolCall]]) -> None:
        if not calls:
            return
        visits = [(run, call, self.tool.visit(url, call.arguments["goal"]))
                  for run, call in calls for url in call.arguments["url"]]
        items = [(page, call.arguments["goal"]) for _, call, page in visits]
        if self.summarizer is not None:
            done = self.summarizer.summarize(items, self.settings.visit_max_chars,
                                             languages=[run.language for run, _, _ in visits],
                                             tags=[run.tag for run, _, _ in visits])
        else:
            done = [(format_page(page, goal, self.settings.visit_max_chars), None) for page, goal in items]
        for run, call in calls:
            mine = [(page, text, response) for (_, c, page), (text, response) in zip(visits, done, strict=True) if c is call]
            run.visit_calls += 1
            doc_ids = [page.doc_id for page, _, _ in mine if page.found]
            for doc_id in doc_ids:
                run.visited.setdefault(doc_id, None)
            run.add_tool_response("visit", call.arguments, "\n=======\n".join(t for _, t, _ in mine), doc_ids,
                                  summaries=[r.usage for _, _, r in mine if r is not None])
            failed = next((e for _, _, r in mine if (e := request_error(r))), None)
            if failed:  # an error record, so that a rerun asks again (a page shown raw would change the run)
                run.fail(failed, called=False)
