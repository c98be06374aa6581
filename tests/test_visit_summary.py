"""The visit summariser: a failed summary request is a failure the run must record (never the raw page
shown as if nothing happened), an unparseable reply falls back to the page, and the summariser is
described by its resolved model, not its spec string."""

from __future__ import annotations

from cts_dataset.models.base import ChatResponse
from cts_dataset.models.scripted import ScriptedModel
from cts_dataset.search import visit_summary
from cts_dataset.search.tool import Page
from cts_dataset.search.visit_summary import PageSummarizer

PAGE_TEXT = "The Yangtze is 6,300 km long and flows into the East China Sea."
SUMMARY = '{"rational": "r", "evidence": "6,300 km long", "summary": "The Yangtze is 6,300 km."}'


class FailsSomeRequests(ScriptedModel):
    """Requests whose page mentions ``fail`` come back failed, as a backend's spent retries do."""

    def complete(self, requests):
        answered = super().complete(requests)
        return [ChatResponse.failure("HTTP 503 from the summary server", model=self.spec)
                if "fail" in r.messages[0].content else a for r, a in zip(requests, answered, strict=True)]


def _page(name: str, extra: str = "") -> Page:
    return Page(doc_id=name, url=f"https://en.wikipedia.org/wiki/{name}", title=name, text=PAGE_TEXT + extra)


def test_a_failed_summary_request_is_reported_not_replaced_by_the_page():
    summarizer = PageSummarizer(FailsSomeRequests({"visit_summary": [SUMMARY, "not json", SUMMARY]}))
    items = [(_page("Yangtze"), "length"), (_page("Nile"), "length"), (_page("Amazon", " fail"), "length")]
    (good, _), (unparsed, _), (failed, response) = summarizer.summarize(items, max_fallback_chars=1000)
    assert PAGE_TEXT not in failed, "a failed request must not pass the raw page off as the visit's result"
    assert "Evidence in page: \n6,300 km long" in good
    assert PAGE_TEXT in unparsed  # a reply that is no JSON: the page itself
    assert response is not None and response.failed
    assert summarizer.request_failures == 1 and summarizer.failures == 1
    error = visit_summary.request_error(response)
    assert error is not None and "HTTP 503 from the summary server" in error and error in failed
    assert visit_summary.request_error(None) is None


def test_the_summariser_is_described_by_its_resolved_model():
    model = ScriptedModel(spec="vllm:/ckpt/agent")
    model.identity = {"backend": "vllm", "model": "/ckpt/agent", "files": "sha256:0123abcd"}
    described = PageSummarizer(model).describe()
    assert described["model"] == model.identity, "a model retrained under the same spec is another summariser"
    assert PageSummarizer(ScriptedModel()).describe()["model"] == "scripted"  # no identity: the spec
