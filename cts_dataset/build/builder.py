"""``ctsbench build``: the paper's gold construction for new instances, from intent queries q*.

1. blur each q* into q with typed removed constraints (:mod:`.blur`, checked);
2. run the deep-search backbone once on q* and archive its whole trace;
3. extract weighted, atomic nuggets with the ids of their evidence from what that run read (:mod:`.nuggets`);
4. validate the set with the checks of ``ctsbench check-data`` (cited ids, blurring, near-duplicates,
   grounding, retrieval headroom) and keep the instances that pass: an instance named by an error is
   dropped, and while the set's headroom misses its targets the instance with the least headroom goes
   (as Hard518 was selected for underspecification);
5. write ``instances.jsonl`` (what ``ctsbench validate`` and ``check-data`` accept), ``traces.jsonl``
   (per intent: blurring attempts, the search output with its trace, extraction attempts, the outcome),
   ``model_calls.jsonl`` (every model request), ``report.md`` and ``build.json``.

The cited-id and headroom checks need the shipped corpus; with a web tool they are skipped (``build.json``
says so), while blurring, atomicity and grounding in the fetched pages are still checked.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cts_dataset.build.blur import Blurred, blur_all
from cts_dataset.build.nuggets import Extracted, extract_all
from cts_dataset.build.prompts import prompt_ids
from cts_dataset.errors import CtsbenchError
from cts_dataset.jsonl import RecordFileError, write_jsonl
from cts_dataset.records import Document, Instance
from cts_dataset.release.tables import decode
from cts_dataset.schemas import Problem
from cts_dataset.search.language import detect_language
from cts_dataset.search.records import SearchOutput


@dataclass(frozen=True)
class Intent:
    id: str
    query: str
    language: str


@dataclass(frozen=True)
class BuildSettings:
    id_prefix: str = "built"
    attempts: int = 3
    max_docs: int = 4
    doc_chars: int = 1500
    min_nuggets: int = 2
    max_nuggets: int = 6
    k: int = 10
    min_fused: float = 0.8
    min_gap: float = 0.3


@dataclass
class Outcome:
    intent: Intent
    blurred: Blurred
    search: SearchOutput | None = None
    evidence: list[str] = field(default_factory=list)
    extracted: Extracted = field(default_factory=Extracted)
    instance: Instance | None = None
    reasons: list[str] = field(default_factory=list)

    def trace(self) -> dict[str, Any]:
        return {"id": self.intent.id, "intent": self.intent.query, "language": self.intent.language,
                "status": "kept" if self.instance is not None and not self.reasons else "rejected",
                "reasons": self.reasons,
                "blur": {"method": self.blurred.method, "blurred_query": self.blurred.blurred_query,
                         "removed_constraints": [c.model_dump(mode="json") for c in self.blurred.constraints],
                         "attempts": self.blurred.attempts},
                "search": self.search.model_dump(mode="json") if self.search is not None else None,
                "evidence": self.evidence,
                "nuggets": {"kept": [n.model_dump(mode="json") for n in self.extracted.nuggets],
                            "attempts": self.extracted.attempts}}


def read_intents(path: Path, id_prefix: str = "built") -> list[Intent]:
    """Intent queries from a text file (one per line, ``#`` comments) or a JSONL file (``query`` or
    ``fused_query`` or ``intent``, optional ``id`` and ``language``); RecordFileError naming bad lines."""
    from cts_dataset.records import ID_PATTERN

    text, _ = decode(Path(path))
    intents, problems, seen = [], [], set()
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if Path(path).suffix == ".jsonl":
            try:
                data = json.loads(line)
                query = str(next(data[k] for k in ("query", "fused_query", "intent") if data.get(k))).strip()
            except (json.JSONDecodeError, StopIteration, TypeError, AttributeError):
                problems.append(Problem(str(path), number, "query", "expected a JSON object with query (or fused_query)"))
                continue
            record_id, language = str(data.get("id") or ""), data.get("language")
        else:
            query, record_id, language = line.strip(), "", None
        record_id = record_id or f"{id_prefix}-{len(intents) + 1:04d}"
        if not re.fullmatch(ID_PATTERN, record_id) or record_id in seen:
            problems.append(Problem(str(path), number, "id", f"id {record_id!r} is not a new valid id"))
            continue
        if language not in (None, "en", "zh"):
            problems.append(Problem(str(path), number, "language", f"{language!r}: expected en or zh"))
            continue
        seen.add(record_id)
        intents.append(Intent(record_id, query, language or detect_language(query)))
    if problems:
        raise RecordFileError(problems)
    if not intents:
        raise CtsbenchError(f"{path}: no intent queries")
    return intents


def evidence_documents(tool: Any, output: SearchOutput, max_docs: int) -> list[Document]:
    """The documents the run read (visited first, then retrieved), as documents, at most ``max_docs``."""
    docs = []
    for doc_id in list(dict.fromkeys([*output.visited_doc_ids, *output.retrieved_doc_ids])):
        page = tool.visit(doc_id)
        if page.found:
            docs.append(Document(id=page.doc_id or doc_id, title=page.title or doc_id, description="", topic="",
                                 text=page.text))
        if len(docs) >= max_docs:
            break
    return docs


def _named(error: str, ids: set[str]) -> str | None:
    head = error.split(":", 1)[0]
    return head if head in ids else None


def select(outcomes: list[Outcome], settings: BuildSettings, corpus: bool,
           log: Callable[[str], None]) -> tuple[list[Instance], Any]:
    """The instances that pass the data checks, dropping what the checks name (see the module docstring)."""
    from cts_dataset.quality.checks import check_blurring, check_duplicates
    from cts_dataset.quality.report import build_report

    by_id = {o.intent.id: o for o in outcomes if o.instance is not None and not o.reasons}
    report = None
    while by_id:
        instances = [o.instance for o in by_id.values()]
        if corpus:
            from cts_dataset.corpus import corpus_index

            report = build_report(instances, corpus_index(), k=settings.k, min_fused=settings.min_fused,
                                  min_gap=settings.min_gap)
            errors = report.findings.errors
        else:
            errors = check_blurring(instances).errors + check_duplicates(instances).errors
        if not errors:
            break
        named = {i: e for e in errors if (i := _named(e, set(by_id)))}
        if not named and report is not None and report.headroom:  # only the set's headroom misses its target
            worst = min(report.headroom, key=lambda h: (h.gap, h.fused_recall))
            named = {worst.instance_id: f"headroom: fused recall@{settings.k} {worst.fused_recall:.2f}, blurred "
                                        f"{worst.blurred_recall:.2f} (the set missed its targets: {errors[0]})"}
        if not named:
            break
        for instance_id, error in named.items():
            by_id.pop(instance_id).reasons.append(f"check-data: {error}")
            log(f"dropped {instance_id}: {error}")
    return [o.instance for o in by_id.values()], report


def build(intents: Sequence[Intent], model: Any, searcher: Any, out_dir: Path, settings: BuildSettings | None = None,
          log: Callable[[str], None] = print) -> dict[str, Any]:
    """Build, check and write (see the module docstring); returns the summary written to build.json."""
    from cts_dataset.quality.report import render_markdown

    settings = settings or BuildSettings()
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    log(f"blurring {len(intents)} intent(s)")
    outcomes = [Outcome(i, b) for i, b in zip(intents, blur_all(model, [(i.query, i.language) for i in intents],
                                                               settings.attempts), strict=True)]
    for o in outcomes:
        if not o.blurred.ok:
            o.reasons.append("blurring failed: " + "; ".join(o.blurred.attempts[-1]["problems"] if o.blurred.attempts
                                                             else ["no attempt"]))
    active = [o for o in outcomes if not o.reasons]  # a rejected blur needs no search
    log(f"searching {len(active)} intent query(ies) with {searcher.name} (once each)")
    outputs = searcher.search([o.intent.query for o in active], tags=[o.intent.id for o in active],
                              languages=[o.intent.language for o in active]) if active else []
    for o, output in zip(active, outputs, strict=True):
        o.search = output
    docs = [evidence_documents(searcher.tool, o.search, settings.max_docs) for o in active]  # type: ignore[arg-type]
    for o, found in zip(active, docs, strict=True):
        o.evidence = [d.id for d in found]
    log(f"extracting nuggets for {len(active)} intent(s)")
    extracted = extract_all(model, [(o.intent.query, o.intent.language, found) for o, found in zip(active, docs)],
                            settings.min_nuggets, settings.max_nuggets, settings.doc_chars, settings.attempts)
    for o, found in zip(active, extracted, strict=True):
        o.extracted = found
        if not o.evidence:
            o.reasons.append("the search read no document")
        elif len(found.nuggets) < settings.min_nuggets:
            o.reasons.append(f"only {len(found.nuggets)} usable nugget(s) (need {settings.min_nuggets})")
        if o.reasons:
            continue
        o.instance = Instance(id=o.intent.id, language=o.intent.language, fused_query=o.intent.query,  # type: ignore[arg-type]
                              blurred_query=o.blurred.blurred_query, removed_constraints=o.blurred.constraints,
                              nuggets=found.nuggets)
    corpus = searcher.tool.name.startswith("corpus:") and _is_shipped(searcher.tool)
    kept, report = select(outcomes, settings, corpus, log)
    write_jsonl(out / "instances.jsonl", kept)
    write_jsonl(out / "traces.jsonl", [o.trace() for o in outcomes])
    if report is not None:
        (out / "report.md").write_text(render_markdown(report, title="Data report: instances.jsonl"), encoding="utf-8")
    summary = {
        "intents": len(intents), "kept": len(kept),
        "rejected": {o.intent.id: o.reasons for o in outcomes if o.reasons},
        "blur_methods": {m or "failed": sum(1 for o in outcomes if o.blurred.method == m)
                         for m in ("llm", "diff", "deletion", "")},
        "model": getattr(model, "spec", str(model)), "searcher": searcher.describe(), "prompts": prompt_ids(),
        "settings": settings.__dict__, "checks": "check-data (corpus)" if corpus else
        "blurring and near-duplicates (cited ids and headroom need the shipped corpus; grounding was checked in the "
        "fetched pages at extraction)",
    }
    (out / "build.json").write_text(json.dumps(summary, indent=2, ensure_ascii=False, default=str) + "\n", encoding="utf-8")
    return summary


def _is_shipped(tool: Any) -> bool:
    from cts_dataset.search.bm25 import corpus_bm25

    return getattr(getattr(tool, "index", None), "fingerprint", None) == corpus_bm25().fingerprint
