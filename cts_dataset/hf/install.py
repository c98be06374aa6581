"""Make the bare names ``load_dataset("ctsbench")``, ``load_dataset("ctsbench-corpus")`` and
``evaluate.load("restore_score")`` work offline.

`datasets` answers a bare name offline from its prepared-data cache
(``$HF_HOME/datasets/<name>/default/0.0.0/<hash>/``), which one load of a folder *named* like the
dataset fills. So we export both folders to a scratch directory, load each once, and drop the cache
entries of older data versions so the newest is the only one. `evaluate` answers a bare metric name
offline from its module cache (``$HF_MODULES_CACHE/evaluate_modules/metrics/evaluate-metric--<name>/<sha256>/``,
an ``__init__.py`` at every level): we copy the shipped module there, replacing older copies.
"""

from __future__ import annotations

import hashlib
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
METRIC_NAME = "restore_score"
METRIC_VERIFY_SNIPPET = "import evaluate, sys\nprint(evaluate.load(sys.argv[1]).name)\n"


def datasets_cache_root() -> Path:
    """Where `datasets` keeps prepared data (honours HF_DATASETS_CACHE and HF_HOME)."""
    from datasets import config

    return Path(config.HF_DATASETS_CACHE)


def _prune_older(keep: Path) -> int:
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
            _prune_older(cache_dir)
            counts[name] = {split: ds.num_rows for split, ds in loaded.items()}
    install_metric()
    if verify:
        verify_offline()
    return counts


def install_metric(name: str = METRIC_NAME) -> Path:
    """Copy the shipped evaluate module into evaluate's module cache; returns the module file's new path."""
    from evaluate.loading import init_dynamic_modules

    from cts_dataset.metric import metric_path

    source = Path(metric_path(name))
    script = source / f"{name}.py"
    digest = hashlib.sha256(b"".join(p.read_bytes() for p in sorted(source.iterdir()) if p.is_file())).hexdigest()
    metrics = Path(init_dynamic_modules()) / "metrics"
    family = metrics / f"evaluate-metric--{name}"
    target = family / digest
    target.mkdir(parents=True, exist_ok=True)
    for folder in (metrics, family, target):
        (folder / "__init__.py").touch()
    for file in (script, source / "README.md"):
        if file.is_file():
            shutil.copy2(file, target / file.name)
    os.utime(target / script.name)  # evaluate picks the newest copy by the script's mtime
    _prune_older(target)
    return target / script.name


def verify_offline() -> str:
    """Load the bare dataset and metric names in fresh offline processes from a neutral directory."""
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1"}
    with tempfile.TemporaryDirectory(prefix="ctsbench-verify-") as neutral:
        result = subprocess.run(
            [sys.executable, "-c", VERIFY_SNIPPET, DATASET_NAME, CORPUS_NAME],
            cwd=neutral, env=env, capture_output=True, text=True, check=False,
        )
        metric = subprocess.run(
            [sys.executable, "-c", METRIC_VERIFY_SNIPPET, METRIC_NAME],
            cwd=neutral, env={**env, "HF_EVALUATE_OFFLINE": "1"}, capture_output=True, text=True, check=False,
        )
    for outcome in (result, metric):
        if outcome.returncode != 0:
            raise RuntimeError(f"offline load by bare name failed after install:\n{outcome.stderr[-2000:]}")
    return result.stdout + metric.stdout


def install_folder(folder: Path, verify: bool = True) -> dict[str, int]:
    """Prepare one dataset folder in the local cache so that its folder name, as a bare dataset name, loads
    offline from any directory (used for imported splits: ``ctsbench-hard518``); returns rows per split.

    The folder must be named as the dataset: `datasets` names the cache entry after it. The cache key of a
    local folder does not follow its data (a re-import of other rows reuses the old entry), so the folder is
    always prepared afresh; older cached versions of that name are dropped."""
    from datasets import load_dataset

    loaded = load_dataset(str(folder), download_mode="force_redownload")
    first_split = next(iter(loaded.values()))
    _prune_older(Path(first_split.cache_files[0]["filename"]).parent)
    if verify:
        verify_names_offline([folder.name])
    return {split: ds.num_rows for split, ds in loaded.items()}


def verify_names_offline(names: list[str]) -> str:
    """Load each bare dataset name in a fresh offline process from a neutral directory; its output."""
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1"}
    with tempfile.TemporaryDirectory(prefix="ctsbench-verify-") as neutral:
        result = subprocess.run([sys.executable, "-c", VERIFY_SNIPPET, *names], cwd=neutral, env=env,
                                capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise RuntimeError(f"offline load by bare name failed after install:\n{result.stderr[-2000:]}")
    return result.stdout
