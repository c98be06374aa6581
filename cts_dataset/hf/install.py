"""Make the bare names ``load_dataset("ctsbench")`` and ``load_dataset("ctsbench-corpus")`` work offline.

`datasets` answers a bare name offline from its prepared-data cache
(``$HF_HOME/datasets/<name>/default/0.0.0/<hash>/``), which one load of a folder *named* like the
dataset fills. So we export both folders to a scratch directory, load each once, and drop the cache
entries of older data versions so the newest is the only one.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from cts_dataset.data import CORPUS_NAME, DATASET_NAME
from cts_dataset.hf.folders import export

VERIFY_SNIPPET = (
    "import datasets, sys\n"
    "for name in sys.argv[1:]:\n"
    "    d = datasets.load_dataset(name)\n"
    "    print(name, {s: d[s].num_rows for s in d})\n"
)


def datasets_cache_root() -> Path:
    """Where `datasets` keeps prepared data (honours HF_DATASETS_CACHE and HF_HOME)."""
    from datasets import config

    return Path(config.HF_DATASETS_CACHE)


def _prune_older(name: str, keep: Path) -> int:
    """Remove cached versions of ``name`` other than ``keep``; returns how many went."""
    version_dir = keep.parent
    removed = 0
    for entry in version_dir.iterdir():
        if entry.is_dir() and entry != keep:
            shutil.rmtree(entry, ignore_errors=True)
            removed += 1
    return removed


def install(verify: bool = True) -> dict[str, dict[str, int]]:
    """Prepare both datasets in the local cache; returns rows per split of each, as loaded offline."""
    from datasets import load_dataset

    counts: dict[str, dict[str, int]] = {}
    with tempfile.TemporaryDirectory(prefix="ctsbench-hub-") as scratch:
        folders = export(Path(scratch))
        for name, folder in folders.items():
            loaded = load_dataset(str(folder))
            first_split = next(iter(loaded.values()))
            cache_dir = Path(first_split.cache_files[0]["filename"]).parent
            _prune_older(name, cache_dir)
            counts[name] = {split: ds.num_rows for split, ds in loaded.items()}
    if verify:
        verify_offline()
    return counts


def verify_offline() -> str:
    """Load both bare names in a fresh offline process from a neutral directory; raise if that fails."""
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1"}
    with tempfile.TemporaryDirectory(prefix="ctsbench-verify-") as neutral:
        result = subprocess.run(
            [sys.executable, "-c", VERIFY_SNIPPET, DATASET_NAME, CORPUS_NAME],
            cwd=neutral, env=env, capture_output=True, text=True,
        )
    if result.returncode != 0:
        raise RuntimeError(f"offline load by bare name failed after install:\n{result.stderr[-2000:]}")
    return result.stdout
