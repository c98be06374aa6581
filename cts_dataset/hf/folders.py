"""The no-code Hugging Face dataset folders: a README card with YAML metadata, plus data files.

The YAML (`configs`, `dataset_info.features`) is generated from :mod:`cts_dataset.hf.features`, and
the card body comes from ``cards/``, so the folder never drifts from the code.
"""

from __future__ import annotations

import json
import shutil
from importlib import resources
from pathlib import Path

import yaml

from cts_dataset import corpus as corpus_module
from cts_dataset.data import CORPUS_NAME, DATASET_NAME, SPLITS, evidence_path, load, split_path
from cts_dataset.jsonl import write_jsonl
from cts_dataset.templates import fill


def card_source(name: str) -> str:
    """A card body from ``cards/`` (installed as ``cts_dataset.cards``)."""
    return resources.files("cts_dataset.cards").joinpath(name).read_text(encoding="utf-8")


def front_matter(meta: dict, features, splits: dict[str, str]) -> str:
    from datasets import DatasetInfo

    configs = [{"config_name": "default", "data_files": [{"split": s, "path": p} for s, p in splits.items()]}]
    header = {**meta, "configs": configs, "dataset_info": DatasetInfo(features=features)._to_yaml_dict()}
    return "---\n" + yaml.safe_dump(header, sort_keys=False, allow_unicode=True) + "---\n"


INSTANCES_META = {
    "pretty_name": "ctsbench (Clarify-Then-Search): an English track over Wikipedia",
    "license": "cc-by-sa-4.0",
    "language": ["en"],
    "task_categories": ["question-answering", "text-retrieval"],
    "tags": ["clarification", "deep-search", "conversational-search", "nuggets"],
    "size_categories": ["n<1K"],
}
CORPUS_META = {
    "pretty_name": "ctsbench corpus: Wikipedia lead summaries of the Level-4 Vital Articles",
    "license": "cc-by-sa-4.0",
    "language": ["en"],
    "task_categories": ["text-retrieval"],
    "size_categories": ["10K<n<100K"],
}


TRACK_SPLIT = "test"  # the split whose reference leaderboard the card carries
TRACK_LEADERBOARD = "track_leaderboard.md"  # in cards/, written by `regenerate --track-report`

CARD_EXAMPLE = "cts-0346"  # a blurred query with two clear readings (the first laureate ever, or Belarus's)


def instances_card() -> str:
    from cts_dataset.corpus import corpus_index
    from cts_dataset.hf.features import instance_features
    from cts_dataset.jsonl import read_records
    from cts_dataset.quality.precision import precision_table
    from cts_dataset.quality.report import build_report, card_statistics

    index = corpus_index()
    test, demo = load("test"), load("demo")
    evidence = read_records(evidence_path("test"), "evidence")
    test_report = build_report(test, index, evidence=evidence)
    shown = next(i for i in test if i.id == CARD_EXAMPLE)
    example = json.dumps(shown.model_dump(mode="json"), indent=2, ensure_ascii=False)
    body = fill(card_source("dataset_card.md"), {
        "num_test": str(len(test)), "num_smoke": str(len(load("smoke"))), "num_demo": str(len(demo)),
        "example": example,
        "statistics": card_statistics(test_report),
        "demo_statistics": card_statistics(build_report(demo, index), with_types=False),
        "interval": precision_table({"test": test, "demo": demo}),
        "no_headroom": str(sum(1 for h in test_report.headroom if not h.has_room)),
        "reference_leaderboard": card_source(TRACK_LEADERBOARD).strip(),
    })
    splits = {s: f"data/{s}.jsonl" for s in SPLITS}
    return front_matter(INSTANCES_META, instance_features(), splits) + "\n" + body


def corpus_card() -> str:
    from cts_dataset.hf.features import document_features

    values = {
        "num_documents": str(corpus_module.DOCUMENT_COUNT),
        "source_distribution": corpus_module.SOURCE_DISTRIBUTION,
        "source_file": corpus_module.SOURCE_FILE,
        "source_sha256": corpus_module.SOURCE_SHA256,
    }
    body = fill(card_source("corpus_card.md"), values)
    return front_matter(CORPUS_META, document_features(), {"corpus": "data/corpus.jsonl"}) + "\n" + body


def write_instances_folder(dest: Path) -> Path:
    """``dest`` becomes the instances dataset folder (README card, data/<split>.jsonl and the evidence files)."""
    dest.mkdir(parents=True, exist_ok=True)
    (dest / "README.md").write_text(instances_card(), encoding="utf-8")
    (dest / "data").mkdir(exist_ok=True)
    evidence = [evidence_path(s) for s in SPLITS if evidence_path(s).is_file()]
    for source in [split_path(s) for s in SPLITS] + evidence:
        target = dest / "data" / source.name
        if not (target.exists() and target.samefile(source)):
            shutil.copyfile(source, target)
    return dest


def write_corpus_folder(dest: Path) -> Path:
    """``dest`` becomes the corpus dataset folder (README card + data/corpus.jsonl)."""
    dest.mkdir(parents=True, exist_ok=True)
    (dest / "README.md").write_text(corpus_card(), encoding="utf-8")
    write_jsonl(dest / "data" / "corpus.jsonl", corpus_module.load_corpus())
    return dest


def export(directory: Path) -> dict[str, Path]:
    """Write both folders, named as their datasets, ready for `hf upload`."""
    directory = Path(directory)
    return {
        DATASET_NAME: write_instances_folder(directory / DATASET_NAME),
        CORPUS_NAME: write_corpus_folder(directory / CORPUS_NAME),
    }
