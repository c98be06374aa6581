"""The data report: every check over an instance file, as findings plus a short markdown summary."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from cts_dataset.quality.checks import (
    GROUNDING_MIN,
    Findings,
    check_blurring,
    check_duplicates,
    check_sources,
    nugget_grounding,
)
from cts_dataset.quality.evidence import evidence_findings, evidence_problems
from cts_dataset.quality.headroom import Headroom, gold_documents, headroom, mean
from cts_dataset.records import Document, Instance, InstanceEvidence


@dataclass
class DataReport:
    instances: Sequence[Instance]
    findings: Findings
    grounding: list[tuple[float, str, int, list[str]]]
    headroom: list[Headroom]
    k: int
    targets: dict[str, float] = field(default_factory=dict)
    evidence: Sequence[InstanceEvidence] | None = None
    evidence_file: str | None = None  # where the evidence records came from, for the report
    evidence_faulty: frozenset[str] = frozenset()  # ids of instances with an evidence problem

    @property
    def fused_recall(self) -> float:
        return mean([h.fused_recall for h in self.headroom])

    @property
    def blurred_recall(self) -> float:
        return mean([h.blurred_recall for h in self.headroom])

    @property
    def ok(self) -> bool:
        return not self.findings.errors


def build_report(instances: Sequence[Instance], index: dict[str, Document], k: int = 10,
                 min_fused: float = 0.8, min_gap: float = 0.3,
                 evidence: Sequence[InstanceEvidence] | None = None, evidence_file: str | None = None) -> DataReport:
    findings = Findings()
    parts = [check_sources(instances, index), check_blurring(instances), check_duplicates(instances)]
    problems: dict[str, list[str]] = {}
    if evidence is not None:
        problems = evidence_problems(instances, evidence, index)
        parts.append(evidence_findings(problems, instances, evidence))
    for part in parts:
        findings.errors += part.errors
        findings.warnings += part.warnings
    grounding_rows = nugget_grounding(instances, index)
    for score, instance_id, n, missing in grounding_rows:
        if score < GROUNDING_MIN:
            findings.errors.append(
                f"{instance_id}: nuggets[{n}].text: only {score:.0%} of its content words occur in its sources "
                f"(missing: {', '.join(missing)})")
    rows = headroom(instances, k) if instances else []
    report = DataReport(instances, findings, grounding_rows, rows, k, {"min_fused": min_fused, "min_gap": min_gap},
                        evidence, evidence_file, frozenset(i for i, found in problems.items() if found))
    if rows and report.fused_recall < min_fused:
        findings.errors.append(f"headroom: fused recall@{k} {report.fused_recall:.3f} is below {min_fused}")
    if rows and report.fused_recall - report.blurred_recall < min_gap:
        findings.errors.append(
            f"headroom: fused - blurred recall@{k} = {report.fused_recall - report.blurred_recall:.3f} is below {min_gap}")
    return report


def _table(header: Sequence[str], rows: Sequence[Sequence[object]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    return lines + ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]


def render_markdown(report: DataReport, title: str = "Data report", weakest: int = 10) -> str:
    instances = report.instances
    types = Counter(c.type.value for i in instances for c in i.removed_constraints)
    per_instance = Counter(len(i.removed_constraints) for i in instances)
    nuggets = [len(i.nuggets) for i in instances]
    weights = Counter(n.weight for i in instances for n in i.nuggets)
    multi = sum(1 for i in instances if len(gold_documents(i)) >= 2)
    total = sum(types.values()) or 1
    out = [f"# {title}", "", f"- instances: {len(instances)}"]
    out.append(f"- instances citing two or more documents: {multi} ({multi / max(len(instances), 1):.0%})")
    if nuggets:
        out.append(f"- nuggets per instance: min {min(nuggets)}, mean {mean(nuggets):.2f}, max {max(nuggets)}")
    out.append("- nugget weights: " + ", ".join(f"{w:g} x{c}" for w, c in sorted(weights.items())))
    out.append("- removed constraints per instance: " + ", ".join(f"{k}: {v}" for k, v in sorted(per_instance.items())))
    if report.evidence is not None:
        out += _evidence_lines(report)
    out += ["", "## Removed constraint types", ""]
    out += _table(["type", "count", "share"], [(t, c, f"{c / total:.0%}") for t, c in types.most_common()])
    out += ["", f"## Retrieval headroom (BM25 recall@{report.k} of the cited documents)", ""]
    gap = report.fused_recall - report.blurred_recall
    out += _table(["query", f"recall@{report.k}"], [("fused", f"{report.fused_recall:.3f}"),
                                                  ("blurred", f"{report.blurred_recall:.3f}"), ("gap", f"{gap:.3f}")])
    out.append("")
    out.append(f"Targets: fused >= {report.targets['min_fused']}, gap >= {report.targets['min_gap']}.")
    no_gap = [h.instance_id for h in report.headroom if not h.has_room]
    out.append(f"Instances with no headroom (blurred finds as much as fused): {len(no_gap)}")
    out += ["", "## Weakest grounded nuggets (share of content words found in the cited documents)", ""]
    out += _table(["instance", "nugget", "grounding", "words not found"],
                  [(i, n, f"{s:.2f}", ", ".join(m) or "-") for s, i, n, m in report.grounding[:weakest]])
    out += ["", "## Problems", ""]
    out += [f"- error: {e}" for e in report.findings.errors] or ["- none"]
    out += [f"- warning: {w}" for w in report.findings.warnings]
    return "\n".join(out) + "\n"


def _evidence_lines(report: DataReport) -> list[str]:
    """What the evidence records show: how many instances are fully supported, how many name no place."""
    recorded = {r.id: r for r in (report.evidence or ())}
    supported = sum(1 for i in report.instances if i.id not in report.evidence_faulty)
    no_place = sum(1 for i in report.instances if i.id in recorded and not recorded[i.id].intent_states_place)
    n = max(len(report.instances), 1)
    source = f" ({report.evidence_file})" if report.evidence_file else ""
    return [(f"- evidence{source}: {supported} of {len(report.instances)} instances have two readings and, for "
             "every nugget and cited document, a sentence found word for word in that document"),
            f"- intents naming no place (a question about region has no answer): {no_place} ({no_place / n:.0%})"]


def card_statistics(report: DataReport, with_types: bool = True) -> str:
    """The figures the dataset card states, computed from the data so the card cannot drift
    (``with_types``: with the table of removed-constraint types)."""
    instances = report.instances
    types = Counter(c.type.value for i in instances for c in i.removed_constraints)
    total = sum(types.values()) or 1
    multi = sum(1 for i in instances if len(gold_documents(i)) >= 2)
    nuggets = [len(i.nuggets) for i in instances]
    no_region = sum(1 for i in instances if not any(c.type.value == "region" for c in i.removed_constraints))
    lines = [f"- {len(instances)} instances; {multi} ({multi / len(instances):.0%}) cite two or more documents.",
             f"- {min(nuggets)}-{max(nuggets)} nuggets per instance (mean {mean(nuggets):.2f}); weights "
             + ", ".join(f"{w:g} x{c}" for w, c in sorted(Counter(n.weight for i in instances for n in i.nuggets).items()))
             + ".",
             f"- {no_region} instances have no region among their removed constraints.",
             (f"- BM25 recall@{report.k} of the cited documents: fused queries {report.fused_recall:.3f}, "
              f"blurred queries {report.blurred_recall:.3f} (gap {report.fused_recall - report.blurred_recall:.3f}); "
              f"{sum(1 for h in report.headroom if h.has_room)} instances with headroom (the fused query finds more "
              "cited documents than the blurred one)."),
             *(_evidence_lines(report) if report.evidence is not None else [])]
    if with_types:
        lines += ["", "| removed constraint type | count | share |", "|---|---|---|"]
        lines += [f"| {t} | {c} | {c / total:.0%} |" for t, c in types.most_common()]
    return "\n".join(lines)
