"""The report's figures (matplotlib, PNG): score vs budget with CI bands and the baseline/oracle lines,
unknown rate by question type, all-unknown rate vs k, elicitation by constraint type, and the
distribution of per-instance restoration rates (the marker: the run's restoration rate, a ratio of mean gains).

Each function returns a Figure (or None when the runs hold no data for it) so its axes can be checked
before it is saved; figures are built without pyplot, so nothing depends on a display.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    from cts_dataset.report.leaderboard import Leaderboard, RunInfo

SIZE = (8.0, 4.5)  # inches
DPI = 100  # 800 x 450 pixels: readable in a README and on a laptop screen


def _figure(columns: int = 1) -> tuple[Figure, list[Axes]]:
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    figure = Figure(figsize=SIZE, dpi=DPI, layout="constrained")
    axes = figure.subplots(1, columns, sharey=True, squeeze=False)[0]
    for ax in axes:
        ax.grid(axis="y", alpha=0.3)
        ax.set_axisbelow(True)
    return figure, list(axes)


def _legend(figure: Figure) -> None:
    """One legend below the axes: inside them it would hide a line or a bar at 100%."""
    handles, labels = figure.axes[0].get_legend_handles_labels()
    figure.legend(handles, labels, loc="outside lower center", ncols=min(4, len(labels)), fontsize=8, frameon=False)


def _color(index: int) -> str:
    from matplotlib import colormaps

    return colormaps["tab10"](index % 10)


def _wrap(name: str, width: int = 20) -> str:
    """A name on lines of about ``width`` characters, broken after ``:`` or ``/`` where it can be."""
    import re

    lines = [""]
    for piece in re.findall(r"[^:/]+[:/]?|[:/]", name):
        if lines[-1] and len(lines[-1]) + len(piece) > width:
            lines.append("")
        lines[-1] += piece
    return "\n".join(line for chunk in lines for line in textwrap.wrap(chunk, width) or [chunk])


def _pct(value: Any) -> float:
    return float("nan") if value is None else 100.0 * float(value)


def _get(mapping: Any, *path: str) -> Any:
    for key in path:
        if not isinstance(mapping, dict):
            return None
        mapping = mapping.get(key)
    return mapping


def _common_budget(runs: Sequence[RunInfo]) -> int | None:
    """The largest k every run has (the budget the distribution plots compare at)."""
    shared = set.intersection(*(set(r.budgets) for r in runs)) if runs else set()
    return max(shared) if shared else None


def _bars(ax: Axes, runs: Sequence[RunInfo], groups: Sequence[str], values: list[list[float]],
          counts: list[list[int | None]] | None = None) -> None:
    """Bars per group (x) and run (colour), with the count each bar stands on written above it."""
    width = 0.8 / max(len(runs), 1)
    for i, run in enumerate(runs):
        xs = [g + (i - (len(runs) - 1) / 2) * width for g in range(len(groups))]
        bars = ax.bar(xs, values[i], width, color=_color(i), label=run.name)
        if counts is not None:
            shown = [f"n={c}" if c else "" for c in counts[i]]
            ax.bar_label(bars, labels=shown, fontsize=7, padding=2)
            for x, c in zip(xs, counts[i], strict=True):
                if not c:  # no bar: say why, so a gap does not read as 0%
                    ax.text(x, 1, "not asked", rotation=90, ha="center", va="bottom", fontsize=7, color="0.4")
    ax.set_xticks(range(len(groups)), groups)


def score_vs_budget(board: Leaderboard) -> Figure | None:
    runs = [r for r in board.runs if r.budgets]
    if not runs:
        return None
    figure, (ax,) = _figure()
    reference = board.runs[0]
    top = max(k for r in runs for k in r.budgets)
    for label, style, name in (("baseline", "--", "baseline (blurred query)"), ("oracle", ":", "oracle (hidden intent)")):
        mean = _get(reference.condition(label), "restore_score_100", "mean")
        if mean is not None:
            ax.axhline(mean, color="0.35", linestyle=style, linewidth=1.4, label=f"{name}: {mean:.1f}")
    for i, run in enumerate(runs):
        base = run.condition("baseline").get("restore_score_100") or {}
        points = [(0, base)] if base.get("mean") is not None else []
        points += [(k, run.condition(f"clarify@{k}").get("restore_score_100") or {}) for k in run.budgets]
        ks = [k for k, _ in points]
        means = [_nan(p.get("mean")) for _, p in points]
        low = [_nan(p.get("low"), p.get("mean")) for _, p in points]
        high = [_nan(p.get("high"), p.get("mean")) for _, p in points]
        ax.plot(ks, means, marker="o", color=_color(i), linewidth=2, label=run.name)
        ax.fill_between(ks, low, high, color=_color(i), alpha=0.15, linewidth=0)
    ax.set_xticks(range(top + 1), ["0\n(baseline)", *[str(k) for k in range(1, top + 1)]])
    ax.set_xlim(-0.15, top + 0.15)
    ax.set_xlabel("clarification budget k (questions allowed)")
    ax.set_ylabel("restore_score_100 (weighted nugget recall, 0-100)")
    ax.set_title("Score vs budget (bands: 95% bootstrap CI over instances)")
    _legend(figure)
    return figure


def _nan(value: Any, fallback: Any = None) -> float:
    chosen = value if value is not None else fallback
    return float("nan") if chosen is None else float(chosen)


def unknown_by_question_type(board: Leaderboard) -> Figure | None:
    from cts_dataset.diagnostics import QUESTION_TYPES

    per_run = [_get(r.diagnostics, "question_types", "per_type") or {} for r in board.runs]
    kinds = [k for k in QUESTION_TYPES if any((_get(p, k, "asked") or 0) > 0 for p in per_run)]
    if not kinds:
        return None
    figure, (ax,) = _figure()
    _bars(ax, board.runs, kinds, [[_pct(_get(p, k, "unknown_rate")) for k in kinds] for p in per_run],
          [[_get(p, k, "asked") for k in kinds] for p in per_run])
    ax.set_ylim(0, 110)
    ax.set_xlabel("question type (rule classifier); n = questions of that type asked")
    ax.set_ylabel("unknown answers (% of questions)")
    ax.set_title("Unknown rate by question type")
    _legend(figure)
    return figure


def all_unknown_vs_budget(board: Leaderboard) -> Figure | None:
    curves = [(r, _get(r.summary, "dialogue", "all_unknown_rate_at_k") or {}) for r in board.runs]
    if not any(curves[i][1] for i in range(len(curves))):
        return None
    figure, (ax,) = _figure()
    top = 1
    for i, (run, curve) in enumerate(curves):
        ks = sorted(int(k) for k in curve)
        if ks:
            top = max(top, ks[-1])
            ax.plot(ks, [_pct(curve[str(k)]) for k in ks], marker="o", linewidth=2, color=_color(i), label=run.name)
    ax.set_xticks(range(1, top + 1))
    ax.set_ylim(-3, 103)
    ax.set_xlabel("clarification budget k (questions allowed)")
    ax.set_ylabel("dialogues with every answer unknown (%)")
    ax.set_title("All-unknown rate vs budget (lower is better)")
    _legend(figure)
    return figure


def elicitation_by_constraint_type(board: Leaderboard) -> Figure | None:
    k = _common_budget(board.runs)
    tables = [_get(r.diagnostics, "elicitation", "by_constraint_type") or {} for r in board.runs]
    if k is None or not any(tables):
        return None
    kinds = [t for t in tables[0] if any((_get(table, t, "instances") or 0) > 0 for table in tables)]
    if not kinds:
        return None
    figure, axes = _figure(columns=2)
    names = [f"{t} (n={_get(tables[0], t, 'instances')})" for t in kinds]
    for ax, measure, title in zip(axes, ("targeted_rate", "revealed_rate"),
                                  ("a question asked about it", "an answer revealed its value"), strict=True):
        _bars(ax, board.runs, names, [[_pct(_get(table, t, "at_k", str(k), measure)) for t in kinds] for table in tables])
        ax.set_title(f"...{title}", fontsize=10)
        ax.set_xlabel("removed constraint type (n = instances)")
        for tick in ax.get_xticklabels():  # slanted: seven types side by side would overlap
            tick.set(rotation=30, ha="right", rotation_mode="anchor", fontsize=8)
    axes[0].set_ylabel("dialogues (% of instances missing that type)")
    axes[0].set_ylim(0, 105)
    _legend(figure)
    figure.suptitle(f"Elicitation by constraint type at k={k}: dialogues in which...")
    return figure


def restoration_distribution(board: Leaderboard) -> Figure | None:
    k = _common_budget(board.runs)
    if k is None:
        return None
    entries = [_get(r.diagnostics, "utility", "restoration_rate", f"clarify@{k}") or {} for r in board.runs]
    values = [[float(v) for v in (e.get("per_instance") or {}).values()] for e in entries]
    if not any(values):
        return None
    figure, (ax,) = _figure()
    ax.axhline(0, color="0.35", linestyle="--", linewidth=1.2, label="0 = baseline")
    ax.axhline(1, color="0.35", linestyle=":", linewidth=1.2, label="1 = oracle")
    positions = list(range(1, len(values) + 1))
    shown = [v if v else [float("nan")] for v in values]
    boxes = ax.boxplot(shown, positions=positions, widths=0.5, showfliers=False, patch_artist=True)
    for i, patch in enumerate(boxes["boxes"]):
        patch.set(facecolor=_color(i), alpha=0.25)
    import numpy as np

    spread = np.random.default_rng(0)  # fixed jitter: the same figure on every run
    for i, found in enumerate(values):
        ax.scatter(positions[i] + spread.uniform(-0.15, 0.15, len(found)), found, s=14, color=_color(i), alpha=0.8,
                   zorder=3)
        if entries[i].get("mean") is not None:  # the ratio of mean gains, not the mean of these ratios
            ax.plot(positions[i], float(entries[i]["mean"]), marker="D", color="black", markersize=6, zorder=4,
                    label="restoration rate (ratio of mean gains)" if i == 0 else None)
    ax.set_xticks(positions, [f"{_wrap(r.name)}\n(n={e.get('defined', 0)})" for r, e in zip(board.runs, entries, strict=True)])
    ax.set_xlabel("clarifier (n = instances where the oracle beats the baseline)")
    ax.set_ylabel(f"restoration rate at k={k}\n(clarify - baseline) / (oracle - baseline)")
    ax.set_title(f"Per-instance restoration of the oracle's headroom at k={k}")
    _legend(figure)
    return figure


# name -> (builder, what it shows): the report page and the README use the same names.
PLOTS = {
    "score_vs_budget": (score_vs_budget, "restore_score_100 vs budget k per clarifier, 95% CI bands, baseline and oracle lines"),
    "unknown_by_question_type": (unknown_by_question_type, "share of unknown answers per question type"),
    "all_unknown_vs_budget": (all_unknown_vs_budget, "share of dialogues whose every answer was unknown, per k"),
    "elicitation_by_constraint_type": (elicitation_by_constraint_type,
                                       "per removed constraint type: asked about, and value revealed"),
    "restoration_distribution": (restoration_distribution, "per-instance restoration rates at the largest shared k"),
}


def figures(board: Leaderboard) -> dict[str, Figure]:
    """Every figure the runs have data for, by name."""
    made = {name: build(board) for name, (build, _) in PLOTS.items()}
    return {name: figure for name, figure in made.items() if figure is not None}


def write_plots(board: Leaderboard, folder: Path) -> dict[str, Path]:
    folder.mkdir(parents=True, exist_ok=True)
    paths = {}
    for name, figure in figures(board).items():
        paths[name] = folder / f"{name}.png"
        figure.savefig(paths[name], dpi=DPI)
    return paths
