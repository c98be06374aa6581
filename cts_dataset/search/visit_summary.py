"""Goal-focused page summaries for ``visit``, as WebDancer's visit tool makes them.

A summary model reads the page and the goal and returns JSON ``{rational, evidence, summary}``; the
agent sees the evidence and the summary. All visits of one agent step go to the model as one batch.
A reply that is not that JSON falls back to the page text itself (counted in ``failures``): the model
answered, and a rerun would get the same answer. A failed request is not a reply: the page is not shown
in its place (that would silently change the trajectory); :func:`request_error` names the failure, and
the agent ends that run as an error record, which a rerun retries (counted in ``request_failures``).
Each response comes back with its text, so the agent counts the calls and tokens.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cts_dataset.models.base import ChatModel, ChatRequest, ChatResponse, Sampling, StructuredOutput
from cts_dataset.search.prompts import TextPrompt, load_prompt
from cts_dataset.search.react_parse import loads_tolerant
from cts_dataset.search.tool import Page, format_page

SUMMARY_SCHEMA = {
    "type": "object",
    "properties": {"rational": {"type": "string"}, "evidence": {"type": "string"}, "summary": {"type": "string"}},
    "required": ["rational", "evidence", "summary"],
    "additionalProperties": False,  # strict JSON-schema modes (OpenAI's) require it
}


class PageSummarizer:
    """Turns (page, goal) pairs into the text a visit returns, one model batch per call."""

    def __init__(self, model: ChatModel, max_page_chars: int = 20000, max_tokens: int = 1024,
                 prompt_version: str = "v1") -> None:
        self.model = model
        self.prompt_version = prompt_version
        self.prompt = load_prompt("visit_summary", prompt_version)  # English; prompt_for() gives the others
        self.max_page_chars = max_page_chars
        self.sampling = Sampling(temperature=0.0, max_tokens=max_tokens)
        self.failures = 0  # replies that were not the JSON asked for (the page was shown instead)
        self.request_failures = 0  # failed requests (no text shown as a summary; the run must fail)

    def prompt_for(self, language: str) -> TextPrompt:
        """The summary prompt of a language (PromptError when this version has no file for it)."""
        return self.prompt if language == "en" else load_prompt("visit_summary", self.prompt_version, language)

    def describe(self) -> dict[str, Any]:
        """What changes the summaries: the resolved model (its revision or file hash where it has one, so that
        a model retrained under the same spec is another summariser), the prompt and the limits."""
        return {"model": getattr(self.model, "identity", self.model.spec), "prompt": self.prompt.id,
                "max_page_chars": self.max_page_chars, "max_tokens": self.sampling.max_tokens}

    def summarize(self, items: Sequence[tuple[Page, str]], max_fallback_chars: int,
                  languages: Sequence[str] | None = None,
                  tags: Sequence[str] | None = None) -> list[tuple[str, ChatResponse | None]]:
        """Per (page, goal): the text the visit returns, and the model's response (None: no call made).
        ``languages`` (one per item, default English) pick the summary prompt; ``tags`` label the calls
        (the run each visit serves, so its cost is counted with the run's)."""
        languages = list(languages) if languages is not None else ["en"] * len(items)
        tags = list(tags) if tags is not None else [""] * len(items)
        if len(languages) != len(items):
            raise ValueError(f"give one language per item: {len(languages)} for {len(items)} items")
        wanted = [i for i, (page, _) in enumerate(items) if page.found]
        texts = [format_page(page, goal, max_fallback_chars) for page, goal in items]
        responses: list[ChatResponse | None] = [None] * len(items)
        if not wanted:
            return list(zip(texts, responses, strict=True))
        requests = [
            ChatRequest.of(
                [{"role": "user", "content": self.prompt_for(languages[i]).render(
                    content=items[i][0].text[: self.max_page_chars], goal=items[i][1])}],
                sampling=self.sampling, structured=StructuredOutput(json_schema=SUMMARY_SCHEMA),
                role="visit_summary", tag=tags[i])
            for i in wanted
        ]
        for i, response in zip(wanted, self.model.complete(requests), strict=True):
            responses[i] = response
            page, goal = items[i]
            if response.failed:
                self.request_failures += 1
                texts[i] = f"[visit] {page.url}: {request_error(response)}"
                continue
            try:
                data = loads_tolerant(response.text)
                evidence, summary = str(data["evidence"]), str(data["summary"])
            except (ValueError, KeyError, TypeError):
                self.failures += 1
                continue
            texts[i] = (f"The useful information in {page.url} for user goal {goal} as follows: \n\n"
                        f"Evidence in page: \n{evidence}\n\nSummary: \n{summary}\n\n")
        return list(zip(texts, responses, strict=True))


def request_error(response: ChatResponse | None) -> str | None:
    """Why a visit's summary request failed (None when no request was made or it was answered): the run
    it serves must end as an error record, so that a rerun asks again."""
    if response is None or not response.failed:
        return None
    return f"the page summary request failed: {response.error or 'no reason given'}"
