"""Role compliance of a model in the three protocol roles, on probe sets held out from the demo data.

    python benchmarks/role_compliance.py --model default [--split dev|final|fresh|all|realistic-dev|dev2|
        realistic-heldout|heldout2|heldout3|dev3|dev4|heldout4|dev5|dev6|heldout5|dev7|heldout6|dev8|dev9|heldout7|dev10|dev11|dev12|dev13|heldout8|dev14|dev15|dev16|heldout9|dev17|heldout10|dev18|heldout11|dev19|heldout12|dev20|heldout13|dev21|heldout14|dev22|heldout15|dev23|heldout16|dev24|heldout17|dev25|heldout18|dev26] [--json OUT]
        [--roles answerer,clarifier,rewriter] [--modes off,replace,spans] [--clarifier-prompts v1,v2]
        [--answerer-prompt v2] [--choose-prompt v3] [--rewriter-prompt v1] [--answerer-probes MY_PROBES.jsonl] [--demo 50] [--demo-from 0] [--threads N] [--cache PATH]

Probes (benchmarks/probes/, en and zh; ``split``: ``dev``, ``final`` for the third held back, or ``fresh``
for answerer_fresh.jsonl, written after the prompts were chosen and never used to tune them; the answerer's
realistic splits are listed at ``REALISTIC`` below, tuning sets and held-out sets apart):
- answerer.jsonl (intent, question, expected: a value the intent states, or ``unknown``). Per answer mode:
  answered = answerable questions whose answer holds every content word of the expected value;
  unknown = unanswerable questions answered ``unknown``; invented = answers forwarded with content words
  the intent does not contain (share of all probes); wrong = answers forwarded that are not the expected
  value (any answer to an unanswerable question; share of all probes); replaced = answers the guard
  turned into ``unknown``.
- clarifier.jsonl (blurred query, earlier turns) and ``--demo`` blurred queries of the demo split (en) from
  ``--demo-from``:
  valid = replies that are one question (``question_problem``), without and with the re-ask; on-type (demo
  only) = valid questions whose type (the rule classifier's) is one of the instance's removed constraints;
  to-user = valid questions addressing the user (you, your, 您, 你): a proxy for asking what they mean.
- rewriter.jsonl (query, Q&A with unknowns, must_keep, must_not_add), without and with the guard:
  keeps = rewrites holding >= MIN_KEPT_SHARE of the query's content words; must-keep = all must_keep words;
  adds = a must_not_add word, or more new content words than the guard allows (words in neither the query
  nor the dialogue; CJK bigrams formed at word joins do not count); elicited = every non-unknown answer
  stated; guarded = fallbacks to the deterministic rewrite; skipped = nothing elicited, no model call.

Every role sends all its probes, both languages, as one batch. Responses go to a fresh cache file (or
``--cache``), so variants that share requests (``off``/``replace``, guard off/on, re-ask off/on) ask once;
s/req is the wall time of a call over the requests it really sent.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from cts_dataset.data import load
from cts_dataset.diagnostics.rules import classify_all
from cts_dataset.models.base import Sampling
from cts_dataset.models.cache import ResponseCache
from cts_dataset.models.registry import LoadedModel, load_model, resolve_spec
from cts_dataset.pipeline.config import ROLE_MAX_TOKENS, load_config
from cts_dataset.protocol import answerer, clarifier, rewriter
from cts_dataset.protocol.role_guards import ANSWER_MODES, MAX_NEW_WORDS, MIN_KEPT_SHARE
from cts_dataset.protocol.roles import RoleSettings
from cts_dataset.protocol.views import QA, UNKNOWN, AnswererView, ClarifierView, RewriterView
from cts_dataset.text import CJK, tokenize

PROBES = Path(__file__).resolve().parent / "probes"
LANGUAGES = ("en", "zh")
T = TypeVar("T")
NEAR_COPY = 0.7  # content-word Jaccard with a demo query from which a probe counts as a copy


# -- probes ---------------------------------------------------------------------------------------------
# split name -> (probe file suffix, the rows' split): realistic probes over demo intents and written Chinese
# needs; heldout2, new intents over corpus articles no demo instance cites, written before the choosing
# answerer's rules and never used to tune them; heldout3, intents of the test split's growth and rework
# instances (written after the rules, blind to them, never used to tune them); dev2, a second tuning set
# (demo and test intents no other probe file uses, and new Chinese needs), written for guards version 19
# and used to tune it: wrong guesses, offers of more, choices the intent takes no side of; dev3, a third
# tuning set, mostly Chinese search needs, written for guards version 23; dev4, the packaged clarifier's
# own questions (prompt v3, the whole demo split's run) on demo instances no other probe file uses, labelled
# blind to the answers, a tuning set; heldout4, new intents in both languages written blind to the rules
# for version 23 and never used to tune them; dev5 and dev6, tuning sets of new intents for version 24
# (dev6 mostly Chinese search needs with two constraints left out), questions phrased as clarifier models
# phrase them; heldout5, new intents in both languages written blind to the rules at the same time as dev5,
# run on version 23 and on the final version 24 only; dev7 and heldout6, the same again for version 25
# (heldout6 run on version 24 before any change, on the final version 25 and on version 26); dev8, a third tuning set
# written halfway, first run to check what version 25's first changes did on questions not tuned on; dev9, a
# fourth, written with heldout7 and first run on version 26 and on the first changes after it, before tuning;
# heldout7, new intents written blind to the rules at the same time, run on version 26 and the final version only;
# dev10, written halfway and first run to check the changes tuned on dev9, then tuned on; dev11, the same
# after a review; dev12, written with dev11 and first run to check the changes tuned on dev11; dev13, Chinese
# search needs only, first run on version 27; heldout8, new intents written blind to the rules for version 28,
# run on version 27 and the final version only; dev14 (both languages) and dev15 (Chinese search needs only),
# written at the same time, first run on version 27, then tuned on; dev16, written halfway and first run to check
# the changes tuned on dev14 and dev15; heldout9 and dev17, written blind after version 28 was first frozen
# (`d155a1f`), heldout9 run there and on the final rules only, dev17 first run there, then tuned on; heldout10
# and dev18, written blind after version 28's final freeze (`ede01dc`), heldout10 run there and on version 29's
# freeze only, dev18 first run there, then tuned on; heldout11 and dev19, written blind after version 30
# (`66982cd`), heldout11 run there and on version 31's freeze only, dev19 first run there, then tuned on;
# heldout12 and dev20, written blind after version 31 (`f231c39`), heldout12 run there, on version 32's first
# freeze and on its final rules only, dev20 first run there, then tuned on; heldout13 and dev21, written blind
# after version 32 (`ff37246`), heldout13 run there, on version 33's first freeze and on its final rules only,
# dev21 first run there, then tuned on; heldout14 and dev22, written blind after version 33 (`b8845c1`), heldout14
# run there, on version 34's first freeze and on its final rules only, dev22 first run there, then tuned on;
# heldout15 and dev23, written blind after version 34 (`e8bb659`), heldout15 run there, on version 35's first
# freeze and on its final rules only, dev23 first run there, then tuned on; heldout16 and dev24, written blind
# after version 35's first freeze (`4a52a44`), heldout16 run on version 35's final rules, on version 36's first
# freeze and on its final rules only, dev24 first run on version 35, then tuned on; heldout17 and dev25, written
# blind after version 36 (`bf4e1dc`), heldout17 run on version 37 (version 36's answers on every older set), on
# version 38's first freeze and on its final rules only, dev25 first run on version 37, then tuned on; heldout18
# and dev26, written blind after version 38 (`d77eb7a`), heldout18 run there and on version 39's final rules only,
# dev26 first run there, then tuned on.
REALISTIC = {"realistic-dev": ("_realistic", "dev"), "realistic-heldout": ("_realistic", "heldout"),
             "heldout2": ("_heldout2", "heldout2"), "heldout3": ("_heldout3", "heldout3"), "dev2": ("_dev2", "dev2"),
             "dev3": ("_dev3", "dev3"), "dev4": ("_dev4", "dev4"), "heldout4": ("_heldout4", "heldout4"),
             "dev5": ("_dev5", "dev5"), "heldout5": ("_heldout5", "heldout5"), "dev6": ("_dev6", "dev6"),
             "dev7": ("_dev7", "dev7"), "heldout6": ("_heldout6", "heldout6"), "dev8": ("_dev8", "dev8"),
             "dev9": ("_dev9", "dev9"), "heldout7": ("_heldout7", "heldout7"), "dev10": ("_dev10", "dev10"),
             "dev11": ("_dev11", "dev11"), "dev12": ("_dev12", "dev12"), "dev13": ("_dev13", "dev13"),
             "heldout8": ("_heldout8", "heldout8"), "dev14": ("_dev14", "dev14"), "dev15": ("_dev15", "dev15"),
             "dev16": ("_dev16", "dev16"), "heldout9": ("_heldout9", "heldout9"), "dev17": ("_dev17", "dev17"),
             "heldout10": ("_heldout10", "heldout10"), "dev18": ("_dev18", "dev18"),
             "heldout11": ("_heldout11", "heldout11"), "dev19": ("_dev19", "dev19"),
             "heldout12": ("_heldout12", "heldout12"), "dev20": ("_dev20", "dev20"),
             "heldout13": ("_heldout13", "heldout13"), "dev21": ("_dev21", "dev21"),
             "heldout14": ("_heldout14", "heldout14"), "dev22": ("_dev22", "dev22"),
             "heldout15": ("_heldout15", "heldout15"), "dev23": ("_dev23", "dev23"),
             "heldout16": ("_heldout16", "heldout16"), "dev24": ("_dev24", "dev24"),
             "heldout17": ("_heldout17", "heldout17"), "dev25": ("_dev25", "dev25"),
             "heldout18": ("_heldout18", "heldout18"), "dev26": ("_dev26", "dev26")}


def read_probes(name: str, split: str) -> list[dict[str, Any]]:
    """A probe file's rows of one split; its ``_fresh`` sibling (written after the prompts were chosen,
    never used to tune them) holds the ``fresh`` split, its ``_realistic`` sibling the ``realistic-dev``
    and ``realistic-heldout`` splits (demo intents and written Chinese search needs, questions as real
    clarifiers ask them; the held-out part was never used to tune a prompt or a mechanism)."""
    if split in REALISTIC:
        suffix, part = REALISTIC[split]
        path = PROBES / name.replace(".jsonl", f"{suffix}.jsonl")
        if not path.is_file():  # only the answerer has realistic probes
            return []
        rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
        return [r for r in rows if r["split"] == part]
    files = [PROBES / name, PROBES / name.replace(".jsonl", "_fresh.jsonl")]
    rows = [json.loads(line) for path in files if path.is_file()
            for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [r for r in rows if split == "all" or r["split"] == split]


def own_probes(path: str) -> list[dict[str, Any]]:
    """A user's answerer probes; a line that is not a probe is named with its line number."""
    rows = []
    for number, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            missing = [k for k in ("intent", "question", "expected", "language") if not isinstance(row.get(k), str)]
        except json.JSONDecodeError as error:
            sys.exit(f"{path}:{number}: not JSON ({error.msg})")
        if missing:
            sys.exit(f"{path}:{number}: missing or not a string: {', '.join(missing)}")
        if row["language"] not in LANGUAGES:
            sys.exit(f"{path}:{number}: language {row['language']!r}, expected one of {', '.join(LANGUAGES)}")
        if row["expected"] != UNKNOWN and row["expected"] not in row["intent"]:
            sys.exit(f"{path}:{number}: expected {row['expected']!r} is neither unknown nor a span of the intent")
        rows.append({**row, "id": row.get("id") or f"line-{number}", "type": row.get("type", ""), "split": "own"})
    return rows


def held_out_problems(answers: list[dict], questions: list[dict], rewrites: list[dict]) -> list[str]:
    """Probes that copy (or nearly copy) a demo instance's fused or blurred query, or give one of its
    constraint values, and answerer probes whose expected value is not in their intent (a wrong probe)."""
    demo = load()
    queries = {q.strip().lower() for i in demo for q in (i.fused_query, i.blurred_query)}
    values = {c.value.strip().lower() for i in demo for c in i.removed_constraints}
    problems = []
    texts = [(r["id"], r["intent"]) for r in answers] + [(r["id"], r["blurred_query"]) for r in questions] \
        + [(r["id"], r["query"]) for r in rewrites]
    problems += [f"{pid}: a demo query" for pid, text in texts if text.strip().lower() in queries]
    demo_words = [set(tokenize(q)) for i in demo for q in (i.fused_query, i.blurred_query)]
    for pid, text in texts:  # a near copy: most content words shared with one demo query
        words = set(tokenize(text))
        if any(len(words & d) / len(words | d) >= NEAR_COPY for d in demo_words if words | d):
            problems.append(f"{pid}: a near copy of a demo query")
    given = [(r["id"], r["expected"]) for r in answers if r["expected"] != UNKNOWN]
    given += [(r["id"], qa["answer"]) for r in rewrites for qa in r["dialogue"] if qa["answer"] != UNKNOWN]
    given += [(r["id"], qa["answer"]) for r in questions for qa in r["history"] if qa["answer"] != UNKNOWN]
    problems += [f"{pid}: {value!r} is a demo constraint value" for pid, value in given if value.strip().lower() in values]
    problems += [f"{r['id']}: {r['expected']!r} not in its intent" for r in answers
                 if r["expected"] != UNKNOWN and r["expected"] not in r["intent"]]
    return problems


def realistic_problems(rows: list[dict[str, Any]]) -> list[str]:
    """Realistic probes that misquote their demo instance, label a value their intent does not hold, or put
    one intent in both the dev and the held-out part."""
    demo = {i.id: i for i in load()}
    problems, split_of = [], {}
    for r in rows:
        values = [r["expected"], *r.get("accept", [])]
        problems += [f"{r['id']}: {v!r} is neither unknown nor a span of the intent" for v in values
                     if v != UNKNOWN and v not in r["intent"]]
        if r.get("source", "").startswith("demo:"):
            instance = demo.get(r["source"].removeprefix("demo:"))
            if instance is None or (instance.fused_query, instance.blurred_query) != (r["intent"], r["blurred"]):
                problems.append(f"{r['id']}: intent or blurred query differs from {r['source']}")
        if split_of.setdefault(r["intent"], r["split"]) != r["split"]:
            problems.append(f"{r['id']}: its intent is in both the dev and the held-out part")
        if not r.get("source") and any(r["intent"] == i.fused_query for i in demo.values()):
            problems.append(f"{r['id']}: a demo instance's intent, in a set of new intents")
        if r.get("yes_no") not in (None, "yes", "no"):
            problems.append(f"{r['id']}: yes_no is {r['yes_no']!r}")
    return problems


def dialogue_of(pairs: Sequence[dict[str, str]]) -> tuple[QA, ...]:
    return tuple(QA(p["question"], p["answer"]) for p in pairs)


# -- measures -------------------------------------------------------------------------------------------
def holds(text: str, value: str) -> bool:
    """Every content word of ``value`` occurs in ``text`` (stemmed; CJK: characters and bigrams); a value of
    stop words only ("for whom") by its words as written."""
    needed = set(tokenize(value))
    if not needed:
        words = set(re.findall(r"\w+", value.lower()))
        return bool(words) and words <= set(re.findall(r"\w+", text.lower()))
    return needed <= set(tokenize(text))


def new_words(text: str, said: Sequence[str]) -> list[str]:
    """Content words of ``text`` found in none of ``said``; CJK counts single characters only."""
    allowed = {w for s in said for w in tokenize(s)}
    return sorted(w for w in set(tokenize(text)) - allowed if not (len(w) > 1 and re.match(rf"[{CJK}]", w)))


def pct(part: int, whole: int) -> float | None:
    return round(100 * part / whole, 1) if whole else None


def shown(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}%"


def per_request(timing: dict[str, float]) -> str:
    """s/req of a call; ``shared`` when it sent nothing (its requests were the previous variant's)."""
    return f"{timing['s_per_request']:.2f}" if timing["requests"] else "shared"


class Timer:
    """Wall time and requests really sent (cache misses) of each call."""

    def __init__(self, model: LoadedModel) -> None:
        self.model = model

    def run(self, label: str, call: Callable[[], T]) -> tuple[T, dict[str, float]]:
        before, started = self.model.stats.misses, time.perf_counter()
        result = call()
        wall, sent = time.perf_counter() - started, self.model.stats.misses - before
        print(f"{label}: {sent} requests in {wall:.1f} s (load average {os.getloadavg()[0]:.2f})", file=sys.stderr)
        return result, {"wall_s": round(wall, 2), "requests": sent, "s_per_request": round(wall / sent, 2) if sent else 0.0}


# -- roles ----------------------------------------------------------------------------------------------
# A question that addresses the user ("Which emperor do you mean?") asks what they mean; one that does not
# is often the query's own question ("When did the last emperor rule?"). A proxy, read it as one.
_TO_USER = re.compile(r"\b(?:you|your)\b|您|你", re.IGNORECASE)


def settings(role: str, prompt: str) -> RoleSettings:
    return RoleSettings(prompt_version=prompt, sampling=Sampling(max_tokens=ROLE_MAX_TOKENS[role]))


def right(answer: str, probe: dict) -> bool:
    """An answerable probe answered with the intent's value (or one of its accepted forms)."""
    return any(holds(answer, value) for value in [probe["expected"], *probe.get("accept", [])])


def polarity_right(answer: Any, probe: dict) -> bool | None:
    """A yes/no probe's answer says yes or no as its label does (None: not a yes/no probe, or unknown)."""
    if not probe.get("yes_no") or answer.is_unknown:
        return None
    said = answer.text.strip().lower()
    word = "yes" if re.match(r"yes\b|是的", said) else "no" if re.match(r"no\b|不是", said) else ""
    return word == probe["yes_no"]


def bench_answerer(model: LoadedModel, timer: Timer, probes: list[dict], modes: Sequence[str], prompt: str,
                   choose_prompt: str = "v3") -> dict:
    """``choose`` plays ``choose_prompt`` (its prompt lists the options); the free-form modes ``prompt``."""
    views = [AnswererView(p["intent"], p["language"], p["question"], p.get("blurred") or "") for p in probes]
    figures: dict[str, Any] = {"prompt": prompt, "choose_prompt": choose_prompt, "modes": {}}
    for mode in modes:
        role = settings("user_answerer", choose_prompt if mode == "choose" else prompt)
        answers, timing = timer.run(f"answerer {mode}", lambda mode=mode, role=role: answerer.answer(model, views, role, mode=mode))  # type: ignore[arg-type]
        per_language = {}
        for language in LANGUAGES:
            rows = [(p, a) for p, a in zip(probes, answers, strict=True) if p["language"] == language]
            answerable = [(p, a) for p, a in rows if p["expected"] != UNKNOWN]
            unanswerable = [(p, a) for p, a in rows if p["expected"] == UNKNOWN]
            per_language[language] = {
                "n": len(rows), "answerable": len(answerable), "unanswerable": len(unanswerable),
                "answered": pct(sum(right(a.text, p) for p, a in answerable), len(answerable)),
                "unknown": pct(sum(a.is_unknown for _, a in unanswerable), len(unanswerable)),
                "invented": pct(sum(not a.is_unknown and bool(a.unsupported) for _, a in rows), len(rows)),
                "wrong": pct(sum(not a.is_unknown and (p["expected"] == UNKNOWN or not right(a.text, p))
                                 for p, a in rows), len(rows)),
                "yes_no_right": pct(sum(polarity_right(a, p) is True for p, a in rows),
                                    sum(polarity_right(a, p) is not None for p, a in rows)),
                "by_style": _by_style(rows),
                "replaced": sum(bool(a.replaced) for _, a in rows),
                "by_rule": pct(sum(bool(a.decided_by) for _, a in rows), len(rows)),
                "unparsed": sum(not a.parsed and not a.error for _, a in rows),
                "errors": sum(bool(a.error) for _, a in rows)}
        items = [{"id": p["id"], "question": p["question"], "expected": p["expected"], "answer": a.text, "raw": a.raw, "replaced": a.replaced, "decided_by": a.decided_by,
                  "unsupported": list(a.unsupported)} for p, a in zip(probes, answers, strict=True)]
        figures["modes"][mode] = {"languages": per_language, "timing": timing, "items": items}
    return figures


def _by_style(rows: list[tuple[dict, Any]]) -> dict[str, dict[str, Any]]:
    """Per probe style (paraphrase, confirm_yes, ...): probes and the share right (answered or unknown)."""
    out: dict[str, dict[str, Any]] = {}
    for style in sorted({p.get("style", "") for p, _ in rows} - {""}):
        chosen = [(p, a) for p, a in rows if p.get("style") == style]
        ok = [a.is_unknown if p["expected"] == UNKNOWN else right(a.text, p) for p, a in chosen]
        out[style] = {"n": len(chosen), "right": pct(sum(ok), len(ok))}
    return out


def bench_clarifier(model: LoadedModel, timer: Timer, probes: list[dict], demo: list[Any], prompts: Sequence[str]) -> dict:
    sets = {"probes": [ClarifierView(p["blurred_query"], p["language"], dialogue_of(p["history"]), len(p["history"]) + 1)
                       for p in probes],
            "demo": [ClarifierView(i.blurred_query, i.language, (), 1) for i in demo]}
    ids = {"probes": [p["id"] for p in probes], "demo": [i.id for i in demo]}
    # Demo instances name the constraints their blurred query lost: a question on one of their types
    # (the rule classifier's type) asks for something the query really leaves out.
    removed = {i.id: {c.type.value for c in i.removed_constraints} for i in demo}
    views = sets["probes"] + sets["demo"]
    figures: dict[str, Any] = {}
    for prompt in prompts:
        role = settings("clarifier", prompt)
        for reask in (False, True):
            questions, timing = timer.run(f"clarifier {prompt} re-ask {reask}", lambda role=role, reask=reask: clarifier.ask(model, views, role, reask=reask))
            checked = [q.valid for q in questions]
            key = f"{prompt}/{'reask' if reask else 'no-reask'}"
            figures[key] = {"timing": timing, "sets": {}}
            offset = 0
            for name, chunk in sets.items():
                part = list(zip(chunk, questions[offset:offset + len(chunk)], checked[offset:offset + len(chunk)],
                                ids[name], strict=True))
                offset += len(chunk)
                for language in LANGUAGES:
                    rows = [(v, q, ok, pid) for v, q, ok, pid in part if v.language == language]
                    if not rows:
                        continue
                    kinds = classify_all([q.text for _, q, _, _ in rows])
                    on_type = [ok and kind in removed[pid] for (_, _, ok, pid), kind in zip(rows, kinds, strict=True)] \
                        if name == "demo" else []
                    figures[key]["sets"][f"{name}/{language}"] = {
                        "n": len(rows), "valid": pct(sum(ok for _, _, ok, _ in rows), len(rows)),
                        "on_type": pct(sum(on_type), len(on_type)),
                        "to_user": pct(sum(ok and bool(_TO_USER.search(q.text)) for _, q, ok, _ in rows), len(rows)),
                        "reasked": pct(sum(q.reasked for _, q, _, _ in rows), len(rows)),
                        "problems": dict(Counter(q.problem for _, q, ok, _ in rows if not ok).most_common(5)),
                        "items": [{"id": pid, "query": v.blurred_query, "question": q.text, "valid": ok, "type": kind,
                                   "problem": q.problem, "first_raw": q.first_raw, "raw": q.raw}
                                  for (v, q, ok, pid), kind in zip(rows, kinds, strict=True)]}
    return figures


def bench_rewriter(model: LoadedModel, timer: Timer, probes: list[dict], prompt: str) -> dict:
    views = [RewriterView(p["query"], p["language"], dialogue_of(p["dialogue"])) for p in probes]
    role = settings("rewriter", prompt)
    figures: dict[str, Any] = {"prompt": prompt}
    for guard in (False, True):
        rewrites, timing = timer.run(f"rewriter guard {guard}", lambda guard=guard: rewriter.rewrite(model, views, role, guard=guard))
        per_language, items = {}, []
        for language in LANGUAGES:
            rows = [(p, r) for p, r in zip(probes, rewrites, strict=True) if p["language"] == language]
            counts: Counter[str] = Counter()
            for p, r in rows:
                query_words = set(tokenize(p["query"]))
                kept = len(query_words & set(tokenize(r.query))) / len(query_words) if query_words else 1.0
                said = [p["query"], *(t for qa in p["dialogue"] for t in (qa["question"], qa["answer"]))]
                added = new_words(r.query, said)
                invented = [w for w in p["must_not_add"] if holds(r.query, w) and not any(holds(s, w) for s in said)]
                answers = [qa["answer"] for qa in p["dialogue"] if qa["answer"] != UNKNOWN]
                flags = {"keeps": kept >= MIN_KEPT_SHARE, "must_keep": all(holds(r.query, w) for w in p["must_keep"]),
                         "adds": bool(invented) or len(added) > MAX_NEW_WORDS,
                         "elicited": all(holds(r.query, a) for a in answers),
                         "guarded": bool(r.guarded), "skipped": r.nothing_elicited}
                counts.update(k for k, v in flags.items() if v)
                items.append({"id": p["id"], "rewrite": r.query, "raw": r.raw, "guard_reason": r.guarded,
                              "added": added, "invented": invented, **flags})
            per_language[language] = {"n": len(rows), **{k: pct(counts[k], len(rows)) for k in
                                      ("keeps", "must_keep", "adds", "elicited", "guarded", "skipped")},
                                      "errors": sum(bool(r.error) for _, r in rows)}
        figures["guard" if guard else "no-guard"] = {"languages": per_language, "timing": timing, "items": items}
    return figures


# -- output ---------------------------------------------------------------------------------------------
def print_tables(result: dict) -> None:
    for language in LANGUAGES:
        print(f"\n### {result['model']} — {language} (probes: {result['split']})")
        if "answerer" in result:
            a = result["answerer"]
            first = next(iter(a["modes"].values()))["languages"][language]
            print(f"\nanswerer (prompt {a['prompt']} for the free-form modes, {a['choose_prompt']} for choose): "
                  f"{first['n']} probes, {first['answerable']} answerable")
            print(f"{'mode':<9}{'answered':>9}{'unknown':>9}{'invented':>9}{'wrong':>8}{'yes/no':>8}{'replaced':>9}"
                  f"{'unparsed':>9}{'s/req':>7}")
            for mode, m in a["modes"].items():
                f = m["languages"][language]
                print(f"{mode:<9}{shown(f['answered']):>9}{shown(f['unknown']):>9}{shown(f['invented']):>9}{shown(f['wrong']):>8}"
                      f"{shown(f['yes_no_right']):>8}{f['replaced']:>9}{f['unparsed']:>9}{per_request(m['timing']):>7}")
                if f.get("by_rule") is not None and mode == "choose":
                    print(f"         settled by the answerer's rules (no model call): {shown(f['by_rule'])}")
                if f["by_style"]:
                    print("         right by style: " + ", ".join(f"{k} {shown(v['right'])} of {v['n']}"
                                                           for k, v in f["by_style"].items()))
        if "clarifier" in result:
            print(f"\nclarifier\n{'set':<8}{'prompt':<8}{'re-ask':<8}{'n':>4}{'valid':>8}{'re-asked':>9}{'on-type':>9}"
                  f"{'to-user':>9}{'s/req':>7}")
            for key, c in result["clarifier"].items():
                prompt, reask = key.rsplit("/", 1)
                for name, f in c["sets"].items():
                    if name.endswith(f"/{language}"):
                        print(f"{name.split('/')[0]:<8}{prompt:<8}{'yes' if reask == 'reask' else 'no':<8}{f['n']:>4}"
                              f"{shown(f['valid']):>8}{shown(f['reasked']):>9}{shown(f['on_type']):>9}"
                              f"{shown(f['to_user']):>9}{per_request(c['timing']):>7}")
        if "rewriter" in result:
            r = result["rewriter"]
            print(f"\nrewriter (prompt {r['prompt']})")
            print(f"{'guard':<7}{'n':>4}{'keeps':>8}{'must-keep':>10}{'adds':>8}{'elicited':>9}{'guarded':>8}{'skipped':>8}{'s/req':>7}")
            for name in ("no-guard", "guard"):
                f = r[name]["languages"][language]
                print(f"{'on' if name == 'guard' else 'off':<7}{f['n']:>4}{shown(f['keeps']):>8}{shown(f['must_keep']):>10}"
                      f"{shown(f['adds']):>8}{shown(f['elicited']):>9}{shown(f['guarded']):>8}{shown(f['skipped']):>8}"
                      f"{per_request(r[name]['timing']):>7}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", default="default", help="default, smollm2-135m or any model spec")
    parser.add_argument("--roles", default="answerer,clarifier,rewriter")
    parser.add_argument("--modes", default=",".join(ANSWER_MODES), help="answer modes")
    smoke = load_config(preset="cpu-smoke")  # what the main job plays, unless told otherwise
    parser.add_argument("--clarifier-prompts", default=",".join(dict.fromkeys(("v1", smoke.prompt_for("clarifier")))))
    parser.add_argument("--answerer-prompt", default="v2", help="the free-form modes' answerer prompt")
    parser.add_argument("--choose-prompt", default=smoke.prompt_for("user_answerer") if smoke.answer_mode == "choose"
                        else "v3", help="answer mode choose's prompt (it lists ${options})")
    parser.add_argument("--rewriter-prompt", default=smoke.prompt_for("rewriter"))
    parser.add_argument("--answerer-probes", help="your own answerer probes (JSONL: intent, question, expected, "
                        "language; expected is a span of the intent or unknown): all of its rows are run")
    parser.add_argument("--split", default="dev", choices=("dev", "final", "fresh", "all", *REALISTIC))
    parser.add_argument("--demo", type=int, default=50, help="demo-split blurred queries for the clarifier (0: none)")
    parser.add_argument("--demo-from", type=int, default=0, help="the first of them (0-based)")
    parser.add_argument("--threads", type=int, help="llama.cpp threads (default: the registry's, else all cores)")
    parser.add_argument("--cache", help="response cache file (default: a fresh one, removed at the end)")
    parser.add_argument("--json", help="write the figures and every item here")
    args = parser.parse_args()
    roles = args.roles.split(",")

    answers = read_probes("answerer.jsonl", args.split) if not args.answerer_probes else own_probes(args.answerer_probes)
    if args.split in ("fresh", *REALISTIC) or args.answerer_probes:  # probes for the answerer only
        if roles != ["answerer"]:
            print("fresh and own probes are answerer probes: running the answerer only", file=sys.stderr)
        roles = ["answerer"]
    questions = read_probes("clarifier.jsonl", args.split)
    rewrites = read_probes("rewriter.jsonl", args.split)
    problems = held_out_problems(read_probes("answerer.jsonl", "all"), read_probes("clarifier.jsonl", "all"),
                                 read_probes("rewriter.jsonl", "all"))
    if problems:
        raise SystemExit("probes not held out from the demo data:\n" + "\n".join(problems))
    if args.split in REALISTIC and (wrong := realistic_problems([r for split in REALISTIC
                                                                 for r in read_probes("answerer.jsonl", split)])):
        raise SystemExit("realistic probes with problems:\n" + "\n".join(wrong))

    scratch = tempfile.TemporaryDirectory()
    cache = ResponseCache(args.cache or Path(scratch.name) / "responses.sqlite")
    started = time.perf_counter()
    spec = resolve_spec(args.model)
    if args.threads:  # not part of the model's identity: cached answers stay valid
        spec = spec.replace(engine_args={**spec.engine_args, "n_threads": args.threads})
    model = load_model(spec, cache=cache)
    result: dict[str, Any] = {"model": model.spec, "split": args.answerer_probes or args.split, "threads": args.threads,
                              "demo": [args.demo_from, args.demo_from + args.demo] if "clarifier" in roles else None, "load_s": round(time.perf_counter() - started, 2),
                              "loadavg_start": [round(x, 2) for x in os.getloadavg()]}
    timer = Timer(model)
    if "answerer" in roles:
        result["answerer"] = bench_answerer(model, timer, answers, args.modes.split(","), args.answerer_prompt,
                                            args.choose_prompt)
    if "clarifier" in roles:
        demo = load()[args.demo_from:args.demo_from + args.demo] if args.demo else []
        result["clarifier"] = bench_clarifier(model, timer, questions, demo, args.clarifier_prompts.split(","))
    if "rewriter" in roles:
        result["rewriter"] = bench_rewriter(model, timer, rewrites, args.rewriter_prompt)
    result["wall_s"] = round(time.perf_counter() - started, 1)
    result["loadavg_end"] = [round(x, 2) for x in os.getloadavg()]
    print_tables(result)
    print(f"\nload {result['load_s']} s, total {result['wall_s']} s; load average {result['loadavg_start']} -> "
          f"{result['loadavg_end']} ({os.cpu_count()} cores)")
    if args.json:
        Path(args.json).write_text(json.dumps(result, ensure_ascii=False, indent=1), encoding="utf-8")
    scratch.cleanup()


if __name__ == "__main__":
    main()
