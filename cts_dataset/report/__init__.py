"""Comparing runs: a run folder as a DataFrame (``load_run``, ``export``), a leaderboard over runs of one
protocol with paired tests, PNG plots and a self-contained HTML report page (``ctsbench report``).

pandas and matplotlib come with the ``report`` extra; nothing here is imported by ``import cts_dataset``.
"""

from cts_dataset.report.frame import COLUMNS, condition_means, export, load_run

__all__ = ["COLUMNS", "condition_means", "export", "load_run"]
