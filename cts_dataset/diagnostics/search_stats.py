"""How the searcher worked per condition: tool calls and model calls per trajectory, why trajectories
ended, and the recall of the gold documents (the nuggets' sources) among those retrieved and visited."""

from __future__ import annotations

from collections import Counter
from typing import Any

from cts_dataset.diagnostics.runfolder import Run, mean, rate

TOOLS = ("search", "visit", "malformed", "summaries")


def _label(record: dict[str, Any]) -> str:
    budget = record.get("budget")
    return f"clarify@{budget}" if record.get("condition") == "clarify" else str(record.get("condition"))


def _recall(found: list[str], gold: set[str]) -> float | None:
    return len(gold & set(found)) / len(gold) if gold else None


def search_stats(run: Run) -> dict[str, Any]:
    gold = {i.id: {s for n in i.nuggets for s in n.sources} for i in run.instances}
    known = set(gold)
    groups: dict[str, list[dict[str, Any]]] = {}
    errors: Counter[str] = Counter()
    for record in run.records["search"].values():
        if record.get("instance") not in known:
            continue  # an instance beyond the limit this folder was last run with
        if record.get("error"):
            errors[_label(record)] += 1
        else:
            groups.setdefault(_label(record), []).append(record)
    order = ["baseline", *(f"clarify@{k}" for k in run.budgets), "oracle"]
    labels = [x for x in order if x in groups or x in errors] + sorted((set(groups) | set(errors)) - set(order))
    found = {}
    for label in labels:
        rows = groups.get(label, [])
        retrieved = [r for row in rows if (r := _recall(row.get("retrieved_doc_ids") or [], gold[row["instance"]])) is not None]
        visited = [r for row in rows if (r := _recall(row.get("visited_doc_ids") or [], gold[row["instance"]])) is not None]
        found[label] = {
            "trajectories": len(rows),
            "errors": errors[label],
            "tool_calls_per_trajectory": {t: mean([float((row.get("tool_calls") or {}).get(t) or 0) for row in rows])
                                          for t in TOOLS},
            "llm_calls_per_trajectory": mean([float(row.get("llm_calls") or 0) for row in rows]),
            "tokens_per_trajectory": {t: mean([float((row.get("tokens") or {}).get(t) or 0) for row in rows])
                                      for t in ("prompt", "completion")},
            "termination": dict(sorted(Counter(str(row.get("termination")) for row in rows).items())),
            "gold_recall_retrieved": mean(retrieved),
            "gold_recall_visited": mean(visited),
            "all_gold_retrieved_rate": rate(sum(r == 1.0 for r in retrieved), len(retrieved)),
        }
    return found
