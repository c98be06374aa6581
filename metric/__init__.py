"""The `evaluate` metric module folder(s); installed as ``cts_dataset.metric``."""

from pathlib import Path


def metric_path(name: str = "restore_score") -> str:
    """The folder of a shipped evaluate module: ``evaluate.load(cts_dataset.metric_path())``."""
    folder = Path(__file__).resolve().parent / name
    if not (folder / f"{name}.py").is_file():
        raise FileNotFoundError(f"no evaluate module {name!r} in {folder.parent}")
    return str(folder)
