"""The evidence check: every nugget of an instance is stated, word for word, by a sentence of each document
it cites, and the blurred query has at least two recorded readings (an ``evidence`` record per instance)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from cts_dataset.quality.checks import Findings
from cts_dataset.records import Document, Instance, InstanceEvidence


def _flat(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def check_evidence(instances: Sequence[Instance], evidence: Sequence[InstanceEvidence],
                   index: dict[str, Document]) -> Findings:
    """Errors: an instance without a record, a nugget and source without a sentence, a sentence that is not
    in its document's text, readings that are not two distinct ones. Warning: a record of no instance."""
    found = Findings()
    by_id = {record.id: record for record in evidence}
    for instance in instances:
        record = by_id.get(instance.id)
        if record is None:
            found.errors.append(f"{instance.id}: evidence: no record")
            continue
        if len({_flat(r).lower() for r in record.readings}) < 2:
            found.errors.append(f"{instance.id}: evidence.readings: fewer than two distinct readings")
        for n, nugget in enumerate(instance.nuggets):
            for source in nugget.sources:
                sentences = [s.sentence for s in record.support if s.nugget == n and s.source == source]
                document = index.get(source)
                if not sentences:
                    found.errors.append(f"{instance.id}: evidence.support: no sentence for nuggets[{n}] from {source}")
                elif document is not None and not any(_flat(s) in _flat(document.text) for s in sentences):
                    found.errors.append(f"{instance.id}: evidence.support: the sentence for nuggets[{n}] is not in "
                                        f"{source}'s text: {sentences[0][:80]!r}")
        for entry in record.support:
            if entry.nugget >= len(instance.nuggets):
                found.errors.append(f"{instance.id}: evidence.support: nugget {entry.nugget} does not exist")
    known = {i.id for i in instances}
    found.warnings += [f"{r.id}: evidence: a record of no instance in the file" for r in evidence if r.id not in known]
    return found
