"""The card of an imported hard518 folder: YAML metadata from the features, body from ``cards/hard518_card.md``."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from cts_dataset.records import Instance
from cts_dataset.templates import fill

HARD518_META = {
    "pretty_name": "Hard518 (Clarify-Then-Search), imported from the official release",
    "license": "cc-by-4.0",
    "language": ["zh"],
    "task_categories": ["question-answering", "text-retrieval"],
    "tags": ["clarification", "deep-search", "nuggets"],
    "size_categories": ["n<1K"],
}


def statistics(instances: Sequence[Instance], candidates: Sequence[str],
               weights: Mapping[str, Any] | None = None) -> dict[str, str]:
    nuggets = [len(i.nuggets) for i in instances]
    languages = Counter(i.language for i in instances)
    annotated = sum(1 for i in instances if i.removed_constraints)
    types = Counter(c.type.value for i in instances for c in i.removed_constraints)
    lines = [f"- {len(instances)} instances (" + ", ".join(f"{k}: {v}" for k, v in sorted(languages.items())) + ").",
             f"- {min(nuggets)}-{max(nuggets)} nuggets per instance (mean {sum(nuggets) / len(nuggets):.2f}).",
             f"- {annotated} instances carry removed-constraint annotations"
             + (": " + ", ".join(f"{t} {n}" for t, n in types.most_common()) if types else "") + ".",
             "- candidate files imported: " + (", ".join(candidates) if candidates else "none") + "."]
    labels = (weights or {}).get("labels_found") or {}
    if labels:  # the numbers behind every restore_score: the user's, never guessed
        lines.append("- nugget weights given as labels, numbered at import (--weight-map, in manifest.json): "
                     + ", ".join(f"{label} = {weights['weight_map'][label]:g}" for label in labels) + ".")
    return {"statistics": "\n".join(lines)}


def hard518_card(instances: Sequence[Instance], candidates: Sequence[str],
                 weights: Mapping[str, Any] | None = None) -> str:
    from cts_dataset.hf.features import instance_features
    from cts_dataset.hf.folders import card_source, front_matter

    body = fill(card_source("hard518_card.md"), statistics(instances, candidates, weights), "cards/hard518_card.md")
    return front_matter(HARD518_META, instance_features(), {"hard518": "data/hard518.jsonl"}) + "\n" + body
