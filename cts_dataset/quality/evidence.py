"""The evidence check: every nugget of an instance is stated, word for word, by a sentence of each document
it cites, and the blurred query has at least two recorded readings (an ``evidence`` record per instance)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from cts_dataset.quality.checks import Findings
from cts_dataset.records import Document, Instance, InstanceEvidence

MIN_SENTENCE_WORDS = 4  # a shorter "sentence" ("the", "1976") is found in almost any document


def _flat(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def evidence_problems(instances: Sequence[Instance], evidence: Sequence[InstanceEvidence],
                      index: dict[str, Document]) -> dict[str, list[str]]:
    """Each instance's problems (an instance with none maps to ``[]``): no record, readings that are not two
    distinct ones, a nugget and cited source without a sentence, a sentence too short or not in its
    document's text (the short description does not count), a sentence for a source the nugget does not
    cite or for a nugget that does not exist."""
    by_id = {record.id: record for record in evidence}
    found: dict[str, list[str]] = {}
    for instance in instances:
        problems = found.setdefault(instance.id, [])
        record = by_id.get(instance.id)
        if record is None:
            problems.append("evidence: no record")
            continue
        if len({_flat(r).lower() for r in record.readings if _flat(r)}) < 2:
            problems.append("evidence.readings: fewer than two distinct readings")
        for n, nugget in enumerate(instance.nuggets):
            for source in nugget.sources:
                if not any(s.nugget == n and s.source == source for s in record.support):
                    problems.append(f"evidence.support: no sentence for nuggets[{n}] from {source}")
        for entry in record.support:
            where = f"evidence.support: the sentence for nuggets[{entry.nugget}] from {entry.source}"
            if entry.nugget >= len(instance.nuggets):
                problems.append(f"evidence.support: nugget {entry.nugget} does not exist")
            elif entry.source not in instance.nuggets[entry.nugget].sources:
                problems.append(f"{where}: nuggets[{entry.nugget}] does not cite {entry.source}")
            elif len(_flat(entry.sentence).split()) < MIN_SENTENCE_WORDS:
                problems.append(f"{where} has fewer than {MIN_SENTENCE_WORDS} words: {entry.sentence!r}")
            elif (document := index.get(entry.source)) is not None and _flat(entry.sentence) not in _flat(document.text):
                problems.append(f"{where} is not in its text: {entry.sentence[:80]!r}")
    return found


def check_evidence(instances: Sequence[Instance], evidence: Sequence[InstanceEvidence],
                   index: dict[str, Document]) -> Findings:
    """:func:`evidence_problems` as errors (``ID: problem``); a record of no instance is a warning."""
    return evidence_findings(evidence_problems(instances, evidence, index), instances, evidence)


def evidence_findings(problems: dict[str, list[str]], instances: Sequence[Instance],
                      evidence: Sequence[InstanceEvidence]) -> Findings:
    """Findings of problems that :func:`evidence_problems` found."""
    findings = Findings()
    for instance_id, found in problems.items():
        findings.errors += [f"{instance_id}: {problem}" for problem in found]
    known = {i.id for i in instances}
    findings.warnings += [f"{r.id}: evidence: a record of no instance in the file" for r in evidence if r.id not in known]
    return findings
