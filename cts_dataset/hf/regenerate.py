"""Regenerate the derived files kept in the repository: `python -m cts_dataset.hf.regenerate`.

The schema files and the repository's dataset folder card are derived from the records, the
features and ``cards/``; tests fail when these files drift from their sources.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from cts_dataset.data import DATASET_NAME
from cts_dataset.hf.folders import instances_card
from cts_dataset.schemas import write_schemas


def repository_card_path() -> Path:
    return Path(str(resources.files("cts_dataset.loaders").joinpath(DATASET_NAME, "README.md")))


def main() -> None:
    for path in write_schemas():
        print(path)
    path = repository_card_path()
    path.write_text(instances_card(), encoding="utf-8")
    print(path)


if __name__ == "__main__":
    main()
