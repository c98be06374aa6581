"""Nugget extraction from one archived search run: weighted, atomic facts with the ids of their evidence.

The evidence is what the run read: visited documents first, then retrieved ones, a few of them, cut to
a length a small model's context holds. The JSON schema limits ``sources`` to those ids. Every nugget
is then checked: atomic (one sentence, short), grounded in its cited documents (the share of its
content words found there, :func:`cts_dataset.quality.checks.grounding`, as ``check-data`` measures it)
and not a near-repeat of another; failing ones are dropped, and a run with too few left is asked again
with the problems.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from cts_dataset.build.prompts import FEEDBACK, NUGGETS
from cts_dataset.models.base import ChatRequest, ChatResponse, Sampling, StructuredOutput
from cts_dataset.quality.checks import GROUNDING_MIN, NEAR_DUPLICATE_JACCARD, grounding
from cts_dataset.records import Document, Nugget
from cts_dataset.search.react_parse import loads_tolerant
from cts_dataset.text import tokenize

MAX_WORDS = {"en": 30, "zh": 60}  # words, or characters for Chinese
_SENTENCE_END = re.compile(r"[.!?](?=\s+\S)|[。！？](?=\S)")


def nugget_schema(doc_ids: Sequence[str], max_nuggets: int) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {"nuggets": {
            "type": "array", "minItems": 1, "maxItems": max_nuggets,
            "items": {"type": "object",
                      "properties": {"text": {"type": "string"}, "weight": {"type": "integer", "enum": [1, 2, 3]},
                                     "sources": {"type": "array", "minItems": 1,
                                                 "items": {"type": "string", "enum": list(doc_ids)}}},
                      "required": ["text", "weight", "sources"], "additionalProperties": False}}},
        "required": ["nuggets"],
        "additionalProperties": False,
    }


def format_documents(documents: Sequence[Document], max_chars: int) -> str:
    return "\n\n".join(f"[{d.id}] {d.title}\n{d.text[:max_chars]}" for d in documents)


def nugget_problems(nugget: Nugget, language: str, evidence: dict[str, Document]) -> list[str]:
    """Why a nugget is not kept (empty: it is)."""
    problems = []
    size = len(nugget.text) if language == "zh" else len(nugget.text.split())
    if size > MAX_WORDS[language]:
        problems.append(f"not atomic: {size} {'characters' if language == 'zh' else 'words'} "
                        f"(at most {MAX_WORDS[language]})")
    if _SENTENCE_END.search(nugget.text.strip()):
        problems.append("not atomic: more than one sentence")
    unknown = [s for s in nugget.sources if s not in evidence]
    if unknown or not nugget.sources:
        problems.append(f"sources {unknown or '[]'} are not among the evidence documents")
    else:
        score, missing = grounding(nugget.text, [evidence[s] for s in nugget.sources])
        if score < GROUNDING_MIN:
            problems.append(f"not grounded: only {score:.0%} of its content words occur in its sources "
                            f"(missing: {', '.join(missing[:8])})")
    return problems


def _similar(a: str, b: str) -> bool:
    x, y = set(tokenize(a)), set(tokenize(b))
    return bool(x | y) and len(x & y) / len(x | y) >= NEAR_DUPLICATE_JACCARD


@dataclass
class Extracted:
    nuggets: list[Nugget] = field(default_factory=list)
    attempts: list[dict[str, Any]] = field(default_factory=list)


def judge_reply(response: ChatResponse, language: str, evidence: dict[str, Document]) -> tuple[list[Nugget], dict[str, Any]]:
    """The nuggets of one reply that pass, and the attempt's record (with every dropped nugget and why)."""
    record: dict[str, Any] = {"reply": response.text, "error": response.error, "dropped": []}
    if response.failed:
        record["problems"] = [f"request failed: {response.error}"]
        return [], record
    try:
        items = loads_tolerant(response.text)["nuggets"]
        proposed = [Nugget(text=str(n["text"]).strip(), weight=float(n["weight"]),
                           sources=list(dict.fromkeys(str(s) for s in n["sources"]))) for n in items]
    except (ValueError, KeyError, TypeError, AttributeError) as error:
        record["problems"] = [f"not the requested JSON ({type(error).__name__}: {error})"]
        return [], record
    kept: list[Nugget] = []
    for nugget in proposed:
        problems = nugget_problems(nugget, language, evidence)
        if not problems and any(_similar(nugget.text, k.text) for k in kept):
            problems = ["repeats another nugget"]
        if problems:
            record["dropped"].append({"text": nugget.text, "problems": problems})
        else:
            kept.append(nugget)
    record["problems"] = sorted({p.split(":")[0] for d in record["dropped"] for p in d["problems"]})
    return kept, record


def request(query: str, language: str, documents: Sequence[Document], min_nuggets: int, max_nuggets: int,
            doc_chars: int, problems: list[str], attempt: int = 0, max_tokens: int = 768) -> ChatRequest:
    """The extraction request; a retry samples anew, as for blurring."""
    feedback = FEEDBACK[language].format(problems="; ".join(problems)) if problems else ""
    messages = NUGGETS[language].render(query=query, documents=format_documents(documents, doc_chars),
                                        min_nuggets=min_nuggets, max_nuggets=max_nuggets, feedback=feedback)
    schema = nugget_schema([d.id for d in documents], max_nuggets)
    sampling = Sampling(temperature=0.0 if attempt == 0 else 0.7, max_tokens=max_tokens, seed=attempt)
    return ChatRequest.of(messages, sampling=sampling, structured=StructuredOutput(json_schema=schema),
                          sample_index=attempt, role="build_nuggets")


def extract_all(model: Any, jobs: list[tuple[str, str, list[Document]]], min_nuggets: int = 2, max_nuggets: int = 6,
                doc_chars: int = 1500, attempts: int = 3) -> list[Extracted]:
    """Nuggets for every (fused query, language, evidence documents), one model batch per attempt round; the
    attempt that kept the most nuggets wins."""
    results = [Extracted() for _ in jobs]
    problems: list[list[str]] = [[] for _ in jobs]
    for attempt in range(max(1, attempts)):
        todo = [i for i, r in enumerate(results) if len(r.nuggets) < min_nuggets and jobs[i][2]]
        if not todo:
            break
        requests = [request(jobs[i][0], jobs[i][1], jobs[i][2], min_nuggets, max_nuggets, doc_chars, problems[i],
                            attempt) for i in todo]
        for i, response in zip(todo, model.complete(requests), strict=True):
            kept, record = judge_reply(response, jobs[i][1], {d.id: d for d in jobs[i][2]})
            results[i].attempts.append(record)
            if len(kept) > len(results[i].nuggets):
                results[i].nuggets = kept
            problems[i] = record["problems"] or [f"fewer than {min_nuggets} usable nuggets"]
    return results
