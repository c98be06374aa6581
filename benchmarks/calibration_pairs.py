"""Build the judge calibration set from real run folders: the candidates to label, then the labelled file.

Two steps, so that annotators see only outputs and nuggets (never a judge's label):

  python benchmarks/calibration_pairs.py candidates --run SYSTEM_PREFIX=RUN_DIR ... --out DIR
      DIR/lines.jsonl   one line per (system, instance, nugget) of every run: what judge-check ranks;
      DIR/tasks.jsonl   one task per distinct (query, output) with its distinct nuggets, each with a key;
  python benchmarks/calibration_pairs.py assemble --candidates DIR --labels FILE ... --out PAIRS.jsonl
      joins the lines with the labels (``{"key", "label", "reason"}`` per line) into the pairs file that
      ``ctsbench judge-check`` reads. Split by instance: :func:`split_of`. With ``--second-pass`` it keeps
      only the pairs a blind relabelling covers, once each (``second_pass.jsonl``).

A system is ``PREFIX:condition`` for the baseline and the oracle and ``PREFIX:clarify@k`` otherwise; runs
that share a searcher and a baseline can share a prefix for those conditions (the first run wins).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from cts_dataset.jsonl import RecordFileError, iter_json_lines, write_jsonl


def pair_key(query: str, output: str, nugget: str) -> str:
    """The key of one distinct (query, output, nugget): what an annotator labels once."""
    return hashlib.sha256(json.dumps([query, output, nugget], ensure_ascii=False).encode()).hexdigest()[:16]


def split_of(instance: str) -> str:
    """dev or heldout by the parity of the id's SHA-256: fixed per instance, whatever set it is in."""
    return "dev" if hashlib.sha256(instance.encode()).digest()[0] % 2 else "heldout"


def _records(path: Path) -> list[dict[str, Any]]:
    found, problems = [], []
    for _, record, problem in iter_json_lines(path):
        problems += [problem] if problem else []
        found += [] if problem else [record]
    if problems:
        raise RecordFileError(problems)
    return found


def system_of(prefix: str, record: dict[str, Any]) -> str:
    condition = record["condition"]
    if condition in ("baseline", "oracle"):
        return f"{prefix.split('/')[0]}:{condition}"
    return f"{prefix}:clarify@{record['budget']}"


def candidates(runs: list[tuple[str, Path]]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    import cts_dataset

    instances = {i.id: i for i in cts_dataset.load()}
    lines: list[dict[str, Any]] = []
    seen: set[tuple[str, str]] = set()
    tasks: dict[str, dict[str, Any]] = {}
    for prefix, folder in runs:
        for record in _records(folder / "search.jsonl"):
            if record.get("error") or record.get("answer") is None:
                continue
            system = system_of(prefix, record)
            if (system, record["instance"]) in seen:
                continue
            seen.add((system, record["instance"]))
            instance = instances[record["instance"]]
            query, output = instance.fused_query, record["answer"]
            task_id = pair_key(query, output, "")
            task = tasks.setdefault(task_id, {"task": task_id, "query": query, "output": output, "nuggets": []})
            for index, nugget in enumerate(instance.nuggets):
                key = pair_key(query, output, nugget.text)
                if all(n["key"] != key for n in task["nuggets"]):
                    task["nuggets"].append({"key": key, "nugget": nugget.text})
                lines.append({"key": key, "system": system, "instance": instance.id, "nugget_index": index,
                              "query": query, "output": output, "nugget": nugget.text,
                              "weight": nugget.weight, "split": split_of(instance.id)})
    return lines, list(tasks.values())


def assemble(lines: list[dict[str, Any]], labels: dict[str, dict[str, Any]],
             second_pass: bool = False) -> list[dict[str, Any]]:
    """Every line with its label; with ``second_pass``, only the pairs the labels cover, each once."""
    if second_pass:
        firsts: dict[str, dict[str, Any]] = {}
        for line in lines:
            if line["key"] in labels:
                firsts.setdefault(line["key"], line)
        lines = list(firsts.values())
    missing = sorted({line["key"] for line in lines} - labels.keys())
    if missing:
        raise SystemExit(f"{len(missing)} keys have no label, e.g. {missing[:3]}")
    out = []
    for line in lines:
        label = labels[line["key"]]
        out.append({"id": f"{line['system']}|{line['instance']}|{line['nugget_index']}", "system": line["system"],
                    "instance": line["instance"], "split": line["split"], "query": line["query"],
                    "output": line["output"], "nugget": line["nugget"], "weight": line["weight"],
                    "label": label["label"], "reason": label.get("reason", "")})
    return out


def read_labels(paths: list[Path]) -> dict[str, dict[str, Any]]:
    found: dict[str, dict[str, Any]] = {}
    for path in paths:
        for line, record, problem in iter_json_lines(path):
            if problem:
                raise RecordFileError([problem])
            if record.get("label") not in ("full", "partial", "none"):
                raise SystemExit(f"{path}:{line}: label: {record.get('label')!r} is not full, partial or none")
            if record["key"] in found and found[record["key"]]["label"] != record["label"]:
                raise SystemExit(f"{path}:{line}: key {record['key']} labelled twice, differently")
            found[record["key"]] = record
    return found


def _write(path: Path, records: list[dict[str, Any]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    write_jsonl(path, records)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    make = sub.add_parser("candidates")
    make.add_argument("--run", action="append", required=True, help="SYSTEM_PREFIX=RUN_DIR (repeatable)")
    make.add_argument("--out", type=Path, required=True)
    join = sub.add_parser("assemble")
    join.add_argument("--candidates", type=Path, required=True)
    join.add_argument("--labels", type=Path, nargs="+", required=True)
    join.add_argument("--out", type=Path, required=True)
    join.add_argument("--second-pass", action="store_true",
                      help="a partial relabelling: keep the pairs it labels, one line each (second_pass.jsonl)")
    args = parser.parse_args(argv)
    if args.command == "candidates":
        runs = [(spec.split("=", 1)[0], Path(spec.split("=", 1)[1])) for spec in args.run]
        lines, tasks = candidates(runs)
        _write(args.out / "lines.jsonl", lines)
        _write(args.out / "tasks.jsonl", tasks)
        print(f"{len(lines)} lines over {len({line['system'] for line in lines})} systems; "
              f"{len(tasks)} distinct outputs, {sum(len(t['nuggets']) for t in tasks)} distinct pairs")
        return
    lines = _records(args.candidates / "lines.jsonl")
    pairs = assemble(lines, read_labels(args.labels), second_pass=args.second_pass)
    _write(args.out, pairs)
    distinct = {(p["query"], p["output"], p["nugget"]): p["label"] for p in pairs}
    print(f"{len(pairs)} lines, {len(distinct)} distinct pairs: {dict(Counter(distinct.values()))}", file=sys.stderr)


if __name__ == "__main__":
    main()
