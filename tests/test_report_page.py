"""The report page against text that holds markup: a search answer with "<!--" then "<script>" must stay
text in the page's embedded JSON and must not end its data block (an emulation of the HTML tokenizer's
script states here, a real headless Chromium where /usr/bin/chromium is installed).

The run folders are those of tests/test_report.py (its module fixtures).
"""

from __future__ import annotations

import json
import os
import shutil

import pytest

from tests.test_report import ARGS, CHROMIUM, report, runs, searcher, stage

pytest.importorskip("pandas")
pytest.importorskip("matplotlib")
__all__ = ["report", "runs", "searcher"]  # fixtures used here


# A search answer (model or web text) holding "<!--" then "<script>": in a script element the HTML parser
# then waits for a second "</script>", so an unescaped data block swallows the page script.
SCRIPT_ANSWER = "Before <!--<script> then </script> and & after"


@pytest.fixture(scope="module")
def script_answer(runs, tmp_path_factory):
    """A copy of the template run whose demo-0002 clarify@1 search answer holds SCRIPT_ANSWER, and its page."""
    from cts_dataset.report.html import render
    from cts_dataset.report.leaderboard import build

    folder = tmp_path_factory.mktemp("script") / "run"
    shutil.copytree(runs[1], folder)
    found = next(r for r in stage(folder, "search") if r["instance"] == "demo-0002" and r["budget"] == 1)
    with (folder / "search.jsonl").open("a") as log:  # a later line of the key wins
        log.write(json.dumps({**found, "answer": SCRIPT_ANSWER}) + "\n")
    board = build([folder])
    return board, render(board, {})


def script_end(page: str, start: int) -> int:
    """Where an HTML parser ends the script element whose text starts at ``start``: the script data states
    of the WHATWG tokenizer (13.2.5.4-13.2.5.25), where "<!--" then "<script" hides the next "</script>"."""
    def tag(at: int) -> bool:  # "script" then whitespace, "/" or ">"
        return page[at:at + 6].lower() == "script" and page[at + 6:at + 7] in (" ", "\t", "\n", "\f", "/", ">")

    state, i = "data", start
    while i < len(page):
        char, escaped = page[i], state in ("esc", "esc-", "esc--")
        if state == "data":
            if page.startswith("</", i) and tag(i + 2):
                return i
            state, i = ("esc--", i + 4) if page.startswith("<!--", i) else ("data", i + 1)
        elif char == "-":
            state, i = {"esc": "esc-", "dbl": "dbl-"}.get(state, state if state.endswith("--") else state + "-"), i + 1
        elif char == "<" and escaped and page[i + 1:i + 2] == "/" and tag(i + 2):
            return i
        elif char == "<" and escaped and tag(i + 1):
            state, i = "dbl", i + 8  # double-escaped: "</script>" now only leaves this state
        elif char == "<" and not escaped and page[i + 1:i + 2] == "/" and tag(i + 2):
            state, i = "esc", i + 9
        elif char == ">" and state.endswith("--"):
            state, i = "data", i + 1
        else:
            state, i = ("esc" if escaped else "dbl"), i + 1
    return len(page)


def test_text_holding_comment_and_script_tags_cannot_end_the_pages_data_block(script_answer, report):
    from cts_dataset.report.html import page_data

    board, page = script_answer
    opening = '<script id="report-data" type="application/json">'
    start = page.index(opening) + len(opening)
    end = script_end(page, start)
    assert json.loads(page[start:end]) == json.loads(json.dumps(page_data(board)))
    assert SCRIPT_ANSWER in json.loads(page[start:end])["texts"]
    assert page[end:].startswith("</script>\n<script>") and "<" not in page[start:end]
    clean = (report[0] / "report.html").read_text()  # the emulation ends an ordinary page's block where it ends
    start = clean.index(opening) + len(opening)
    assert clean[script_end(clean, start):].startswith("</script>\n<script>")


def test_embedded_json_holds_no_markup_and_reads_back_the_same():
    from cts_dataset.report.html import embedded_json

    value = {"answer": SCRIPT_ANSWER, "more": "<!-- --> </SCRIPT > <\u2028 &amp;"}
    text = embedded_json(value)
    assert not {"<", ">", "&"} & set(text) and json.loads(text) == value


def test_a_search_answer_with_script_markup_shows_as_text_in_chromium(script_answer, tmp_path):
    if not CHROMIUM.exists():
        message = f"{CHROMIUM} missing: apt-get install chromium chromium-driver (.ci/run does)"
        pytest.fail(message) if os.environ.get("CI") == "true" else pytest.skip(message)
    sync_api = pytest.importorskip("playwright.sync_api")

    _, page_text = script_answer
    (tmp_path / "report.html").write_text(page_text)
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        page = browser.new_page(viewport={"width": 1300, "height": 900})
        errors = []
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto((tmp_path / "report.html").as_uri())
        page.select_option("#f-condition", "clarify@1")
        page.fill("#f-text", "demo-0002")
        assert page.locator("#matches tbody tr").count() == 1  # the page script ran
        assert page.locator("#answer").inner_text() == SCRIPT_ANSWER
        browser.close()
    assert errors == []
