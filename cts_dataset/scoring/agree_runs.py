"""Agreement of two judges over scored folders (``ctsbench score`` outputs) of the same systems."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from cts_dataset.log import open_log
from cts_dataset.scoring.agreement import label_agreement, rank_agreement
from cts_dataset.scoring.restore import mean_score
from cts_dataset.scoring.score_run import ITEMS_FILE, read_items


def aligned_labels(items_a: dict[str, dict], items_b: dict[str, dict]) -> tuple[list, list, list[str]]:
    """Labels of the nuggets both folders judged on the same inputs, and the ids that did not align."""
    labels_a: list = []
    labels_b: list = []
    skipped = []
    for item_id in sorted(set(items_a) | set(items_b)):
        a, b = items_a.get(item_id), items_b.get(item_id)
        if a is None or b is None or a.get("input_key") != b.get("input_key") or len(a["labels"]) != len(b["labels"]):
            skipped.append(item_id)
            continue
        labels_a += a["labels"]
        labels_b += b["labels"]
    return labels_a, labels_b, skipped


def _items(folder: Path) -> dict[str, dict]:
    path = folder / ITEMS_FILE
    if not path.is_file():
        return {}
    try:
        return read_items(path)
    finally:
        open_log(path).close()  # read only: leave the folder free for a writer


def _judge_names(items: dict[str, dict]) -> str:
    """The judge name(s) of a folder's items (``llm:<model>@<prompt id>`` tells prompts apart)."""
    return ", ".join(sorted({str(r.get("judge")) for r in items.values()}))


def agree(pairs: Sequence[tuple[Path, Path]], names: Sequence[str] | None = None) -> dict[str, Any]:
    """Per system (one pair of folders: judge A's and judge B's) and pooled: label agreement and kappa;
    over systems: rank correlation of the mean restore_score_100 under each judge."""
    names = list(names) if names else [Path(a).name for a, _ in pairs]
    if len(names) != len(pairs) or len(set(names)) != len(names):
        raise ValueError(f"need one distinct name per pair of folders, got {names}")
    systems, pooled_a, pooled_b, means_a, means_b = [], [], [], {}, {}
    for name, (dir_a, dir_b) in zip(names, pairs, strict=True):
        items_a, items_b = _items(Path(dir_a)), _items(Path(dir_b))
        if not items_a or not items_b:
            raise ValueError(f"{name}: no judged items in {dir_a if not items_a else dir_b}")
        labels_a, labels_b, skipped = aligned_labels(items_a, items_b)
        pooled_a += labels_a
        pooled_b += labels_b
        shared = [i for i in items_a if i in items_b and i not in skipped]
        means_a[name] = mean_score(items_a[i]["restore_score_100"] for i in shared)
        means_b[name] = mean_score(items_b[i]["restore_score_100"] for i in shared)
        systems.append({"system": name, "judge_a": str(dir_a), "judge_b": str(dir_b),
                        "judge_names": [_judge_names(items_a), _judge_names(items_b)], "items": len(shared),
                        "items_not_aligned": skipped, "mean_a": means_a[name], "mean_b": means_b[name],
                        **label_agreement(labels_a, labels_b).as_dict()})
    return {"systems": systems, "pooled": label_agreement(pooled_a, pooled_b).as_dict(),
            "rank": rank_agreement(means_a, means_b).as_dict()}
