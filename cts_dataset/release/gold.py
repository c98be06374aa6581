"""The release's queries CSV and gold JSONL, mapped onto our fields (see :mod:`.fields` for the rules).

Nuggets may come as objects (text, weight and sources under their likely names, possibly nested one
level), as plain strings with parallel ``weights``/``sources`` lists, or as an object {text: weight}.
"""

from __future__ import annotations

import dataclasses
import json
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from cts_dataset.jsonl import RecordFileError
from cts_dataset.records import Nugget
from cts_dataset.release import values
from cts_dataset.release.fields import (
    GOLD_ROLES,
    NUGGET_ROLES,
    QUERY_ROLES,
    FieldMap,
    MappingError,
    Role,
    map_fields,
)
from cts_dataset.release.store import validation_problems
from cts_dataset.release.tables import get_field, read_records, read_table, record_fields
from cts_dataset.schemas import Problem


@dataclass(frozen=True)
class MappingOptions:
    """What the user settled: ``--map ROLE=FIELD``, a weight for unweighted nuggets, nuggets without sources,
    and ``--weight-map LABEL=NUMBER`` (keys normalised) for weights given as labels."""

    overrides: Mapping[str, str] = field(default_factory=dict)
    default_weight: float | None = None
    no_sources: bool = False
    weight_map: Mapping[str, float] = field(default_factory=dict)

    def weights(self, found: Mapping[str, int] | None = None) -> dict[str, object]:
        """How the weights were set, for the manifest: the label map, the labels found (with counts) and
        the default weight."""
        return {"weight_map": dict(self.weight_map), "labels_found": dict(found or {}),
                "default_weight": self.default_weight}


class WeightLabelError(MappingError):
    """Nugget weights given as labels (vital/okay, high/medium/low...) that ``--weight-map`` gives no number.

    Such scales have no agreed numbers and every restore_score depends on them, so none is guessed."""

    def __init__(self, file: str, labels: Mapping[str, int], unmapped: list[str], hint: str = "") -> None:
        self.file, self.labels, self.unmapped = file, dict(labels), list(unmapped)
        self.problem = "nugget.weight: the weights are labels (" + ", ".join(
            f"{label!r} x{count}" for label, count in sorted(labels.items())) + "), whose numbers are not guessed"
        self.found, self.needed = sorted(labels), []
        example = " ".join(f"--weight-map {label}=NUMBER" for label in self.unmapped)
        super(MappingError, self).__init__(f"{file}: {self.problem}\n  give each label its number: {example}"
                                           + (f"\n  {hint}" if hint else ""))

    def with_hint(self, hint: str) -> WeightLabelError:
        return WeightLabelError(self.file, self.labels, self.unmapped, hint)


@dataclass(frozen=True)
class QueryRow:
    line: int
    raw_id: str | None
    fused_query: str
    blurred_query: str
    language: str | None
    constraints: tuple[dict[str, str], ...]


@dataclass(frozen=True)
class GoldRow:
    line: int
    raw_id: str | None
    query: str | None
    nuggets: tuple[Nugget, ...]


@dataclass(frozen=True)
class Mapped:
    """The rows of one file, the field map used and how the file was read."""

    rows: tuple[Any, ...]
    maps: tuple[FieldMap, ...]
    encoding: str
    delimiter: str | None = None
    problems: tuple[Problem, ...] = ()  # bad rows (kept in ``rows`` so that joining still sees them)
    weight_labels: Mapping[str, int] = field(default_factory=dict)  # label weights found, with their counts

    def check(self) -> Mapped:
        """Itself, or RecordFileError naming every bad row."""
        if self.problems:
            raise RecordFileError(list(self.problems))
        return self

    def describe(self) -> list[str]:
        return [line for m in self.maps for line in m.describe()]


def map_queries(path: Path, options: MappingOptions) -> Mapped:
    """Every row of the queries file with the problems of bad rows; MappingError when a field cannot be mapped."""
    table = read_table(path)
    fmap = map_fields(table.header, QUERY_ROLES, str(path), options.overrides)
    rows, problems = [], []
    for line, row in table.rows:
        def cell(role: str, row: dict[str, str] = row) -> str:
            column = fmap[role]
            return row.get(column, "") if column else ""

        found = {"fused_query": cell("queries.fused_query"), "blurred_query": cell("queries.blurred_query")}
        for name, text in found.items():
            if not text:
                problems.append(Problem(str(path), line, fmap[f"queries.{name}"] or name, f"empty {name}"))
        language = None
        try:
            language = values.language(cell("queries.language")) if cell("queries.language") else None
        except ValueError as error:
            problems.append(Problem(str(path), line, fmap["queries.language"] or "language", str(error)))
        try:
            constraints = tuple(values.constraints(cell("queries.removed_constraints")))
        except ValueError as error:
            problems.append(Problem(str(path), line, fmap["queries.removed_constraints"] or "", str(error)))
            constraints = ()
        raw_id = cell("queries.id") or None
        if fmap["queries.id"] and not raw_id:
            problems.append(Problem(str(path), line, fmap["queries.id"], "empty id"))
        rows.append(QueryRow(line, raw_id, found["fused_query"], found["blurred_query"], language, constraints))
    return Mapped(tuple(rows), (fmap,), table.encoding, table.delimiter, tuple(problems))


def _nugget_list(value: Any) -> list[Any] | None:
    """The nuggets of a record's container value, as a list (None: not a container we know)."""
    if isinstance(value, str) and value.strip()[:1] in ("[", "{"):
        try:
            value = json.loads(value)
        except json.JSONDecodeError:
            return None
    if isinstance(value, list):
        return value
    if isinstance(value, dict):
        if value and all(isinstance(v, dict) for v in value.values()):
            return list(value.values())
        return [{"text": k, "weight": v} for k, v in value.items()]  # {nugget text: weight}
    return None


def _relaxed(roles: tuple[Role, ...], options: MappingOptions) -> tuple[Role, ...]:
    optional = {"nugget.weight": options.default_weight is not None, "nugget.sources": options.no_sources}
    return tuple(dataclasses.replace(r, required=r.required and not optional.get(r.name, False)) for r in roles)


def map_gold(path: Path, options: MappingOptions) -> Mapped:
    """Every gold record with its nuggets and the problems of bad records; MappingError when a field cannot be
    mapped."""
    records, encoding = read_records(path)
    hint = ("name the field with --map ROLE=FIELD; for nuggets without weights pass --default-weight 1, "
            "without sources --no-sources")
    fmap = map_fields(record_fields(records), GOLD_ROLES, str(path), options.overrides, hint)
    container = fmap["gold.nuggets"]
    lists: list[list[Any]] = []
    problems: list[Problem] = []
    for line, record in records:
        found = _nugget_list(get_field(record, container))
        if found is None or not found:
            problems.append(Problem(str(path), line, str(container), "expected a non-empty list of nuggets"))
            found = []
        lists.append(found)
    objects = [n for nuggets in lists for n in nuggets if isinstance(n, dict)]
    nmap = None
    if objects:
        nmap = map_fields(record_fields([(0, n) for n in objects]), _relaxed(NUGGET_ROLES, options),
                          f"{path} (the nuggets under {container!r})", options.overrides, hint)
    rows = []
    seen = _Weights()
    for (line, record), nuggets in zip(records, lists, strict=True):
        parsed = _nuggets(record, nuggets, nmap, fmap, options, str(path), line, problems, seen)
        raw_id, query = get_field(record, fmap["gold.id"]), get_field(record, fmap["gold.query"])
        if fmap["gold.id"] and raw_id in (None, ""):
            problems.append(Problem(str(path), line, str(fmap["gold.id"]), "missing id"))
        rows.append(GoldRow(line, None if raw_id in (None, "") else str(raw_id),
                            None if query in (None, "") else str(query).strip(), tuple(parsed)))
    if not records:
        problems.append(Problem(str(path), 0, "(file)", "no gold records"))
    unmapped = sorted(label for label in seen.labels if label not in options.weight_map)
    if unmapped and not seen.numbers:
        raise WeightLabelError(str(path), seen.labels, unmapped)
    problems.extend(p for label in unmapped for p in seen.unmapped[label])  # stray text among numbers: bad rows
    return Mapped(tuple(rows), (fmap,) + ((nmap,) if nmap else ()), encoding, None, tuple(problems),
                  dict(seen.labels))


@dataclass
class _Weights:
    """The weights of a gold file: labels with their counts, numbers, and where each unmapped label is."""

    labels: Counter[str] = field(default_factory=Counter)
    numbers: int = 0
    unmapped: dict[str, list[Problem]] = field(default_factory=dict)


def _parallel(value: Any, nuggets: list[Any], name: str, file: str, line: int, problems: list[Problem]) -> None:
    """A ``weights``/``sources`` list beside plain-string nuggets must have one entry per nugget."""
    if isinstance(value, list) and len(value) != len(nuggets):
        problems.append(Problem(file, line, name, f"{len(value)} entries for {len(nuggets)} nuggets (one per "
                                "nugget expected; a missing entry is not filled in)"))


def _nuggets(record: dict[str, Any], nuggets: list[Any], nmap: FieldMap | None, fmap: FieldMap,
             options: MappingOptions, file: str, line: int, problems: list[Problem],
             seen: _Weights) -> list[Nugget]:
    container = fmap["gold.nuggets"]
    weights, source_lists = get_field(record, fmap["gold.weights"]), get_field(record, fmap["gold.sources"])
    if any(isinstance(item, str) for item in nuggets):  # the import then stops, naming this line
        _parallel(weights, nuggets, str(fmap["gold.weights"] or "weights"), file, line, problems)
        _parallel(source_lists, nuggets, str(fmap["gold.sources"] or "sources"), file, line, problems)
    out = []
    for i, item in enumerate(nuggets):
        where = f"{container}[{i}]"
        if isinstance(item, dict) and nmap is not None:
            text, weight_raw, sources_raw = (get_field(item, nmap[r]) for r in ("nugget.text", "nugget.weight", "nugget.sources"))
            names = {r: nmap[r] or r.split(".")[1] for r in ("nugget.text", "nugget.weight", "nugget.sources")}
        elif isinstance(item, str):
            text = item
            weight_raw = weights[i] if isinstance(weights, list) and i < len(weights) else None
            sources_raw = source_lists[i] if isinstance(source_lists, list) and i < len(source_lists) else None
            names = {"nugget.text": "", "nugget.weight": f"{fmap['gold.weights'] or 'weights'}[{i}]",
                     "nugget.sources": f"{fmap['gold.sources'] or 'sources'}[{i}]"}
            if weight_raw is None and options.default_weight is None:
                raise MappingError(file, f"nugget.weight: the nuggets under {container!r} are plain strings with no "
                                   "weights list beside them", record_fields([(line, record)]), GOLD_ROLES,
                                   "name the weights with --map gold.weights=FIELD or pass --default-weight 1")
            if sources_raw is None and not options.no_sources:
                raise MappingError(file, f"nugget.sources: the nuggets under {container!r} are plain strings with no "
                                   "sources list beside them", record_fields([(line, record)]), GOLD_ROLES,
                                   "name the sources with --map gold.sources=FIELD or pass --no-sources")
        else:
            problems.append(Problem(file, line, where, f"expected a nugget object or string, found {type(item).__name__}"))
            continue
        label = values.weight_label(weight_raw)
        if label is None:
            seen.numbers += weight_raw not in (None, "")
        else:
            seen.labels[label] += 1
            if label not in options.weight_map:  # named once for the file, or as this row's problem
                seen.unmapped.setdefault(label, []).append(Problem(
                    file, line, f"{where}.{names['nugget.weight']}".rstrip("."),
                    str(values.UnmappedWeightLabel(str(weight_raw).strip()))))
                continue
        try:
            weight = (options.default_weight if weight_raw in (None, "")
                      else values.weight(weight_raw, options.weight_map))
            if weight is None:
                raise ValueError("missing weight (pass --default-weight to give unweighted nuggets one)")
        except ValueError as error:
            problems.append(Problem(file, line, f"{where}.{names['nugget.weight']}".rstrip("."), str(error)))
            continue
        if sources_raw is None and not options.no_sources:
            problems.append(Problem(file, line, f"{where}.{names['nugget.sources']}",
                                    "missing sources (pass --no-sources to import nuggets without them)"))
            continue
        try:
            cited = values.sources(sources_raw)
        except ValueError as error:
            problems.append(Problem(file, line, f"{where}.{names['nugget.sources']}", str(error)))
            continue
        try:
            out.append(Nugget(text=str(text or "").strip(), weight=weight, sources=cited))
        except ValidationError as error:
            problems.extend(validation_problems(error, file, line, prefix=f"{where}."))
    return out
