"""``ctsbench import-release``: the official archive (or its unzipped ``release/`` folder) as the hard518 split.

The queries CSV and the gold JSONL are mapped (:mod:`.fields`, :mod:`.gold`), joined (by id, numbers
by value; else the gold's query text against the fused query), validated, and only then written: a
file that cannot be mapped or a record that breaks the schema stops the import before anything is
written. The split folder is replaced as a whole, then prepared in the Hugging Face cache so that
``load_dataset("ctsbench-hard518")`` loads offline from any directory.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import tempfile
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from cts_dataset.errors import CtsbenchError
from cts_dataset.jsonl import RecordFileError, write_jsonl
from cts_dataset.records import Candidate, GoldRecord
from cts_dataset.release import values
from cts_dataset.release.candidates import GoldIndex, map_candidates, query_key, system_name
from cts_dataset.release.fields import GOLD_ROLES, MappingError
from cts_dataset.release.gold import GoldRow, MappingOptions, QueryRow, map_gold, map_queries
from cts_dataset.release.store import ImportedInstance, dataset_folder, validation_problems
from cts_dataset.schemas import Problem
from cts_dataset.search.language import detect_language

SPLIT = "hard518"
DOCUMENTED = {"queries": "data/hard_518_queries.csv", "gold": "data/gold_public_hard518.jsonl",
              "candidates": "results/candidates"}
# Far above the release (a few files of text), far below a full disk: a zip bomb stops before extraction.
MAX_MEMBERS = 10_000
MAX_UNPACKED_BYTES = 2 * 1024**3


class ReleaseError(CtsbenchError, ValueError):
    """An archive or folder that does not hold the release's files."""


@dataclass(frozen=True)
class ReleaseFiles:
    root: Path
    queries: Path
    gold: Path
    candidates: tuple[Path, ...]


def unpack(source: Path, scratch: Path) -> Path:
    """The folder to read: ``source`` itself, or the zip archive extracted into ``scratch``."""
    if source.is_dir():
        return source
    if not source.is_file():
        raise ReleaseError(f"{source}: no such file or folder")
    if not zipfile.is_zipfile(source):
        raise ReleaseError(f"{source}: neither a folder nor a zip archive")
    with zipfile.ZipFile(source) as archive:
        members = archive.infolist()
        if len(members) > MAX_MEMBERS:
            raise ReleaseError(f"{source}: {len(members):,} members, more than the {MAX_MEMBERS:,} an import "
                               "accepts; unzip the release yourself and import its release/ folder")
        # The declared sizes bound what extraction writes (zipfile stops a member at its declared size).
        size = sum(member.file_size for member in members)
        if size > MAX_UNPACKED_BYTES:
            raise ReleaseError(f"{source}: {size:,} bytes once unpacked, more than the {MAX_UNPACKED_BYTES:,} an "
                               "import accepts; unzip the release yourself and import its release/ folder")
        for member in members:
            target = (scratch / member.filename).resolve()
            if not target.is_relative_to(scratch.resolve()):  # a member named ../x must not land outside
                raise ReleaseError(f"{source}: member {member.filename!r} points outside the archive")
        archive.extractall(scratch)
    return scratch


def _listing(root: Path) -> str:
    files = sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file())
    return ", ".join(files[:30]) + (f" ... ({len(files)} files)" if len(files) > 30 else "") or "(no files)"


def _find(root: Path, documented: str, patterns: tuple[str, ...], word: str, what: str) -> Path:
    """The documented file wherever the release folder sits, else the one data file named like it."""
    found = sorted(root.glob(f"**/{documented}"))
    if not found:
        found = sorted({p for pattern in patterns for p in root.glob(f"**/{pattern}")
                        if word in p.name.lower() and "candidates" not in p.parts and p.is_file()})
    if len(found) != 1:
        problem = "no" if not found else f"{len(found)} candidate"
        raise ReleaseError(f"{root}: {problem} {what} file(s) ({documented} in the documented layout); files "
                           f"there: {_listing(root)}. Name it with --{what} FILE")
    return found[0]


def locate(root: Path, queries: Path | None = None, gold: Path | None = None) -> ReleaseFiles:
    """The queries, gold and candidate files of an unpacked release."""
    queries = queries or _find(root, DOCUMENTED["queries"], ("*.csv", "*.tsv", "*.txt"), "quer", "queries")
    gold = gold or _find(root, DOCUMENTED["gold"], ("*.jsonl", "*.json"), "gold", "gold")
    folders = sorted(root.glob(f"**/{DOCUMENTED['candidates']}"))
    candidates = tuple(sorted(p for folder in folders for p in folder.glob("*.jsonl")))
    return ReleaseFiles(root, Path(queries), Path(gold), candidates)


@dataclass
class Imported:
    """What an import produced (or would produce, for a dry run)."""

    instances: list[ImportedInstance]
    gold: list[GoldRecord]
    candidates: dict[str, list[Candidate]]
    mapping: dict[str, list[str]]
    warnings: list[str] = field(default_factory=list)
    id_changes: dict[str, str] = field(default_factory=dict)
    files: dict[str, dict[str, Any]] = field(default_factory=dict)
    weights: dict[str, Any] = field(default_factory=dict)  # how nugget weights were set (label map, default)

    @property
    def annotated(self) -> int:
        return sum(1 for i in self.instances if i.removed_constraints)


def _keyed(rows: list[Any], file: Path, key: Callable[[Any], str], what: str, problems: list[Problem]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for row in rows:
        k = key(row)
        if k in out:
            problems.append(Problem(str(file), row.line, what, f"duplicate {what} {k!r} (first on line {out[k].line})"))
        else:
            out[k] = row
    return out


def join(queries: list[QueryRow], gold: list[GoldRow], files: ReleaseFiles, allow_unmatched: bool,
         warnings: list[str], problems: list[Problem]) -> list[tuple[QueryRow, GoldRow]]:
    """Query rows paired with their gold records: by id when both files have ids, else by query text."""
    if all(q.raw_id for q in queries) and all(g.raw_id for g in gold):
        how = "id"
        rows = _keyed(queries, files.queries, lambda q: values.join_key(q.raw_id), "id", problems)
        golds = _keyed(gold, files.gold, lambda g: values.join_key(g.raw_id), "id", problems)
    elif all(g.query for g in gold):
        how = "query"
        rows = _keyed(queries, files.queries, lambda q: query_key(q.fused_query), "fused query", problems)
        golds = _keyed(gold, files.gold, lambda g: query_key(g.query), "query", problems)
    else:
        raise MappingError(str(files.gold), "cannot match the gold records to the queries: ids are missing in one "
                           "file and the gold has no query text", [], GOLD_ROLES,
                           "name the id fields with --map queries.id=COLUMN --map gold.id=FIELD")
    pairs = []
    for key, row in rows.items():
        if key in golds:
            pairs.append((row, golds[key]))
            continue
        message = f"no gold record with this {how} ({key!r})"
        if allow_unmatched:
            warnings.append(f"{files.queries}:{row.line}: {message}; skipped")
        else:
            problems.append(Problem(str(files.queries), row.line, how, message + " (--allow-unmatched skips it)"))
    for key, record in golds.items():
        if key not in rows:
            message = f"no query row with this {how} ({key!r})"
            if allow_unmatched:
                warnings.append(f"{files.gold}:{record.line}: {message}; skipped")
            else:
                problems.append(Problem(str(files.gold), record.line, how, message + " (--allow-unmatched skips it)"))
    differing = [r.line for r, g in pairs if how == "id" and g.query and query_key(g.query) != query_key(r.fused_query)]
    if differing:
        warnings.append(f"{files.queries}: {len(differing)} row(s) whose fused query differs from the gold's query "
                        f"(lines {', '.join(map(str, differing[:10]))}{' ...' if len(differing) > 10 else ''})")
    return pairs


def build(files: ReleaseFiles, options: MappingOptions, allow_unmatched: bool = False,
          skip_candidates: bool = False) -> Imported:
    """Map, join and validate everything; raises MappingError / RecordFileError before anything is written."""
    queries, gold = map_queries(files.queries, options), map_gold(files.gold, options)
    warnings: list[str] = []
    problems: list[Problem] = [*queries.problems, *gold.problems]
    bad_lines = {p.line for p in queries.problems}
    pairs = join(list(queries.rows), list(gold.rows), files, allow_unmatched, warnings, problems)
    instances, records, changes, seen = [], [], {}, {}
    for n, (row, record) in enumerate(pairs, start=1):
        if row.line in bad_lines:
            continue
        raw = row.raw_id or record.raw_id or f"{SPLIT}-{n:04d}"
        try:
            new_id = values.instance_id(raw)
        except ValueError as error:
            problems.append(Problem(str(files.queries), row.line, "id", str(error)))
            continue
        if new_id != raw:
            changes[raw] = new_id
        if new_id in seen:
            problems.append(Problem(str(files.queries), row.line, "id", f"id {raw!r} becomes {new_id!r}, as on line "
                                    f"{seen[new_id]}"))
            continue
        seen[new_id] = row.line
        data = {"id": new_id, "language": row.language or detect_language(row.fused_query),
                "fused_query": row.fused_query, "blurred_query": row.blurred_query,
                "removed_constraints": list(row.constraints), "nuggets": [n.model_dump() for n in record.nuggets]}
        try:
            instances.append(ImportedInstance.model_validate(data))
        except ValidationError as error:
            problems.extend(validation_problems(error, str(files.queries), row.line))
            continue
        records.append(GoldRecord(id=new_id, query=record.query or row.fused_query, nuggets=list(record.nuggets)))
    index = GoldIndex.of([(i.id, i.fused_query) for i in instances])
    for raw, new in changes.items():
        index.by_id[values.join_key(raw)] = new
    candidates: dict[str, list[Candidate]] = {}
    named: dict[str, Path] = {}
    mapping = {"queries": queries.describe(), "gold": gold.describe()}
    for path in () if skip_candidates else files.candidates:
        system = system_name(path)
        if system in named:  # one would overwrite the other's candidates/<system>.jsonl
            raise ReleaseError(f"{path} and {named[system]} both name the system {system!r}; rename one "
                               "(the system is the file name before __cand, else before .jsonl)")
        named[system] = path
        try:
            found, fmap = map_candidates(path, options, index)
        except RecordFileError as error:
            problems.extend(error.problems)
            continue
        candidates[system] = found
        mapping[f"candidates/{path.name}"] = fmap.describe()
        strays = [c.id for c in found if c.id not in seen]
        if strays:
            warnings.append(f"{path}: {len(strays)} candidate(s) without an instance: {', '.join(strays[:5])}")
    if problems:
        raise RecordFileError(problems)
    annotated = sum(1 for i in instances if i.removed_constraints)
    if annotated < len(instances):
        warnings.append(f"{len(instances) - annotated} of {len(instances)} instance(s) have no removed-constraint "
                        "annotation: the diagnostics that need them are not computed for those")
    described = {"queries": (files.queries, queries), "gold": (files.gold, gold)}
    info = {name: {"file": str(path.relative_to(files.root)) if path.is_relative_to(files.root) else str(path),
                   "sha256": hashlib.sha256(path.read_bytes()).hexdigest(), "encoding": m.encoding,
                   **({"delimiter": m.delimiter} if m.delimiter else {})}
            for name, (path, m) in described.items()}
    return Imported(instances, records, candidates, mapping, warnings, changes, info,
                    options.weights(gold.weight_labels))


def write(result: Imported, source: Path, split: str = SPLIT) -> Path:
    """Write the split folder next to the old one, then swap it in (an old folder is never half-replaced)."""
    from cts_dataset import __version__
    from cts_dataset.release.card import hard518_card

    folder = dataset_folder(split)
    folder.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{folder.name}.", dir=folder.parent))
    try:
        write_jsonl(staging / "data" / f"{split}.jsonl", result.instances)
        write_jsonl(staging / "gold.jsonl", result.gold)
        for system, found in result.candidates.items():
            write_jsonl(staging / "candidates" / f"{system}.jsonl", found)
        manifest = {"source": str(source), "split": split, "ctsbench_version": __version__, "files": result.files,
                    "mapping": result.mapping, "counts": {"instances": len(result.instances),
                                                          "annotated_constraints": result.annotated,
                                                          "candidates": {s: len(c) for s, c in result.candidates.items()}},
                    "weights": result.weights, "id_changes": result.id_changes, "warnings": result.warnings}
        (staging / "manifest.json").write_text(json.dumps(manifest, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        card = hard518_card(result.instances, sorted(result.candidates), result.weights)
        (staging / "README.md").write_text(card, encoding="utf-8")
        old = folder.with_name(f".{folder.name}.old")
        shutil.rmtree(old, ignore_errors=True)
        if folder.exists():
            folder.rename(old)
        try:
            staging.rename(folder)
        except BaseException:
            if old.exists() and not folder.exists():
                old.rename(folder)  # the split that was there stays loadable
            raise
        shutil.rmtree(old, ignore_errors=True)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return folder


def import_release(source: str | Path, options: MappingOptions | None = None, *, queries: Path | None = None,
                   gold: Path | None = None, allow_unmatched: bool = False, skip_candidates: bool = False,
                   dry_run: bool = False, install: bool = True, verify: bool = True) -> tuple[Imported, Path | None]:
    """Import an archive or folder; returns what was imported and the split folder (None for a dry run)."""
    source = Path(source).expanduser()
    with tempfile.TemporaryDirectory(prefix="ctsbench-release-") as scratch:
        root = unpack(source, Path(scratch))
        files = locate(root, queries, gold)
        result = build(files, options or MappingOptions(), allow_unmatched, skip_candidates)
        if dry_run:
            return result, None
        folder = write(result, source)
    if install:
        from cts_dataset.hf.install import install_folder

        install_folder(folder, verify=verify)
    return result, folder
