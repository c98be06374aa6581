"""Measure judges on the shipped calibration set and write the agreement table the summaries and cards read.

  python benchmarks/judge_agreement.py --judge lexical --judge embedding --judge constant:full ...
  python benchmarks/judge_agreement.py --judge default --systems react: --row "packaged model (LLM judge)"
  python benchmarks/judge_agreement.py --second-pass
  python benchmarks/judge_agreement.py --judge default --per-system 3 --row "packaged model (LLM judge)"

Each judge runs through ``judges.check.check_judge`` on the held-out pairs (``--systems PREFIX`` keeps the
lines of the systems whose name starts so, e.g. the agent's answers; ``--per-system N`` keeps N outputs of
every system, chosen by the SHA-256 of their query and output, for a judge too slow for every pair); its row
replaces the row of the same name and subset in ``cts_dataset/judges/calibration/agreement.json``. ``--second-pass`` measures the blind
second annotation (``second_pass.jsonl.gz``) as if it were a judge, against the first, over every pair it
labelled (dev and held-out: it was tuned on nothing). The table is printed as markdown at the end.
"""

from __future__ import annotations

import argparse
import hashlib
import json
from collections.abc import Sequence
from typing import Any

from cts_dataset.jsonl import write_json
from cts_dataset.judges.agreement import AGENT_ANSWERS, fingerprint
from cts_dataset.judges.base import JudgeItem, Judgement
from cts_dataset.judges.check import CheckReport, check_judge
from cts_dataset.judges.pairs import SHIPPED_PAIRS, LabelledPair, PairsFile, read_pairs
from cts_dataset.markdown import fmt, table

TABLE = SHIPPED_PAIRS.parent / "agreement.json"
SECOND_PASS = SHIPPED_PAIRS.parent / "second_pass.jsonl.gz"
# What a row is good for, by its held-out figures (the card states the rule).
RANKING_TAU = 0.8
RANKING_SYSTEMS = 8  # a tau over fewer systems (the agent-answer subset has 3) ranks nothing
ABSOLUTE_KAPPA, ABSOLUTE_BIAS = 0.6, 3.0


def use_of(report: CheckReport) -> str:
    tau, kappa, bias = report.runs.kendall_tau, report.labels.weighted_kappa, report.bias.bias_100
    ranking = tau is not None and tau >= RANKING_TAU and report.runs.n_systems >= RANKING_SYSTEMS
    absolute = kappa is not None and kappa >= ABSOLUTE_KAPPA and bias is not None and abs(bias) <= ABSOLUTE_BIAS
    if ranking and absolute:
        return "ranking systems and absolute numbers"
    if ranking:
        return "ranking systems, not absolute numbers"
    if absolute:
        return "absolute numbers, not ranking systems"
    return "neither ranking systems nor absolute numbers"


def _key(row: dict[str, Any]) -> tuple[str, str, int | None]:
    return row["row"], row["subset"], row.get("per_system")


def row_of(name: str, subset: str, report: CheckReport, identity: dict[str, Any] | None,
           per_system: int | None = None) -> dict[str, Any]:
    labels = report.labels
    return {
        "row": name, "judge": report.judge, "subset": subset, "per_system": per_system,
        "fingerprint": fingerprint(identity) if identity is not None else None, "identity": identity,
        "judge_prompt": report.judge_prompt, "judge_prompt_hash": report.judge_prompt_hash,
        "split": report.split, "n_pairs": report.n_pairs, "n_lines": report.n_lines,
        "label_counts": report.label_counts, "accuracy": labels.accuracy, "weighted_kappa": labels.weighted_kappa,
        "weighted_kappa_ci95": list(labels.weighted_kappa_ci95), "unweighted_kappa": labels.unweighted_kappa,
        "precision": labels.precision, "recall": labels.recall, "confusion": labels.confusion,
        "n_unscored": labels.n_unscored, "kendall_tau": report.runs.kendall_tau, "spearman": report.runs.spearman,
        "n_systems": report.runs.n_systems if report.runs.reason is None else 0, "bias_100": report.bias.bias_100,
        "seconds_per_label": report.cost.seconds_per_label, "calls": report.cost.n_calls,
        "use": use_of(report),
    }


class SecondAnnotator:
    """The second pass's labels played as a judge: a pair it did not label is unscored."""

    name = "second-annotator"

    def __init__(self, pairs: PairsFile) -> None:
        self.labels = {(p.query, p.output, p.nugget): p.label for p in pairs.pairs}

    def identity(self) -> dict[str, Any]:
        return {"name": self.name, "kind": "annotation"}

    def judge(self, items: Sequence[JudgeItem]) -> list[Judgement]:
        return [Judgement(labels=[self.labels.get((item.query, item.answer, n)) for n in item.nuggets])
                for item in items]


def _subset(pairs: PairsFile, systems: str | None, keep: Any = None) -> PairsFile:
    chosen = tuple(p for p in pairs.pairs if (systems is None or (p.system or "").startswith(systems))
                   and (keep is None or keep(p)))
    return PairsFile(pairs.path, pairs.sha256, chosen)


def per_system(pairs: PairsFile, n: int, split: str) -> set[tuple[str | None, str, str]]:
    """``n`` outputs of every system in ``split`` (all pairs of each), chosen by a hash, not by a label."""
    outputs: dict[str | None, set[tuple[str, str]]] = {}
    for p in pairs.pairs:
        if split == "all" or p.split == split:
            outputs.setdefault(p.system, set()).add((p.query or "", p.output))

    def digest(key: tuple[str, str]) -> str:
        return hashlib.sha256("\x1f".join(key).encode()).hexdigest()

    return {(system, *key) for system, keys in outputs.items() for key in sorted(keys, key=digest)[:n]}


def _sampled(row: dict[str, Any]) -> str:
    return f", {row['per_system']} outputs per system" if row.get("per_system") else ""


def render(rows: list[dict[str, Any]]) -> str:
    def kappa(row: dict[str, Any]) -> str:
        low, high = row["weighted_kappa_ci95"]
        return f"{fmt(row['weighted_kappa'], 2)} [{fmt(low, 2)}, {fmt(high, 2)}]"

    return "\n".join(table(
        ["judge", "pairs", "accuracy", "weighted kappa [95% CI]", "recall full / partial / none",
         "Kendall tau (systems)", "bias", "s / label", "use"],
        [[row["row"], f"{row['subset']}{_sampled(row)}: {row['n_pairs']}", f"{fmt(100 * row['accuracy'], 1)}%", kappa(row),
          " / ".join(fmt(row["recall"][k], 2) for k in ("full", "partial", "none")),
          f"{fmt(row['kendall_tau'], 2)} ({row['n_systems']})", fmt(row["bias_100"], 1),
          fmt(row["seconds_per_label"], 3), row["use"]] for row in rows]))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--judge", action="append", default=[], help="a judge spec (repeatable)")
    parser.add_argument("--row", default=None, help="the row's name (default: the spec); one --judge only")
    parser.add_argument("--systems", default=None, help="only the lines of systems whose name starts so")
    parser.add_argument("--second-pass", action="store_true", help="measure the blind second annotation")
    parser.add_argument("--per-system", type=int, default=None, metavar="N",
                        help="only N outputs of each system (all their pairs), chosen by a hash")
    parser.add_argument("--split", default="heldout")
    args = parser.parse_args(argv)
    from cts_dataset.judges.factory import make_judge
    from cts_dataset.scoring.judging import judge_identity

    pairs = read_pairs(SHIPPED_PAIRS)
    subset = AGENT_ANSWERS if args.systems == "react:" else (args.systems or "all")
    keep = None
    if args.per_system is not None:
        if args.per_system < 1:
            parser.error("--per-system takes a number of outputs, 1 or more")
        chosen = per_system(_subset(pairs, args.systems), args.per_system, args.split)

        def keep(p: LabelledPair) -> bool:
            return (p.system, p.query or "", p.output) in chosen
    found = json.loads(TABLE.read_text(encoding="utf-8")) if TABLE.is_file() else {"rows": []}
    new = []
    for spec in args.judge:
        judge = make_judge(spec)
        report = check_judge(judge, _subset(pairs, args.systems, keep), split=args.split, progress=True)
        new.append(row_of(args.row or spec, subset, report, judge_identity(judge), args.per_system))
    if args.second_pass:
        second = read_pairs(SECOND_PASS)
        annotator = SecondAnnotator(second)
        labelled = _subset(pairs, args.systems, lambda p: (p.query, p.output, p.nugget) in annotator.labels)
        report = check_judge(annotator, labelled, split="all")  # type: ignore[arg-type]
        new.append(row_of("second annotator (blind)", subset, report, None))
    keys = {_key(row) for row in new}
    rows = [row for row in found["rows"] if _key(row) not in keys] + new
    found = {"pairs": {"file": SHIPPED_PAIRS.name, "sha256": pairs.sha256[:12], "split": args.split,
                       "n_lines": len(pairs.pairs)},
             "rule": {"ranking": f"Kendall tau >= {RANKING_TAU} over >= {RANKING_SYSTEMS} systems",
                      "absolute": f"weighted kappa >= {ABSOLUTE_KAPPA} and |bias| <= {ABSOLUTE_BIAS} points"},
             "rows": rows}
    write_json(TABLE, found)
    print(render(rows))


if __name__ == "__main__":
    main()
