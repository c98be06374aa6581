"""``ctsbench report`` as a function: the leaderboard files, the plots and the report page of some runs."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from cts_dataset.report.leaderboard import Leaderboard


def write_report(folders: Sequence[Path], out: Path, allow_mixed: bool = False,
                 page: bool = True) -> tuple[Leaderboard, dict[str, Path]]:
    """leaderboard.{md,csv,json}, comparisons.csv, plots/*.png and report.html under ``out``."""
    from cts_dataset.report import leaderboard
    from cts_dataset.report.html import write_html
    from cts_dataset.report.plots import write_plots

    board = leaderboard.build([Path(f) for f in folders], allow_mixed=allow_mixed)
    paths = leaderboard.write(board, Path(out))
    plots = write_plots(board, Path(out) / "plots")
    paths.update({f"plot:{name}": path for name, path in plots.items()})
    if page:
        paths["html"] = write_html(board, plots, Path(out) / "report.html")
    return board, paths
