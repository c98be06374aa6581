"""The shipped agreement table: each measured judge's agreement with the calibration labels, by identity.

``judges/calibration/agreement.json`` is written by ``benchmarks/judge_agreement.py`` from
``ctsbench judge-check`` reports. A row is found by the judge's identity fingerprint
(:func:`fingerprint`), not its name: a lexical judge with other thresholds, or an LLM judge with another
prompt or other weights, is another judge and reads as not validated.
"""

from __future__ import annotations

import hashlib
import json
from importlib import resources
from typing import Any

from cts_dataset.markdown import fmt

AGREEMENT_TABLE = "judges/calibration/agreement.json"
NOT_VALIDATED = ("Judge not validated: run `ctsbench judge-check --judge SPEC` to measure it against "
                 "labelled pairs.")


def _without_specs(value: Any) -> Any:
    """The identity less the user's spelling of a model (``default`` and its resolved spec are one model)."""
    if isinstance(value, dict):
        return {k: _without_specs(v) for k, v in value.items() if k != "spec"}
    if isinstance(value, list):
        return [_without_specs(v) for v in value]
    return value


def fingerprint(identity: dict[str, Any]) -> str:
    """16 hex digits of the SHA-256 of a judge identity's canonical JSON (model specs left out)."""
    canonical = json.dumps(_without_specs(identity), sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()[:16]


def load_table() -> dict[str, Any]:
    """The shipped table (``{"pairs": ..., "rows": [...]}``), or an empty one when none is shipped."""
    path = resources.files("cts_dataset").joinpath(AGREEMENT_TABLE)
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {"pairs": None, "rows": []}


AGENT_ANSWERS = "agent answers"  # the subset of the ReAct agent's written answers (systems ``react:...``)


def row_for(identity: dict[str, Any], table: dict[str, Any] | None = None,
            subset: str = "all") -> dict[str, Any] | None:
    """The table's row of the judge with this identity, if it was measured: on ``subset`` (``all`` or
    :data:`AGENT_ANSWERS`) when there is such a row, else on all pairs; a row on every pair before one on a
    sample of each system's outputs (``per_system``: a judge too slow for every pair)."""
    wanted = fingerprint(identity)
    rows = [r for r in (table if table is not None else load_table()).get("rows") or []
            if r.get("fingerprint") == wanted]
    for sampled in (False, True):
        for name in (subset, "all"):
            found = next((r for r in rows if r.get("subset", "all") == name and bool(r.get("per_system")) == sampled),
                         None)
            if found is not None:
                return found
    return None


def describe_row(row: dict[str, Any], pairs: dict[str, Any] | None) -> str:
    """One sentence of a row's figures: accuracy, weighted kappa with its CI, ranking tau, bias."""
    low, high = row["weighted_kappa_ci95"]
    subset, sampled = row.get("subset", "all"), row.get("per_system")
    what = ("held-out calibration pairs" + ("" if subset == "all" else f" of {subset}")
            + (f" ({sampled} outputs per system)" if sampled else ""))
    where = f"{row['n_pairs']} {what} (sha256 {pairs['sha256']})" if pairs else f"{row['n_pairs']} calibration pairs"
    return (f"accuracy {fmt(100 * row['accuracy'], 1)}%, linear-weighted kappa {fmt(row['weighted_kappa'], 2)} "
            f"[{fmt(low, 2)}, {fmt(high, 2)}], Kendall tau {fmt(row['kendall_tau'], 2)} over "
            f"{row['n_systems']} systems, bias {fmt(row['bias_100'], 1)} restore points, on {where}")


def judge_validation(identity: dict[str, Any] | None, subset: str = "all") -> str:
    """What the judge's measured agreement with the calibration labels is (on ``subset``: what the run's
    searcher writes, when the table has that row), or that it has none."""
    table = load_table()
    row = row_for(identity, table, subset) if isinstance(identity, dict) else None
    if row is None:
        return NOT_VALIDATED
    return f"Judge validated ({row['row']}): {describe_row(row, table.get('pairs'))}. Use: {row['use']}."
