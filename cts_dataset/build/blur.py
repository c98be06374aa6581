"""Blurring an intent query q* into q with typed removed constraints, checked as the paper requires:
each removed value occurs in q* and not in q.

The model proposes q and the constraints (a JSON schema holds it to the format). A proposal is checked;
a failed one is asked again with its problems. A weak model often gets one half right: a good q with a
wrong list (then the spans q leaves out of q* become the constraints, ``method: diff``), or a good list
with q* unchanged (then q is q* with the listed values deleted, if that still reads as a query,
``method: deletion``). Both satisfy the check by construction, and every attempt is kept in the trace.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from cts_dataset.build.prompts import BLUR, FEEDBACK
from cts_dataset.models.base import ChatRequest, ChatResponse, Sampling, StructuredOutput
from cts_dataset.records import Constraint, ConstraintType
from cts_dataset.release.values import constraint_type
from cts_dataset.search.react_parse import loads_tolerant
from cts_dataset.text import tokenize

BLUR_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "blurred_query": {"type": "string"},
        "removed_constraints": {
            "type": "array", "minItems": 1, "maxItems": 3,
            "items": {"type": "object", "properties": {"type": {"type": "string", "enum": [t.value for t in ConstraintType]},
                                                       "value": {"type": "string"}},
                      "required": ["type", "value"], "additionalProperties": False}},
    },
    "required": ["blurred_query", "removed_constraints"],
    "additionalProperties": False,
}
# A preposition left dangling when a value is deleted ("... in 1976?" -> "... in?") goes with it; in English
# only where the value ends a phrase, so "in the 1976 earthquake" keeps its "in the".
_LEAD_EN = r"\b(?:in|on|at|of|for|from|during|by|since)\s+(?:the\s+|an?\s+)?"
_END_EN = r"(?=\s*(?:[,.?!;:]|$|\b(?:in|on|at|of|for|from|during|by|and|or)\b))"
_LEAD_ZH = r"(?:在|于)?"


@dataclass
class Blurred:
    """The outcome for one intent: q and its constraints, or the problems of the last attempt."""

    blurred_query: str = ""
    constraints: list[Constraint] = field(default_factory=list)
    method: str = ""  # "llm", "diff" (constraints re-read from the model's q), "deletion", or "" when it failed
    attempts: list[dict[str, Any]] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return bool(self.method)


MAX_ADDED_WORDS = 3  # "the big earthquake in China" for "the 1976 earthquake in Tangshan": a generalisation
_QUESTION = re.compile(r"\b(?:what|which|who|whom|whose|when|where|why|how)\b|什么|多少|哪|怎么|为什么|如何|吗", re.IGNORECASE)


def blur_problems(fused: str, blurred: str, constraints: list[Constraint]) -> list[str]:
    """What breaks the blurring rules (empty: it passes). Beyond the paper's rule (each removed value occurs
    in q* and not in q), a removed value must be a qualifier, not a question of its own ("and what is it
    made of"): dropping a sub-question makes q narrower, not underspecified; and q may add at most
    MAX_ADDED_WORDS content words (a generalisation such as "the spirit"), not a question or a note."""
    problems = []
    if not blurred.strip():
        problems.append("the blurred query is empty")
    elif " ".join(blurred.lower().split()) == " ".join(fused.lower().split()):
        problems.append("the blurred query is the intent query unchanged")
    if not constraints:
        problems.append("no removed constraint")
    added = sorted(set(tokenize(blurred)) - set(tokenize(fused)))
    if len(added) > MAX_ADDED_WORDS:  # a blur removes or generalises; it does not add a question or a note
        problems.append(f"the blurred query adds words the intent query does not have: {', '.join(added[:8])}")
    for c in constraints:
        if _QUESTION.search(c.value):
            problems.append(f"removed value {c.value!r} is a question of its own, not a constraint")
        elif c.value.lower() not in fused.lower():
            problems.append(f"removed value {c.value!r} does not occur in the intent query")
        elif c.value.lower() in blurred.lower():
            problems.append(f"removed value {c.value!r} still occurs in the blurred query")
    return problems


def delete_values(fused: str, values: list[str], language: str) -> str:
    """q* with each value (and a preposition left dangling by it) deleted, spacing and punctuation tidied."""
    text = fused
    for value in sorted(values, key=len, reverse=True):
        value = re.escape(value)
        patterns = [_LEAD_ZH + value] if language == "zh" else [_LEAD_EN + value + _END_EN, value]
        for pattern in patterns:
            text, found = re.subn(pattern, "" if language == "zh" else " ", text, count=1, flags=re.IGNORECASE)
            if found:
                break
    text = re.sub(r"\s+([,.?!;:，。？！；：])", r"\1", re.sub(r"\s{2,}", " ", text))
    text = re.sub(r"([,，])\s*([,，?？.。])", r"\2", text)
    return text.strip(" ,，")


_DANGLING = re.compile(r"\b(?:the|a|an)\s+(?:in|on|at|of|for|and|or|[,.?!;:])|\b(?:the|a|an|in|of|on)\s*[?.!]?$|^\W",
                       re.IGNORECASE)
_PREPOSITION = re.compile(r"^(?:(?:in|on|at|of|for|from|during|by|since|the|an?)\s+)+", re.IGNORECASE)
_TIME = re.compile(r"\b(?:1\d{3}|20\d{2})s?\b|\bcentur|\b(?:January|February|March|April|May|June|July|August|"
                   r"September|October|November|December)\b|年|月|世纪", re.IGNORECASE)


def readable(text: str, language: str) -> bool:
    """Whether a query made by deleting words still reads as one (no "the in", no trailing "of")."""
    return language == "zh" or not _DANGLING.search(text.strip())


def guess_type(value: str, proposed: list[Constraint]) -> ConstraintType:
    """A derived constraint's type: the model's type for a constraint it overlaps, else time or number from
    the text, else ``other``."""
    for c in proposed:
        if c.value.lower() in value.lower() or value.lower() in c.value.lower():
            return c.type
    if _TIME.search(value):
        return ConstraintType.time
    return ConstraintType.number if re.search(r"\d", value) else ConstraintType.other


def deleted_spans(fused: str, blurred: str, language: str) -> list[str] | None:
    """The spans of q* that q leaves out, when q is exactly q* with some spans deleted (None otherwise)."""
    import difflib

    pattern = r"." if language == "zh" else r"\w+|[^\w\s]"
    spans = [(m.start(), m.end(), m.group(0).lower()) for m in re.finditer(pattern, fused) if not m.group(0).isspace()]
    wanted = [m.group(0).lower() for m in re.finditer(pattern, blurred) if not m.group(0).isspace()]
    matcher = difflib.SequenceMatcher(a=[t for _, _, t in spans], b=wanted, autojunk=False)
    out = []
    for tag, i1, i2, _, _ in matcher.get_opcodes():
        if tag == "equal":
            continue
        if tag != "delete":
            return None
        text = _PREPOSITION.sub("", fused[spans[i1][0]:spans[i2 - 1][1]]).strip(" ,，")
        if re.search(r"\w", text):
            out.append(text)
    return out or None


def parse(text: str) -> tuple[str, list[Constraint]] | str:
    """(blurred query, constraints) of a reply, or the reason it cannot be read."""
    try:
        data = loads_tolerant(text)
        blurred = str(data["blurred_query"]).strip()
        found = [Constraint(type=constraint_type(c["type"]), value=str(c["value"]).strip())
                 for c in data["removed_constraints"] if str(c.get("value", "")).strip()]
    except (ValueError, KeyError, TypeError, AttributeError) as error:
        return f"not the requested JSON ({type(error).__name__}: {error})"
    return blurred, found


def request(fused: str, language: str, problems: list[str], attempt: int = 0, max_tokens: int = 256) -> ChatRequest:
    """The blur request; a retry shows the last problems and samples anew (its own seed and sample index, so
    neither the engine nor the response cache repeats the failed answer)."""
    feedback = FEEDBACK[language].format(problems="; ".join(problems)) if problems else ""
    messages = BLUR[language].render(query=fused, feedback=feedback)
    sampling = Sampling(temperature=0.0 if attempt == 0 else 0.7, max_tokens=max_tokens, seed=attempt)
    return ChatRequest.of(messages, sampling=sampling, structured=StructuredOutput(json_schema=BLUR_SCHEMA),
                          sample_index=attempt, role="build_blur")


def judge_reply(fused: str, language: str, response: ChatResponse) -> tuple[Blurred | None, dict[str, Any]]:
    """A passing Blurred from one reply (None if it fails), and the attempt's record for the trace."""
    record: dict[str, Any] = {"reply": response.text, "error": response.error}
    if response.failed:
        record["problems"] = [f"request failed: {response.error}"]
        return None, record
    parsed = parse(response.text)
    if isinstance(parsed, str):
        record["problems"] = [parsed]
        return None, record
    blurred, constraints = parsed
    problems = blur_problems(fused, blurred, constraints)
    record["problems"] = problems
    if not problems:
        return Blurred(blurred, constraints, "llm"), record
    # The model's q may be right while its list is not: take what q leaves out of q* as the constraints.
    spans = deleted_spans(fused, blurred, language)
    if spans:
        derived = [Constraint(type=guess_type(v, constraints), value=v) for v in spans]
        if not blur_problems(fused, blurred, derived):
            record["repaired"] = {"method": "diff", "removed_constraints": [c.model_dump(mode="json") for c in derived]}
            return Blurred(blurred, derived, "diff"), record
    # Or its list may be right while its q is not: delete the listed values from q*, if it still reads. Only
    # qualifiers (time, region, number, ...) delete cleanly; an entity is a head noun ("When was the founded?").
    kept = [c for c in constraints if c.value.lower() in fused.lower()]
    if kept and len(kept) == len(constraints) and all(c.type is not ConstraintType.entity for c in kept):
        deleted = delete_values(fused, [c.value for c in kept], language)
        if not blur_problems(fused, deleted, kept) and readable(deleted, language):
            record["repaired"] = {"method": "deletion", "blurred_query": deleted}
            return Blurred(deleted, kept, "deletion"), record
    return None, record


def blur_all(model: Any, intents: list[tuple[str, str]], attempts: int = 3) -> list[Blurred]:
    """Blur every (fused query, language), one model batch per attempt round."""
    results = [Blurred() for _ in intents]
    problems: list[list[str]] = [[] for _ in intents]
    for attempt in range(max(1, attempts)):
        todo = [i for i, r in enumerate(results) if not r.ok]
        if not todo:
            break
        responses = model.complete([request(intents[i][0], intents[i][1], problems[i], attempt) for i in todo])
        for i, response in zip(todo, responses, strict=True):
            found, record = judge_reply(intents[i][0], intents[i][1], response)
            if found is not None:
                found.attempts = results[i].attempts + [record]
                results[i] = found
            else:
                results[i].attempts.append(record)
                problems[i] = record["problems"]
    return results
