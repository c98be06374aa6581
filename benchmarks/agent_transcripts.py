"""Print ReAct agent transcripts with a scripted model, one per termination reason, over the shipped corpus.

    python benchmarks/agent_transcripts.py [--full]

All five runs go through the agent as ONE batch (one model call per step for every run still going),
so the output also shows runs ending at different steps. The index goes to a temporary cache folder.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from cts_dataset.models.base import ChatRequest
from cts_dataset.models.scripted import ScriptedModel
from cts_dataset.search.corpus_tool import CorpusSearchTool
from cts_dataset.search.react import ReactSearcher, ReactSettings

SEARCH = '<think>I need evidence.</think>\n<tool_call>\n{"name": "search", "arguments": {"query": ["%s"]}}\n</tool_call>'
VISIT = ('<think>The first hit looks right.</think>\n<tool_call>\n{"name": "visit", "arguments": '
         '{"url": "https://en.wikipedia.org/wiki/1976_Tangshan_earthquake", "goal": "death toll"}}\n</tool_call>')
SCRIPTS = {
    "answer": [SEARCH % "1976 Tangshan earthquake deaths", VISIT,
               "<think>The page gives the count.</think>\n<answer>The official count was 242,469 deaths.</answer>"],
    "format error": ['<tool_call>{"name": "search", "arguments": {"query": [}</tool_call>',
                     "I am not sure what to do.", '<tool_call>{"name": "browse", "arguments": {}}</tool_call>',
                     "Still no tags."],
    "exceed available llm calls": [SEARCH % f"qzxv{i}" for i in range(4)],  # no hits: short results
    "token limit": [SEARCH % "Great Wall of China", SEARCH % "Ming dynasty", SEARCH % "Qin dynasty",
                    "<think>Enough.</think>\n<answer>Mostly built under the Ming dynasty.</answer>"],
    "answer not found": [SEARCH % "Atlantis population", "<think>Nothing relevant.</think>\n<answer></answer>"],
}


def reply_for(request: ChatRequest) -> str:
    """The scripted reply for the run (named by its query) at its current turn."""
    script = SCRIPTS[request.messages[1].content.split(":", 1)[0]]
    turn = sum(m.role == "assistant" for m in request.messages)
    return script[min(turn, len(script) - 1)]


def show(text: str, full: bool) -> str:
    return text if full or len(text) < 400 else text[:400] + f" [... {len(text) - 400} more characters]"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--full", action="store_true", help="Print messages uncut.")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="ctsbench-transcripts-") as folder:
        tool = CorpusSearchTool(cache_root=Path(folder))
        model = ScriptedModel(default=reply_for)
        # A cap of 3,000 tokens (the assumed limit less a 256-token step, final answer and margin) holds the
        # system prompt and two search results, not three.
        settings = ReactSettings(date="2025-01-01", max_llm_calls=4, max_format_errors=2, max_tokens_per_call=256,
                                 final_answer_tokens=256, context_margin_tokens=256, max_context_tokens=3768)
        outputs = ReactSearcher(model, tool, settings).search([f"{reason}: example run" for reason in SCRIPTS])
    print(f"model batches per step: {model.batches}\n")
    for out in outputs:
        print(f"=== {out.query} -> termination {out.termination.value!r}; answer {out.answer!r}; llm calls "
              f"{out.llm_calls}; searches {out.tool_calls.search}; visits {out.tool_calls.visit}; malformed "
              f"{out.tool_calls.malformed}; context ~{out.tokens.context} tokens")
        for event in out.trace[1:]:
            think = f"<think>{event.reasoning}</think> " if event.reasoning else ""
            print(f"[{event.kind} / {event.role}] {show(think + event.content, args.full)}")
        print()


if __name__ == "__main__":
    main()
