"""The release's candidate files (``results/candidates/<system>__cand_hard518.jsonl``) as our candidates.

The id and answer are found under their likely names (:data:`~.fields.CANDIDATE_ROLES`); an answer
nested in an object (``{"output": {"answer": ...}}``) or given as a list of strings is taken too. Ids
are matched to the gold's as the importer matches them (numbers by value); a candidate without an id is
matched by its query text. ``ctsbench score`` calls :func:`adapt_score_inputs` so that it reads the
release's gold and candidate files directly, as the official ``eval_gold.py`` does.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cts_dataset.jsonl import RecordFileError, write_jsonl
from cts_dataset.records import Candidate, GoldRecord
from cts_dataset.release import values
from cts_dataset.release.fields import CANDIDATE_ROLES, FieldMap, MappingError, map_fields
from cts_dataset.release.gold import GoldRow, MappingOptions, map_gold
from cts_dataset.release.tables import get_field, has_field, read_records, record_fields
from cts_dataset.schemas import Problem

_ANSWER_KEYS = ("answer", "final_answer", "prediction", "output", "response", "content", "text", "回答", "答案")


def system_name(path: Path) -> str:
    """``gpt-4.1`` for ``gpt-4.1__cand_hard518.jsonl``; the name without ``.jsonl`` (or ``.json``) otherwise.

    Cut at ``__cand`` or at the suffix only: system names hold dots (``gpt-4.1``, ``qwen2.5-72b``)."""
    name = path.name
    if "__cand" in name:
        return name.split("__cand")[0] or name
    for suffix in (".jsonl", ".json"):
        if name.endswith(suffix) and len(name) > len(suffix):
            return name[: -len(suffix)]
    return name


def query_key(text: str) -> str:
    return " ".join(str(text).split())


@dataclass
class GoldIndex:
    """How candidates find their gold record: by id (compared as :func:`~.values.join_key`) or query text."""

    by_id: dict[str, str] = field(default_factory=dict)
    by_query: dict[str, str] = field(default_factory=dict)

    @classmethod
    def of(cls, records: Iterable[tuple[str, str]]) -> GoldIndex:
        index = cls()
        for record_id, query in records:
            index.by_id.setdefault(values.join_key(record_id), record_id)
            index.by_query.setdefault(query_key(query), record_id)
        return index


def answer_text(value: Any) -> str | None:
    """The answer in a candidate's field: text, an object holding it, or a list of text parts."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        for key in _ANSWER_KEYS:
            if key in value:
                return answer_text(value[key])
        return None
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return "\n".join(value)
    return None


def map_candidates(path: Path, options: MappingOptions | None = None,
                   gold: GoldIndex | None = None) -> tuple[list[Candidate], FieldMap]:
    """Every candidate of a release file, or MappingError / RecordFileError (nothing partial)."""
    options = options or MappingOptions()
    records, _ = read_records(path)
    fmap = map_fields(record_fields(records), CANDIDATE_ROLES, str(path), options.overrides)
    if fmap["candidate.id"] is None and (fmap["candidate.query"] is None or gold is None):
        raise MappingError(str(path), "cannot map candidate.id (and no query to match the gold by)",
                           fmap.fields, CANDIDATE_ROLES)
    system = system_name(path)
    out, problems, seen = [], [], {}
    for line, record in records:
        answer = answer_text(get_field(record, fmap["candidate.answer"]))
        if not has_field(record, fmap["candidate.answer"]):
            problems.append(Problem(str(path), line, str(fmap["candidate.answer"]), "missing answer"))
            continue
        if answer is None:
            problems.append(Problem(str(path), line, str(fmap["candidate.answer"]), "no answer text in this value"))
            continue
        raw_id = get_field(record, fmap["candidate.id"])
        if raw_id not in (None, ""):
            key = values.join_key(raw_id)
            candidate_id = gold.by_id.get(key, values.instance_id(raw_id)) if gold else values.instance_id(raw_id)
        else:
            query = get_field(record, fmap["candidate.query"])
            candidate_id = gold.by_query.get(query_key(query or "")) if gold else None
            if candidate_id is None:
                problems.append(Problem(str(path), line, str(fmap["candidate.id"] or fmap["candidate.query"]),
                                        "no id, and no gold record with this query"))
                continue
        if candidate_id in seen:
            problems.append(Problem(str(path), line, str(fmap["candidate.id"]),
                                    f"duplicate id {candidate_id!r} (first on line {seen[candidate_id]})"))
            continue
        seen[candidate_id] = line
        condition = get_field(record, fmap["candidate.condition"])
        out.append(Candidate(id=candidate_id, answer=answer, system=system,
                             condition=None if condition in (None, "") else str(condition)))
    if problems:
        raise RecordFileError(problems)
    return out, fmap


def first_record(path: Path) -> dict[str, Any] | None:
    """The first JSON object of a JSONL file (None when there is none or it does not decode)."""
    try:
        with open(path, encoding="utf-8-sig") as handle:
            for line in handle:
                if line.strip():
                    value = json.loads(line)
                    return value if isinstance(value, dict) else None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return None
    return None


def is_native(path: Path, kind: str) -> bool:
    """Whether a file already is in our format (its lines are then read, and reported, as they are)."""
    record = first_record(path)
    if record is None:
        return True  # unreadable here: the scorer's own reader reports it line by line
    if kind == "candidate":
        return "id" in record and "answer" in record
    nuggets = record.get("nuggets")
    shaped = isinstance(nuggets, list) and all(isinstance(n, dict) and {"text", "weight", "sources"} <= set(n)
                                               for n in nuggets)
    return shaped and "id" in record and ("query" in record or "blurred_query" in record)


def gold_records(rows: Iterable[GoldRow]) -> list[GoldRecord]:
    """Our gold records from mapped release rows (the id made schema-safe; line number when it has none)."""
    return [GoldRecord(id=values.instance_id(r.raw_id) if r.raw_id else f"line{r.line}",
                       query=r.query or "(not given)", nuggets=list(r.nuggets)) for r in rows]


def native_gold_index(path: Path) -> GoldIndex:
    records = []
    for line in path.read_text(encoding="utf-8-sig").splitlines():
        try:
            value = json.loads(line) if line.strip() else None
        except json.JSONDecodeError:
            continue
        if isinstance(value, dict) and "id" in value:
            records.append((str(value["id"]), str(value.get("query") or value.get("fused_query") or "")))
    return GoldIndex.of(records)


def adapt_score_inputs(gold: Path, candidates: Path, out_dir: Path, note: Callable[[str], None] = print,
                       options: MappingOptions | None = None) -> tuple[Path, Path]:
    """The gold and candidates paths ``ctsbench score`` should read: as given when they are in our format,
    else converted from the release's formats into ``OUT_DIR/inputs/`` (each mapping is reported).
    ``options`` settle fields and label weights as ``import-release`` does (a gold weighted by labels
    needs their numbers)."""
    gold, candidates = Path(gold), Path(candidates)
    if not gold.is_file() or not candidates.is_file():
        return gold, candidates  # the scorer names the missing file
    options = options or MappingOptions()
    hint = ("the release files cannot be mapped here; import them with `ctsbench import-release` (where --map "
            "names fields and --weight-map gives label weights their numbers) and score the files it writes")
    try:
        if is_native(gold, "gold"):
            index = native_gold_index(gold)
        else:
            mapped = map_gold(gold, options).check()
            records = gold_records(mapped.rows)
            gold = write_jsonl(Path(out_dir) / "inputs" / "gold.jsonl", records)
            index = GoldIndex.of((r.id, r.query) for r in records)
            note(f"read the gold {mapped.maps[0].file} as the release's format: " + "; ".join(mapped.describe())
                 + f" -> {gold}")
        if not is_native(candidates, "candidate"):
            found, fmap = map_candidates(candidates, options, gold=index)
            source = candidates
            candidates = write_jsonl(Path(out_dir) / "inputs" / f"candidates.{system_name(source)}.jsonl", found)
            note(f"read the candidates {source} as the release's format: " + "; ".join(fmap.describe())
                 + f" -> {candidates}")
    except MappingError as error:
        raise error.with_hint(hint) from None
    return gold, candidates
