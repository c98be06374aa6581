"""One run folder as a pandas DataFrame: one row per (instance, condition, budget, repeat), joining the
dialogue, the rewrite, the search, the judgement and the model calls that served it.

The five stage files are read through the diagnostics' run-folder reader (the later line of a key wins,
a record with an ``error`` is a failed request, never used), so the frame and the diagnostics agree on
what a dialogue is. Without repeats, the mean of ``restore_score_100`` per ``label`` is the summary's.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cts_dataset.pipeline.store import record_key
from cts_dataset.records import Instance
from cts_dataset.scoring.repeats import instance_means
from cts_dataset.scoring.restore import mean_score

if TYPE_CHECKING:
    import pandas as pd

    from cts_dataset.diagnostics.runfolder import Run

# Columns in order (the documented schema of ``load_run`` and ``ctsbench export``).
COLUMNS = (
    "run", "clarifier", "instance", "language", "condition", "budget", "label", "repeat", "status", "error",
    "restore_score_100", "strict_100", "unweighted_100", "n_nuggets", "n_unscored", "judge",
    "nuggets", "nugget_weights", "labels",
    "questions", "answers", "question_types", "turn_status", "questions_asked", "unknown_answers", "all_unknown",
    "rewrite", "query", "answer", "termination", "retrieved_doc_ids", "search_llm_calls", "search_tokens",
    "calls", "prompt_tokens", "completion_tokens", "seconds",
    "blurred_query", "intent", "constraint_types", "constraint_values",
)
# Columns holding lists (written as JSON text in CSV).
LIST_COLUMNS = ("nuggets", "nugget_weights", "labels", "questions", "answers", "question_types", "turn_status",
                "retrieved_doc_ids", "constraint_types", "constraint_values")
_UNTRACED = {"calls": None, "prompt_tokens": None, "completion_tokens": None, "seconds": None}


def expected_rows(run: Run) -> list[tuple[str, int | None, int]]:
    """(condition, budget, repeat) of every row the run's config asks for, in report order."""
    rows: list[tuple[str, int | None, int]] = []
    if "baseline" in run.conditions:
        rows.append(("baseline", None, 0))
    if "clarify" in run.conditions:
        rows += [("clarify", k, r) for k in run.budgets for r in range(run.repeats)]
    if "oracle" in run.conditions:
        rows.append(("oracle", None, 0))
    return rows


def label_of(condition: str, budget: int | None) -> str:
    return f"clarify@{budget}" if condition == "clarify" else condition


def _dialogue(run: Run, instance: str, k: int, repeat: int, types: dict[str, str]) -> dict[str, Any]:
    """The turns clarify@k rewrote (up to a declined turn), as parallel lists."""
    from cts_dataset.diagnostics import classify

    group = k if run.show_budget else None
    turns = run.dialogue(instance, k, repeat)
    if turns is None:  # a turn is not done (failed or not played yet)
        return {"questions": None, "answers": None, "question_types": None, "turn_status": None,
                "questions_asked": None, "unknown_answers": None, "all_unknown": None}
    answers = []
    for t in turns:
        record = run.records["answer"][record_key({"instance": instance, "condition": "clarify", "budget": group,
                                                   "turn": t.turn, "repeat": repeat})]
        answers.append(str(record.get("answer") or "") if t.asked else "")
    kinds = []
    for t in turns:
        if t.asked and t.question not in types:
            types[t.question] = classify(t.question)
        kinds.append(types[t.question] if t.asked else None)
    asked = [t for t in turns if t.asked]
    return {"questions": [t.question for t in turns], "answers": answers, "question_types": kinds,
            "turn_status": [t.status for t in turns], "questions_asked": len(asked),
            "unknown_answers": sum(t.unknown for t in asked),
            "all_unknown": all(t.unknown for t in asked) if asked else None}


def _failure(run: Run, instance: str, condition: str, budget: int | None, repeat: int) -> str:
    """The first stage error standing for a row (its dialogue turns, rewrite, search or judgement)."""
    keys = []
    if condition == "clarify" and budget is not None:
        group = budget if run.show_budget else None
        for turn in range(1, budget + 1):
            key = record_key({"instance": instance, "condition": "clarify", "budget": group, "turn": turn,
                              "repeat": repeat})
            keys += [("clarify", key), ("answer", key)]
        keys.append(("rewrite", record_key({"instance": instance, "condition": condition, "budget": budget,
                                            "repeat": repeat})))
    key = record_key({"instance": instance, "condition": condition, "budget": budget, "repeat": repeat})
    keys += [("search", key), ("judge", key)]
    for stage, key in keys:
        record = run.records[stage].get(key)
        if record is not None and record.get("error"):
            return f"{stage}: {str(record['error'])[:300]}"
    return ""


def _done(run: Run, stage: str, key: str) -> dict[str, Any]:
    record = run.records[stage].get(key)
    return record if record is not None and not record.get("error") else {}


def run_rows(run: Run, name: str, clarifier: str) -> list[dict[str, Any]]:
    # the diagnostics' cost per point uses the same attribution
    from cts_dataset.diagnostics.cost import CallIndex

    hidden = not run.show_budget
    calls, traced = CallIndex(run.calls), bool(run.calls)  # no trace (models given as objects): cost unknown
    types: dict[str, str] = {}
    rows = []
    for instance in run.instances:
        base = _instance_fields(instance)
        for condition, budget, repeat in expected_rows(run):
            key = record_key({"instance": instance.id, "condition": condition, "budget": budget, "repeat": repeat})
            judged, search, rewrite = (_done(run, s, key) for s in ("judge", "search", "rewrite"))
            error = "" if judged else _failure(run, instance.id, condition, budget, repeat)
            row: dict[str, Any] = {
                "run": name, "clarifier": clarifier, "instance": instance.id, "language": instance.language,
                "condition": condition, "budget": budget, "label": label_of(condition, budget), "repeat": repeat,
                "status": "judged" if judged else "failed" if error else "pending", "error": error,
                "restore_score_100": judged.get("restore_score_100"), "strict_100": judged.get("strict_100"),
                "unweighted_100": judged.get("unweighted_100"), "n_nuggets": judged.get("n_nuggets"),
                "n_unscored": judged.get("n_unscored"), "judge": judged.get("judge"),
                "labels": list(judged["labels"]) if judged.get("labels") is not None else None,
                "rewrite": rewrite.get("query") if condition == "clarify" else None,
                "query": search.get("query"), "answer": search.get("answer"),
                "termination": search.get("termination"),
                "retrieved_doc_ids": list(search["retrieved_doc_ids"]) if "retrieved_doc_ids" in search else None,
                "search_llm_calls": search.get("llm_calls"),
                "search_tokens": _search_tokens(search),
                **(calls.served(instance.id, condition, budget, repeat, hidden) if traced else _UNTRACED),
                **base,
            }
            if condition == "clarify" and budget is not None:
                row.update(_dialogue(run, instance.id, budget, repeat, types))
            else:
                row.update(questions=[], answers=[], question_types=[], turn_status=[], questions_asked=0,
                           unknown_answers=0, all_unknown=None)
            rows.append(row)
    return rows


def _search_tokens(search: dict[str, Any]) -> int | None:
    tokens = search.get("tokens")
    return int(tokens.get("prompt", 0)) + int(tokens.get("completion", 0)) if isinstance(tokens, dict) else None


def _instance_fields(instance: Instance) -> dict[str, Any]:
    return {"blurred_query": instance.blurred_query, "intent": instance.fused_query,
            "nuggets": [n.text for n in instance.nuggets], "nugget_weights": [float(n.weight) for n in instance.nuggets],
            "constraint_types": [c.type.value for c in instance.removed_constraints],
            "constraint_values": [c.value for c in instance.removed_constraints]}


def clarifier_label(folder: Path) -> str:
    """The clarifier a run folder ran, as its summary (or config) names it."""
    summary = folder / "summary.json"
    if summary.is_file():
        found = json.loads(summary.read_text(encoding="utf-8")).get("clarifier")
        if found:
            return str(found)
    stored = json.loads((folder / "config.json").read_text(encoding="utf-8"))
    return str(((stored.get("models") or {}).get("clarifier") or {}).get("spec") or stored.get("config", {}).get("clarifier"))


def to_frame(rows: Sequence[dict[str, Any]]) -> pd.DataFrame:
    import pandas as pd

    frame = pd.DataFrame(list(rows), columns=list(COLUMNS))
    # Nullable integers: budget is missing for baseline and oracle, counts for rows not judged yet.
    for column in ("budget", "n_nuggets", "n_unscored", "questions_asked", "unknown_answers", "search_llm_calls",
                   "search_tokens", "calls", "prompt_tokens", "completion_tokens"):
        frame[column] = frame[column].astype("Int64")
    for column in ("restore_score_100", "strict_100", "unweighted_100", "seconds"):
        frame[column] = frame[column].astype("float64")
    frame["all_unknown"] = frame["all_unknown"].astype("boolean")
    return frame


def load_run(folder: str | Path, instances: Sequence[Instance] | None = None, name: str | None = None) -> pd.DataFrame:
    """The rows of a run folder (see ``COLUMNS``). ``instances`` default to those its config names;
    ``name`` (the ``run`` column) defaults to the folder's name."""
    from cts_dataset.diagnostics.runfolder import read_run

    folder = Path(folder)
    run = read_run(folder, instances)
    frame = to_frame(run_rows(run, name or folder.name, clarifier_label(folder)))
    frame.attrs["folder"] = str(folder)
    return frame


def plain(value: Any) -> Any:
    """A frame cell as plain JSON: numpy scalars and arrays as Python values, NaN and NA as None."""
    import math

    import pandas as pd

    if hasattr(value, "tolist"):  # numpy scalars and arrays (parquet reads lists back as arrays)
        value = value.tolist()
    if value is None or value is pd.NA or (isinstance(value, float) and math.isnan(value)):
        return None
    return value


def condition_means(frame: pd.DataFrame, field: str = "restore_score_100") -> dict[str, float]:
    """Mean per label as the summary computes it: per instance over its repeats
    (:func:`~cts_dataset.scoring.repeats.instance_means`), then over instances."""
    found: dict[str, float] = {}
    for label, rows in frame.dropna(subset=[field]).groupby("label", sort=False):
        mean = mean_score(instance_means(zip(rows["instance"], rows[field], strict=True)).values())
        if mean is not None:
            found[str(label)] = mean
    return found


def label_scores(frame: pd.DataFrame, label: str, field: str = "restore_score_100") -> dict[str, float]:
    """Instance -> its score at a label: the mean over its repeats scored."""
    rows = frame[(frame["label"] == label) & frame[field].notna()]
    return instance_means(zip(rows["instance"], rows[field], strict=True))


def export(frame: pd.DataFrame, path: str | Path, format: str | None = None) -> Path:
    """Write a frame as csv (list columns as JSON text), parquet (lists kept) or jsonl (one row a line)."""
    path = Path(path)
    kind = (format or path.suffix.lstrip(".")).lower()
    path.parent.mkdir(parents=True, exist_ok=True)
    if kind == "csv":
        flat = frame.copy()
        for column in LIST_COLUMNS:
            flat[column] = [json.dumps(v, ensure_ascii=False) if isinstance(v, list) else None for v in flat[column]]
        flat.to_csv(path, index=False)
    elif kind == "parquet":
        frame.to_parquet(path, index=False)
    elif kind == "jsonl":
        frame.to_json(path, orient="records", lines=True, force_ascii=False)
    else:
        raise ValueError(f"unknown export format {kind!r}: csv, parquet or jsonl")
    return path


def json_records(frame: pd.DataFrame) -> list[dict[str, Any]]:
    """JSON-ready rows at full precision (pandas' to_json rounds to 10 digits); NaN and NA as null."""
    return [{k: plain(v) for k, v in row.items()} for row in frame.to_dict(orient="records")]
